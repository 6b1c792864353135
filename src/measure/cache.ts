/**
 * metrics/cache.json: per-session measurements keyed by the transcript file's content hash, plus
 * a stat index (hashed path, size, mtime -> content hash) so an unchanged file is neither parsed
 * nor even read. It lives in metrics/ beside the outputs it speeds up, not in knowledge/, which
 * holds only what reviewers review; deleting it only makes the next run cold. No paths, no text:
 * paths are hashed, sessions are the hash-only SessionMeasure. Sorted, one record per line, so
 * records carried over unchanged are written back from the very line they were read from.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { SessionMeasure } from './session-measure.js';

/** Bump when what a SessionMeasure holds or how it is computed changes: old caches are ignored. */
export const CACHE_VERSION = 3; // 3: a session's repo from the repo-identity resolver
export const CACHE_FILE = 'metrics/cache.json';

export interface FileRecord {
  /** Hash of the absolute path (a path can hold the user name). */
  key: string;
  size: number;
  mtime: number;
  hash: string;
}

export interface CacheEntry {
  /** SHA-256 of the transcript file's bytes (first 32 hex digits). */
  hash: string;
  sessions: SessionMeasure[];
}

export interface MeasureCache {
  version: number;
  files: Map<string, FileRecord>;
  entries: Map<string, CacheEntry>;
  /** The line each record was read from: a record carried over as is (the same object) is
   * written back from it, with no stringify (20,000 of them are most of a nightly run's writing). */
  lines?: Map<FileRecord | CacheEntry, string>;
}

export function emptyCache(): MeasureCache {
  return { version: CACHE_VERSION, files: new Map(), entries: new Map() };
}

/**
 * A 64-bit FNV-1a of the absolute path (two 32-bit lanes): it only has to tell 20,000 paths
 * apart and keep them out of the file, and a crypto hash per path costs more than the stat.
 */
export function pathKey(absPath: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < absPath.length; i++) {
    const c = absPath.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function isFileRecord(f: unknown): f is FileRecord {
  const r = f as FileRecord;
  return typeof r === 'object' && r !== null && typeof r.key === 'string' && typeof r.hash === 'string' && typeof r.size === 'number' && typeof r.mtime === 'number';
}

function isEntry(e: unknown): e is CacheEntry {
  const r = e as CacheEntry;
  return typeof r === 'object' && r !== null && typeof r.hash === 'string' && Array.isArray(r.sessions);
}

/**
 * The line of each record in the layout renderCache writes (one record per line, files then
 * entries), found by position after one native JSON.parse of the whole text; undefined when the
 * text has another layout (then records are simply stringified again when written).
 */
function recordLines(text: string, files: readonly unknown[], entries: readonly unknown[]): Map<FileRecord | CacheEntry, string> | undefined {
  const lines = text.split('\n');
  const firstFile = 3;
  const firstEntry = firstFile + files.length + (files.length ? 2 : 1);
  if (lines[firstFile - 1] !== (files.length ? '  "files": [' : '  "files": [],')) return undefined;
  if (lines[firstEntry - 1] !== (entries.length ? '  "entries": [' : '  "entries": []')) return undefined;
  const out = new Map<FileRecord | CacheEntry, string>();
  const take = (records: readonly unknown[], from: number) => {
    records.forEach((r, i) => {
      const line = lines[from + i]!;
      out.set(r as FileRecord | CacheEntry, line.slice(4, line.endsWith(',') ? -1 : undefined));
    });
  };
  take(files, firstFile);
  take(entries, firstEntry);
  return out;
}

/** Reads the cache; a missing, unreadable or older-version cache is an empty one (it is only a cache). */
export function readCache(file: string): MeasureCache {
  if (!existsSync(file)) return emptyCache();
  try {
    const text = readFileSync(file, 'utf8');
    const raw = JSON.parse(text) as { version?: unknown; files?: unknown; entries?: unknown };
    if (raw.version !== CACHE_VERSION || !Array.isArray(raw.files) || !Array.isArray(raw.entries)) return emptyCache();
    const cache = emptyCache();
    for (const f of raw.files) if (isFileRecord(f)) cache.files.set(f.key, f);
    for (const e of raw.entries) if (isEntry(e)) cache.entries.set(e.hash, e);
    // only when every record was valid do positions map records to their lines
    if (cache.files.size === raw.files.length && cache.entries.size === raw.entries.length) {
      const lines = recordLines(text, raw.files, raw.entries);
      if (lines) cache.lines = lines;
    }
    return cache;
  } catch {
    return emptyCache();
  }
}

/** True when `next` holds exactly the records `prev` was read with (nothing to write). */
export function sameCache(prev: MeasureCache, next: MeasureCache): boolean {
  if (prev.files.size !== next.files.size || prev.entries.size !== next.entries.size) return false;
  for (const [k, v] of next.files) if (prev.files.get(k) !== v) return false;
  for (const [k, v] of next.entries) if (prev.entries.get(k) !== v) return false;
  return true;
}

/** Renders the cache; `previous` (the cache read) supplies the lines of records carried over. */
export function renderCache(cache: MeasureCache, previous?: MeasureCache): string {
  const known = previous?.lines;
  const lines = <T extends FileRecord | CacheEntry>(map: Map<string, T>, render: (value: T) => string): string[] =>
    [...map.keys()].sort().map((k) => {
      const value = map.get(k)!;
      return `    ${known?.get(value) ?? render(value)}`;
    });
  const files = lines(cache.files, (f) => JSON.stringify({ key: f.key, size: f.size, mtime: f.mtime, hash: f.hash }));
  const entries = lines(cache.entries, (e) => JSON.stringify({ hash: e.hash, sessions: e.sessions }));
  const list = (xs: string[]) => (xs.length ? `[\n${xs.join(',\n')}\n  ]` : '[]');
  return `{\n  "version": ${cache.version},\n  "files": ${list(files)},\n  "entries": ${list(entries)}\n}\n`;
}
