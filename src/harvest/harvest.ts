/**
 * The harvest pipeline: transcripts -> sessions -> candidates -> redacted -> merged -> a Plan.
 * Reading is streamed file by file; a file whose content hash is in the ledger is not parsed
 * at all, and a session that grew is harvested for its new events only.
 */
import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { KNOWLEDGE_DIR } from '../knowledge/paths.js';
import { createHash, hash as hashOnce } from 'node:crypto';
import type { Session, ReadWarning, SessionFormat } from '../sessions/model.js';
import { forEachSessionFile } from '../sessions/read.js';
import { sampleSessions } from './sample.js';
import { walkInputs } from '../sessions/walk.js';
import { resolveRepo } from './repo-name.js';
import { loadStore, readLedger } from '../knowledge/store.js';
import { attachCacheFile, attachStore, makePlan, type Plan } from '../knowledge/plan.js';
import type { Ledger, LedgerSession } from '../knowledge/ledger.js';
import type { Problem } from '../knowledge/problem.js';
import type { Candidate } from './candidate.js';
import { redactCandidate, usersFromPath, type RedactionStats } from './redact-candidate.js';
import { mergeCandidates, type MergeRecord, type OriginCandidate } from './merge.js';
import { redact } from '../redact/index.js';

export type ExtractFn = (session: Session) => Candidate[];

