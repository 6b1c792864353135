/** The --commit family of flags, shared by every command that applies a plan. */
import type { Command } from 'commander';
import { readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KNOWLEDGE_DIR } from '../knowledge/paths.js';
import { writeFileAtomic } from '../knowledge/fsutil.js';
import { UsageError } from '../core/errors.js';
import type { CommitResult } from '../knowledge/git.js';
import type { ApplyResult } from '../knowledge/plan.js';
import { crashPoint, endJournal, type CommitIntent } from '../knowledge/transaction.js';

export interface CommitFlags {
  commit?: boolean;
  branch?: string;
  authorName?: string;
  authorEmail?: string;
}

export function addCommitOptions(cmd: Command): Command {
  return cmd
    .option('--commit', 'commit the changed knowledge files with isomorphic-git')
    .option('--branch <name>', 'commit to this branch, created or reset at HEAD, without checking it out (harvest also leaves the working tree as it was; default: the current branch)')
    .option('--author-name <name>', 'commit author name (default: GIT_AUTHOR_NAME or git config user.name)')
    .option('--author-email <email>', 'commit author e-mail (default: GIT_AUTHOR_EMAIL or git config user.email)');
}

/** The commit --commit asks for, as applyPlan journals it (see knowledge/transaction.ts). */
export function commitIntent(flags: CommitFlags, message: string): CommitIntent | undefined {
  if (!flags.commit) return undefined;
  const author = { ...(flags.authorName ? { name: flags.authorName } : {}), ...(flags.authorEmail ? { email: flags.authorEmail } : {}) };
  return { message, ...(flags.branch ? { branch: flags.branch } : {}), ...(Object.keys(author).length ? { author } : {}) };
}

/** Commits what was applied when --commit asks, then closes the run's journal: the commit was
 * the last thing it waited for. */
export async function commitIfAsked(root: string, flags: CommitFlags, applied: ApplyResult, message: string): Promise<CommitResult | undefined> {
  if (!flags.commit) return undefined;
  const { commitChanges } = await import('../knowledge/git.js');
  crashPoint('before-commit');
  const result = await commitChanges({
    root,
    changed: applied.changed,
    removed: applied.removed,
    message,
    ...(flags.branch ? { branch: flags.branch } : {}),
    author: { ...(flags.authorName ? { name: flags.authorName } : {}), ...(flags.authorEmail ? { email: flags.authorEmail } : {}) },
  });
  endJournal(root);
  return result;
}

/** How long a command that writes the store waits for another writer: as long as a harvest may
 * take (env COMPOUND_LOCK_WAIT_MS). */
export function writerLockWaitMs(): number {
  return Number(process.env.COMPOUND_LOCK_WAIT_MS ?? 30 * 60_000);
}

/** --commit outside a git repository fails before anything is written. */
export async function assertGitRepository(root: string): Promise<void> {
  const { findGitRoot } = await import('../knowledge/git.js');
  if (!findGitRoot(root)) {
    throw new UsageError(`${root} is not inside a git repository`, { fix: 'run git init (or compound init in a repository), or drop --commit' });
  }
}

/** The bytes (or absence) of files before a run writes them. */
export type WorkingTreeSnapshot = Map<string, Buffer | null>;

/** What `paths` (relative to the store root) hold now, to put back after --branch committed elsewhere. */
export function snapshotFiles(root: string, paths: readonly string[]): WorkingTreeSnapshot {
  const snap: WorkingTreeSnapshot = new Map();
  for (const p of paths) {
    try {
      snap.set(p, readFileSync(join(root, p)));
    } catch {
      snap.set(p, null);
    }
  }
  return snap;
}

/**
 * `--branch` to a branch that is not checked out: the run's files went to that branch's commit,
 * so the working tree gets back what it held before the run (a reviewer's own uncommitted edits
 * included); the branch, not the checkout, now has the harvest.
 */
export function restoreFiles(root: string, snap: WorkingTreeSnapshot): void {
  for (const [p, bytes] of snap) {
    const file = join(root, p);
    if (bytes !== null) {
      writeFileAtomic(file, bytes);
      continue;
    }
    rmSync(file, { force: true });
    // and the folders the run made for it, now empty
    for (let dir = dirname(file); dir.startsWith(join(root, KNOWLEDGE_DIR, '')); dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty
      }
    }
  }
}
