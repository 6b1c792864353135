/** Small file-system helpers: atomic writes (temp file + rename) and safe removal. */
import { mkdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes via a temp file in the same directory and renames it over the target. `madeDirs`, shared
 * across many writes, records the directories already made so each is created only once.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, madeDirs?: Set<string>): void {
  const dir = dirname(file);
  if (!madeDirs?.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs?.add(dir);
  }
  const tmp = `${file}.tmp-${process.pid}-${counter++}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* the temp file may not exist */
    }
    throw err;
  }
}

/** Removes a file and then any directories it leaves empty, up to (not including) `stopAt`. */
export function removeFileAndEmptyDirs(file: string, stopAt: string): void {
  unlinkSync(file);
  let dir = dirname(file);
  while (dir.length > stopAt.length && dir.startsWith(stopAt)) {
    if (readdirSync(dir).length > 0) break;
    rmdirSync(dir);
    dir = dirname(dir);
  }
}

export function toPosix(rel: string): string {
  return rel.split('\\').join('/');
}

export function abs(root: string, rel: string): string {
  return join(root, ...rel.split('/'));
}
