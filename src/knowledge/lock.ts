/**
 * One writer at a time: a lock file created exclusively. A second process waits briefly, then
 * fails with E_LOCKED naming the holder. A lock left by a dead process on this host is taken over.
 */
import { openSync, closeSync, writeSync, readFileSync, unlinkSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { RuntimeError } from '../core/errors.js';

export interface LockOptions {
  /** How long to wait for another writer (default 2000 ms, env COMPOUND_LOCK_WAIT_MS). */
  waitMs?: number;
}

interface Holder {
  pid: number;
  host: string;
}

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

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function acquireLock(file: string, options: LockOptions = {}): () => void {
  const waitMs = options.waitMs ?? Number(process.env.COMPOUND_LOCK_WAIT_MS ?? 2000);
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && holder.host === hostname() && !isAlive(holder.pid)) {
      try {
        unlinkSync(file); // stale: its process is gone
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
    sleep(50);
  }
}
