/** Commands that cannot surprise a new user (issue 36): slips are usage errors, nothing is
 * made or overwritten by accident. */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

describe('no surprises', () => {
  it('-C with a directory that does not exist is a usage error', () => {
    const r = runCli(['-C', '/nope/not/here', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-C /nope/not/here: no such directory');
  });

  it('commands that need a store say so outside one and create nothing', () => {
    const dir = tempDir();
    for (const args of [['harvest', join(PROJECT_ROOT, 'test_sessions')], ['reindex'], ['measure', '--sessions', join(PROJECT_ROOT, 'test_sessions')]]) {
      const r = runCli(args, { cwd: dir });
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr).toContain('compound init');
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('measure --sessions with a mistyped path leaves the dashboard as it was', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    expect(runCli(['measure', '--sessions', join(PROJECT_ROOT, 'test_sessions', 'claude-code')], { cwd: root }).code).toBe(0);
    const before = readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
    const r = runCli(['measure', '--sessions', '/typo/transcripts'], { cwd: root });
    expect(r.code).toBe(2);
    expect(readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8')).toBe(before);
  });

  it('sample takes --json; show says how long an id prefix must be', () => {
    const r = runCli(['sample', join(PROJECT_ROOT, 'test_sessions', 'claude-code'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { file: string; score: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]!.file).toContain('claude-code');
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const s = runCli(['show', '3f2'], { cwd: root });
    expect(s.code).not.toBe(0);
    expect(s.stderr).toContain('at least 4 of the 10 characters');
    expect(existsSync(join(root, 'knowledge'))).toBe(true);
  });

  it('the input format is --input-format; --format still works there for one release, with a warning', () => {
    const file = join(PROJECT_ROOT, 'test_sessions', 'claude-code', 'failed-migration.jsonl');
    const a = runCli(['sessions', 'list', file, '--input-format', 'claude-code', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).not.toContain('deprecated');
    const b = runCli(['sessions', 'list', file, '--format', 'claude-code', '--json']);
    expect(b.code).toBe(0);
    expect(b.stderr).toContain('--format is deprecated here: use --input-format');
    expect(b.stdout).toBe(a.stdout);
  });

  it('bootstrap --write AGENTS.md and --format codex write the same file, at the repository root', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(join(root, 'sub'));
    expect(runCli(['bootstrap', '--format', 'codex', '--repo', 'x'], { cwd: join(root, 'sub') }).code).toBe(0);
    const codex = readFileSync(join(root, 'AGENTS.md'), 'utf8');
    rmSync(join(root, 'AGENTS.md'));
    expect(runCli(['bootstrap', '--write', 'AGENTS.md', '--format', 'codex', '--repo', 'x'], { cwd: join(root, 'sub') }).code).toBe(0);
    expect(existsSync(join(root, 'sub', 'AGENTS.md'))).toBe(false);
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(codex);
  });
});
