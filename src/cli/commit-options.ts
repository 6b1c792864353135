/** The --commit family of flags, shared by every command that applies a plan. */
import type { Command } from 'commander';
import type { CommitResult } from '../knowledge/git.js';
import type { ApplyResult } from '../knowledge/plan.js';

export interface CommitFlags {
  commit?: boolean;
  branch?: string;
  authorName?: string;
  authorEmail?: string;
}

export function addCommitOptions(cmd: Command): Command {
  return cmd
    .option('--commit', 'commit the changed knowledge files with isomorphic-git')
    .option('--branch <name>', 'commit to this branch (created at HEAD when missing; default: current branch)')
    .option('--author-name <name>', 'commit author name (default: GIT_AUTHOR_NAME or git config user.name)')
    .option('--author-email <email>', 'commit author e-mail (default: GIT_AUTHOR_EMAIL or git config user.email)');
}

export async function commitIfAsked(root: string, flags: CommitFlags, applied: ApplyResult, message: string): Promise<CommitResult | undefined> {
  if (!flags.commit) return undefined;
  const { commitChanges } = await import('../knowledge/git.js');
  return commitChanges({
    root,
    changed: applied.changed,
    removed: applied.removed,
    message,
    ...(flags.branch ? { branch: flags.branch } : {}),
    author: { ...(flags.authorName ? { name: flags.authorName } : {}), ...(flags.authorEmail ? { email: flags.authorEmail } : {}) },
  });
}
