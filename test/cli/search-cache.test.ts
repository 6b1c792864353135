// The search structure that a harvest of many files builds on a worker thread
// (SearchCacheBuilder, bootstrap/cache-worker.ts) is the one bootstrap would build from the
// index on disk, byte for byte; a failure on the worker is reported as on the main thread and
// never fails the command. Real stores in temp dirs; the worker runs dist/ (build first).
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SearchCacheBuilder } from '../../src/cli/search-cache.js';
import { STRUCTURE_FILE, writeSearchStructure } from '../../src/bootstrap/cache.js';
import { applyPlan, makePlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { makeItem, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

const WORKER = join(PROJECT_ROOT, 'dist', 'bootstrap', 'cache-worker.js');

/** The structure as `reindex` or bootstrap would write it now from the store's index.json
 * (index.json is left as it is, so its size and mtime are those the structure was built from). */
async function freshStructure(root: string): Promise<Buffer> {
  return Buffer.from(await writeSearchStructure(root));
}

/** A store holding these items, index.json written. */
function storeWith(...items: Parameters<typeof makeItem>[]): string {
  const root = tempDir();
  initStore(root);
  applyPlan(root, makePlan([], items.map(([text, meta]) => makeItem(text, meta))));
  return root;
}

/** Has `builder` build the structure of `root` (after `wait` ms: its worker may be gone by then), then stops it. */
async function buildWith(builder: SearchCacheBuilder, root: string, wait = 0): Promise<void> {
  try {
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    builder.start(root);
    await builder.finish(root);
  } finally {
    builder.close();
  }
}

describe('the search structure built on a worker thread', () => {
  it('is the structure of the index on disk', async () => {
    expect(existsSync(WORKER), 'build first (npm run build)').toBe(true);
    const root = storeWith(['Run `mix format` before committing.', { category: 'pattern' }], ['The staging database is reset nightly.', { scope: 'repo', repo: 'shop' }]);
    await buildWith(new SearchCacheBuilder(), root);
    const built = readFileSync(join(root, STRUCTURE_FILE));
    expect(built).toEqual(await freshStructure(root));
  });

  it('is built on this thread when the worker cannot start', async () => {
    const root = storeWith(['The staging database is reset nightly.', { scope: 'repo', repo: 'shop' }]);
    // lost by then, as after a long harvest
    await buildWith(new SearchCacheBuilder(new URL('../../dist/bootstrap/no-such-worker.js', import.meta.url)), root, 200);
    const built = readFileSync(join(root, STRUCTURE_FILE));
    expect(built).toEqual(await freshStructure(root));
  });

  it('a store whose index cannot be read gets no structure, and no error', async () => {
    const root = tempDir();
    initStore(root);
    writeFileSync(join(root, 'knowledge/index.json'), '{ not json');
    await buildWith(new SearchCacheBuilder(), root);
    expect(existsSync(join(root, STRUCTURE_FILE))).toBe(false);
  });

  it('a harvest of many transcripts (test_sessions/ three times over) writes the structure of its index', async () => {
    const root = tempDir();
    initStore(root);
    const t = join(root, 'transcripts');
    for (const copy of ['a', 'b', 'c']) cpSync(join(PROJECT_ROOT, 'test_sessions'), join(t, copy), { recursive: true });
    const res = runCli(['harvest', t, '--workers', '2'], { cwd: root });
    expect(res.code, res.stderr).toBe(0);
    // enough files to build it on the worker (64)
    const files = Number(/from (\d+) file\(s\)/.exec(res.stderr)?.[1]);
    expect(files).toBeGreaterThanOrEqual(64);
    expect(res.stderr).not.toContain('search cache was not rebuilt');
    const built = readFileSync(join(root, STRUCTURE_FILE));
    expect(built).toEqual(await freshStructure(root));
  });
});
