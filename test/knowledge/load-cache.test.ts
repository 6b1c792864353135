/**
 * The load cache (knowledge/.cache/load-v1.json) spares check and reindex the parsing and
 * scanning of files they have already found clean. It must never change a result: these tests
 * compare every run that uses it with a run from scratch, on a store with clean and bad files.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeItem, runCli, tempDir } from '../helpers.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';
import { checkStore } from '../../src/knowledge/check.js';
import { LoadCache, loadCacheFiles } from '../../src/knowledge/load-cache.js';
import { loadStoreParallel } from '../../src/knowledge/store-parallel.js';

const TOKEN = 'ghp_0123456789abcdefABCDEF0123456789abcd';

function store(): { root: string; rels: string[] } {
  const root = tempDir();
  const rels: string[] = [];
  for (let i = 0; i < 12; i++) {
    const item = makeItem(`Fact ${i}: run \`make setup-${i}\` before the tests.`, { scope: i % 2 ? 'repo' : 'global', ...(i % 2 ? { repo: 'api' } : {}) });
    const rel = itemPath(item.meta, `fact ${i}`);
    let text = serializeItem(item);
    if (i === 3) text = text.replace('confidence: 0.7', 'confidence: 1.7');
    if (i === 5) text = text.replace('before the tests', `with ${TOKEN}`);
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
    rels.push(rel);
  }
  return { root, rels };
}

/** What a check reports, in a form two runs can be compared by. */
async function check(root: string, cache: boolean): Promise<string> {
  const { store: s, problems } = await checkStore(root, { cache });
  return JSON.stringify({ items: s.items, problems });
}

const cachePath = (root: string) => loadCacheFiles(root)!.files;
const remembered = (root: string) => Object.keys((JSON.parse(readFileSync(cachePath(root), 'utf8')) as { files: object }).files).sort();

describe('load cache', () => {
  it('gives what a check from scratch gives, and remembers only clean files', async () => {
    const { root, rels } = store();
    const fresh = await check(root, false);
    expect(existsSync(cachePath(root))).toBe(false);
    expect(await check(root, true)).toBe(fresh);
    expect(remembered(root)).toEqual(rels.filter((_, i) => i !== 3 && i !== 5).sort());
    expect(await check(root, true)).toBe(fresh); // warm: every clean file a hit
    expect(fresh).toContain('E_SCHEMA_CONFIDENCE');
    expect(fresh).toContain('E_SECRET_GITHUB_TOKEN');
  });

  it('lives outside the repository, so a clone cannot bring one', async () => {
    const { root } = store();
    await check(root, true);
    expect(existsSync(cachePath(root))).toBe(true);
    expect(cachePath(root).startsWith(root)).toBe(false);
    expect(existsSync(join(root, 'knowledge/.cache'))).toBe(false);
  });

  it('checks a remembered file again when its bytes change', async () => {
    const { root, rels } = store();
    await check(root, true);
    const file = join(root, rels[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('before the tests', `with ${TOKEN}`));
    const warm = await check(root, true);
    expect(warm).toBe(await check(root, false));
    expect(warm).toContain(rels[0]!);
    expect(remembered(root)).not.toContain(rels[0]!);
  });

  it('a file only reindex has seen (no secret scan) is scanned by check', async () => {
    const { root, rels } = store();
    const fresh = await check(root, false);
    const cache = LoadCache.open(root);
    await loadStoreParallel(root, { cache }); // what reindex does
    cache.save();
    // reindex does not scan: the file with the token is remembered, but not as scanned
    expect(remembered(root)).toContain(rels[5]!);
    expect(await check(root, true)).toBe(fresh);
    expect(await check(root, true)).toBe(fresh);
  });

  it('ignores a damaged cache, and one written by other code', async () => {
    const { root, rels } = store();
    const fresh = await check(root, false);
    mkdirSync(join(cachePath(root), '..'), { recursive: true });
    writeFileSync(cachePath(root), '{"fingerprint": 1, "files": [');
    expect(await check(root, true)).toBe(fresh);
    // the same entries under another fingerprint, one of them claiming a clean meta for the
    // file with a schema problem: not trusted
    const doc = JSON.parse(readFileSync(cachePath(root), 'utf8')) as { fingerprint: string; files: Record<string, unknown[]> };
    const bad = rels[3]!;
    doc.files[bad] = [LoadCache.hashOf(readFileSync(join(root, bad))), 0, 1, doc.files[rels[1]!]![3]];
    writeFileSync(cachePath(root), JSON.stringify({ ...doc, fingerprint: 'other code' }));
    expect(await check(root, true)).toBe(fresh);
  });

  it('remembers an index found in sync, and finds it stale again when an item or the index changes', async () => {
    const { root, rels } = store();
    // a store whose files are all valid, with its index written
    for (const i of [3, 5]) rmSync(join(root, rels[i]!));
    expect(runCli(['reindex', '--no-cache'], { cwd: root }).code).toBe(0);
    const indexFile = join(root, 'knowledge/index.json');
    const fresh = await check(root, false);
    expect(fresh).not.toContain('E_INDEX');
    expect(await check(root, true)).toBe(fresh); // finds the index in sync and remembers it
    expect(existsSync(loadCacheFiles(root)!.memo)).toBe(true);
    expect(await check(root, true)).toBe(fresh); // from the memo
    // index.json edited by hand: not the remembered bytes
    const good = readFileSync(indexFile, 'utf8');
    writeFileSync(indexFile, good.replace('Fact 0:', 'Fact zero:'));
    expect(await check(root, true)).toContain('E_INDEX_STALE');
    writeFileSync(indexFile, good);
    expect(await check(root, true)).toBe(fresh);
    // an item edited: not the remembered files
    const file = join(root, rels[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('before the tests', 'before any test'));
    const edited = await check(root, true);
    expect(edited).toContain('E_INDEX_STALE');
    expect(edited).toBe(await check(root, false));
    // reindex from the cache rewrites the index, and the next check finds it in sync
    expect(runCli(['reindex'], { cwd: root }).stdout).toContain('updated');
    expect(runCli(['reindex'], { cwd: root }).stdout).toContain('unchanged');
    expect(await check(root, true)).not.toContain('E_INDEX');
    // and it is what a reindex from scratch writes
    expect(JSON.parse(runCli(['reindex', '--no-cache', '--dry-run', '--json'], { cwd: root }).stdout)).toMatchObject({ changed: false });
  });
});
