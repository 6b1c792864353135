import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// check's load cache (and any other per-user cache) goes to a fresh directory per test run,
// never to the home directory of whoever runs the tests; the CLI children inherit it
if (!process.env.COMPOUND_CACHE_DIR) {
  const cache = mkdtempSync(join(tmpdir(), 'compound-test-cache-'));
  process.env.COMPOUND_CACHE_DIR = cache;
  process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
}
// no detached search-structure rebuilds outliving the tests that started them (one test turns it on)
process.env.COMPOUND_BACKGROUND_REBUILD ??= '0';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // most suites wait on CLI child processes: two test files at once on this 2-core machine ran
    // the suite in 141 s instead of 224 s (one file at a time), every test the same
    maxWorkers: 2,
  },
});
