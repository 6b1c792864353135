/**
 * Where the search structure lives and when it is rebuilt. It is derived data, so it sits in
 * knowledge/.cache/ (ignored by git through its own .gitignore, skipped by the store walker as
 * a dot-folder) and is rebuilt whenever index.json's size or mtime differ from the ones it was
 * built from. `writeSearchStructure` is what `reindex` can call right after writing index.json.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { CACHE_DIR, prepareCacheDir } from '../knowledge/cache-dir.js';
import { writeFileAtomic } from '../knowledge/fsutil.js';
import { parseIndex } from '../knowledge/index-file.js';
import { INDEX_FILE } from '../knowledge/paths.js';
import { usableTokens } from './index-tokens.js';
import { activeRecords, buildStructure, readHeader, SearchStructure, STRUCTURE_VERSION, type ByteSource, type PreviousStructure, type StructureHeader } from './structure.js';

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

/** Built from this index.json. */
function sameSource(header: StructureHeader, st: Stats): boolean {
  const s = header.source;
  return s !== null && s.size === st.size && s.mtimeMs === st.mtimeMs;
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

/** Structures of other layouts, left by an earlier compound: never read again. */
function removeOlderVersions(root: string): void {
  const current = basename(STRUCTURE_FILE);
  for (const name of readdirSync(join(root, CACHE_DIR))) if (/^bootstrap-v\d+\.bin$/.test(name) && name !== current) rmSync(join(root, CACHE_DIR, name), { force: true });
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
  let index: ReturnType<typeof parseIndex>;
  try {
    index = parseIndex(text);
  } catch (err) {
    throw new NoIndexError(`${INDEX_FILE} is not a valid index (${(err as Error).message})`);
  }
  const items: unknown[] = index.items;
  const writable = options.write !== false && prepareCacheDir(root);
  // after a pull most items are as they were: the stale structure gives their terms
  const previous = readPrevious(root);
  const records = previous ? activeRecords(items) : undefined;
  const tokens = usableTokens(index.tokens);
  const bytes = buildStructure(items, { ...(tokens ? { tokens } : {}), source: { size: st.size, mtimeMs: st.mtimeMs }, ...(previous ? { previous, records } : {}) });
  if (writable) {
    try {
      writeFileAtomic(join(root, STRUCTURE_FILE), bytes);
      removeOlderVersions(root);
    } catch {
      /* a read-only store still gets its answer, just without the cache */
    }
  }
  return bytes;
}

export interface Opened {
  structure: SearchStructure;
  close(): void;
}

/** The store's search structure when it was built from index.json as it is now; undefined when
 * it is missing or stale (the caller reads index.json itself, see direct.ts). */
export function openCurrentStructure(root: string): Opened | undefined {
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
      // the header first: a stale structure's columns are never read
      const header = readHeader(source);
      if (sameSource(header, st)) return { structure: new SearchStructure(source, header), close: source.close };
      source.close();
    } catch {
      source?.close();
      /* unreadable or stale */
    }
  }
  return undefined;
}

/** Whether the structure on disk was built from index.json as it is now. */
export function hasCurrentStructure(root: string): boolean {
  const opened = openCurrentStructure(root);
  opened?.close();
  return opened !== undefined;
}
