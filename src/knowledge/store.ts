/**
 * The store: loading every item file (never following links, never leaving knowledge/),
 * planning changes, and applying a plan atomically under the writer lock.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { RuntimeError } from '../core/errors.js';
import { knownItem, MAX_ITEM_BYTES, parseItemBytes } from './codec.js';
import { LoadCache } from './load-cache.js';
import type { StoredItem } from './item.js';
import type { Problem } from './problem.js';
import { sortProblems } from './problem.js';
import { INDEX_FILE, KNOWLEDGE_DIR, LEDGER_FILE, itemDir, sanitizeName } from './paths.js';
import { emptyLedger, parseLedger, type Ledger } from './ledger.js';
import { abs } from './fsutil.js';

export interface LoadedStore {
  root: string;
  /** Valid items, sorted by path. */
  items: StoredItem[];
  problems: Problem[];
  /** Item files seen (valid or not). */
  files: number;
}

/** Top-level files in knowledge/ that are not items. */
const NON_ITEM_FILES = new Set(['README.md']);

export function storeExists(root: string): boolean {
  return existsSync(join(root, KNOWLEDGE_DIR));
}

/** Item files (relative posix path, absolute path), sorted; links and odd entries become problems. */
function listItemFiles(root: string, problems: Problem[]): [rel: string, full: string][] {
  const files: [string, string][] = [];
  const walk = (rel: string, full: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(full, { withFileTypes: true });
    } catch (err) {
      problems.push({ code: 'E_STORE_UNREADABLE', file: rel, line: 1, what: `cannot read directory (${(err as NodeJS.ErrnoException).code ?? 'error'})`, why: 'items inside it cannot be checked', fix: 'fix its permissions' });
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isSymbolicLink()) {
        if (e.name.endsWith('.md') || rel !== KNOWLEDGE_DIR) {
          problems.push({ code: 'E_ITEM_SYMLINK', file: child, line: 1, what: 'is a symbolic link', why: 'items must be regular files inside knowledge/; a link can point anywhere, outside the store included', fix: 'replace the link with the file itself or delete it' });
        }
      } else if (e.isDirectory()) {
        if (!e.name.startsWith('.')) walk(child, `${full}${sep}${e.name}`);
      } else if (e.isFile() && e.name.endsWith('.md')) {
        if (rel === KNOWLEDGE_DIR && NON_ITEM_FILES.has(e.name)) continue;
        // a directory entry's name is one segment: appending it is what abs(root, child) gives
        files.push([child, `${full}${sep}${e.name}`]);
      }
    }
  };
  if (existsSync(join(root, KNOWLEDGE_DIR))) walk(KNOWLEDGE_DIR, abs(root, KNOWLEDGE_DIR));
  return files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Problems that need the whole set: duplicate ids, paths that do not match the content. */
function crossCheck(items: StoredItem[], problems: Problem[]): StoredItem[] {
  const byId = new Map<string, StoredItem>();
  // a few dozen repo and agent names over the whole store: sanitise each once
  const safe = new Map<string, string>();
  const sanitized = (name: string) => {
    let s = safe.get(name);
    if (s === undefined) safe.set(name, (s = sanitizeName(name)));
    return s;
  };
  const valid: StoredItem[] = [];
  for (const item of items) {
    const m = item.meta;
    const dir = itemDir(m, sanitized);
    const slash = item.path.lastIndexOf('/');
    const fileDir = item.path.slice(0, slash);
    const base = item.path.slice(slash + 1, -'.md'.length);
    let ok = true;
    for (const [field, value] of [['repo', m.repo], ['agent', m.agent]] as const) {
      if (value !== undefined && sanitized(value) !== value) {
        problems.push({ code: 'E_ITEM_UNSAFE_NAME', file: item.path, line: 2, what: `${field} \`${value}\` is not a safe name`, why: 'names become folder names and must not contain path separators, `..` or odd characters', fix: `use \`${sanitizeName(value)}\`` });
        ok = false;
      }
    }
    if (ok && fileDir !== dir) {
      problems.push({ code: 'E_ITEM_PATH', file: item.path, line: 2, what: `is in ${fileDir}/ but its scope and category say ${dir}/`, why: 'the folder layout is how reviewers and agents find items', fix: `move it to ${dir}/ or correct scope/category/repo/agent` });
      ok = false;
    }
    if (base !== m.id && !base.endsWith(`-${m.id}`)) {
      problems.push({ code: 'E_ITEM_ID_MISMATCH', file: item.path, line: 2, what: `id \`${m.id}\` does not match the file name`, why: 'the file name ends with the item id so that two items never collide', fix: 'restore the id from the file name, or rename the file to end with the id' });
      ok = false;
    }
    const seen = byId.get(m.id);
    if (seen) {
      problems.push({ code: 'E_ITEM_DUPLICATE_ID', file: item.path, line: 2, what: `id \`${m.id}\` is also used by ${seen.path}`, why: 'ids must be unique: sources, links and the ledger refer to items by id', fix: 'delete one of the two files or merge them' });
      ok = false;
    }
    if (ok) {
      byId.set(m.id, item);
      valid.push(item);
    }
  }
  return valid;
}

/** A check of an item file's whole text (check's secret scan); passed in, so that the commands
 * that never scan do not load the detector. */
export type TextScan = (path: string, text: string) => Problem[];

export interface LoadOptions {
  /** Run on every item file's text (valid or not), e.g. the secret scan of `check`. */
  scan?: TextScan;
  /** Loads remembered from earlier runs, by the files' bytes (see load-cache.ts). */
  cache?: LoadCache;
}

/** What loading one item file gives: the item when it is valid, and its problems. */
export interface FileLoad {
  item?: StoredItem;
  problems: Problem[];
}

