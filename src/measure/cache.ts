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

/** The line each record was read from, by identity: a record carried over as is needs no
 * stringify (20,000 of them are most of a nightly run's writing). */
const rawLines = new WeakMap<object, string>();

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

/** Parses the layout renderCache writes, line by line; undefined when the text has another layout. */
function parseLines(text: string): MeasureCache | undefined {
  const lines = text.split('\n');
  if (lines[0] !== '{' || lines[1] !== `  "version": ${CACHE_VERSION},`) return undefined;
  const cache = emptyCache();
  let section: 'files' | 'entries' | undefined;
  for (let i = 2; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '  "files": [' || line === '  "files": [],') section = line.endsWith('[') ? 'files' : undefined;
    else if (line === '  "entries": [' || line === '  "entries": []') section = line.endsWith('[') ? 'entries' : undefined;
    else if (line.startsWith('    {')) {
      const raw = line.endsWith(',') ? line.slice(4, -1) : line.slice(4);
      const value: unknown = JSON.parse(raw);
      if (section === 'files' && isFileRecord(value)) cache.files.set(value.key, value);
      else if (section === 'entries' && isEntry(value)) cache.entries.set(value.hash, value);
      else return undefined;
      rawLines.set(value as object, raw);
    } else if (line !== '  ],' && line !== '  ]' && line !== '}' && line !== '') return undefined;
  }
  return cache;
}

/** Reads the cache; a missing, unreadable or older-version cache is an empty one (it is only a cache). */
export function readCache(file: string): MeasureCache {
  if (!existsSync(file)) return emptyCache();
  try {
    const text = readFileSync(file, 'utf8');
    const fast = parseLines(text);
    if (fast) return fast;
    const raw = JSON.parse(text) as { version?: unknown; files?: unknown; entries?: unknown };
    if (raw.version !== CACHE_VERSION || !Array.isArray(raw.files) || !Array.isArray(raw.entries)) return emptyCache();
    const cache = emptyCache();
    for (const f of raw.files) if (isFileRecord(f)) cache.files.set(f.key, f);
    for (const e of raw.entries) if (isEntry(e)) cache.entries.set(e.hash, e);
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

function lines<T extends object>(map: Map<string, T>, render: (value: T) => string): string[] {
  return [...map.keys()].sort().map((k) => {
    const value = map.get(k)!;
    return `    ${rawLines.get(value) ?? render(value)}`;
  });
}

export function renderCache(cache: MeasureCache): string {
  const files = lines(cache.files, (f) => JSON.stringify({ key: f.key, size: f.size, mtime: f.mtime, hash: f.hash }));
  const entries = lines(cache.entries, (e) => JSON.stringify({ hash: e.hash, sessions: e.sessions }));
  const list = (xs: string[]) => (xs.length ? `[\n${xs.join(',\n')}\n  ]` : '[]');
  return `{\n  "version": ${cache.version},\n  "files": ${list(files)},\n  "entries": ${list(entries)}\n}\n`;
}
