/**
 * metrics/cache.json: per-session measurements keyed by the transcript file's content hash, plus
 * a stat index (hashed path, size, mtime -> content hash) so an unchanged file is neither parsed
 * nor even read. It lives in metrics/ beside the outputs it speeds up, not in knowledge/, which
 * holds only what reviewers review; deleting it only makes the next run cold. No paths, no text:
 * paths are hashed, sessions are the hash-only SessionMeasure. Sorted, one record per line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { SessionMeasure } from './session-measure.js';

/** Bump when what a SessionMeasure holds or how it is computed changes: old caches are ignored. */
export const CACHE_VERSION = 1;
export const CACHE_FILE = 'metrics/cache.json';

export interface FileRecord {
  /** Hash of the absolute path (a path can hold the user name). */
  key: string;
  size: number;
  mtime: number;
  hash: string;
}

export interface CacheEntry {
  /** SHA-256 of the transcript file's bytes. */
  hash: string;
  sessions: SessionMeasure[];
}

export interface MeasureCache {
  version: number;
  files: Map<string, FileRecord>;
  entries: Map<string, CacheEntry>;
}

export function emptyCache(): MeasureCache {
  return { version: CACHE_VERSION, files: new Map(), entries: new Map() };
}

export function pathKey(absPath: string): string {
  return createHash('sha256').update(absPath).digest('hex').slice(0, 16);
}

/** Reads the cache; a missing, unreadable or older-version cache is an empty one (it is only a cache). */
export function readCache(file: string): MeasureCache {
  if (!existsSync(file)) return emptyCache();
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; files?: unknown; entries?: unknown };
    if (raw.version !== CACHE_VERSION || !Array.isArray(raw.files) || !Array.isArray(raw.entries)) return emptyCache();
    const cache = emptyCache();
    for (const f of raw.files as FileRecord[]) if (f && typeof f.key === 'string' && typeof f.hash === 'string') cache.files.set(f.key, f);
    for (const e of raw.entries as CacheEntry[]) if (e && typeof e.hash === 'string' && Array.isArray(e.sessions)) cache.entries.set(e.hash, e);
    return cache;
  } catch {
    return emptyCache();
  }
}

function byKey<T>(map: Map<string, T>): T[] {
  return [...map.keys()].sort().map((k) => map.get(k)!);
}

export function renderCache(cache: MeasureCache): string {
  const files = byKey(cache.files).map((f) => `    ${JSON.stringify({ key: f.key, size: f.size, mtime: f.mtime, hash: f.hash })}`);
  const entries = byKey(cache.entries).map((e) => `    ${JSON.stringify({ hash: e.hash, sessions: e.sessions })}`);
  const list = (xs: string[]) => (xs.length ? `[\n${xs.join(',\n')}\n  ]` : '[]');
  return `{\n  "version": ${cache.version},\n  "files": ${list(files)},\n  "entries": ${list(entries)}\n}\n`;
}
