/**
 * knowledge/.cache/store-stamp-v1.json (git-ignored, derived): the stat of every item file and
 * of index.json, taken when index.json was last written from a store that loaded without
 * problems. While every one of those stats still holds (and the file list is the same, under
 * the same version of compound), the items are what they were then and index.json is theirs:
 * a harvest that brings nothing new checks that (a walk of the store and a stat per file)
 * instead of parsing every item and comparing index.json with the items, which was about a
 * sixth of a rerun over the 1 GB bench corpus (1,271 items). Any doubt means loading as usual.
 */
import { statSync } from 'node:fs';
import { VERSION } from '../core/version.js';
import { CACHE_DIR } from './cache-dir.js';
import { abs } from './fsutil.js';
import { INDEX_FILE } from './paths.js';

export const STORE_STAMP_FILE = `${CACHE_DIR}/store-stamp-v1.json`;

/**
 * The stamp of the store now: `files` (the item files the store walk lists, sorted) with their
 * stats, and index.json's. Undefined when a file cannot be stat'ed, or, with `racyAfter`, when one
 * changed at or after that time (then no stamp is kept, and the next run loads the store).
 */
export function stampOf(root: string, files: readonly string[], racyAfter?: number): string | undefined {
  const lines: string[] = [];
  for (const rel of [INDEX_FILE, ...files]) {
    let st;
    try {
      st = statSync(abs(root, rel));
    } catch {
      return undefined;
    }
    if (racyAfter !== undefined && (st.mtimeMs >= racyAfter || st.ctimeMs >= racyAfter)) return undefined;
    lines.push(JSON.stringify([rel, st.size, st.mtimeMs, st.ctimeMs, st.ino]));
  }
  return `{"version": ${JSON.stringify(VERSION)}, "files": [\n${lines.join(',\n')}\n]}\n`;
}
