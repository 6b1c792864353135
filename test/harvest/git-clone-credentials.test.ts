/** A clone over https that asks for a username: the repository is not there under that name. */
import { describe, expect, it } from 'vitest';
import { gitCloneCredentialDrafts } from '../../src/harvest/extract/rules/git-clone-credentials.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const ASKED = "Cloning into '/home/dev/.tmux/plugins/tmux-fzf'...\nfatal: could not read Username for 'https://github.com': No such device or address";

describe('a clone over https that asks for a username', () => {
  it('says the address is what to check, the more surely when another clone from the host worked', () => {
    const session = new SessionBuilder()
      .user('install the tmux plugins')
      .bash('git clone https://github.com/tmux-plugins/tmux-cpu ~/.tmux/plugins/tmux-cpu', "Cloning into '/home/dev/.tmux/plugins/tmux-cpu'...", 0)
      .bash('git clone https://github.com/tmux-plugins/tmux-fzf ~/.tmux/plugins/tmux-fzf', ASKED, 128)
      .assistant('The clone needs authentication; I will skip it.')
      .bash('git clone https://github.com/tmux-plugins/tmux-fzf ~/.tmux/plugins/tmux-fzf 2>/dev/null || echo "may have failed"', 'may have failed', 0)
      .build();
    const drafts = gitCloneCredentialDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'global', title: 'git clone asks for a username when the github.com repository is not there' });
    expect(drafts[0]!.text).toContain('`git clone https://github.com/tmux-plugins/tmux-fzf` failed');
    expect(drafts[0]!.text).toContain('A clone from github.com worked in the same session');
    // no error item beside it, and never one whose "fix" is the run that swallowed the failure
    expect(errorFixDrafts(viewOf(session))).toEqual([]);
  });

  it('says nothing of other failed clones, nor of a clone over ssh', () => {
    const ssh = new SessionBuilder().user('clone it').bash('git clone git@github.com:x/y.git', 'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.', 128).build();
    expect(gitCloneCredentialDrafts(viewOf(ssh))).toEqual([]);
    const exists = new SessionBuilder().user('clone it').bash('git clone https://github.com/x/y', "fatal: destination path 'y' already exists and is not an empty directory.", 128).build();
    expect(gitCloneCredentialDrafts(viewOf(exists))).toEqual([]);
  });
});

describe('a push over https that asks for a username', () => {
  const push = (then?: (b: SessionBuilder) => SessionBuilder) => {
    const b = new SessionBuilder()
      .user('commit and push')
      .bash('git commit -m "feat: locks"', '[main 4e2305c] feat: locks')
      .bash('git push', "fatal: could not read Username for 'https://github.com': No such device or address", 128)
      .assistant('The push failed because no credentials are configured for github.com in this shell.');
    return viewOf((then ? then(b) : b).build());
  };

  it("says the agent's shell has no credentials for the host, and no error item beside it", () => {
    const drafts = gitCloneCredentialDrafts(push());
    expect(drafts.map((d) => [d.scope, d.title])).toEqual([['repo', "git push from the agent's shell asks for a username: no github.com credentials there"]]);
    expect(drafts[0]!.text).toContain('without a terminal git cannot ask for them. Commit, then ask the user to push');
    expect(errorFixDrafts(push())).toEqual([]);
  });

  it('is nothing once a later push got through: what changed is the error item', () => {
    const fixed = push((b) => b.bash('gh auth setup-git', '').bash('git push', 'To https://github.com/x/y.git\n   b52008a..4e2305c  main -> main', 0));
    expect(gitCloneCredentialDrafts(fixed)).toEqual([]);
    expect(errorFixDrafts(fixed)).toHaveLength(1);
  });
});
