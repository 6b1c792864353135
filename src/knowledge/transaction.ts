/**
 * A run that changes the store is one transaction. Before the first file is written, what the
 * run will write (item files, removals, the ledger) and the commit it will make are written to a
 * journal (atomically); the journal is deleted once all of it, the commit included, is done. A
 * run killed in between leaves the journal, and the next writer, holding the lock, first replays
 * it: the same files again (idempotent), the index rebuilt from them, the ledger, the commit not
 * made yet; so the store converges to what the interrupted run would have written, and a
 * session is never harvested twice (its ledger entry comes with its items). Temp files a kill
 * left are removed then too.
 */
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { abs, writeFileAtomic } from './fsutil.js';
import { KNOWLEDGE_DIR } from './paths.js';

export const JOURNAL_FILE = `${KNOWLEDGE_DIR}/.journal.json`;

export interface CommitIntent {
  message: string;
  branch?: string;
  author?: { name?: string; email?: string };
}

export interface Journal {
  version: 1;
  /** Item files to write (content) or remove, paths relative to the root. */
  entries: { path: string; content?: string }[];
  /** The ledger's new text, when the run changes it. */
  ledger?: string;
  /** The commit the run makes after writing, when it makes one. */
  commit?: CommitIntent;
}

export function readJournal(root: string): Journal | undefined {
  const file = abs(root, JOURNAL_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as Journal;
    return j.version === 1 && Array.isArray(j.entries) ? j : undefined;
  } catch {
    return undefined; // a journal is written whole (temp + rename): unreadable means not ours
  }
}

export function writeJournal(root: string, journal: Journal): void {
  writeFileAtomic(abs(root, JOURNAL_FILE), JSON.stringify(journal));
}

export function endJournal(root: string): void {
  try {
    unlinkSync(abs(root, JOURNAL_FILE));
  } catch {
    /* none */
  }
}

/**
 * A test hook: `COMPOUND_CRASH_AT=<point>` kills this process (SIGKILL, as `kill -9` would) when
 * it reaches that point of a transaction. Never set outside tests.
 */
export function crashPoint(point: string): void {
  if (process.env.COMPOUND_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}

const TEMP = /\.tmp-(\d+)-\d+$/;

/** Removes the temp files (`<name>.tmp-<pid>-<n>`) of writers that are gone (the caller holds
 * the lock, so no other writer of this store is running). */
export function sweepTempFiles(root: string): number {
  let removed = 0;
  const dir = join(root, KNOWLEDGE_DIR);
  if (!existsSync(dir)) return 0;
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    const m = TEMP.exec(d.name);
    if (!m) continue;
    const pid = Number(m[1]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid !== process.pid;
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (alive) continue;
    try {
      unlinkSync(join(d.parentPath, d.name));
      removed++;
    } catch {
      /* gone already */
    }
  }
  return removed;
}
