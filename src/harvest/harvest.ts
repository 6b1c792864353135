/**
 * The harvest pipeline: transcripts -> sessions -> candidates -> redacted -> merged -> a Plan.
 * Reading is streamed file by file (on worker threads when asked); a file whose content hash is
 * in the ledger is not parsed at all, and a session that grew is harvested for its new events only.
 */
import { availableParallelism } from 'node:os';
import type { ReadWarning, SessionFormat } from '../sessions/model.js';
import { walkInputs, type WalkResult } from '../sessions/walk.js';
import { loadStore, readLedger, type LoadedStore } from '../knowledge/store.js';
import { attachCacheFile, attachStore, makePlan, markIndexCurrent, storeStampHolds, type Plan } from '../knowledge/plan.js';
import type { Item } from '../knowledge/item.js';
import type { Problem } from '../knowledge/problem.js';
import { CandidateMerger, type MergeRecord } from './merge.js';
import { HASH_CACHE_FILE, OLD_HASH_CACHE_FILES, readHashCache, renderHashCache, unchangedCache, type HashRecord } from './file-hash.js';
import type { ExtractFn } from './file-sessions.js';
import { harvestFiles, startWorkers, type HarvestFilesOptions } from './harvest-files.js';
import type { SpawnedPool } from './parallel/pool.js';
import { splitHarvested, type HarvestedSplit } from './harvested-files.js';
import { RACY_MS } from '../knowledge/cache-dir.js';
import type { PhaseClock } from '../core/phase-clock.js';

export { HASH_CACHE_FILE, hashFile } from './file-hash.js';
export type { ExtractFn } from './file-sessions.js';

/** With `workers: 'auto'`, fewer files to hash or read than this are done on the main thread:
 * starting a worker (loading the readers and the extractor) costs more than they take. */
export const AUTO_PARALLEL_MIN_FILES = 32;

export interface HarvestOptions {
  root: string;
  inputs: readonly string[];
  /** The extractor, or `loadExtract` to load it only when some transcript is actually read.
   * Without either, the built-in extractor is loaded when needed. */
  extract?: ExtractFn;
  loadExtract?: () => Promise<ExtractFn>;
  /** Threads that hash, read and extract (default 1: this thread only). 'auto' is one per core
   * when there are at least AUTO_PARALLEL_MIN_FILES files to do. Workers always run the built-in
   * extractor, so this is ignored when `extract` or `loadExtract` is given. Same output either way. */
  workers?: number | 'auto';
  from?: readonly string[];
  format?: SessionFormat;
  /** Only the sampler's best N of the files not yet harvested as they are now (harvested-files.ts). */
  top?: number;
  repoAliases?: Record<string, string>;
  /** Repo for sessions whose transcript records none (and whose folder names none). */
  repo?: string;
  redactUsers?: readonly string[];
  /** Transcript lines longer than this are skipped with a warning (the readers' default when unset). */
  maxLineBytes?: number;
  onWarning?: (w: ReadWarning) => void;
  onProgress?: (done: number, total: number) => void;
  /** Marks the harvest's phases (prepare, walk, stat, the workers' first and last answers, the
   * merge of the files left, the plan). */
  clock?: PhaseClock;
  /** Trust the store stamp (see knowledge/store-stamp.ts; default true). Same result either way. */
  storeStamp?: boolean;
}

export interface HarvestStats {
  files: number;
  filesSkipped: number;
  filesFailed: number;
  sessions: number;
  sessionsSkipped: number;
  /** Sessions the extractor left for the next run (model harvest: a failed request, the cost cap). */
  sessionsPending: number;
  candidates: number;
  redactions: number;
  warnings: number;
}

export interface HarvestResult {
  plan: Plan;
  records: MergeRecord[];
  stats: HarvestStats;
  /** Problems in the existing store (invalid items are left alone, never rewritten). */
  storeProblems: Problem[];
}

/** How many threads for `work` files (1: none started). */
function workerCount(options: HarvestOptions, work: number): number {
  if (options.extract || options.loadExtract) return 1;
  const asked = options.workers ?? 1;
  if (asked === 'auto') return work >= AUTO_PARALLEL_MIN_FILES ? availableParallelism() : 1;
  return Math.max(1, Math.floor(asked));
}

/** The records of files this run did not read (with --top, the ones not chosen) go into the next
 * hash cache as they were, so that the next run still knows them by their stat. */