export interface HarvestOptions {
  root: string;
  inputs: readonly string[];
  /** The extractor, or `loadExtract` to load it only when some transcript is actually read. */
  extract?: ExtractFn;
  loadExtract?: () => Promise<ExtractFn>;
  from?: readonly string[];
  format?: SessionFormat;
  /** Only the sampler's best N files. */
  top?: number;
  repoAliases?: Record<string, string>;
  /** Repo for sessions whose transcript records none (and whose folder names none). */
  repo?: string;
  redactUsers?: readonly string[];
  onWarning?: (w: ReadWarning) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface HarvestStats {
  files: number;
  filesSkipped: number;
  filesFailed: number;
  sessions: number;
  sessionsSkipped: number;
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

/** One read buffer for every file hashed (a stream allocated a fresh 1 MiB buffer per file). */
let hashBuffer: Buffer | undefined;

/**
 * SHA-256 of a file's bytes, read synchronously in 1 MiB pieces into one reused buffer: a small
 * transcript is one read, and thousands of files cost no stream set-up or buffer allocations.
 */
export async function hashFile(file: string): Promise<string> {
  const h = createHash('sha256');
  const buf = (hashBuffer ??= Buffer.allocUnsafe(1 << 20));
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(n === buf.length ? buf : buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/**
 * knowledge/.cache/ (git-ignored, skipped by the store walk) remembers each transcript's content
 * hash with the stat it had when hashed, so a rerun over thousands of unchanged transcripts
 * stats them instead of reading and hashing every byte again. Paths are kept only as hashes.
 * Written by applyPlan (not on --dry-run); deleting it only makes the next run hash everything.
 */
export const HASH_CACHE_FILE = `${KNOWLEDGE_DIR}/.cache/harvest-hashes-v1.json`;
/** A file changed this close to when it was hashed is not remembered (its mtime could hide a
 * later change within the same clock tick; git calls this "racily clean"). */
const RACY_MS = 2000;

interface HashRecord {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  hash: string;
}

function pathKey(file: string): string {
  return hashOnce('sha256', resolve(file), 'hex').slice(0, 32); // one-shot: cheaper than a Hash object per path
}

function sameStat(r: HashRecord, st: Stats): boolean {
  return r.size === st.size && r.mtimeMs === st.mtimeMs && r.ctimeMs === st.ctimeMs && r.ino === st.ino;
}

/** The cache and its text as read ('' when missing or unreadable: then nothing is trusted). */
function readHashCache(root: string): { records: Map<string, HashRecord>; text: string } {
  const records = new Map<string, HashRecord>();
  let text = '';
  try {
    text = readFileSync(join(root, ...HASH_CACHE_FILE.split('/')), 'utf8');
    const doc = JSON.parse(text) as { version?: unknown; files?: Record<string, unknown> };
    if (doc.version !== 1 || typeof doc.files !== 'object' || doc.files === null) return { records, text };
    for (const [key, v] of Object.entries(doc.files)) {
      if (!Array.isArray(v) || v.length !== 5) continue;
      const [size, mtimeMs, ctimeMs, ino, hash] = v as unknown[];
      if (typeof size === 'number' && typeof mtimeMs === 'number' && typeof ctimeMs === 'number' && typeof ino === 'number' && typeof hash === 'string') {
        records.set(key, { size, mtimeMs, ctimeMs, ino, hash });
      }
    }
  } catch {
    /* no cache yet, or a damaged one: hash everything */
  }
  return { records, text };
}

function renderHashCache(records: Map<string, HashRecord>): string {
  const keys = [...records.keys()].sort();
  const lines = keys.map((k) => {
    const r = records.get(k)!;
    return `    ${JSON.stringify(k)}: ${JSON.stringify([r.size, r.mtimeMs, r.ctimeMs, r.ino, r.hash])}`;
  });
  return `{\n  "version": 1,\n  "files": {\n${lines.join(',\n')}${lines.length ? '\n' : ''}  }\n}\n`;
}

/** Scrubbed id: transcript ids are UUIDs, but derived ones must not carry a user name. */
function safeSessionId(id: string, users: readonly string[]): string {
  return redact(id, { users }).text;
}

function eventTime(session: Session, index: number): string {
  return session.events[index]?.time ?? session.startedAt ?? session.endedAt ?? '1970-01-01T00:00:00Z';
}

export async function harvest(options: HarvestOptions): Promise<HarvestResult> {
  const store = loadStore(options.root);
  const ledger = readLedger(options.root);
  const knownHashes = new Set([...ledger.files, ...ledger.sessions.map((s) => s.hash)]);
  const ledgerById = new Map(ledger.sessions.map((s) => [s.id, s]));
  const existingIds = new Set(store.items.map((i) => i.meta.id));
  const rejected = new Set(ledger.emitted.filter((id) => !existingIds.has(id)));
  const aliases = options.repoAliases ?? {};
  const stats: HarvestStats = { files: 0, filesSkipped: 0, filesFailed: 0, sessions: 0, sessionsSkipped: 0, candidates: 0, redactions: 0, warnings: 0 };
  const redaction: RedactionStats = { findings: 0 };

  let inputs: readonly string[] = options.inputs;
  const walkOpts = { ...(options.from ? { from: options.from } : {}) };
  if (options.top !== undefined) {
    const walked = await walkInputs(options.inputs, walkOpts);
    const rows = await sampleSessions(walked.files, { count: options.top, ...(options.onWarning ? { onWarning: options.onWarning } : {}) });
    inputs = rows.map((r) => r.file).sort();
  }

  // Pre-pass: hash every file so unchanged ones are skipped without parsing. A file whose stat
  // matches the one it had when last hashed is not read again (see HASH_CACHE_FILE).
  const walked = await walkInputs(inputs, options.top !== undefined ? {} : walkOpts);
  const hashes = new Map<string, string>();
  const toRead: string[] = [];
  const hashCache = readHashCache(options.root);
  const nextHashCache = new Map<string, HashRecord>();
  const trustBefore = Date.now() - RACY_MS;
  for (const file of walked.files) {
    stats.files++;
    let hash: string;
    try {
      const st = statSync(file);
      const key = pathKey(file);
      const known = hashCache.records.get(key);
      hash = known && sameStat(known, st) ? known.hash : await hashFile(file);
      if (st.mtimeMs < trustBefore && st.ctimeMs < trustBefore) {
        nextHashCache.set(key, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, hash });
      }
    } catch {
      toRead.push(file); // let the reader report it with a proper warning
      continue;
    }
    hashes.set(file, hash);
    if (knownHashes.has(hash)) stats.filesSkipped++;
    else toRead.push(file);
  }

  const pending: OriginCandidate[] = [];
  let extract = options.extract;
  const getExtract = async (): Promise<ExtractFn> => {
    if (!extract) {
      if (!options.loadExtract) throw new Error('harvest needs `extract` or `loadExtract`');
      extract = await options.loadExtract();
    }
    return extract;
  };
  const ledgerUpdates: LedgerSession[] = [];
  const filesRead: string[] = [];
  const { summary } = await forEachSessionFile(
    toRead,
    { subagents: false, ...(options.format ? { format: options.format } : {}), ...(options.onWarning ? { onWarning: options.onWarning } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
    async (result) => {
      const hash = hashes.get(result.file) ?? '';
      if (result.ok && hash) filesRead.push(hash);
      for (const session of result.sessions) {
        stats.sessions++;
        const users = [...(options.redactUsers ?? []), ...usersFromPath(session.cwd), ...usersFromPath(result.file)];
        const id = safeSessionId(session.id, users);
        const seen = ledgerById.get(id);
        const from = seen ? seen.events : 0;
        if (seen && seen.events >= session.events.length) {
          stats.sessionsSkipped++; // already harvested, perhaps from another file
          continue;
        }
        const repo = resolveRepo(session.repo, result.file, { aliases, users, ...(options.repo ? { fallback: options.repo } : {}) });
        const scoped = { ...session, ...(repo ? { repo } : {}) } as Session;
        for (const raw of (await getExtract())(scoped)) {
          if (raw.evidence.event < from) continue; // grown session: new events only
          const c = redactCandidate(raw.scope === 'repo' && !raw.repo && repo ? { ...raw, repo } : raw, users, redaction);
          if (c.scope === 'repo' && !c.repo) continue; // a repo item needs its repo
          stats.candidates++;
          pending.push({ candidate: c, origin: { session: id, format: session.format, seen: eventTime(session, c.evidence.event) } });
        }
        ledgerUpdates.push({ id, format: session.format, hash, bytes: session.bytes, events: session.events.length, ...(session.endedAt ? { last_event: session.endedAt } : {}) });
      }
    },
  );
  stats.filesFailed = summary.filesFailed;
  stats.warnings = summary.warnings;
  stats.redactions = redaction.findings;

  const merged = mergeCandidates(store.items, pending, rejected);
  const reasons = new Map<string, string>();
  for (const r of merged.records) {
    if (r.outcome === 'reinforced') reasons.set(r.id, 'reinforced');
    else if (r.outcome === 'conflict') reasons.set(r.id, `conflicts with ${r.other}`);
    else if (r.outcome === 'added') reasons.set(r.id, 'new');
  }
  const nextLedger: Ledger = {
    version: ledger.version,
    sessions: [...new Map([...ledger.sessions, ...ledgerUpdates].map((s) => [s.id, s])).values()],
    emitted: [...ledger.emitted, ...merged.created],
    files: [...ledger.files, ...filesRead],
  };
  const plan = makePlan(store.items, [...merged.items.values()], [], reasons);
  plan.ledger = nextLedger;
  attachStore(plan, store); // applyPlan can then index from these items instead of re-reading every file
  const cacheText = renderHashCache(nextHashCache);
  if (cacheText !== hashCache.text) attachCacheFile(plan, HASH_CACHE_FILE, cacheText);
  return { plan, records: merged.records, stats, storeProblems: store.problems };
}
