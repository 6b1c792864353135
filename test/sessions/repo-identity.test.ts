/** Which repository a session is about: every kind of evidence, in order of strength (issue 33). */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { aliasOf, identifyRepo, type RepoWitness } from '../../src/sessions/repo-identity.js';
import { localGitProbe } from '../../src/sessions/git-config.js';
import type { SessionEvent } from '../../src/sessions/model.js';
import { GIT_ENV, tempDir } from '../helpers.js';

const ctx = { aliases: {}, users: [] as string[] };
const at = (index: number) => ({ index, source: { file: 't', line: index + 1 } });
const edit = (index: number, path: string): SessionEvent => ({ ...at(index), kind: 'tool_call', name: 'Write', input: { file_path: path, content: 'x' } });
const repoOf = (w: RepoWitness, c = ctx) => identifyRepo(w, c);

describe('repo identity', () => {
  it('joins git worktrees under the project they belong to', () => {
    expect(repoOf({ cwd: '/home/sam/projects/spotter-worktrees/spotter-fum' })).toMatchObject({ repo: 'spotter', source: 'worktree-layout' });
    expect(repoOf({ cwd: '/home/sam/projects/spotter-worktrees/spotter-gqc/assets' }).repo).toBe('spotter');
    expect(repoOf({ cwd: '/src/shop.worktrees/fix-cart' }).repo).toBe('shop');
    expect(repoOf({ cwd: '/src/shop/.worktrees/fix-cart' }).repo).toBe('shop');
    expect(repoOf({ cwd: '/src/shop/.claude/worktrees/agent-1' }).repo).toBe('shop');
    expect(repoOf({ cwd: '/src/shop-fix-cart', branch: 'fix/cart' }).repo).toBe('shop');
    expect(repoOf({ cwd: '/src/shop-fix-cart', branch: 'main' }).repo).toBe('shop-fix-cart');
  });

  it('gives no repo for a home, the root, a temp or generic folder, or a folder named after the user', () => {
    for (const cwd of ['/Users/Sam', '/home/tarive', '/', '/tmp', '/tmp/private', 'C:\\Users\\sam', '/workspace', '/Users/sam/repo', '/srv/app']) {
      expect(repoOf({ cwd }).repo, cwd).toBeUndefined();
      expect(repoOf({ cwd }).source, cwd).toBe('none');
    }
    expect(repoOf({ cwd: '/srv/sam' }, { aliases: {}, users: ['sam'] }).repo).toBeUndefined();
    // a folder people keep their projects in, in any of a few languages, and a project inside it
    for (const cwd of ['/Users/diego/Coding', '/home/ana/Proyectos', 'D:\\Programming']) expect(repoOf({ cwd }).repo, cwd).toBeUndefined();
    expect(repoOf({ cwd: '/Users/diego/Coding/my-video' }).repo).toBe('my-video');
    // deeper folders in a temp directory name themselves
    expect(repoOf({ cwd: '/tmp/build-42/widget' }).repo).toBe('widget');
  });

  it("gives no repo for a tool's settings in a hidden folder of a home, nor for a hosted IDE's fixed folder", () => {
    for (const cwd of ['C:\\Users\\User\\.claude\\skills', '/home/sam/.config/nvim', '/root/.hermes/skills/mybot', '/teamspace/studios/this_studio']) {
      expect(repoOf({ cwd }).repo, cwd).toBeUndefined();
    }
    // a home's folder of loose files is about no repository, whatever folder the transcript sits in
    expect(repoOf({ cwd: '/Users/jb/Downloads' }, { aliases: {}, users: [], transcriptFolder: 'dotfiles-universal' }).repo).toBeUndefined();
    expect(repoOf({ cwd: '/Users/jb/Documents/shop' }).repo).toBe('shop');
    // (a project below an ordinary folder of the home still names itself)
    expect(repoOf({ cwd: '/home/sam/code/widget' }).repo).toBe('widget');
  });

  it('names the project, not the part of it a session started in (`LocalWeb/backend`)', () => {
    expect(repoOf({ cwd: 'C:\\OneDrive\\LocalWeb\\backend' })).toMatchObject({ repo: 'LocalWeb', source: 'cwd' });
    expect(repoOf({ cwd: '/home/sam/projetos/bfin/frontend' }).repo).toBe('bfin');
    // a course exercise's copy to start from, or its solution, is the exercise's
    expect(repoOf({ cwd: '/voc/work/exercises/lesson-1/exercises/concept1-data-processing-review/starter' }).repo).toBe('concept1-data-processing-review');
    expect(repoOf({ cwd: '/home/sam/course/week3-auth/solution' }).repo).toBe('week3-auth');
    // a part right in a home or a generic folder is all there is to go on
    expect(repoOf({ cwd: '/home/sam/backend' }).repo).toBe('backend');
    expect(repoOf({ cwd: '/srv/app/server' }).repo).toBe('server');
    // a project named like a part with more to its name names itself
    expect(repoOf({ cwd: '/home/sam/code/bfin-backend' }).repo).toBe('bfin-backend');
  });

  it('finds the project from the files a session started in its home directory edited', () => {
    const events = [edit(0, '/Users/Sam/projects/ledger/src/a.ts'), edit(1, '/Users/Sam/projects/ledger/test/a.test.ts')];
    expect(repoOf({ cwd: '/Users/Sam', events })).toMatchObject({ repo: 'ledger', source: 'edited-files' });
    // a home's hidden folder holds a tool's files, whatever its folders are called
    const tools = [edit(0, '/home/jack/.local/share/chezmoi/dot_bashrc.tmpl'), edit(1, '/home/jack/.local/share/chezmoi/dot_gitconfig.tmpl')];
    expect(repoOf({ cwd: '/home/jack', events: tools }).repo).toBeUndefined();
  });

  it('finds the monorepo of a session that went into one of its packages', () => {
    const events = [edit(0, '/r/mono/packages/api/src/a.ts'), edit(1, '/r/mono/packages/web/src/b.ts')];
    expect(repoOf({ cwd: '/r/mono/packages/web', events })).toMatchObject({ repo: 'mono', source: 'edited-files' });
    expect(repoOf({ cwd: '/r/mono/packages/web' }).repo).toBe('web'); // nothing edited: the folder is all there is
  });

  it('takes a remote the transcript records or a git command printed, before any folder', () => {
    expect(repoOf({ cwd: '/srv/checkout', remoteRepo: 'billing' })).toMatchObject({ repo: 'billing', source: 'remote' });
    const events: SessionEvent[] = [
      { ...at(0), kind: 'tool_call', name: 'Bash', callId: 'c', input: { command: 'git remote -v' }, command: 'git remote -v' },
      { ...at(1), kind: 'tool_result', name: 'Bash', callId: 'c', isError: false, output: 'upstream\thttps://github.com/x/other.git (fetch)\norigin\tgit@github.com:acme/inventory.git (fetch)\n' },
    ];
    expect(repoOf({ cwd: '/workspace', events })).toMatchObject({ repo: 'inventory', source: 'tool-output' });
    // a placeholder remote names nothing either
    const placeholder = events.map((e) => (e.kind === 'tool_result' ? { ...e, output: 'origin\thttps://github.com/user/repo (fetch)' } : e));
    expect(repoOf({ cwd: '/workspace', events: placeholder }).repo).toBeUndefined();
  });

  it('lets repo_aliases win, with glob patterns, even for a name that would give no repo', () => {
    const aliases = { 'spotter-*': 'spotter', repo: 'codemie-code' };
    expect(aliasOf('spotter-dov', aliases)).toBe('spotter');
    expect(repoOf({ cwd: '/home/u/spotter-dov' }, { aliases, users: [] })).toMatchObject({ repo: 'spotter', source: 'alias' });
    expect(repoOf({ cwd: '/Users/user/repo' }, { aliases, users: [] }).repo).toBe('codemie-code');
  });

  it('uses --repo or the transcript folder when the transcript names no project: no working directory, or a generic one', () => {
    expect(repoOf({}, { ...ctx, transcriptFolder: 'minsky' })).toMatchObject({ repo: 'minsky', source: 'transcript-folder' });
    expect(repoOf({}, { ...ctx, fallback: 'shop', transcriptFolder: 'minsky' }).repo).toBe('shop');
    // a container's mount point names no project, but the session was about one
    expect(repoOf({ cwd: '/workspace' }, { ...ctx, transcriptFolder: 'minsky' })).toMatchObject({ repo: 'minsky', source: 'transcript-folder' });
    expect(repoOf({ cwd: '/repo' }, { ...ctx, fallback: 'shop' })).toMatchObject({ repo: 'shop', source: 'flag' });
    // a home or temp folder is about no repository, whatever the flag says
    expect(repoOf({ cwd: '/home/dev' }, { ...ctx, fallback: 'shop', transcriptFolder: 'minsky' }).repo).toBeUndefined();
    expect(repoOf({ cwd: '/tmp' }, { ...ctx, fallback: 'shop' }).repo).toBeUndefined();
    // a working directory that names a project wins over both
    expect(repoOf({ cwd: '/srv/src/billing' }, { ...ctx, fallback: 'shop', transcriptFolder: 'minsky' }).repo).toBe('billing');
  });

  it('looks a working directory up on this machine: origin of the main repository, from a linked worktree too', () => {
    const base = tempDir('compound-identity-');
    const main = join(base, 'main-checkout');
    mkdirSync(main);
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' }, stdio: 'pipe' });
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'seed');
    git(main, 'worktree', 'add', '-q', join(base, 'feature-x'));
    const c = { ...ctx, probe: localGitProbe };
    expect(repoOf({ cwd: join(base, 'feature-x') }, c)).toMatchObject({ repo: 'main-checkout', source: 'git' });
    git(main, 'remote', 'add', 'origin', 'git@github.com:acme/Widget.git');
    expect(repoOf({ cwd: join(base, 'feature-x') }, c)).toMatchObject({ repo: 'Widget', source: 'git', detail: 'git remote origin' });
  });
});
