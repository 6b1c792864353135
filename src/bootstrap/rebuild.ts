/**
 * The search structure rebuilt in a detached process, after a session start found it missing or
 * stale: the session start reads index.json directly (direct.ts) and does not wait, and the next
 * one finds the structure current. One rebuild at a time per store: a marker file in the cache
 * folder, taken with O_EXCL and given up after a minute (a rebuild killed midway).
 */
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, prepareCacheDir } from '../knowledge/cache-dir.js';

export const REBUILD_MARKER = `${CACHE_DIR}/rebuilding`;
const STALE_MARKER_MS = 60_000;
/** Set to 0 to never start a background rebuild (the tests, a read-only CI step). */
export const REBUILD_ENV = 'COMPOUND_BACKGROUND_REBUILD';

function takeMarker(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch {
      try {
        if (Date.now() - statSync(file).mtimeMs < STALE_MARKER_MS) return false;
        rmSync(file, { force: true });
      } catch {
        return false;
      }
    }
  }
  return false;
}

/** Starts a detached rebuild unless one is running, the store is read-only, or it is switched
 * off; returns whether one was started. Never throws. */
export function scheduleRebuild(root: string): boolean {
  if (process.env[REBUILD_ENV] === '0') return false;
  try {
    if (!prepareCacheDir(root)) return false;
    const marker = join(root, REBUILD_MARKER);
    if (!takeMarker(marker)) return false;
    // loaded here, not at the top: a warm session start never spawns
    const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [rebuildScript(), root, marker], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => rmSync(marker, { force: true }));
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** The compiled script (under vitest this module is the .ts source: dist/ is run, build first). */
function rebuildScript(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/bootstrap/rebuild-main.js', here) : new URL('./rebuild-main.js', here));
}
