import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectAgent, detectRepo, originUrl, repoNameFromUrl } from '../../src/bootstrap/detect.js';
import { GIT_ENV, tempDir } from '../helpers.js';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Test Bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid' }, stdio: 'pipe' });
}

describe('repo detection', () => {
  it('reads the origin remote of a real git repository, from any subdirectory', () => {
    const root = join(tempDir('compound-detect-'), 'checkout-dir');
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    git(root, 'init', '-q');
    git(root, 'remote', 'add', 'upstream', 'https://github.com/someone/else.git');
    git(root, 'remote', 'add', 'origin', 'git@github.com:acme/Widget-API.git');
    expect(detectRepo(root)).toEqual({ value: 'Widget-API', source: 'git remote origin' });
    expect(detectRepo(join(root, 'src', 'deep')).value).toBe('Widget-API');
  });

  it('follows a linked worktree to the main repository config', () => {
    const base = tempDir('compound-detect-');
    const main = join(base, 'main');
    mkdirSync(main);
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'remote', 'add', 'origin', 'https://gitlab.example.com/group/sub/service.git/');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'seed');
    git(main, 'worktree', 'add', '-q', join(base, 'feature-tree'));
    expect(detectRepo(join(base, 'feature-tree')).value).toBe('service');
  });

  it('falls back to the git root name without an origin, and to the directory name without git', () => {
    const base = tempDir('compound-detect-');
    const repo = join(base, 'no-remote-repo');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    git(repo, 'init', '-q');
    expect(detectRepo(join(repo, 'pkg'))).toEqual({ value: 'no-remote-repo', source: 'git root directory name' });
    const plain = join(base, 'just-a-folder');
    mkdirSync(plain);
    // tmpdir itself is not inside a git repository on CI machines; the fallback names the folder
    expect(detectRepo(plain)).toEqual({ value: 'just-a-folder', source: 'working directory name' });
  });

  it('parses remote URLs of every common shape', () => {
    expect(repoNameFromUrl('git@github.com:owner/name.git')).toBe('name');
    expect(repoNameFromUrl('https://github.com/owner/name')).toBe('name');
    expect(repoNameFromUrl('ssh://git@host:2222/owner/name.git/')).toBe('name');
    expect(repoNameFromUrl('/srv/git/name.git')).toBe('name');
    expect(repoNameFromUrl('C:\\repos\\name')).toBe('name');
    expect(originUrl('[remote "upstream"]\n\turl = a\n[remote "origin"]\n\tfetch = x\n\turl = "https://h/o/r.git" ; comment\n')).toBe('https://h/o/r.git');
    expect(originUrl('[core]\n\tbare = false\n')).toBeUndefined();
  });
});

describe('agent detection', () => {
  it('knows the variables each agent sets for its hooks and commands', () => {
    expect(detectAgent({ CLAUDECODE: '1' })).toEqual({ value: 'claude-code', source: 'CLAUDECODE' });
    expect(detectAgent({ CLAUDE_CODE_ENTRYPOINT: 'cli' }).value).toBe('claude-code');
    expect(detectAgent({ CODEX_SANDBOX: 'seatbelt' }).value).toBe('codex');
    expect(detectAgent({ CODEX_SANDBOX_NETWORK_DISABLED: '1' }).value).toBe('codex');
    expect(detectAgent({ GEMINI_CLI: '1' }).value).toBe('gemini-cli');
    expect(detectAgent({ AIDER_MODEL: 'gpt-4o' }).value).toBe('aider');
    expect(detectAgent({ CODEX_HOME: '/x', PATH: '/bin' }).value).toBeUndefined();
    expect(detectAgent({ CLAUDECODE: '1', AIDER_MODEL: 'x' }).value).toBe('claude-code');
  });
});
