/**
 * Turns transcript inputs into SessionMeasures, reading as little as possible: a file whose size
 * and mtime match the cache is not opened; one whose content hash is cached is hashed but not
 * parsed; only new or grown files are parsed. The counters say which happened, so tests can
 * assert "nothing unchanged was read" without timing anything.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { ReadWarning } from '../sessions/model.js';
import { forEachSessionFile } from '../sessions/read.js';
import { walkInputs } from '../sessions/walk.js';
import { emptyCache, pathKey, type CacheEntry, type FileRecord, type MeasureCache } from './cache.js';
import { measureSession, verdictsCurrent, type ProbeLookup, type SessionMeasure } from './session-measure.js';

export interface CollectCounters {
  /** Transcript files found by the walk. */
  files: number;
  /** Files whose size and mtime matched the cache: not opened at all. */
  statHits: number;
  /** Files read to compute their content hash. */
  hashed: number;
  /** Files parsed into sessions (new, grown, or given items that changed since). */
  parsed: number;
  /** Files that could not be read. */
  failed: number;
  /** Sessions measured now. */
  sessionsMeasured: number;
  /** Sessions taken from the cache. */
  sessionsCached: number;
}

export interface CollectOptions {
  inputs: readonly string[];
  from?: readonly string[];
  cache: MeasureCache;
  probe: ProbeLookup;
  onWarning?: (w: ReadWarning) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface CollectResult {
  sessions: SessionMeasure[];
  /** The cache to write: records for the files walked now (others are dropped). */
  cache: MeasureCache;
  counters: CollectCounters;
  warnings: number;
}

/** Files up to this size are hashed from one read (twice as fast as a stream for small files). */
const WHOLE_FILE_HASH = 64 << 20;

/** SHA-256 of the file's bytes, first 128 bits: ample to tell contents apart, a smaller cache. */
async function hashFile(file: string, size: number): Promise<string> {
  const h = createHash('sha256');
  if (size <= WHOLE_FILE_HASH) h.update(readFileSync(file));
  else for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex').slice(0, 32);
}

export async function collectMeasures(options: CollectOptions): Promise<CollectResult> {
  const counters: CollectCounters = { files: 0, statHits: 0, hashed: 0, parsed: 0, failed: 0, sessionsMeasured: 0, sessionsCached: 0 };
  let warnings = 0;
  const warn = (w: ReadWarning): void => {
    warnings++;
    options.onWarning?.(w);
  };
  const walked = await walkInputs(options.inputs, options.from ? { from: options.from } : {});
  for (const w of walked.warnings) warn(w);
  const next = emptyCache();
  const sessions: SessionMeasure[] = [];
  const toRead: string[] = [];
  const pending = new Map<string, FileRecord>();

  for (const file of walked.files) {
    counters.files++;
    const full = resolve(file);
    const key = pathKey(full);
    let size: number;
    let mtime: number;
    try {
      const st = statSync(full); // sync: thousands of awaited stats cost far more than the calls
      size = st.size;
      mtime = Math.floor(st.mtimeMs);
    } catch {
      toRead.push(file); // the reader reports it with a proper warning
      continue;
    }
    const known = options.cache.files.get(key);
    let hash: string;
    if (known && known.size === size && known.mtime === mtime) {
      counters.statHits++;
      hash = known.hash;
    } else {
      try {
        hash = await hashFile(full, size);
      } catch {
        toRead.push(file);
        continue;
      }
      counters.hashed++;
    }
    // the very record read from the cache when nothing changed, so it is written back as read
    const record = known && known.size === size && known.mtime === mtime && known.hash === hash ? known : { key, size, mtime, hash };
    const entry = options.cache.entries.get(hash) ?? next.entries.get(hash);
    if (entry && entry.sessions.every((s) => verdictsCurrent(s, options.probe))) {
      next.files.set(key, record);
      if (!next.entries.has(hash)) {
        next.entries.set(hash, entry);
        sessions.push(...entry.sessions);
        counters.sessionsCached += entry.sessions.length;
      }
      continue;
    }
    pending.set(file, record);
    toRead.push(file);
  }

  await forEachSessionFile(toRead, { subagents: false, onWarning: warn, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }, (result) => {
    if (!result.ok) {
      counters.failed++;
      return;
    }
    counters.parsed++;
    const measured = result.sessions.map((s) => measureSession(s, options.probe));
    counters.sessionsMeasured += measured.length;
    const record = pending.get(result.file);
    if (!record) {
      sessions.push(...measured);
      return;
    }
    next.files.set(record.key, record);
    if (!next.entries.has(record.hash)) {
      const entry: CacheEntry = { hash: record.hash, sessions: measured };
      next.entries.set(record.hash, entry);
      sessions.push(...measured);
    }
  });
  return { sessions, cache: next, counters, warnings };
}
