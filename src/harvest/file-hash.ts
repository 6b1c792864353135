/**
 * Transcript content hashes: the ledger skips a file whose hash it has seen, and
 * knowledge/.cache/ remembers each hash with the file's stat so a rerun need not read the file.
 * Kept apart from the pipeline so the harvest workers can hash without loading the store code.
 *
 * The hash is SHA-1: it only tells whether the ledger has seen these bytes (no one gains by
 * forging a transcript that collides with another), and on the bench machine, which has no SHA
 * instructions, SHA-1 ran at 836 MiB/s where SHA-256 ran at 217 MiB/s; SHA-256 file hashing was
 * 9.7% of a one-thread harvest of the 1 GB bench corpus (CPU profile). Ledgers written before
 * hold SHA-256 hashes (64 hex digits, SHA-1 has 40): while a ledger holds any, a file whose SHA-1
 * it does not know is also hashed the old way, and when that hash is known the file is skipped
 * and its SHA-1 added to the ledger, so each file is hashed twice at most once.
 */
import { closeSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash, hash as hashOnce } from 'node:crypto';
import { CACHE_DIR } from '../knowledge/cache-dir.js';

export type HashAlgorithm = 'sha1' | 'sha256';
export const CONTENT_HASH: HashAlgorithm = 'sha1';
/** The hash of ledgers written before CONTENT_HASH was SHA-1. */
export const LEGACY_CONTENT_HASH: HashAlgorithm = 'sha256';

/** A SHA-256 hex hash, as older ledgers hold. */
export function isLegacyHash(hash: string): boolean {
  return hash.length === 64;
}

/** One read buffer for every file hashed (a stream allocated a fresh 1 MiB buffer per file). */
let hashBuffer: Buffer | undefined;

/**
 * The content hash of a file's bytes, read synchronously in 1 MiB pieces into one reused buffer: a small
 * transcript is one read, and thousands of files cost no stream set-up or buffer allocations.
 */
export async function hashFile(file: string, algorithm: HashAlgorithm = CONTENT_HASH): Promise<string> {
  const h = createHash(algorithm);
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

/** hashFile of a file already read whole. */
export function hashBytes(content: Buffer, algorithm: HashAlgorithm = CONTENT_HASH): string {
  return hashOnce(algorithm, content, 'hex');
}

/**
 * knowledge/.cache/ (git-ignored, skipped by the store walk) remembers each transcript's content
 * hash with the stat it had when hashed, so a rerun over thousands of unchanged transcripts
 * stats them instead of reading and hashing every byte again. Paths are kept only as hashes.
 * Written by applyPlan (not on --dry-run); deleting it only makes the next run hash everything.
 */
export const HASH_CACHE_FILE = `${CACHE_DIR}/harvest-hashes-v2.json`;
/** Its version: 2 holds SHA-1 hashes (version 1, in harvest-hashes-v1.json, SHA-256 ones). */
const HASH_CACHE_VERSION = 2;
/** A file changed this close to when it was hashed is not remembered (its mtime could hide a
 * later change within the same clock tick; git calls this "racily clean"). */
export const RACY_MS = 2000;

export interface HashRecord {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  hash: string;
}

export function pathKey(file: string): string {
  return hashOnce('sha256', isResolved(file) ? file : resolve(file), 'hex').slice(0, 32); // one-shot: cheaper than a Hash object per path
}

/** True when resolve(file) would return `file` itself: an absolute POSIX path without empty,
 * `.` or `..` segments or a trailing slash (what the walk gives for resolved inputs). Saves a
 * resolve per transcript on every run. */
function isResolved(file: string): boolean {
  return (
    process.platform !== 'win32' &&
    file.length > 1 &&
    file.startsWith('/') &&
    !file.endsWith('/') &&
    !file.includes('//') &&
    !file.includes('/./') &&
    !file.includes('/../') &&
    !file.endsWith('/.') &&
    !file.endsWith('/..')
  );
}

/** The part of a file's stat the cache compares. */
export type FileStat = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;

export function sameStat(r: HashRecord, st: FileStat): boolean {
  return r.size === st.size && r.mtimeMs === st.mtimeMs && r.ctimeMs === st.ctimeMs && r.ino === st.ino;
}

/** The cache and its text as read ('' when missing or unreadable: then nothing is trusted). */
export function readHashCache(root: string): { records: Map<string, HashRecord>; text: string } {
  const records = new Map<string, HashRecord>();
  let text = '';
  try {
    text = readFileSync(join(root, ...HASH_CACHE_FILE.split('/')), 'utf8');
    const doc = JSON.parse(text) as { version?: unknown; files?: Record<string, unknown> };
    if (doc.version !== HASH_CACHE_VERSION || typeof doc.files !== 'object' || doc.files === null) return { records, text };
    const files = doc.files;
    for (const key in files) {
      if (!Object.hasOwn(files, key)) continue;
      const v = files[key]; // (no Object.entries: tens of thousands of [key, value] arrays)
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

/**
 * True when `next` holds exactly the records read from the cache file: the same keys, each with
 * the very record object read (the harvest reuses a record whose stat still holds, see
 * harvest-files.ts), so the file needs no rewrite and `next` no rendering. A rerun over tens of
 * thousands of unchanged transcripts spent about 7% of its time rendering the cache to find it
 * unchanged. Never true without a file read (`text` ''), which is then written.
 */
export function unchangedCache(next: ReadonlyMap<string, HashRecord>, read: { records: ReadonlyMap<string, HashRecord>; text: string }): boolean {
  if (read.text === '' || next.size !== read.records.size) return false;
  for (const [key, record] of next) if (read.records.get(key) !== record) return false;
  return true;
}

const HEX = /^[0-9a-f]*$/;

/** One entry's line: JSON.stringify's output, built directly for the usual hex keys and finite
 * numbers (tens of thousands of entries are rendered on every run to see whether they changed). */
function entryLine(k: string, r: HashRecord): string {
  const { size, mtimeMs, ctimeMs, ino, hash } = r;
  if (HEX.test(k) && HEX.test(hash) && Number.isFinite(size) && Number.isFinite(mtimeMs) && Number.isFinite(ctimeMs) && Number.isFinite(ino)) {
    return `    "${k}": [${size},${mtimeMs},${ctimeMs},${ino},"${hash}"]`;
  }
  return `    ${JSON.stringify(k)}: ${JSON.stringify([size, mtimeMs, ctimeMs, ino, hash])}`;
}

export function renderHashCache(records: Map<string, HashRecord>): string {
  const keys = [...records.keys()].sort();
  const lines = keys.map((k) => entryLine(k, records.get(k)!));
  return `{\n  "version": ${HASH_CACHE_VERSION},\n  "files": {\n${lines.join(',\n')}${lines.length ? '\n' : ''}  }\n}\n`;
}
