/**
 * knowledge/.cache/: derived data (the bootstrap search structure, the harvest's hash cache, the
 * store stamp).
 * Ignored by git through its own .gitignore and skipped by the store walk as a dot-folder;
 * deleting it is always safe. (check's load cache is kept outside the repository: see
 * load-cache.ts.)
 */
import { accessSync, constants as fsConstants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWLEDGE_DIR } from './paths.js';

export const CACHE_DIR = `${KNOWLEDGE_DIR}/.cache`;

/** A cache does not trust the stat of a file changed this close to when it was taken: its mtime
 * could hide a later change within the same clock tick (git calls this "racily clean"). */
export const RACY_MS = 2000;

/** Makes knowledge/.cache/ (self-ignoring); false when the store cannot be written. */
export function prepareCacheDir(root: string): boolean {
  try {
    const dir = join(root, CACHE_DIR);
    mkdirSync(dir, { recursive: true });
    const ignore = join(dir, '.gitignore');
    if (!existsSync(ignore)) writeFileSync(ignore, '# derived by compound; safe to delete\n*\n');
    accessSync(dir, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}
