/**
 * The file stage of the harvest: hash every transcript, skip the ones the ledger knows, read the
 * rest and harvest their sessions. Each file is one task (parallel/file-task.ts: read once,
 * hashed, read on unless the ledger knows it), run on worker threads while this thread waits, or
 * on this thread when there are few; either way outcomes are consumed in file order by the same
 * code, so the result (candidates, ledger, warnings, counts) is the same to the byte.
 */
import { statSync } from 'node:fs';
import type { LedgerSession } from '../knowledge/ledger.js';
import type { ReadWarning, SessionFormat } from '../sessions/model.js';
import { walkInputs } from '../sessions/walk.js';
import { legacyAlgorithms, notTranscriptNote, notTranscriptWarning, pathKey, sameStat, type FileStat, type HashRecord } from './file-hash.js';
import { RACY_MS } from '../knowledge/cache-dir.js';
import type { PhaseClock } from '../core/phase-clock.js';
import { VERSION } from '../core/version.js';
import type { ExtractFn, FileHarvest, SessionContext } from './file-sessions.js';
import type { ReadOutcome } from './parallel/file-task.js';
import { spawnPool, type RunningPool, type SpawnedPool } from './parallel/pool.js';
import type { FileOutcome, FileTask, WorkerSetup } from './parallel/protocol.js';

export interface HarvestFilesOptions {
  /** Content hashes in the ledger (files and sessions): a file with one of them is not read. */
  knownHashes: ReadonlySet<string>;
  context: SessionContext;
  /** The hash cache as read (see file-hash.ts). */
  hashCache: ReadonlyMap<string, HashRecord>;
  format?: SessionFormat;
  getExtract: () => Promise<ExtractFn>;
  /** Threads to use for this many files to hash or read (1: this thread only). Workers run
   * the built-in extractor. */
  workers: (work: number) => number;
  /** Each read file's harvest, in file order (candidates are not kept in the result). */
  onFile: (h: FileHarvest) => void;
  /** Each file's harvest from a worker as it arrives, before onFile gets it (not in file order):
   * for work that does not depend on the order, done while this thread would wait. */
  onArrive?: (h: FileHarvest) => void;
  onWarning?: (w: ReadWarning) => void;
  onProgress?: (done: number, total: number) => void;
  /** Marks the stat pass and the workers' first and last answers. */
  clock?: PhaseClock;
}

export interface FilesHarvest {
  filesSkipped: number;
  filesFailed: number;
  warnings: number;
  sessions: number;
  sessionsSkipped: number;
  /** Sessions the extractor left for the next run. */
  sessionsPending: number;
  redactions: number;
  candidates: number;
  ledgerUpdates: LedgerSession[];
  /** Content hashes for the ledger's files, in file order: of the files read, and of the files
   * it knew by their old hash only (see file-hash.ts). */
  filesRead: string[];
  /** The hash cache to write. */
  nextHashCache: Map<string, HashRecord>;
  /** How many times a record read from the cache was set in it again, as it was, and how many
   * times a new record was set (see unchangedCache). */
  cacheReused: number;
  cacheMade: number;
}

/** A walked file after the stat pass: its cache key and stat, and its hash when the cache knew it.
 * Only the few stat fields needed are kept: tens of thousands of Stats objects weigh megabytes. */
interface Statted {
  file: string;
  /** The cache key (pathKey), when the stat pass looked the file up in the cache. */
  key?: string;
  /** Undefined when the file could not be stat'ed. */
  st?: FileStat;
  /** A regular file (not a directory reached through a symlink, say). */
  plain?: boolean;
  hash?: string;
  /** The cache's record when it still holds: it is remembered again as it is. */
  cached?: HashRecord;
  /** The warning of a file this version of compound found to be no transcript, with the same
   * stat since: it is given again without reading the file (see notTranscriptWarning). */
  notTranscript?: string;
}

