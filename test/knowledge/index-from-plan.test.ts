// applyPlan builds index.json from the store the plan was made from plus what the plan writes
// (attachStore) instead of parsing every item file again. These tests hold that index to what
// `compound reindex` computes from the files on disk, byte for byte, and check that every case
// where memory and disk could differ falls back to reading the disk.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStore } from '../../src/knowledge/store.js';
import { applyPlan, attachStore, itemsAfter, makePlan, type Plan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';
import { buildIndex, renderIndex } from '../../src/knowledge/index-file.js';
import type { Item } from '../../src/knowledge/item.js';
import { harvest } from '../../src/harvest/harvest.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { makeItem, tempDir, PROJECT_ROOT } from '../helpers.js';

/** What `compound reindex` writes: the index of the valid items loaded from disk. */
function reindexText(root: string): string {
  return renderIndex(buildIndex(loadStore(root).items));
}

function indexText(root: string): string {
  return readFileSync(join(root, 'knowledge/index.json'), 'utf8');
}

function writeItem(root: string, item: Item): string {
  const rel = itemPath(item.meta, item.meta.title ?? item.body);
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem(item));
  return rel;
}

const seedItems = (): Item[] => [
  makeItem('Run `mix format` before committing.', { category: 'pattern' }),
  makeItem('The staging database is reset nightly.', { scope: 'repo', repo: 'shop' }),
  makeItem('Use `--frozen-lockfile` in CI.', { category: 'pitfall', scope: 'repo', repo: 'shop', tags: ['ci', 'npm'] }),
  makeItem('Codex sandboxes deny network by default.', { category: 'tool-quirk', scope: 'agent', agent: 'codex' }),
  makeItem('Ask before deleting migrations.', { category: 'question', title: 'Deleting migrations' }),
];

/** A store seeded with items, loaded, and a plan over it that adds, updates, removes and keeps. */
function storeAndPlan(): { root: string; plan: Plan; base: ReturnType<typeof loadStore> } {
  const root = tempDir();
  initStore(root);
  applyPlan(root, makePlan([], seedItems()));
  const store = loadStore(root);
  expect(store.problems).toEqual([]);
  const [keep, change, drop, agentItem] = store.items;
  const changed: Item = { meta: { ...change!.meta, evidence: change!.meta.evidence + 1, tags: ['new-tag'] }, body: `${change!.body.trim()} Also on Sundays.\n` };
  const desired: Item[] = [
    { meta: keep!.meta, body: keep!.body },
    changed,
    { meta: agentItem!.meta, body: agentItem!.body },
    makeItem('Brand new fact about the build.', { scope: 'repo', repo: 'web' }),
    makeItem('Another new one, with a title.', { category: 'pitfall', title: 'Titled pitfall' }),
  ];
  const plan = makePlan(store.items, desired, [drop!.meta.id]);
  attachStore(plan, store);
  return { root, plan, base: store };
}

