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

/** What a read gave, and how many files worker threads read. */
function readWith(dir: string, workers: string, flags: string[] = []): { same: string; onWorkers: number | undefined } {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', SCRIPT, dir], {
    env: { ...process.env, COMPOUND_READ_WORKERS: workers },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(r.status, r.stderr).toBe(0);
  const { out, r: read } = JSON.parse(r.stdout) as { out: unknown[]; r: { warnings: unknown[]; summary: { filesOnWorkers?: number } } };
  const { filesOnWorkers, ...summary } = read.summary;
  return { same: JSON.stringify({ out, warnings: read.warnings, summary }), onWorkers: filesOnWorkers };
}

describe.skipIf(!existsSync(READ))('read pool', () => {
  it('gives the same results with 0, 1 and 3 workers', () => {
    // enough files for the pool to start (test_sessions three times over)
    const dir = tempDir();
    for (const copy of ['a', 'b', 'c']) cpSync(TEST_SESSIONS, join(dir, copy), { recursive: true });
    const one = readWith(dir, '0');
    expect(JSON.parse(one.same).out.length).toBeGreaterThanOrEqual(32);
    expect(one.onWorkers).toBeUndefined();
    // run as \`node --input-type=module -e\`: workers inherit that flag unless the pool drops it,
    // and then fail at start-up, leaving every file to this thread (and this test to nothing)
    for (const workers of ['1', '3']) {
      const pooled = readWith(dir, workers);
      expect(pooled.same).toBe(one.same);
      expect(pooled.onWorkers).toBeGreaterThan(0);
    }
    // a process-wide V8 flag too: Node refuses it in a worker's explicit flags
    const flagged = readWith(dir, '1', ['--max-semi-space-size=32']);
    expect(flagged.same).toBe(one.same);
    expect(flagged.onWorkers).toBeGreaterThan(0);
  });
});
