import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeItem, runCli, tempDir } from '../helpers.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';
import { loadCacheFiles } from '../../src/knowledge/load-cache.js';

/**
 * `check` and `reindex` share the item files with worker threads on big stores. Whatever the
 * number of threads, the problems, their order and the index must be the same as one thread's.
 * COMPOUND_PARALLEL_MIN_FILES=0 makes a small store take the parallel path (chunks of 250 files).
 */
function buildStore(): string {
  const root = tempDir();
  expect(runCli(['init', root]).code).toBe(0);
  const write = (rel: string, text: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  let firstRel = '';
  let firstText = '';
  for (let i = 0; i < 900; i++) {
    const scope = i % 3 === 0 ? 'global' : i % 3 === 1 ? 'repo' : 'agent';
    const item = makeItem(`Fact number ${i}: the service on port ${3000 + i} needs \`make setup-${i % 7}\` first.`, {
      scope,
      category: (['fact', 'pitfall', 'pattern', 'tool-quirk', 'question'] as const)[i % 5],
      ...(scope === 'repo' ? { repo: `repo-${i % 11}` } : scope === 'agent' ? { agent: 'codex' } : {}),
    });
    const rel = itemPath(item.meta, `fact ${i}`);
    let text = serializeItem(item);
    // bad files spread over several chunks
    if (i === 17) text = text.replace('confidence: 0.7', 'confidence: 1.7');
    if (i === 260) text = text.replace(/\n---\n/, '\nnot: [valid\n---\n');
    if (i === 530) text = text.replace('needs', 'needs the token ghp_0123456789abcdefABCDEF0123456789abcd and');
    if (i === 800) text = text.replace(/\n/g, '\r\n');
    write(rel, text);
    if (i === 0) [firstRel, firstText] = [rel, text];
  }
  // the same item twice, in different folders and chunks
  write(firstRel.replace(/\/fact\//, '/pitfall/'), firstText);
  write('knowledge/global/fact/empty-0123456789.md', '');
  symlinkSync('/etc/hostname', join(root, 'knowledge/global/fact/link-abcdef0123.md'));
  return root;
}

describe('loading a store on several threads', () => {
  it('check and reindex give the same problems, order and index on 1 and 2 threads', () => {
    const root = buildStore();
    const one = { COMPOUND_THREADS: '1' };
    const two = { COMPOUND_THREADS: '2', COMPOUND_PARALLEL_MIN_FILES: '0' };
    // --no-cache: a remembered load would spare the second run its parsing, and the threads
    const checkOne = runCli(['check', '--json', '--no-cache'], { cwd: root, env: one });
    const checkTwo = runCli(['check', '--json', '--no-cache'], { cwd: root, env: two });
    expect(checkOne.code).toBe(1);
    expect(checkTwo.code).toBe(1);
    expect(checkTwo.stdout).toBe(checkOne.stdout);
    const codes = (JSON.parse(checkOne.stdout) as { problems: { code: string }[] }).problems.map((p) => p.code);
    for (const code of ['E_SCHEMA_CONFIDENCE', 'E_ITEM_YAML', 'E_SECRET_GITHUB_TOKEN', 'E_ITEM_CRLF', 'E_ITEM_DUPLICATE_ID', 'E_ITEM_EMPTY', 'E_ITEM_SYMLINK', 'E_INDEX_STALE']) {
      expect(codes).toContain(code);
    }

    expect(runCli(['reindex', '--no-cache'], { cwd: root, env: one }).code).toBe(1); // invalid items are left out
    const indexOne = readFileSync(join(root, 'knowledge/index.json'), 'utf8');
    writeFileSync(join(root, 'knowledge/index.json'), '{}\n');
    const reTwo = runCli(['reindex', '--json', '--no-cache'], { cwd: root, env: two });
    expect(reTwo.code).toBe(1);
    expect(readFileSync(join(root, 'knowledge/index.json'), 'utf8')).toBe(indexOne);
    expect((JSON.parse(reTwo.stdout) as { items: number }).items).toBeGreaterThan(890);
  });

  it('the load cache: filled by a load on two threads, then the same problems and index from it', () => {
    const root = buildStore();
    const cacheFile = loadCacheFiles(root)!.files;
    const two = { COMPOUND_THREADS: '2', COMPOUND_PARALLEL_MIN_FILES: '0' };
    const fresh = runCli(['check', '--json', '--no-cache'], { cwd: root, env: two });
    expect(existsSync(cacheFile)).toBe(false); // --no-cache leaves no record
    const filling = runCli(['check', '--json'], { cwd: root, env: two });
    expect(filling.stdout).toBe(fresh.stdout);
    const remembered = Object.keys((JSON.parse(readFileSync(cacheFile, 'utf8')) as { files: object }).files);
    // every file that loads clean, none with a problem of its own; problems between files
    // (the same id twice, a file in the wrong folder, the index) are found on every run
    const betweenFiles = ['E_ITEM_DUPLICATE_ID', 'E_ITEM_PATH', 'E_ITEM_ID_MISMATCH', 'E_ITEM_LINK', 'E_INDEX_STALE'];
    expect(remembered.length).toBeGreaterThan(890);
    for (const p of (JSON.parse(fresh.stdout) as { problems: { file: string; code: string }[] }).problems) {
      if (!betweenFiles.includes(p.code)) expect(remembered).not.toContain(p.file);
    }
    const warm = runCli(['check', '--json'], { cwd: root, env: two });
    expect(warm.stdout).toBe(fresh.stdout);
    // a remembered file that changes is checked again
    const rel = remembered.find((r) => r.includes('/global/fact/'))!;
    writeFileSync(join(root, rel), readFileSync(join(root, rel), 'utf8').replace('first.', 'first; token ghp_0123456789abcdefABCDEF0123456789abcd.'));
    const changed = runCli(['check', '--json'], { cwd: root, env: two });
    expect(changed.stdout).toBe(runCli(['check', '--json', '--no-cache'], { cwd: root, env: two }).stdout);
    expect(changed.stdout).toContain(rel);
  });
});
