/** `compound repos`, `compound repos rename`, and the harvest's dates and documents (issue 33). */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { GIT_ENV, makeItem, runCli, tempDir } from '../helpers.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';
import type { Item } from '../../src/knowledge/item.js';
import { writeClaudeSession } from '../harvest/model/fake-model.js';

function writeItem(root: string, item: Item): string {
  const rel = itemPath(item.meta, item.meta.title ?? '');
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem(item));
  return rel;
}

describe('compound repos', () => {
  it('prints the repo each session would be filed under and why', () => {
    const dir = tempDir();
    writeClaudeSession(join(dir, 'a.jsonl'), 'aaaaaaaa-1111-4c3d-9e8f-000000000001', '/home/sam/projects/spotter-worktrees/spotter-fum', [{ user: 'hi' }, { assistant: 'hello' }]);
    writeClaudeSession(join(dir, 'b.jsonl'), 'bbbbbbbb-1111-4c3d-9e8f-000000000002', '/Users/Sam', [{ user: 'hi' }, { assistant: 'hello' }]);
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const r = runCli(['repos', dir, '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { sessions: { session: string; repo?: string; source: string; evidence: string }[] }).sessions;
    expect(rows).toEqual([
      { file: join(dir, 'a.jsonl'), session: 'aaaaaaaa-1111-4c3d-9e8f-000000000001', repo: 'spotter', source: 'worktree-layout', evidence: 'spotter-worktrees/spotter-fum is a worktree of spotter' },
      { file: join(dir, 'b.jsonl'), session: 'bbbbbbbb-1111-4c3d-9e8f-000000000002', source: 'none', evidence: 'the working directory is a home, root or temp folder, and nothing else in the transcript names the repository' },
    ]);
    // an alias pattern wins, and the table says so
    writeFileSync(join(root, 'compound.config.yaml'), "repo_aliases:\n  'spotter-*': spotter-app\n");
    const aliased = runCli(['repos', dir], { cwd: root });
    expect(aliased.stdout).toMatch(/spotter-app\s+alias: spotter-fum → spotter-app/);
  });

  it('rename moves a repo’s items, merges the ones the target holds, and commits the deletions', () => {
    const root = tempDir();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' }, stdio: 'pipe' }).toString();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const moving = makeItem('The asset build runs node build.js from assets/, not from the repository root.', { scope: 'repo', repo: 'spotter-dov', title: 'Asset build runs from assets/', evidence: 2, sources: [{ session: 's1', format: 'claude-code', event: 3 }] });
    const twin = makeItem('mix phx.server fails with eaddrinuse while an old BEAM holds port 4000; stop it first.', { scope: 'repo', repo: 'spotter-dov', category: 'pitfall', title: 'mix phx.server fails with eaddrinuse on port 4000', sources: [{ session: 's2', format: 'claude-code', event: 5 }] });
    const target = makeItem('`mix phx.server` fails with eaddrinuse when port 4000 is taken by an old BEAM process.', { scope: 'repo', repo: 'spotter', category: 'pitfall', title: 'mix phx.server fails with eaddrinuse when port 4000 is taken', evidence: 3, sources: [{ session: 's3', format: 'claude-code', event: 9 }] });
    const movingPath = writeItem(root, moving);
    const twinPath = writeItem(root, twin);
    const targetPath = writeItem(root, target);
    expect(runCli(['reindex'], { cwd: root }).code).toBe(0);
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'seed');

    const dry = runCli(['repos', 'rename', 'spotter-dov', 'spotter', '--dry-run'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('1 item(s) moved, 1 merged into spotter');
    expect(existsSync(join(root, movingPath))).toBe(true);

    const r = runCli(['repos', 'rename', 'spotter-dov', 'spotter', '--commit'], { cwd: root, env: GIT_ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, movingPath))).toBe(false);
    expect(existsSync(join(root, twinPath))).toBe(false);
    const moved = readdirSync(join(root, 'knowledge', 'repos', 'spotter', 'fact'));
    expect(moved).toEqual([movingPath.split('/').pop()]);
    const merged = readFileSync(join(root, targetPath), 'utf8');
    expect(merged).toMatch(/^evidence: 4$/m);
    expect(merged).toContain('session: s2');
    expect(runCli(['check'], { cwd: root }).code).toBe(0);
    expect(git('status', '--porcelain').trim()).toBe('');
    expect(git('show', '--name-status', '--format=', 'HEAD')).toContain(`D\t${twinPath}`);
  });
});

describe('harvest: dates and documents', () => {
  it('dates the items of a session without timestamps by the file, with a warning, never 1970', () => {
    const dir = tempDir();
    const file = join(dir, 'terminal-copy.md');
    writeFileSync(
      file,
      ['> run the tests', '', '✦ Running the test suite.', '', ' ╭──────────────────────────╮', ' │ ✔  Shell python3 -m pytest │', ' │                          │', ' │ TypeError: unsupported operand type(s) for |: \'type\' and \'NoneType\' │', ' ╰──────────────────────────╯', '', '✦ The code needs Python 3.10; running the tests with python3.11 fixed it.', ''].join('\n'),
    );
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const r = runCli(['harvest', dir, '--repo', 'shop'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const files = readdirSync(join(root, 'knowledge'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.md') && d.name !== 'README.md');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name), 'utf8')).not.toContain('1970-');
    expect(r.stderr).toContain("records no timestamps: its items are dated by the file's modification time");
  });

  it('does not read a document that shows a transcript format in a code block as that format', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'FORMATS.md'), ['# Formats', '', 'An Aider history looks like this:', '', '```', '# aider chat started at 2025-01-05 10:00:00', '', '#### fix the bug', '```', '', 'and SpecStory:', '', '```md', '_**User**_', '', 'hello', '', '_**Assistant**_', '', 'hi', '```', ''].join('\n'));
    const r = runCli(['sessions', 'list', dir, '--json'], { cwd: dir });
    expect(r.stderr).toContain('unknown transcript format');
    expect((JSON.parse(r.stdout) as { sessions: unknown[] }).sessions).toEqual([]);
  });
});