describe('index.json from the items in memory', () => {
  it('is byte-identical to reindex, and memory was used', () => {
    const { root, plan, base } = storeAndPlan();
    const result = applyPlan(root, plan);
    expect(result.changed).toContain('knowledge/index.json');
    expect(result.removed).toHaveLength(1);
    expect(indexText(root)).toBe(reindexText(root));
    // what applyPlan computed from memory (the disk now matches store + plan, so it is used)
    const items = itemsAfter(root, base.items, plan);
    expect(items).toBeDefined();
    expect(renderIndex(buildIndex(items!))).toBe(reindexText(root));
    expect(items!.length).toBe(loadStore(root).items.length);
  });

  it('a plan with no changes keeps the index as reindex has it', () => {
    const root = tempDir();
    initStore(root);
    applyPlan(root, makePlan([], seedItems()));
    const store = loadStore(root);
    const plan = makePlan(store.items, store.items);
    attachStore(plan, store);
    expect(applyPlan(root, plan).changed).toEqual([]);
    expect(indexText(root)).toBe(reindexText(root));
  });

  it("a reviewer's edit made after the store was loaded is read from disk", () => {
    const { root, plan } = storeAndPlan();
    const victim = loadStore(root).items.find((i) => i.meta.category === 'tool-quirk')!;
    const file = join(root, victim.path);
    writeFileSync(file, readFileSync(file, 'utf8').replace('deny network', 'deny all network'));
    applyPlan(root, plan);
    expect(indexText(root)).toContain('deny all network');
    expect(indexText(root)).toBe(reindexText(root));
  });

  it('an item another writer added after the store was loaded is indexed', () => {
    const { root, plan } = storeAndPlan();
    writeItem(root, makeItem('Written by someone else meanwhile.'));
    applyPlan(root, plan);
    expect(indexText(root)).toContain('Written by someone else meanwhile.');
    expect(indexText(root)).toBe(reindexText(root));
  });

  it('an item deleted meanwhile is left out', () => {
    const { root, plan } = storeAndPlan();
    const gone = loadStore(root).items.find((i) => i.meta.category === 'tool-quirk')!;
    unlinkSync(join(root, gone.path));
    applyPlan(root, plan);
    expect(indexText(root)).not.toContain(gone.meta.id);
    expect(indexText(root)).toBe(reindexText(root));
  });

  it('a written item that loading would reject or flag falls back to the disk', () => {
    for (const bad of [
      makeItem('Unsafe agent name.', { scope: 'agent', agent: 'codex' }), // moved to the wrong folder below
      makeItem('x'.repeat(1300)), // body too long: loaded with a problem
    ]) {
      const root = tempDir();
      initStore(root);
      applyPlan(root, makePlan([], seedItems()));
      const store = loadStore(root);
      const plan = makePlan(store.items, [bad]);
      if (bad.meta.agent) plan.entries[0]!.path = plan.entries[0]!.path.replace('/agents/codex/', '/agents/other/');
      attachStore(plan, store);
      applyPlan(root, plan);
      expect(itemsAfter(root, store.items, plan)).toBeUndefined();
      expect(indexText(root)).toBe(reindexText(root));
    }
  });

  it('a duplicate id between a written item and a kept one falls back to the disk', () => {
    const root = tempDir();
    initStore(root);
    applyPlan(root, makePlan([], seedItems()));
    const store = loadStore(root);
    const twin = store.items[0]!;
    const plan: Plan = { entries: [{ action: 'add', path: twin.path.replace(/\.md$/, '-copy.md').replace(/[^/]*-copy\.md$/, `copy-${twin.meta.id}.md`), id: twin.meta.id, category: twin.meta.category, scope: twin.meta.scope, title: 'copy', content: serializeItem(twin) }] };
    attachStore(plan, store);
    applyPlan(root, plan);
    expect(itemsAfter(root, store.items, plan)).toBeUndefined();
    expect(indexText(root)).toBe(reindexText(root));
  });

  it('a store loaded with problems is not used; links make the walk fall back', () => {
    const root = tempDir();
    initStore(root);
    applyPlan(root, makePlan([], seedItems()));
    writeFileSync(join(root, 'knowledge/global/pattern/broken.md'), 'not an item\n');
    const store = loadStore(root);
    expect(store.problems.length).toBeGreaterThan(0);
    const plan = makePlan(store.items, [makeItem('One more.')]);
    attachStore(plan, store);
    applyPlan(root, plan);
    expect(indexText(root)).toBe(reindexText(root));

    const clean = tempDir();
    initStore(clean);
    applyPlan(clean, makePlan([], seedItems()));
    const loaded = loadStore(clean);
    const plan2 = makePlan(loaded.items, [makeItem('Yet another.')]);
    attachStore(plan2, loaded);
    symlinkSync(join(clean, 'knowledge/global'), join(clean, 'knowledge/repos/link'));
    applyPlan(clean, plan2);
    expect(itemsAfter(clean, loaded.items, plan2)).toBeUndefined();
    expect(indexText(clean)).toBe(reindexText(clean));
  });

  it('a real harvest and its rerun write the index reindex writes', async () => {
    const root = tempDir();
    initStore(root);
    const inputs = [join(PROJECT_ROOT, 'test_sessions')];
    const first = await harvest({ root, inputs, extract: extractSession });
    applyPlan(root, first.plan);
    expect(loadStore(root).items.length).toBeGreaterThan(0);
    expect(indexText(root)).toBe(reindexText(root));
    const again = await harvest({ root, inputs, extract: extractSession });
    applyPlan(root, again.plan);
    expect(indexText(root)).toBe(reindexText(root));
  });
});