/** Reads, decodes, parses and validates one item file; never throws for a bad file. */
export function loadItemFile(rel: string, full: string, options: LoadOptions = {}): FileLoad {
  let bytes: Buffer;
  try {
    const read = readBounded(full, MAX_ITEM_BYTES);
    if (read.size > MAX_ITEM_BYTES) {
      options.cache?.noteFile(rel, undefined);
      // never read an absurd file into memory just to reject it
      return { problems: [{ code: 'E_ITEM_TOO_LARGE', file: rel, line: 1, what: `the file is ${read.size} bytes, over the ${MAX_ITEM_BYTES}-byte limit`, why: 'an item is one to three sentences; a huge file is a mistake or a paste', fix: 'shorten it or split it into several items' }] };
    }
    bytes = read.bytes;
  } catch (err) {
    options.cache?.noteFile(rel, undefined);
    return { problems: [{ code: 'E_ITEM_UNREADABLE', file: rel, line: 1, what: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, why: 'the item cannot be validated or indexed', fix: 'fix its permissions or delete it' }] };
  }
  const cache = options.cache;
  const hash = cache ? LoadCache.hashOf(bytes) : '';
  if (cache) {
    cache.noteFile(rel, hash);
    const hit = cache.get(rel, hash);
    if (hit && (hit.scanned || !options.scan)) {
      const item = knownItem(rel, bytes, hit.meta, hit.bodyStart);
      if (item) return { item, problems: [] };
    }
  }
  const result = parseItemBytes(rel, bytes);
  const problems = result.problems;
  // the text parseItemBytes decoded, so that it is not decoded twice; not UTF-8: decoded leniently
  if (options.scan) problems.push(...options.scan(rel, result.text ?? bytes.toString('utf8')));
  if (cache && result.item && problems.length === 0) remember(cache, hash, result.item, options.scan !== undefined);
  return result.item ? { item: result.item, problems } : { problems };
}

/** Remembers the clean load of an item whose bytes hash to `hash`. */
export function remember(cache: LoadCache, hash: string, item: StoredItem, scanned: boolean): void {
  // the body is the end of the text for every clean file; anything else is simply not remembered
  if (item.raw.endsWith(item.body)) cache.set(item.path, hash, { meta: item.meta, bodyStart: item.raw.length - item.body.length, scanned });
}

/**
 * The secret scan of one item file alone, as loadItemFile does it: of the text it decodes (a file
 * that is not UTF-8 decoded leniently); nothing for a file too large or unreadable.
 */
export function scanItemFile(rel: string, full: string, scan: TextScan): Problem[] {
  let read: { size: number; bytes: Buffer };
  try {
    read = readBounded(full, MAX_ITEM_BYTES);
  } catch {
    return [];
  }
  if (read.size > MAX_ITEM_BYTES) return [];
  // for valid UTF-8 this is the string the strict decoder gives, BOM included (ignoreBOM)
  return scan(rel, read.bytes.toString('utf8'));
}

/** Joins per-file results (in file order) into a store: cross-file checks, sorted problems. */
export function assembleStore(root: string, loads: readonly FileLoad[], listProblems: Problem[]): LoadedStore {
  const problems = listProblems;
  const parsed: StoredItem[] = [];
  for (const load of loads) {
    for (const p of load.problems) problems.push(p);
    if (load.item) parsed.push(load.item);
  }
  const items = crossCheck(parsed, problems);
  return { root, items, problems: sortProblems(problems), files: loads.length };
}

/** The store's item files: relative posix path and absolute path, sorted by path. */
export function listStoreFiles(root: string): { files: [rel: string, full: string][]; problems: Problem[] } {
  const problems: Problem[] = [];
  return { files: listItemFiles(root, problems), problems };
}

export function loadStore(root: string, options: LoadOptions = {}): LoadedStore {
  return loadListed(root, listStoreFiles(root), options);
}

/** loadStore over files already listed (store-parallel lists them to decide on workers). */
export function loadListed(root: string, listed: ReturnType<typeof listStoreFiles>, options: LoadOptions = {}): LoadedStore {
  return assembleStore(root, listed.files.map(([rel, full]) => loadItemFile(rel, full, options)), listed.problems);
}

/** One buffer for every item file: the bytes are decoded (copied) before the next file is read. */
let readBuffer: Buffer | undefined;

/**
 * Reads a file unless it is larger than `max` bytes (then only its size is returned). The bytes
 * are valid only until the next call. Reading until end of file into a buffer of `max + 1` bytes
 * needs no fstat, no Stats object and no buffer per file.
 */
function readBounded(file: string, max: number): { size: number; bytes: Buffer } {
  const buf = readBuffer?.length === max + 1 ? readBuffer : (readBuffer = Buffer.allocUnsafe(max + 1));
  const fd = openSync(file, 'r');
  try {
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    if (off > max) return { size: fstatSync(fd).size, bytes: Buffer.alloc(0) }; // never read the rest
    return { size: off, bytes: buf.subarray(0, off) };
  } finally {
    closeSync(fd);
  }
}

export function readLedger(root: string): Ledger {
  const file = abs(root, LEDGER_FILE);
  if (!existsSync(file)) return emptyLedger();
  try {
    return parseLedger(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RuntimeError('E_LEDGER_INVALID', `${LEDGER_FILE} cannot be read: ${(err as Error).message}`, {
      why: 'the ledger records which sessions were harvested; guessing could harvest them twice',
      fix: `restore it from git (git checkout -- ${LEDGER_FILE}) or delete it to harvest everything again`,
      data: { file: LEDGER_FILE },
    });
  }
}

export function readIndexText(root: string): string | undefined {
  const file = abs(root, INDEX_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
