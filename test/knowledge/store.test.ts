import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync, symlinkSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { loadStore } from '../../src/knowledge/store.js';
import { makePlan, applyPlan, countPlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath, sanitizeName, slugFor, LOCK_FILE } from '../../src/knowledge/paths.js';
import { buildIndex, renderIndex } from '../../src/knowledge/index-file.js';
import { acquireLock } from '../../src/knowledge/lock.js';
import { renderLedger, parseLedger } from '../../src/knowledge/ledger.js';
import { makeItem, tempDir, PROJECT_ROOT } from '../helpers.js';
import { isCompoundError } from '../../src/core/errors.js';

function writeItem(root: string, text: string, meta: Parameters<typeof makeItem>[1] = {}): string {
  const item = makeItem(text, meta);
  const rel = itemPath(item.meta, text);
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem(item));
  return rel;
}

/** Every file under dir with its bytes, to prove that nothing else was modified. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[p.slice(dir.length)] = readFileSync(p, 'base64');
    }
  };
  walk(dir);
  return out;
}

describe('paths', () => {
  it('sanitises hostile repo names into one safe segment', () => {
    expect(sanitizeName('../../etc')).toBe('etc');
    expect(sanitizeName('..')).toBe('unnamed');
    expect(sanitizeName('a/b\\c')).toBe('a-b-c');
    expect(sanitizeName('Spötter App')).toBe('spotter-app');
    const path = itemPath({ scope: 'repo', repo: '../../etc', category: 'fact', id: '0123456789' }, 'x');
    expect(path).toBe('knowledge/repos/etc/fact/x-0123456789.md');
  });

  it('makes readable ASCII slugs of at most 60 characters ending in the id', () => {
    const slug = slugFor('The Read tool rejects files over 256 KB; pass offset and limit to page through them', 'abcdef0123');
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).toMatch(/^read-tool-rejects-files-over-256-kb-pass-[a-z-]*abcdef0123$/);
  });
});

describe('loading a store', () => {
  it('loads valid items and reports bad ones by file without losing the good ones', () => {
    const root = tempDir();
    initStore(root);
    const good = writeItem(root, 'Port 4000 is used by the Phoenix dev server.', { scope: 'repo', repo: 'spotter' });
    mkdirSync(join(root, 'knowledge/global/fact'), { recursive: true });
    writeFileSync(join(root, 'knowledge/global/fact/bad-0000000000.md'), '---\nid: [\n---\nx\n');
    writeFileSync(join(root, 'knowledge/global/fact/empty-1111111111.md'), '');
    const store = loadStore(root);
    expect(store.items.map((i) => i.path)).toEqual([good]);
    expect(store.problems.map((p) => [p.file, p.code])).toEqual([
      ['knowledge/global/fact/bad-0000000000.md', 'E_ITEM_YAML'],
      ['knowledge/global/fact/empty-1111111111.md', 'E_ITEM_EMPTY'],
    ]);
  });

  it('flags duplicate ids, a wrong folder, an id that does not match the file name, unsafe names', () => {
    const root = tempDir();
    const item = makeItem('Use pnpm, not npm, in this repo.', { scope: 'repo', repo: 'web' });
    const text = serializeItem(item);
    const dir = join(root, 'knowledge/repos/web/fact');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `use-pnpm-${item.meta.id}.md`), text);
    writeFileSync(join(dir, `copy-${item.meta.id}.md`), text);
    mkdirSync(join(root, 'knowledge/global/pitfall'), { recursive: true });
    const other = makeItem('Another fact.', { id: 'aaaaaaaaaa' });
    writeFileSync(join(root, 'knowledge/global/pitfall/another-aaaaaaaaaa.md'), serializeItem(other));
    writeFileSync(join(root, 'knowledge/global/pitfall/renamed-bbbbbbbbbb.md'), serializeItem(makeItem('Third.', { id: 'cccccccccc', category: 'pitfall' })));
    const hostile = makeItem('Hostile.', { scope: 'repo', repo: '../../etc' });
    mkdirSync(join(root, 'knowledge/repos/etc/fact'), { recursive: true });
    writeFileSync(join(root, `knowledge/repos/etc/fact/hostile-${hostile.meta.id}.md`), serializeItem(hostile));
    const codes = loadStore(root).problems.map((p) => p.code).sort();
    expect(codes).toEqual(['E_ITEM_DUPLICATE_ID', 'E_ITEM_ID_MISMATCH', 'E_ITEM_PATH', 'E_ITEM_UNSAFE_NAME']);
  });

  it('never follows a symlink pointing outside knowledge/', () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), serializeItem(makeItem('Outside.')));
    mkdirSync(join(root, 'knowledge/global/fact'), { recursive: true });
    symlinkSync(join(outside, 'secret.md'), join(root, 'knowledge/global/fact/outside-0000000000.md'));
    symlinkSync(outside, join(root, 'knowledge/global/linked-dir'));
    const store = loadStore(root);
    expect(store.items).toEqual([]);
    expect(store.problems.map((p) => p.code)).toEqual(['E_ITEM_SYMLINK', 'E_ITEM_SYMLINK']);
  });
});

describe('index.json', () => {
  it('is byte-identical whatever order the files were written and read in', () => {
    const texts = Array.from({ length: 30 }, (_, i) => `Fact number ${i} about the build.`);
    const a = tempDir();
    const b = tempDir();
    texts.forEach((t, i) => writeItem(a, t, { category: i % 2 ? 'fact' : 'pitfall', scope: i % 3 ? 'global' : 'repo', repo: i % 3 ? undefined : 'r' }));
    [...texts].reverse().forEach((t) => {
      const i = texts.indexOf(t);
      writeItem(b, t, { category: i % 2 ? 'fact' : 'pitfall', scope: i % 3 ? 'global' : 'repo', repo: i % 3 ? undefined : 'r' });
    });
    const ia = renderIndex(buildIndex(loadStore(a).items));
    const ib = renderIndex(buildIndex([...loadStore(b).items].reverse()));
    expect(ia).toBe(ib);
    const parsed = JSON.parse(ia);
    expect(parsed.counts.total).toBe(30);
    expect(Object.keys(parsed.items[0])).toEqual(['id', 'path', 'category', 'scope', 'repo', 'agent', 'confidence', 'evidence', 'first_seen', 'last_seen', 'status', 'tags', 'title', 'text']);
  });

  it('carries a reviewer edit of the body into the index on reindex', () => {
    const root = tempDir();
    initStore(root);
    const rel = writeItem(root, 'Run `mix format` before committing.', { category: 'pattern' });
    applyPlan(root, { entries: [] });
    const file = join(root, rel);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Run `mix format` before committing.', 'Run `mix format --check-formatted` in CI.'));
    applyPlan(root, { entries: [] });
    const index = JSON.parse(readFileSync(join(root, 'knowledge/index.json'), 'utf8'));
    expect(index.items[0].text).toBe('Run `mix format --check-formatted` in CI.');
  });
});

describe('plan and apply', () => {
  it('plans add, update, remove and unchanged, and applies atomically', () => {
    const root = tempDir();
    initStore(root);
    const keep = makeItem('Keep me.');
    const change = makeItem('Change me.');
    const drop = makeItem('Drop me.');
    applyPlan(root, makePlan([], [keep, change, drop]));
    const store = loadStore(root);
    expect(store.items).toHaveLength(3);
    const changed = { ...change, meta: { ...change.meta, evidence: 2 } };
    const fresh = makeItem('Brand new.');
    const plan = makePlan(store.items, [keep, changed, fresh], [drop.meta.id]);
    expect(countPlan(plan)).toEqual({ add: 1, update: 1, remove: 1, unchanged: 1 });
    const before = snapshot(root);
    const result = applyPlan(root, plan);
    expect(result.removed).toHaveLength(1);
    expect(result.changed).toContain('knowledge/index.json');
    const after = loadStore(root);
    expect(after.items.map((i) => i.meta.id).sort()).toEqual([keep.meta.id, change.meta.id, fresh.meta.id].sort());
    // the unchanged item kept its bytes
    const keptPath = store.items.find((i) => i.meta.id === keep.meta.id)!.path;
    expect(readFileSync(join(root, keptPath), 'base64')).toBe(before[`/${keptPath}`]);
    // no temp files left behind
    expect(Object.keys(snapshot(root)).filter((p) => p.includes('.tmp-'))).toEqual([]);
  });

  it('an unchanged item in a reviewer\'s own formatting is not rewritten', () => {
    const root = tempDir();
    initStore(root);
    const item = makeItem('Tabs, not spaces, in Makefiles.', { tags: ['make'] });
    applyPlan(root, makePlan([], [item]));
    const rel = loadStore(root).items[0]!.path;
    const file = join(root, rel);
    const restyled = readFileSync(file, 'utf8').replace('tags: [make]', 'tags:\n  - make');
    writeFileSync(file, restyled);
    const plan = makePlan(loadStore(root).items, [item]);
    expect(countPlan(plan).unchanged).toBe(1);
    applyPlan(root, plan);
    expect(readFileSync(file, 'utf8')).toBe(restyled);
  });

  it('refuses to write outside knowledge/', () => {
    const root = tempDir();
    const plan = makePlan([], [makeItem('x')]);
    plan.entries[0]!.path = 'knowledge/../../escape.md';
    expect(() => applyPlan(root, plan)).toThrow(/outside/);
    expect(existsSync(join(root, '..', 'escape.md'))).toBe(false);
  });
});

describe('ledger', () => {
  it('is sorted and deterministic', () => {
    const a = renderLedger({ version: 1, sessions: [{ id: 'b', format: 'codex', hash: 'h2', bytes: 2, events: 1 }, { id: 'a', format: 'claude-code', hash: 'h1', bytes: 1, events: 3 }], emitted: ['z', 'y', 'z'], files: ['f2', 'f1'] });
    const b = renderLedger(parseLedger(a));
    expect(a).toBe(b);
    expect(JSON.parse(a).sessions.map((s: { id: string }) => s.id)).toEqual(['a', 'b']);
    expect(JSON.parse(a).emitted).toEqual(['y', 'z']);
  });
});

describe('the writer lock', () => {
  it('a second writer waits briefly, then fails with E_LOCKED', async () => {
    const root = tempDir();
    // held by another live process of this host (this one's parent; within one process the lock nests)
    mkdirSync(join(root, 'knowledge'), { recursive: true });
    writeFileSync(join(root, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname() }));
    let err: unknown;
    try {
      acquireLock(join(root, LOCK_FILE), { waitMs: 150 });
    } catch (e) {
      err = e;
    }
    expect(isCompoundError(err) && err.code).toBe('E_LOCKED');
    rmSync(join(root, LOCK_FILE));
    acquireLock(join(root, LOCK_FILE), { waitMs: 0 })();
  });

  it('two processes applying plans to one store never interleave', async () => {
    const root = tempDir();
    initStore(root);
    const script = (n: number) => `
      import { applyPlan, makePlan } from ${JSON.stringify(join(PROJECT_ROOT, 'dist/knowledge/plan.js'))};
      import { loadStore } from ${JSON.stringify(join(PROJECT_ROOT, 'dist/knowledge/store.js'))};
      import { itemId } from ${JSON.stringify(join(PROJECT_ROOT, 'dist/knowledge/ids.js'))};
      const items = Array.from({ length: 200 }, (_, i) => { const text = 'Writer ${n} item ' + i + '.'; return { meta: { id: itemId({ category: 'fact', scope: 'global', text }), category: 'fact', scope: 'global', confidence: 0.5, evidence: 1, first_seen: '2026-01-01', last_seen: '2026-01-01', status: 'active', tags: [], sources: [] }, body: text + '\\n' }; });
      try { applyPlan(process.argv[1], makePlan(loadStore(process.argv[1]).items, items)); console.log('ok'); }
      catch (e) { console.log(e.code); }`;
    const run = (n: number) =>
      new Promise<string>((resolve) => {
        const p = spawn(process.execPath, ['--input-type=module', '-e', script(n), root], { env: { ...process.env, COMPOUND_LOCK_WAIT_MS: '20000' } });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.on('close', () => resolve(out.trim()));
      });
    const results = await Promise.all([run(1), run(2)]);
    expect(results).toEqual(['ok', 'ok']);
    const index = JSON.parse(readFileSync(join(root, 'knowledge/index.json'), 'utf8'));
    expect(index.counts.total).toBe(400);
    expect(statSync(join(root, 'knowledge')).isDirectory()).toBe(true);
    expect(existsSync(join(root, LOCK_FILE))).toBe(false);
  });
});
