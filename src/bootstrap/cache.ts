/**
 * Where the search structure lives and when it is rebuilt. It is derived data, so it sits in
 * knowledge/.cache/ (ignored by git through its own .gitignore, skipped by the store walker as
 * a dot-folder) and is rebuilt whenever index.json's size or mtime differ from the ones it was
 * built from. `writeSearchStructure` is what `reindex` can call right after writing index.json.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, prepareCacheDir } from '../knowledge/cache-dir.js';
import { writeFileAtomic } from '../knowledge/fsutil.js';
import { parseIndex } from '../knowledge/index-file.js';
import { INDEX_FILE } from '../knowledge/paths.js';
import { RANKING_SIGNATURE } from './priors.js';
import { activeRecords, buildStructure, memorySource, SearchStructure, STRUCTURE_VERSION, type ByteSource, type PreviousStructure } from './structure.js';
import { DEFAULT_ENCODING, loadCounter } from './tokens.js';

export const STRUCTURE_FILE = `${CACHE_DIR}/bootstrap-v${STRUCTURE_VERSION}.bin`;

/** Why no structure could be opened: the store is missing, or its index cannot be used. */
export class NoIndexError extends Error {}

function fileSource(path: string): ByteSource & { close(): void } {
  const fd = openSync(path, 'r');
  return {
    read(offset, length) {
      const out = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const got = readSync(fd, out, done, length - done, offset + done);
        if (got === 0) return out.subarray(0, done).slice();
        done += got;
      }
      return out;
    },
    close: () => closeSync(fd),
  };
}

/** Built from this index.json, with today's ranking constants. */
function sameSource(structure: SearchStructure, st: Stats): boolean {
  const s = structure.header.source;
  return s !== null && s.size === st.size && s.mtimeMs === st.mtimeMs && structure.header.ranking === RANKING_SIGNATURE;
}

/** What the structure file on disk, current or stale, knows per item (undefined when there is
 * none of this version, or it cannot be read). */
function readPrevious(root: string): PreviousStructure | undefined {
  const file = join(root, STRUCTURE_FILE);
  if (!existsSync(file)) return undefined;
  let source: (ByteSource & { close(): void }) | undefined;
  try {
    source = fileSource(file);
    return new SearchStructure(source).previous();
  } catch {
    return undefined;
  } finally {
    source?.close();
  }
}

/** Builds the structure from index.json and writes it; returns its bytes. */
export async function writeSearchStructure(root: string, options: { write?: boolean } = {}): Promise<Uint8Array> {
  const indexPath = join(root, INDEX_FILE);
  let st: Stats;
  let text: string;
  try {
    st = statSync(indexPath);
    text = readFileSync(indexPath, 'utf8');
  } catch (err) {
    throw new NoIndexError(`${INDEX_FILE} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let items: unknown[];
  try {
    items = parseIndex(text).items;
  } catch (err) {
    throw new NoIndexError(`${INDEX_FILE} is not a valid index (${(err as Error).message})`);
  }
  const writable = options.write !== false && prepareCacheDir(root);
  // After a pull most items are as they were: the stale structure gives their terms and token
  // counts, and the tokenizer's vocabulary (a few hundred ms) loads only for items it lacks.
  const previous = readPrevious(root);
  const records = previous ? activeRecords(items) : undefined;
  const covered = previous !== undefined && previous.encoding === DEFAULT_ENCODING && records!.every((r) => previous.byRecord.has(r));
  // token counts cost seconds on a big store: worth it only when the result is kept
  const counter = writable && !covered ? await loadCounter(DEFAULT_ENCODING) : undefined;
  const bytes = buildStructure(items, { counter, source: { size: st.size, mtimeMs: st.mtimeMs }, ...(previous ? { previous, records } : {}) });
  if (writable) {
    try {
      writeFileAtomic(join(root, STRUCTURE_FILE), bytes);
    } catch {
      /* a read-only store still gets its answer, just without the cache */
    }
  }
  return bytes;
}

export interface Opened {
  structure: SearchStructure;
  /** True when it was (re)built in this process rather than read from the cache. */
  built: boolean;
  close(): void;
}

/** Opens the store's search structure, rebuilding it when index.json changed. */
export async function openSearchStructure(root: string): Promise<Opened> {
  let st: Stats;
  try {
    st = statSync(join(root, INDEX_FILE));
  } catch {
    throw new NoIndexError(`no ${INDEX_FILE} (run \`compound init\` or \`compound reindex\`)`);
  }
  const cached = join(root, STRUCTURE_FILE);
  if (existsSync(cached)) {
    let source: (ByteSource & { close(): void }) | undefined;
    try {
      source = fileSource(cached);
      const structure = new SearchStructure(source);
      if (sameSource(structure, st)) return { structure, built: false, close: source.close };
      source.close();
    } catch {
      source?.close();
      /* unreadable or stale: rebuilt below */
    }
  }
  const bytes = await writeSearchStructure(root);
  return { structure: new SearchStructure(memorySource(bytes)), built: true, close: () => undefined };
}