function newResult(): FilesHarvest {
  return { filesSkipped: 0, filesFailed: 0, warnings: 0, sessions: 0, sessionsSkipped: 0, sessionsPending: 0, redactions: 0, candidates: 0, ledgerUpdates: [], filesRead: [], nextHashCache: new Map(), cacheReused: 0, cacheMade: 0 };
}

function addFile(out: FilesHarvest, ok: boolean, hash: string, h: FileHarvest, options: HarvestFilesOptions): void {
  // a file with a session left pending is not known as harvested: the next run reads it again
  if (ok && hash && !h.pending) out.filesRead.push(hash);
  out.sessions += h.sessions;
  out.sessionsPending += h.pending ?? 0;
  out.sessionsSkipped += h.sessionsSkipped;
  out.redactions += h.redactions;
  out.candidates += h.candidates.length;
  for (const l of h.ledger) out.ledgerUpdates.push(l);
  options.onFile(h);
}

/** Stats every file and takes its hash from the cache when the stat is unchanged. */
function statAll(files: readonly string[], cache: ReadonlyMap<string, HashRecord>): Statted[] {
  return files.map((file) => {
    try {
      const stats = statSync(file);
      const st: FileStat = { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
      const plain = stats.isFile();
      // Without a cache (a first harvest) the key is made later, as the file's outcome arrives
      // (see arrived) or when its hash is remembered: hashing 22,000 paths here made the stat
      // pass, which the workers' first files wait for, about 100 ms longer (200-360 ms against
      // 105-220 ms over the 1 GB corpus; the workers were still loading their modules at its end
      // either way, so their first file came no earlier there).
      if (cache.size === 0) return { file, st, plain };
      const key = pathKey(file);
      const known = cache.get(key);
      if (!known || !sameStat(known, st)) return { file, key, st, plain };
      const notTranscript = notTranscriptWarning(known, VERSION);
      return notTranscript === undefined ? { file, key, st, plain, hash: known.hash, cached: known } : { file, key, st, plain, hash: known.hash, cached: known, notTranscript };
    } catch {
      return { file }; // the reader reports it with a proper warning
    }
  });
}

/**
 * The workers a first harvest (no hash cache: every file is work) of `found` files would start,
 * started now; undefined when it would start none. The harvest calls it from the walk, as soon
 * as the walk has found enough files to decide, so that the workers load the readers and the
 * extractor while this thread walks and stats: started after the walk, over the 1 GB bench
 * corpus's 21,891 files, they were ready about 0.13 s after the stat pass had ended.
 */
export function startWorkers(found: number, options: HarvestFilesOptions): SpawnedPool | undefined {
  const size = Math.min(options.workers(found), found);
  return size > 1 ? spawnPool(size, workerSetup(options)) : undefined;
}

/** `started`: the pool startWorkers made during the walk, if any (this then owns it). */
export async function harvestFiles(files: readonly string[], options: HarvestFilesOptions, started?: SpawnedPool): Promise<FilesHarvest> {
  const trustBefore = Date.now() - RACY_MS;
  // Without a hash cache (a first harvest) every file is work: the workers start now, unless
  // they did during the walk, and load the readers and the extractor while this thread stats.
  let pool = started ?? (options.hashCache.size === 0 ? startWorkers(files.length, options) : undefined);
  try {
    const statted = statAll(files, options.hashCache);
    options.clock?.mark('stat');
    // Files for the workers: every one whose hash is still to compute, or known but not in the ledger.
    // (a file known to be no transcript is read again only when --format forces a reader on it)
    const work = statted.filter((s) => s.st && !(s.hash !== undefined && options.knownHashes.has(s.hash)) && (s.notTranscript === undefined || options.format !== undefined));
    if (!pool) {
      const workers = Math.min(options.workers(work.length), work.length);
      if (workers > 1) pool = spawnPool(workers, workerSetup(options));
    }
    const tasks: FileTask[] = work.map((s, index) => ({ index, file: s.file, ...(s.hash !== undefined ? { hash: s.hash } : {}) }));
    const onDone = options.onProgress ? (done: number) => options.onProgress!(done, tasks.length) : undefined;
    let answers = 0;
    const onArrive = (o: FileOutcome): void => {
      answers++;
      if (answers === 1) options.clock?.mark('first file answered');
      if (answers === tasks.length) options.clock?.mark('last file answered');
      arrived(work[o.index]!, o, options);
    };
    const running = pool ? pool.run(tasks, onDone, work.map((s) => s.st?.size ?? 0), onArrive) : runHere(tasks, options, onDone);
    return await takeOutcomes(statted, work, running, trustBefore, options);
  } finally {
    // Not awaited: tearing down a worker's heap took about 0.2 s after a 1 GB harvest, which
    // this thread spent idle; it now runs on the other core while this one merges and writes.
    // (Every outcome is in by now, or the harvest failed; the process still waits for the exit.)
    void pool?.close();
  }
}

/** What can be done with a worker's outcome before its turn: its hash cache key (the stat pass
 * leaves it out without a cache) and the caller's onArrive. */
function arrived(s: Statted, o: FileOutcome, options: HarvestFilesOptions): void {
  if (s.st) s.key ??= pathKey(s.file);
  if (o.kind === 'read') options.onArrive?.(o.harvest);
}

/**
 * The pool's interface on this thread: a task runs when its outcome is first asked for, which
 * takeOutcomes does in file order, so one transcript is held at a time (outcomes are kept, as
 * the pool keeps them). The readers and the extractor load with the first task: a rerun with
 * nothing to read never loads them.
 */
function runHere(tasks: readonly FileTask[], options: HarvestFilesOptions, onDone?: (done: number) => void): RunningPool {
  const outcomes: Promise<FileOutcome>[] = [];
  const legacy = legacyAlgorithms(options.knownHashes);
  let last: Promise<unknown> = Promise.resolve();
  let done = 0;
  const run = async (task: FileTask): Promise<FileOutcome> => {
    const { runFileTask } = await import('./parallel/file-task.js');
    const o = await runFileTask(task, options.knownHashes, legacy, options.context, options.format, options.getExtract);
    onDone?.(++done);
    return o;
  };
  return {
    outcome(index: number): Promise<FileOutcome> {
      // tasks before `index` first, one at a time: outcomes are the same whatever the asking order
      for (let k = outcomes.length; k <= index; k++) {
        const task = tasks[k]!;
        const o = last.then(() => run(task));
        o.catch(() => {}); // reported once, through the outcome the caller awaits
        outcomes.push(o);
        last = o;
      }
      return outcomes[index]!;
    },
  };
}

function workerSetup(options: HarvestFilesOptions): WorkerSetup {
  const { context } = options;
  return {
    knownHashes: [...options.knownHashes],
    eventsSeen: [...context.eventsSeen],
    repoAliases: context.repoAliases,
    ...(context.repo ? { repo: context.repo } : {}),
    redactUsers: [...context.redactUsers],
    ...(context.maxLineBytes ? { maxLineBytes: context.maxLineBytes } : {}),
    ...(options.format ? { format: options.format } : {}),
  };
}

/** Remembers a hash (and `note`, see HashRecord.notTranscript) in the next cache unless the
 * file changed too recently to trust its stat. */
function remember(out: FilesHarvest, s: Statted, hash: string, trustBefore: number, note?: string): void {
  if (s.st && s.st.mtimeMs < trustBefore && s.st.ctimeMs < trustBefore) {
    const key = s.key ?? pathKey(s.file);
    if (s.cached !== undefined && s.cached.hash === hash && s.cached.notTranscript === note) {
      out.nextHashCache.set(key, s.cached); // (no new record: a rerun keeps tens of thousands)
      out.cacheReused++;
      return;
    }
    const record: HashRecord = { size: s.st.size, mtimeMs: s.st.mtimeMs, ctimeMs: s.st.ctimeMs, ino: s.st.ino, hash };
    if (note !== undefined) record.notTranscript = note;
    out.nextHashCache.set(key, record);
    out.cacheMade++;
  }
}

/** The note to remember for a file read now: set when detection found it no transcript. Its
 * one warning is detection's fixed text (no path, nothing from the file). */
function noteOf(outcome: FileOutcome | undefined): string | undefined {
  if (outcome?.kind !== 'read' || !outcome.notTranscript || outcome.warnings.length !== 1) return undefined;
  return notTranscriptNote(VERSION, outcome.warnings[0]!.message);
}

const NOTHING_HARVESTED: FileHarvest = { sessions: 0, sessionsSkipped: 0, redactions: 0, candidates: [], ledger: [] };

/**
 * Takes the task outcomes (task i is work[i]) in file order, as they arrive. When some file is
 * not a plain file (it could not be stat'ed, or is a directory), the files to read are walked
 * again as forEachSessionFile would, after all answers are in; a file no task read is then read
 * here.
 */
async function takeOutcomes(statted: readonly Statted[], work: readonly Statted[], pool: RunningPool, trustBefore: number, options: HarvestFilesOptions): Promise<FilesHarvest> {
  const out = newResult();
  const { context } = options;
  const taskOf = new Map<string, number>(work.map((s, index) => [s.file, index]));
  // The walk of a plain file is that file, so then files are taken in order as answers come.
  const plain = statted.every((s) => s.plain);
  const warn = (w: ReadWarning): void => {
    out.warnings++;
    options.onWarning?.(w);
  };
  const take = (read: ReadOutcome, hash: string): void => {
    read.warnings.forEach(warn);
    read.harvest.warnings?.forEach(warn);
    if (!read.ok) out.filesFailed++;
    addFile(out, read.ok, hash, read.harvest, options);
  };
  /** What reading a file known to be no transcript would give: its one warning, an unreadable
   * file, nothing harvested. */
  const takeNoted = (file: string, message: string, hash: string): void => take({ ok: false, warnings: [{ file, message }], harvest: NOTHING_HARVESTED }, hash);
  const noted = new Map<string, string>();
  const hashes = new Map<string, string>();
  const toRead: string[] = [];
  for (const s of statted) {
    const task = taskOf.get(s.file);
    const outcome = task === undefined ? undefined : await pool.outcome(task);
    const hash = s.hash ?? (outcome && outcome.kind !== 'failed' ? outcome.hash : null);
    // no task: the cache knows the file is no transcript (see the work filter)
    const skipped = task === undefined && s.notTranscript !== undefined && hash !== null && !options.knownHashes.has(hash);
    if (s.st && hash !== null) {
      remember(out, s, hash, trustBefore, skipped ? s.cached!.notTranscript : noteOf(outcome));
      if (!plain) hashes.set(s.file, hash); // (read only by the walk below)
      if (options.knownHashes.has(hash)) {
        out.filesSkipped++;
        continue;
      }
      if (outcome?.kind === 'known' && outcome.byLegacyHash) {
        out.filesSkipped++;
        out.filesRead.push(hash); // the ledger learns the file's new hash
        continue;
      }
    }
    if (skipped && plain) {
      takeNoted(s.file, s.notTranscript!, hash);
      continue;
    }
    if (skipped) noted.set(s.file, s.notTranscript!); // taken in walk order below
    // (in plain mode every file to read has an outcome: each task reads what it hashed)
    if (plain && outcome?.kind === 'read') take(outcome, hash ?? '');
    else toRead.push(s.file);
  }
  if (plain) return out;

  // As forEachSessionFile: walk the files to read, then each file's warnings and harvest in order.
  const { readAndHarvest } = await import('./parallel/file-task.js');
  const walked = await walkInputs(toRead, { subagents: false });
  walked.warnings.forEach(warn);
  for (const file of walked.files) {
    const hash = hashes.get(file) ?? '';
    const message = noted.get(file);
    if (message !== undefined) {
      takeNoted(file, message, hash);
      continue;
    }
    const task = taskOf.get(file);
    const outcome = task === undefined ? undefined : await pool.outcome(task);
    take(outcome?.kind === 'read' ? outcome : await readAndHarvest(file, hash, context, options.format, options.getExtract), hash);
  }
  return out;
}
