/**
 * What loading a clean item file found, remembered by the file's exact bytes, so that `check`
 * and `reindex` read every item file but parse, validate and secret-scan only the ones that
 * changed since they last ran (what `eslint --cache` and tsc's incremental builds do).
 *
 * It lives in the user's cache directory, never in the repository: a cache that came with a
 * clone (a pull request can add any file under knowledge/) could claim that a file holding a
 * secret is clean. `$COMPOUND_CACHE_DIR`, else `$XDG_CACHE_HOME/compound`, else
 * `~/.cache/compound`, then `load/<hash of the store's real path>.json`.
 *
 * - Keyed by path and the SHA-1 of the bytes: any change to a file, a touch without a change
 *   excepted, makes it a miss. Nothing is trusted from stat.
 * - Only files that loaded with no problem at all are remembered; a file with a problem is
 *   checked again every time, so every problem is reported on every run.
 * - An entry says whether the secret scan ran on those bytes: `reindex` (no scan) can use an
 *   entry `check` wrote, and `check` scans a file that only `reindex` has seen.
 * - The cache is void when the code that decides an item's fields and problems changes: its
 *   fingerprint covers the version and the bytes of every module of knowledge/ and redact/.
 * - A fresh machine, so a CI job without a cache step, checks everything; `--no-cache` does the
 *   same locally. Deleting it is always safe.
 */
import { createHash, hash as hashOnce } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './fsutil.js';
import type { ItemMeta } from './item.js';

/** The directory compound keeps per-user caches in (undefined when there is no home). */
export function userCacheDir(): string | undefined {
  if (process.env.COMPOUND_CACHE_DIR) return resolve(process.env.COMPOUND_CACHE_DIR);
  if (process.env.XDG_CACHE_HOME) return join(resolve(process.env.XDG_CACHE_HOME), 'compound');
  const home = homedir();
  return home ? join(home, '.cache', 'compound') : undefined;
}

/** The load cache of the store at `root` and its index memo (small, so that recording it does
 * not rewrite the file list); undefined when there is no cache directory. */
export function loadCacheFiles(root: string): { files: string; memo: string } | undefined {
  const dir = userCacheDir();
  if (dir === undefined) return undefined;
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    real = resolve(root);
  }
  const key = hashOnce('sha1', real, 'hex').slice(0, 24);
  return { files: join(dir, 'load', `${key}.json`), memo: join(dir, 'load', `${key}.index.json`) };
}

/** What a hit gives back: enough to rebuild the StoredItem from the file's text. */
export interface CachedLoad {
  meta: ItemMeta;
  /** Where the body starts in the file's text. */
  bodyStart: number;
  /** Whether the secret scan found nothing in these bytes (false: it did not run). */
  scanned: boolean;
}

/** On disk and in memory: [sha1 of the bytes, body start, scanned 0/1, meta]. A hit hands out
 * the meta object itself: check and reindex, the only users, never change an item, and they
 * save the cache before they return. */
type Entry = [hash: string, bodyStart: number, scanned: 0 | 1, meta: ItemMeta];

/** "index.json with this hash was found to be exactly what these item files give". */
interface IndexMemo {
  /** storeDigest() of the item files. */
  files: string;
  /** SHA-1 of index.json's bytes. */
  index: string;
}

export class LoadCache {
  private readonly seen = new Map<string, Entry>();
  /** Every item file loaded this run, with the hash of its bytes, in load order. */
  private readonly hashes: string[] = [];
  /** A file whose bytes were not hashed (too large, unreadable): no digest this run. */
  private unhashed = false;
  private changed = false;
  private memoChanged = false;

  private constructor(
    private readonly paths: { files: string; memo: string } | undefined,
    private readonly fingerprint: string,
    private readonly entries: Map<string, Entry>,
    private indexMemo: IndexMemo | undefined,
  ) {}

  /** The store's cache, or an empty one when there is none or it was written by other code. */
  static open(root: string): LoadCache {
    const paths = loadCacheFiles(root);
    const fingerprint = codeFingerprint();
    const entries = new Map<string, Entry>();
    let memo: IndexMemo | undefined;
    try {
      const m = JSON.parse(readFileSync(paths?.memo ?? '', 'utf8')) as Partial<IndexMemo> & { fingerprint?: unknown };
      if (m.fingerprint === fingerprint && typeof m.files === 'string' && typeof m.index === 'string') memo = { files: m.files, index: m.index };
    } catch {
      // no memo: the index is compared the long way
    }
    try {
      const doc = JSON.parse(readFileSync(paths?.files ?? '', 'utf8')) as { fingerprint?: unknown; files?: unknown };
      if (doc.fingerprint === fingerprint && typeof doc.files === 'object' && doc.files !== null) {
        const files = doc.files as Record<string, unknown>;
        for (const rel in files) {
          const e = files[rel];
          if (Array.isArray(e) && e.length === 4 && typeof e[0] === 'string' && typeof e[1] === 'number' && (e[2] === 0 || e[2] === 1) && typeof e[3] === 'object' && e[3] !== null) {
            entries.set(rel, e as Entry);
          }
        }
      }
    } catch {
      // no cache yet, or a damaged one: everything is a miss
    }
    return new LoadCache(paths, fingerprint, entries, memo);
  }