function keepRecords(next: Map<string, HashRecord>, records: ReadonlyMap<string, HashRecord>): void {
  for (const [key, record] of records) if (!next.has(key)) next.set(key, record);
}

export async function harvest(options: HarvestOptions): Promise<HarvestResult> {
  const ledger = readLedger(options.root);
  // While the store stamp holds, index.json is that of the items on disk, and the store is
  // parsed only when a candidate needs merging: a rerun that finds nothing new never does.
  const stamped = options.storeStamp !== false && storeStampHolds(options.root);
  let store: LoadedStore | undefined = stamped ? undefined : loadStore(options.root);
  let merger: CandidateMerger | undefined;
  /** Each file's candidates are merged as soon as the files before it are (file order). */
  const mergerNow = (): CandidateMerger => {
    if (!merger) {
      const loaded = (store ??= loadStore(options.root));
      const items = loaded.items;
      const existingIds = new Set(items.map((i) => i.meta.id));
      // an item file that does not load (invalid YAML, a bad field) is still there: not rejected
      const invalid = new Set(loaded.problems.map((p) => /-?([0-9a-f]{10})\.md$/.exec(p.file)?.[1]).filter((id): id is string => id !== undefined && !existingIds.has(id)));
      merger = new CandidateMerger(items, new Set(ledger.emitted.filter((id) => !existingIds.has(id) && !invalid.has(id))), invalid);
    }
    return merger;
  };

  // a path that does not exist, a glob that matches nothing: warned about like an unreadable file
  let walkWarnings = 0;
  const reportWalk = (warnings: readonly ReadWarning[]): void => {
    for (const w of warnings) {
      walkWarnings++;
      options.onWarning?.(w);
    }
  };
  const hashCache = readHashCache(options.root);
  // built entry by entry: spreads and [id, events] pairs were tens of thousands of temporary
  // arrays on every run
  const knownHashes = new Set(ledger.files);
  const eventsSeen = new Map<string, number>();
  for (const s of ledger.sessions) {
    knownHashes.add(s.hash);
    eventsSeen.set(s.id, s.events);
  }

  let inputs: readonly string[] = options.inputs;
  const walkOpts = { ...(options.from ? { from: options.from } : {}) };
  /** With --top: the files harvested before, as they are now, and the hash records of all. */
  let harvested: HarvestedSplit | undefined;
  if (options.top !== undefined) {
    const walked = await walkInputs(options.inputs, walkOpts);
    reportWalk(walked.warnings);
    // the N best of what is still to harvest (see harvested-files.ts)
    harvested = await splitHarvested(walked.files, hashCache.records, knownHashes, Date.now() - RACY_MS);
    // loaded only here: the sampler loads every reader, which a rerun over known files never needs
    const { sampleSessions } = await import('./sample.js');
    const rows = harvested.fresh.length === 0 ? [] : await sampleSessions(harvested.fresh, { count: options.top, ...(options.onWarning ? { onWarning: options.onWarning } : {}) });
    inputs = rows.map((r) => r.file).sort();
  }

  let extract = options.extract;
  const getExtract = async (): Promise<ExtractFn> => {
    extract ??= options.loadExtract ? await options.loadExtract() : (await import('./extract/index.js')).extractSession;
    return extract;
  };
  options.clock?.mark('prepare'); // the ledger, the caches, with --top the sampler
  const filesOptions: HarvestFilesOptions = {
    knownHashes,
    context: {
      eventsSeen,
      repoAliases: options.repoAliases ?? {},
      ...(options.repo ? { repo: options.repo } : {}),
      redactUsers: options.redactUsers ?? [],
      ...(options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {}),
    },
    hashCache: harvested ? harvested.records : hashCache.records,
    ...(options.format ? { format: options.format } : {}),
    getExtract,
    workers: (work) => workerCount(options, work),
    onFile: (h) => {
      for (const c of h.candidates) mergerNow().add(c);
    },
    onArrive: (h) => {
      for (const c of h.candidates) mergerNow().prepare(c.candidate);
    },
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  };
  // A first harvest (no hash cache; with --top the walk is done already) reads every file it
  // finds: its workers start as soon as the walk has found as many files as decide how many
  // (harvestFiles would start the same number after the walk; see startWorkers).
  let started: SpawnedPool | undefined;
  const most = workerCount(options, Number.MAX_SAFE_INTEGER);
  const decided = Math.max(AUTO_PARALLEL_MIN_FILES, most);
  const milestone = !harvested && hashCache.records.size === 0 && most > 1 ? { count: decided, then: () => (started = startWorkers(decided, filesOptions)) } : undefined;
  let walked: WalkResult;
  try {
    walked = await walkInputs(inputs, options.top !== undefined ? {} : walkOpts, milestone);
    reportWalk(walked.warnings);
  } catch (err) {
    void started?.close();
    throw err;
  }
  options.clock?.mark('walk');
  const files = await harvestFiles(walked.files, filesOptions, started);
  options.clock?.mark('files');
  // with --top, the files harvested before count as unchanged (a chosen Claude Code session's
  // walk may have brought some of them in again, as its subagents: those counted once)
  let knownLeftOut = 0;
  if (harvested) {
    keepRecords(files.nextHashCache, harvested.records);
    const read = new Set(walked.files);
    for (const f of harvested.known) if (!read.has(f)) knownLeftOut++;
  }
  const stats: HarvestStats = {
    files: walked.files.length + knownLeftOut,
    filesSkipped: files.filesSkipped + knownLeftOut,
    filesFailed: files.filesFailed,
    sessions: files.sessions,
    sessionsSkipped: files.sessionsSkipped,
    sessionsPending: files.sessionsPending,
    candidates: files.candidates,
    redactions: files.redactions,
    warnings: walkWarnings + files.warnings,
  };

  const merged = merger?.result() ?? { items: new Map<string, Item>(), records: [], created: [] };
  const reasons = new Map<string, string>();
  for (const r of merged.records) {
    if (r.outcome === 'reinforced') reasons.set(r.id, 'reinforced');
    else if (r.outcome === 'conflict') reasons.set(r.id, `conflicts with ${r.other}`);
    else if (r.outcome === 'added') reasons.set(r.id, r.candidate.quarantine ? `quarantined: ${r.candidate.quarantine}` : 'new');
  }
  // a session with a sighting of an invalid item stays pending: harvested again once it is fixed
  const waiting = new Set(merged.records.filter((r) => r.outcome === 'blocked').map((r) => r.origin.session));
  if (waiting.size > 0) {
    const held = new Set(files.ledgerUpdates.filter((s) => waiting.has(s.id)).map((s) => s.hash));
    files.ledgerUpdates = files.ledgerUpdates.filter((s) => !waiting.has(s.id));
    files.filesRead = files.filesRead.filter((h) => !held.has(h));
    stats.sessionsPending += waiting.size;
    for (const r of merged.records) if (r.outcome === 'blocked') options.onWarning?.({ file: r.origin.session, message: `a new sighting of item ${r.id}, whose file does not load, waits until the file is fixed (the session is harvested again then)` });
  }
  const plan = makePlan(store?.items ?? [], [...merged.items.values()], [], reasons);
  // Made, rendered and compared only when the harvest added to it: a rerun over tens of
  // thousands of known transcripts spent about 5% of its time rendering the ledger to find it
  // unchanged, and copying its lists (tens of thousands of entries) was more garbage to collect.
  if (files.ledgerUpdates.length > 0 || merged.created.length > 0 || files.filesRead.length > 0) {
    plan.ledger = {
      version: ledger.version,
      sessions: [...new Map([...ledger.sessions, ...files.ledgerUpdates].map((s) => [s.id, s])).values()],
      emitted: [...ledger.emitted, ...merged.created],
      files: [...ledger.files, ...files.filesRead],
    };
  }
  // applyPlan can then index from these items instead of re-reading every file
  if (store) attachStore(plan, store);
  else markIndexCurrent(plan); // (no candidate: the plan writes no item)
  // (with --top, a record harvestFiles reused may be one made by splitHarvested, not one read:
  // the next cache is then compared record by record)
  if (!unchangedCache(files.nextHashCache, hashCache, !harvested && files.cacheMade === 0 ? files.cacheReused : undefined)) {
    // rendered by applyPlan, last: tens of thousands of records, while the CLI builds the
    // search structure on another thread
    const next = files.nextHashCache;
    attachCacheFile(plan, HASH_CACHE_FILE, () => {
      const cacheText = renderHashCache(next);
      return cacheText !== hashCache.text ? cacheText : undefined;
    }, OLD_HASH_CACHE_FILES);
  }
  options.clock?.mark('plan');
  return { plan, records: merged.records, stats, storeProblems: store?.problems ?? [] };
}
