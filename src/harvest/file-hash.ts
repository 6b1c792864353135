/**
 * Transcript content hashes: the ledger skips a file whose hash it has seen, and
 * knowledge/.cache/ remembers each hash with the file's stat so a rerun need not read the file.
 * Kept apart from the pipeline so the harvest workers can hash without loading the store code.
 *
 * The hash is XXH3-128 (hash-wasm's WebAssembly build): it only tells whether the ledger has
 * seen these bytes, and nobody gains by forging a transcript that collides with another, so a
 * cryptographic hash buys nothing. Over the 1 GB bench corpus held in memory
 * (`node scripts/hash-speed.mjs`), XXH3-128 took 0.50 s, SHA-1 1.33 s and SHA-256 2.80 s on an
 * Intel Xeon without SHA instructions (where SHA-1 was 5-6% of each harvest worker's CPU
 * profile), and 0.19 s, 0.56 s and 0.59 s on an AMD EPYC with them.
 * Ledgers written before hold SHA-1 (40 hex digits) or, older still, SHA-256 (64) hashes, where
 * XXH3-128 has 32: while a ledger holds any of an older kind, a file whose hash it does not know
 * is also hashed each older way, and when such a hash is known the file is skipped and its new
 * hash added to the ledger, so each file is hashed the old ways once at most.
 */
import { closeSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createHash, hash as hashOnce } from 'node:crypto';
import type { IHasher } from 'hash-wasm';
import { CACHE_DIR } from '../knowledge/cache-dir.js';

export type HashAlgorithm = 'xxh128' | 'sha1' | 'sha256';
export const CONTENT_HASH: HashAlgorithm = 'xxh128';
/** The hashes of older ledgers, newest first, each told apart by its length in hex digits. */
const LEGACY_HASHES: readonly { algorithm: HashAlgorithm; hexLength: number }[] = [
  { algorithm: 'sha1', hexLength: 40 },
  { algorithm: 'sha256', hexLength: 64 },
];

/** Whether a hash is of an older kind than CONTENT_HASH (see LEGACY_HASHES). */
export function isLegacyHash(hash: string): boolean {
  return LEGACY_HASHES.some((h) => h.hexLength === hash.length);
}

/** The older algorithms some of `known` were made with, in LEGACY_HASHES order ([] for a
 * ledger of current hashes only: then no file is hashed twice). */
export function legacyAlgorithms(known: Iterable<string>): HashAlgorithm[] {
  const lengths = new Set<number>();
  for (const hash of known) lengths.add(hash.length);
  return LEGACY_HASHES.filter((h) => lengths.has(h.hexLength)).map((h) => h.algorithm);
}

/** hash-wasm's XXH3-128 module alone (its index loads every algorithm: 75-90 ms where this
 * takes 15-18), loaded and compiled by the first file a thread hashes. */
let xxh128: Promise<IHasher> | undefined;
const loadXxh128 = (): Promise<IHasher> =>
  (xxh128 ??= (createRequire(import.meta.url)('hash-wasm/dist/xxhash128.umd.min.js') as { createXXHash128(): Promise<IHasher> }).createXXHash128());

/** Hashes bytes fed piece by piece (a file too big to hold whole is hashed as it is read). */
interface Digest {
  update(bytes: Uint8Array): void;
  hex(): string;
}

/**
 * What starts a Digest of `algorithm`, once its module is loaded. XXH3-128 has one hasher per
 * thread, which each start resets: a caller must start, update and read a digest without
 * awaiting in between (the start is synchronous so that no other caller can run in between).
 */
async function digests(algorithm: HashAlgorithm): Promise<() => Digest> {
  if (algorithm === 'xxh128') {
    const hasher = await loadXxh128();
    return () => {
      const h = hasher.init();
      return { update: (bytes) => void h.update(bytes), hex: () => h.digest('hex') };
    };
  }
  return () => {
    const h = createHash(algorithm);
    return { update: (bytes) => void h.update(bytes), hex: () => h.digest('hex') };
  };
}

/** One read buffer for every file hashed (a stream allocated a fresh 1 MiB buffer per file). */
let hashBuffer: Buffer | undefined;

/**
 * The content hash of a file's bytes, read synchronously in 1 MiB pieces into one reused buffer: a small
 * transcript is one read, and thousands of files cost no stream set-up or buffer allocations.
 */
