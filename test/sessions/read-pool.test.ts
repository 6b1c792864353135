/**
 * Reading on worker threads (COMPOUND_READ_WORKERS) gives what reading in one thread gives: the
 * same file results, sessions and warnings in the same order. Runs the built dist/ in a child
 * process, since the worker script exists only there.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, cpSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir, TEST_SESSIONS } from './support.js';

const READ = resolve(process.cwd(), 'dist/sessions/read.js');
const SCRIPT = `
const { forEachSessionFile } = await import(${JSON.stringify(READ)});
const out = [];
const r = await forEachSessionFile([process.argv[1]], { prefetch: process.argv[2] !== 'no-prefetch' }, (f) => { out.push(f); });
process.stdout.write(JSON.stringify({ out, r }));`;

/** What a read gave, how many files worker threads read, and how many were read ahead. */
function readWith(
  dir: string,
  workers: string,
  flags: string[] = [],
  prefetch = true,
): { same: string; onWorkers: number | undefined; prefetched: number | undefined } {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', SCRIPT, dir, prefetch ? 'prefetch' : 'no-prefetch'], {
    env: { ...process.env, COMPOUND_READ_WORKERS: workers },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(r.status, r.stderr).toBe(0);
  const { out, r: read } = JSON.parse(r.stdout) as {
    out: unknown[];
    r: { warnings: unknown[]; summary: { filesOnWorkers?: number; filesPrefetched?: number } };
  };
  const { filesOnWorkers, filesPrefetched, ...summary } = read.summary;
  return { same: JSON.stringify({ out, warnings: read.warnings, summary }), onWorkers: filesOnWorkers, prefetched: filesPrefetched };
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

  it('gives the same results with the bytes read ahead on a thread of their own and without', () => {
    // enough files for the prefetch thread to start (test_sessions three times over), and a
    // file it cannot read: reported as when this thread reads it
    const dir = tempDir();
    for (const copy of ['a', 'b', 'c']) cpSync(TEST_SESSIONS, join(dir, copy), { recursive: true });
    const unreadable = join(dir, 'b', 'unreadable.jsonl');
    writeFileSync(unreadable, '{"role":"user","content":"hi"}\n');
    chmodSync(unreadable, 0o000);
    // the prefetch thread checks the bytes for ASCII and UTF-8: one file of each kind it must tell apart
    const chat = (text: string) => Buffer.from(`{"role":"user","content":"${text}"}\n{"role":"assistant","content":"ok"}\n`);
    writeFileSync(join(dir, 'c', 'ascii.jsonl'), chat('plain'));
    writeFileSync(join(dir, 'c', 'wide.jsonl'), chat('caf\u00e9 \u2713'));
    // a byte that is no UTF-8, inside a string: the line parses, with a warning for the byte
    writeFileSync(join(dir, 'c', 'invalid.jsonl'), Buffer.concat([Buffer.from('{"role":"user","content":"caf'), Buffer.from([0xff]), Buffer.from('"}\n'), chat('next')]));
    const ahead = readWith(dir, '0');
    const here = readWith(dir, '0', [], false);
    expect(here.prefetched).toBeUndefined();
    expect(ahead.prefetched).toBeGreaterThan(64);
    expect(ahead.same).toBe(here.same);
    // under the same flags the read workers get (see above)
    const flagged = readWith(dir, '0', ['--max-semi-space-size=32']);
    expect(flagged.prefetched).toBeGreaterThan(64);
    expect(flagged.same).toBe(here.same);
    if (process.getuid?.() !== 0) expect(JSON.parse(here.same).warnings.some((w: { file: string }) => w.file === unreadable)).toBe(true);
    const invalid = JSON.parse(here.same).warnings.filter((w: { file: string }) => w.file === join(dir, 'c', 'invalid.jsonl'));
    expect(invalid.map((w: { line?: number; message: string }) => [w.line, w.message])).toEqual([[1, 'invalid UTF-8 (bytes replaced with U+FFFD)']]);
  });
});
