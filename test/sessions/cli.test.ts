/**
 * The built CLI as a child process: exit codes, stdout vs stderr, JSON shape, NO_COLOR.
 * Builds dist/ first when it is missing or older than the command sources.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir, TEST_SESSIONS } from './support.js';

const ROOT = process.cwd();
const CLI = resolve(ROOT, 'dist/cli/main.js');
const SOURCES = ['src/cli/sessions.ts', 'src/cli/sample.ts', 'src/sessions/read.ts', 'src/harvest/sample.ts'];

function stale(): boolean {
  const built = resolve(ROOT, 'dist/cli/sessions.js');
  if (!existsSync(CLI) || !existsSync(built)) return true;
  const t = statSync(built).mtimeMs;
  return SOURCES.some((s) => statSync(resolve(ROOT, s)).mtimeMs > t);
}

beforeAll(() => {
  // tsc still writes dist/ when another module has a type error; the check below decides
  if (stale()) spawnSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
}, 180_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], opts: { cwd?: string; env?: Record<string, string>; uid?: number } = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...opts.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const CC = join(TEST_SESSIONS, 'claude-code');

describe.skipIf(!existsSync(CLI) && !existsSync(resolve(ROOT, 'node_modules/typescript/bin/tsc')))('compound sessions / sample (built CLI)', () => {
  it('sessions list --json: one row per session, summary, exit 0; stdout is only the JSON', () => {
    const r = run(['sessions', 'list', CC, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { sessions: { id: string; toolCalls: number; toolErrors: number; parentId?: string; subagent?: string }[]; summary: Record<string, number> };
    expect(out.summary).toEqual({ files: 7, filesRead: 7, filesFailed: 0, sessions: 7, warnings: 1 });
    const sub = out.sessions.find((s) => s.id.endsWith('/agent-a1f2c3d'))!;
    expect(sub).toMatchObject({ parentId: '1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01', subagent: 'Explore' });
    expect(out.sessions.find((s) => s.id === '7c93d1aa-0b44-4e2b-8f7d-5e61c0a4b3f2')).toMatchObject({ toolCalls: 7, toolErrors: 3 });
    expect(r.stderr).toContain('partial-truncated.jsonl:8');
    expect(r.stderr).toContain('read 7 of 7 files, 7 sessions, 1 warnings');
  });

  it('sessions list: a table for people, byte-identical across runs', () => {
    const a = run(['sessions', 'list', CC, join(TEST_SESSIONS, 'codex')]);
    const b = run(['sessions', 'list', join(TEST_SESSIONS, 'codex'), CC]);
    expect(a.code).toBe(0);
    const lines = a.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+FORMAT\s+AGENT\s+REPO\s+EVENTS\s+TOOLS\s+ERRORS\s+START\s+SIZE$/);
    expect(lines).toHaveLength(14);
    expect(lines.some((l) => /claude-code:Explore\s+invoice-api/.test(l))).toBe(true);
    expect(b.stdout).toBe(a.stdout);
  });

  it('--strict turns warnings into exit 1; nothing readable is exit 1; bad flags are exit 2', () => {
    expect(run(['sessions', 'list', CC, '--strict']).code).toBe(1);
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'notes.md'), '# not a transcript\n');
    const none = run(['sessions', 'list', dir]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('empty.jsonl: empty file');
    expect(none.stderr).toContain('notes.md: unknown transcript format');
    expect(run(['sessions', 'list', CC, '--format', 'nope']).code).toBe(2);
    expect(run(['sessions', 'list', CC, '--from', 'cursor']).code).toBe(2);
    expect(run(['sessions', 'list']).code).toBe(2);
    expect(run(['sessions', 'list', CC, '--no-such-flag']).code).toBe(2);
  });

  it('--format forces a reader; --from finds the default locations under HOME', () => {
    const home = tempDir();
    const dest = join(home, '.claude/projects/-home-dev-src-invoice-api');
    mkdirSync(dest, { recursive: true });
    copyFileSync(join(CC, 'failed-migration.jsonl'), join(dest, 'failed-migration.jsonl'));
    const r = run(['sessions', 'list', '--from', 'claude', '--json'], { env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).sessions).toHaveLength(1);
    const forced = run(['sessions', 'list', join(CC, 'open-questions.jsonl'), '--format', 'codex', '--json']);
    expect(JSON.parse(forced.stdout).sessions[0].format).toBe('codex');
  });

  it('sessions show: a readable timeline with flags; --json gives the normalized session', () => {
    const file = join(CC, 'failed-migration.jsonl');
    const r = run(['sessions', 'show', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('session 7c93d1aa-0b44-4e2b-8f7d-5e61c0a4b3f2');
    expect(r.stdout).toMatch(/\n 2 {2}16:40:13 {2}tool_result \[error,exit=1\] Bash → Exit code 1/);
    expect(r.stdout).toContain('[error,cascade]');
    expect(r.stdout).toContain('[error,rejected]');
    const j = run(['sessions', 'show', file, '--json']);
    const sessions = JSON.parse(j.stdout) as { events: { index: number; kind: string; source: { line: number } }[] }[];
    expect(sessions[0]!.events[0]).toMatchObject({ index: 0, kind: 'user', source: { line: 2 } });
    expect(run(['sessions', 'show', join(tempDir(), 'missing.jsonl')]).code).toBe(1);
  });

  it('sample: table, JSON and paths; validation errors exit 2', () => {
    const json = run(['sample', CC, join(TEST_SESSIONS, 'codex'), '--format', 'json', '--count', '3']);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as { score: number; parts: Record<string, number> }[];
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!.parts)).toEqual(['recency', 'failures', 'size', 'firstForRepo', 'toolCalls']);
    const paths = run(['sample', CC, '--format', 'paths', '--repo', 'invoice-api']);
    expect(paths.stdout.trimEnd().split('\n')).toHaveLength(7);
    const table = run(['sample', CC]);
    expect(table.stdout.split('\n')[0]).toMatch(/^SCORE\s+RECENT\s+FAIL\s+SIZE\s+FIRST\s+TOOLS\s+FORMAT\s+REPO\s+ENDED\s+BYTES\s+FILE$/);
    expect(run(['sample', CC, '--min-score', '2']).code).toBe(2);
    expect(run(['sample', CC, '--since', 'yesterday-ish']).code).toBe(2);
    expect(run(['sample', CC, '--format', 'xml']).code).toBe(2);
    expect(run(['sample', CC, '--count', '0']).code).toBe(2);
  });

  it('respects NO_COLOR even when colour is forced', () => {
    const coloured = run(['sessions', 'list', CC], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(coloured.stderr).toContain('\u001b[');
    const plain = run(['sessions', 'list', CC], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stderr).not.toContain('\u001b[');
    expect(plain.stdout).not.toContain('\u001b[');
  });

  // As root, chmod 000 does not stop reads; a child running as "nobody" shows the real behaviour.
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  it.skipIf(!root)('an unreadable file is a warning; with nothing else to read the exit code is 1', () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const file = join(dir, 'secret.jsonl');
    copyFileSync(join(CC, 'open-questions.jsonl'), file);
    chmodSync(file, 0o000);
    const r = run(['sessions', 'list', file], { uid: 65534, cwd: '/' });
    chmodSync(file, 0o644);
    if (r.stderr.includes('EACCES') && r.stderr.includes('main.js')) return; // nobody cannot even load the CLI here
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: cannot read: permission denied`);
  });
});