  /** How many files it remembers (from disk, before this run). */
  get size(): number {
    return this.entries.size;
  }

  static hashOf(bytes: Uint8Array): string {
    return hashOnce('sha1', bytes, 'base64');
  }

  /** The remembered load of `rel` when its bytes hash to `hash`. */
  get(rel: string, hash: string): CachedLoad | undefined {
    const e = this.entries.get(rel);
    if (!e || e[0] !== hash) return undefined;
    this.seen.set(rel, e);
    return { meta: e[3], bodyStart: e[1], scanned: e[2] === 1 };
  }

  /** Notes the hash of every item file loaded (clean or not), for storeDigest; undefined for
   * a file whose bytes were not read. */
  noteFile(rel: string, hash: string | undefined): void {
    if (hash === undefined) this.unhashed = true;
    else this.hashes.push(`${rel}\u0000${hash}`);
  }

  /** Some files were loaded without their bytes being noted (on worker threads). */
  digestUnknown(): void {
    this.unhashed = true;
  }

  /** One hash over every item file's path and bytes (undefined when some file went unhashed):
   * equal digests mean the same files with the same bytes, so the same items and index. */
  storeDigest(): string | undefined {
    if (this.unhashed) return undefined;
    return hashOnce('sha1', [...this.hashes].sort().join('\n'), 'base64');
  }

  /** Whether `indexText` was found to be exactly the index of item files with this digest. */
  indexInSync(digest: string | undefined, indexText: string): boolean {
    return digest !== undefined && this.indexMemo?.files === digest && this.indexMemo.index === hashOnce('sha1', indexText, 'base64');
  }

  /** Remembers that `indexText` is the index of the item files with this digest. */
  rememberIndex(digest: string | undefined, indexText: string): void {
    if (digest === undefined) return;
    const memo = { files: digest, index: hashOnce('sha1', indexText, 'base64') };
    if (this.indexMemo?.files === memo.files && this.indexMemo.index === memo.index) return;
    this.indexMemo = memo;
    this.memoChanged = true;
  }

  /** Remembers a clean load of `rel`. */
  set(rel: string, hash: string, load: CachedLoad): void {
    // a file is loaded again only when it was not a hit: whatever was remembered changes
    this.changed = true;
    this.seen.set(rel, [hash, load.bodyStart, load.scanned ? 1 : 0, load.meta]);
  }

  /**
   * Writes what this run saw (files that are gone or now have problems are dropped), when that
   * differs from what was read; a store that cannot be written just keeps no cache.
   */
  save(): void {
    const files = this.changed || this.seen.size !== this.entries.size;
    if (!files && !this.memoChanged) return;
    const paths = this.paths;
    if (!paths) return;
    try {
      mkdirSync(dirname(paths.files), { recursive: true });
      if (this.memoChanged && this.indexMemo) {
        const memo = { fingerprint: this.fingerprint, ...this.indexMemo };
        writeFileAtomic(paths.memo, `${JSON.stringify(memo)}\n`);
      }
    } catch {
      return; // no writable cache directory: no cache
    }
    if (!files) return;
    const rels = [...this.seen.keys()].sort();
    const lines = rels.map((rel) => `    ${JSON.stringify(rel)}: ${JSON.stringify(this.seen.get(rel))}`);
    const text = `{\n  "fingerprint": ${JSON.stringify(this.fingerprint)},\n  "files": {\n${lines.join(',\n')}${lines.length ? '\n' : ''}  }\n}\n`;
    try {
      writeFileAtomic(paths.files, text);
    } catch {
      // no writable cache directory: no cache
    }
  }
}

let fingerprintMemo: string | undefined;

/**
 * A hash of the modules that decide what loading an item file gives (this directory, which
 * parses and validates, and ../redact, whose detector `check` scans with) plus the package
 * version: after an upgrade or any edit to that code, every file is checked again.
 */
export function codeFingerprint(): string {
  if (fingerprintMemo !== undefined) return fingerprintMemo;
  const h = createHash('sha1');
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, join(here, '..', 'redact')]) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.js') || n.endsWith('.ts')).sort();
    } catch {
      // a layout without that directory: the other parts still count
    }
    for (const name of names) {
      h.update(name);
      h.update(readFileSync(join(dir, name)));
    }
  }
  try {
    h.update(readFileSync(join(here, '..', '..', 'package.json')));
  } catch {
    // running from somewhere without package.json: the sources alone decide
  }
  return (fingerprintMemo = h.digest('base64'));
}
