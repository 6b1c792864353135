// applyPlan writes index.json before the ledger and the cache files and says so (indexWritten),
// so that the CLI can build the search structure on another thread while the rest is written;
// a cache file's content can be a function, called last, and left unwritten when it answers
// undefined. Real stores in temp dirs.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan, attachCacheFile, makePlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { emptyLedger } from '../../src/knowledge/ledger.js';
import { makeItem, tempDir } from '../helpers.js';

const INDEX = 'knowledge/index.json';
const LEDGER = 'knowledge/ledger.json';

function newStore(): string {
  const root = tempDir();
  initStore(root);
  return root;
}

describe('applyPlan hooks and lazy cache files', () => {
  it('calls indexWritten once the new index is on disk, before the ledger and the caches', () => {
    const root = newStore();
    const plan = makePlan([], [makeItem('Run `mix format` before committing.', { category: 'pattern' })]);
    plan.ledger = { ...emptyLedger(), emitted: ['x-1'] };
    const ledgerBefore = readFileSync(join(root, LEDGER), 'utf8');
    let rendered = false;
    attachCacheFile(plan, 'knowledge/.cache/test-cache.json', () => {
      rendered = true;
      return '{"a":1}\n';
    });
    const seen: { changed: boolean; index: string; ledger: string; rendered: boolean }[] = [];
    const result = applyPlan(root, plan, {
      indexWritten: (changed) => seen.push({ changed, index: readFileSync(join(root, INDEX), 'utf8'), ledger: readFileSync(join(root, LEDGER), 'utf8'), rendered }),
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.changed).toBe(true);
    expect(seen[0]!.index).toContain('mix format'); // the new index already
    expect(seen[0]!.ledger).toBe(ledgerBefore); // the ledger not yet
    expect(seen[0]!.rendered).toBe(false); // nor the cache
    expect(readFileSync(join(root, LEDGER), 'utf8')).toContain('x-1');
    expect(readFileSync(join(root, 'knowledge/.cache/test-cache.json'), 'utf8')).toBe('{"a":1}\n');
    expect(result.changed).toEqual([INDEX, LEDGER, expect.stringMatching(/^knowledge\/global\/pattern\//)].sort());
  });

  it('says the index did not change when it did not, and leaves a cache answering undefined unwritten', () => {
    const root = newStore();
    applyPlan(root, makePlan([], [makeItem('The staging database is reset nightly.')]));
    const plan = makePlan([], []);
    attachCacheFile(plan, 'knowledge/.cache/test-cache.json', () => undefined);
    const seen: boolean[] = [];
    const result = applyPlan(root, plan, { indexWritten: (changed) => seen.push(changed) });
    expect(seen).toEqual([false]);
    expect(result.changed).toEqual([]);
    expect(existsSync(join(root, 'knowledge/.cache/test-cache.json'))).toBe(false);
  });
});
