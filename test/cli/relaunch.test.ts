/**
 * The reading commands start Node again with a bigger young generation (src/cli/relaunch.ts):
 * when they do, with which flags, and that the second process gives the same output and exit
 * code as the first would have.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { NO_RELAUNCH_ENV, relaunchArgs, SEMI_SPACE_MB, shouldRelaunch } from '../../src/cli/relaunch.js';

const ROOT = process.cwd();
const CLI = resolve(ROOT, 'dist/cli/main.js');
const SOURCES = ['src/cli/main.ts', 'src/cli/relaunch.ts'];

beforeAll(() => {
  const built = resolve(ROOT, 'dist/cli/relaunch.js');
  const stale = !existsSync(built) || SOURCES.some((s) => statSync(resolve(ROOT, s)).mtimeMs > statSync(built).mtimeMs);
  if (stale) spawnSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
}, 180_000);

describe('shouldRelaunch', () => {
  it('the commands that read transcripts, unless the young generation is sized already or it is turned off', () => {
    expect(shouldRelaunch('sessions', [], {})).toBe(true);
    expect(shouldRelaunch('measure', ['--enable-source-maps'], {})).toBe(true);
    for (const other of ['bootstrap', 'check', 'init', 'list', 'show', 'reindex', 'harvest', 'sample', undefined]) {
      expect(shouldRelaunch(other, [], {}), String(other)).toBe(false);
    }
    expect(shouldRelaunch('sessions', ['--max-semi-space-size=16'], {})).toBe(false);
    expect(shouldRelaunch('sessions', [], { NODE_OPTIONS: '--max-semi-space-size=32' })).toBe(false);
    expect(shouldRelaunch('sessions', [], { [NO_RELAUNCH_ENV]: '1' })).toBe(false);
  });

  it('the second process gets the same flags, script and arguments, plus the semi-space size', () => {
    expect(relaunchArgs(['--enable-source-maps'], ['/usr/bin/node', '/x/main.js', 'sessions', 'list', '-C', 'a b'])).toEqual([
      '--enable-source-maps',
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      '/x/main.js',
      'sessions',
      'list',
      '-C',
      'a b',
    ]);
  });
});

describe('compound sessions, relaunched', () => {
  // every Node process of a run appends its flags to a file, through a preloaded script
  const dir = mkdtempSync(join(tmpdir(), 'compound-relaunch-'));
  const log = join(dir, 'flags.txt');
  const preload = join(dir, 'log-flags.cjs');
  writeFileSync(preload, `require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.execArgv) + '\\n');\n`);

  function run(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string; flags: string[][] } {
    writeFileSync(log, '');
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--require ${preload}`, ...env },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const flags = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string[]);
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, flags };
  }

  it('runs in a second Node with the flag, and prints and exits as the first would', () => {
    const relaunched = run(['sessions', 'list', 'test_sessions', '--json']);
    const direct = run(['sessions', 'list', 'test_sessions', '--json'], { [NO_RELAUNCH_ENV]: '1' });
    expect(relaunched.flags).toHaveLength(2);
    expect(relaunched.flags[0]).not.toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    expect(relaunched.flags[1]).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    expect(direct.flags).toHaveLength(1);
    expect(relaunched.code).toBe(0);
    expect(relaunched.stdout).toBe(direct.stdout);
    expect(relaunched.stderr).toBe(direct.stderr);
    expect((JSON.parse(relaunched.stdout) as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
  });

  it('passes on a failing exit code', () => {
    const missing = join(dir, 'no-such-dir');
    const relaunched = run(['sessions', 'list', missing]);
    const direct = run(['sessions', 'list', missing], { [NO_RELAUNCH_ENV]: '1' });
    expect(direct.code).not.toBe(0);
    expect(relaunched.code).toBe(direct.code);
    expect(relaunched.stderr).toBe(direct.stderr);
  });

  it('does not start a second Node for compound bootstrap', () => {
    const r = run(['bootstrap', '--help']);
    expect(r.code).toBe(0);
    expect(r.flags).toHaveLength(1);
  });
});