export async function hashFile(file: string, algorithm: HashAlgorithm = CONTENT_HASH): Promise<string> {
  const start = await digests(algorithm);
  const buf = (hashBuffer ??= Buffer.allocUnsafe(1 << 20));
  const fd = openSync(file, 'r');
  const digest = start();
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      digest.update(n === buf.length ? buf : buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return digest.hex();
}

/** hashFile of a file already read whole. */
export async function hashBytes(content: Uint8Array, algorithm: HashAlgorithm = CONTENT_HASH): Promise<string> {
  const digest = (await digests(algorithm))();
  digest.update(content);
  return digest.hex();
}

/**
 * knowledge/.cache/ (git-ignored, skipped by the store walk) remembers each transcript's content
 * hash with the stat it had when hashed, so a rerun over thousands of unchanged transcripts
 * stats them instead of reading and hashing every byte again. Paths are kept only as hashes.
 * Written by applyPlan (not on --dry-run); deleting it only makes the next run hash everything.
 */
export const HASH_CACHE_FILE = `${CACHE_DIR}/harvest-hashes-v4.json`;
/** Its version: 4 lists each file as one array `[key, size, mtimeMs, ctimeMs, ino, hash, note?]`
 * in key order (-v3 held the same as an object keyed by path key: parsing an object of tens of
 * thousands of keys took 22-34 ms where the list takes 8-15, a twentieth of a rerun over the
 * 1 GB bench corpus); 3 and 4 hold XXH3-128 hashes (-v2 SHA-1, -v1 SHA-256). An older file is
 * ignored: the next harvest hashes every file once. */
const HASH_CACHE_VERSION = 4;
/** The files of the older versions, deleted when this one is written. */
export const OLD_HASH_CACHE_FILES: readonly string[] = [1, 2, 3].map((v) => `${CACHE_DIR}/harvest-hashes-v${v}.json`);

export interface HashRecord {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  hash: string;
  /** Set when detection found these bytes to be no transcript (empty, binary, unknown format):
   * the compound version that found it, a tab, and its warning (see notTranscriptNote). */
  notTranscript?: string;
}

/** What a record remembers of a file found to be no transcript by this version of compound:
 * a later run of the same version warns the same without reading the file again (another
 * version, which may read more formats, detects it anew). */
export function notTranscriptNote(version: string, message: string): string {
  return `${version}\t${message}`;
}

/** The warning a record's note holds when this version wrote it, else undefined. */
export function notTranscriptWarning(record: HashRecord | undefined, version: string): string | undefined {
  const note = record?.notTranscript;
  return note !== undefined && note.startsWith(`${version}\t`) ? note.slice(version.length + 1) : undefined;
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
    const doc = JSON.parse(text) as { version?: unknown; files?: unknown };
    if (doc.version !== HASH_CACHE_VERSION || !Array.isArray(doc.files)) return { records, text };
    for (const v of doc.files as unknown[]) {
      if (!Array.isArray(v) || (v.length !== 6 && v.length !== 7)) continue;
      const [key, size, mtimeMs, ctimeMs, ino, hash, note] = v as unknown[];
      if (typeof key === 'string' && typeof size === 'number' && typeof mtimeMs === 'number' && typeof ctimeMs === 'number' && typeof ino === 'number' && typeof hash === 'string') {
        if (typeof note === 'string') records.set(key, { size, mtimeMs, ctimeMs, ino, hash, notTranscript: note });
        else if (note === undefined) records.set(key, { size, mtimeMs, ctimeMs, ino, hash });
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
 * unchanged. Never true without a file read (`text` ''), which is then written. `reused`, when
 * given, is how many records were set in `next`, each of them the record read for its key: then
 * the comparison needs no lookup per key.
 */
export function unchangedCache(next: ReadonlyMap<string, HashRecord>, read: { records: ReadonlyMap<string, HashRecord>; text: string }, reused?: number): boolean {
  if (read.text === '' || next.size !== read.records.size) return false;
  // `reused`: every record set was one read, and as many were set as `next` holds (no key twice)
  if (reused === next.size) return true;
  for (const [key, record] of next) if (read.records.get(key) !== record) return false;
  return true;
}

const HEX = /^[0-9a-f]*$/;

/** One entry's line: JSON.stringify's output, built directly for the usual hex keys and finite
 * numbers (tens of thousands of entries are rendered on every run to see whether they changed). */
function entryLine(k: string, r: HashRecord): string {
  const { size, mtimeMs, ctimeMs, ino, hash, notTranscript } = r;
  if (notTranscript !== undefined) return `    ${JSON.stringify([k, size, mtimeMs, ctimeMs, ino, hash, notTranscript])}`;
  if (HEX.test(k) && HEX.test(hash) && Number.isFinite(size) && Number.isFinite(mtimeMs) && Number.isFinite(ctimeMs) && Number.isFinite(ino)) {
    return `    ["${k}",${size},${mtimeMs},${ctimeMs},${ino},"${hash}"]`;
  }
  return `    ${JSON.stringify([k, size, mtimeMs, ctimeMs, ino, hash])}`;
}

export function renderHashCache(records: Map<string, HashRecord>): string {
  const keys = [...records.keys()].sort();
  const lines = keys.map((k) => entryLine(k, records.get(k)!));
  return `{\n  "version": ${HASH_CACHE_VERSION},\n  "files": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}
