/**
 * Reading on worker threads (COMPOUND_READ_WORKERS) gives what reading in one thread gives: the
 * same file results, sessions and warnings in the same order. Runs the built dist/ in a child
 * process, since the worker script exists only there.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir, TEST_SESSIONS } from './support.js';

const READ = resolve(process.cwd(), 'dist/sessions/read.js');
const SCRIPT = `
const { forEachSessionFile } = await import(${JSON.stringify(READ)});
const out = [];
const r = await forEachSessionFile([process.argv[1]], {}, (f) => { out.push(f); });
process.stdout.write(JSON.stringify({ out, r }));`;

function readWith(dir: string, workers: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, dir], {
    env: { ...process.env, COMPOUND_READ_WORKERS: workers },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe.skipIf(!existsSync(READ))('read pool', () => {
  it('gives the same results with 0, 1 and 3 workers', () => {
    // enough files for the pool to start (test_sessions three times over)
    const dir = tempDir();
    for (const copy of ['a', 'b', 'c']) cpSync(TEST_SESSIONS, join(dir, copy), { recursive: true });
    const one = readWith(dir, '0');
    expect(JSON.parse(one).out.length).toBeGreaterThanOrEqual(32);
    expect(readWith(dir, '1')).toBe(one);
    expect(readWith(dir, '3')).toBe(one);
  });
});
