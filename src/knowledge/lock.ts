/**
 * One writer at a time: a lock file created exclusively, held from reading the store to the
 * commit. A second process waits (a harvest as long as another may take), then fails with
 * E_LOCKED naming the holder. A lock nobody holds any more is taken over: its process is gone
 * (this host), it is empty or unreadable (a kill between creating and writing it) and some
 * seconds old, or it is from another host and has not been refreshed for a long time (the
 * holder refreshes it every minute). Taking the lock again in the same process nests.
 */
import { openSync, closeSync, writeSync, readFileSync, unlinkSync, mkdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { hostname } from 'node:os';
import { RuntimeError } from '../core/errors.js';

export interface LockOptions {
  /** How long to wait for another writer (default 2000 ms, env COMPOUND_LOCK_WAIT_MS). */
  waitMs?: number;
  /** Called once when the lock is held by another process and this one starts to wait. */
  onWait?: (holder: string) => void;
}

interface Holder {
  pid: number;
  host: string;
}

/** An empty or unreadable lock older than this was left by a kill between create and write. */
const UNREADABLE_STALE_MS = 5_000;
/** How often a holder refreshes its lock's mtime, and how old another host's lock must be to be
 * taken over (env COMPOUND_LOCK_STALE_MS). */
const HEARTBEAT_MS = 60_000;
const OTHER_HOST_STALE_MS = 15 * 60_000;

function readHolder(file: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? { pid: h.pid, host: h.host } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether the lock at `file` is held by nobody any more. */
export function isStale(file: string, holder: Holder | undefined): boolean {
  if (!holder) return ageMs(file) > UNREADABLE_STALE_MS;
  if (holder.host === hostname()) return holder.pid !== process.pid && !isAlive(holder.pid);
  return ageMs(file) > Number(process.env.COMPOUND_LOCK_STALE_MS ?? OTHER_HOST_STALE_MS);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Locks this process holds, by file: a nested acquire only counts. */
const held = new Map<string, { count: number; release: () => void }>();

export function acquireLock(file: string, options: LockOptions = {}): () => void {
  const key = resolve(file);
  const mine = held.get(key);
  if (mine) {
    mine.count++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--mine.count === 0) mine.release();
    };
  }
  const waitMs = options.waitMs ?? Number(process.env.COMPOUND_LOCK_WAIT_MS ?? 2000);
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + waitMs;
  let waited = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
      closeSync(fd);
      // a long harvest keeps its lock fresh, so that another host never takes it over
      const beat = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch {
          /* gone: nothing to refresh */
        }
      }, HEARTBEAT_MS);
      beat.unref();
      const entry = {
        count: 1,
        release: () => {
          clearInterval(beat);
          held.delete(key);
          try {
            if (readHolder(file)?.pid === process.pid) unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
      held.set(key, entry);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (--entry.count === 0) entry.release();
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (isStale(file, holder)) {
      try {
        unlinkSync(file); // nobody holds it any more
      } catch {
        /* another waiter removed it first */
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RuntimeError('E_LOCKED', `the knowledge store is locked by another compound process${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''}`, {
        why: 'two writers at once could interleave their changes',
        fix: `wait for the other run to finish; if none is running, delete ${file}`,
        data: { file, holder },
      });
    }
    if (!waited) {
      waited = true;
      options.onWait?.(holder ? `pid ${holder.pid} on ${holder.host}` : 'another process');
    }
    sleep(50);
  }
}
