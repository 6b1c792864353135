// A session start without a current search structure reads the candidates' lines of index.json
// itself (bootstrap/direct.ts). It must answer byte for byte as a start with the structure does,
// whatever the store, query, format and encoding, and however index.json is laid out.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap, type BootstrapOptions } from '../../src/bootstrap/bootstrap.js';
import { writeSearchStructure } from '../../src/bootstrap/cache.js';
import { FORMATS } from '../../src/bootstrap/render.js';
import { tempDir } from '../helpers.js';
import { entry, prng, randomEntries, writeIndex } from './fixtures.js';

const TASKS = ['', 'vitest fails in docker', 'fix `snake_case_name` in src/cli/main.ts --no-verify', 'café 日本語 deploy', 'cache token port server config'];

/** The same query answered without a structure, then with one: both results. */
async function coldThenWarm(root: string, options: Omit<BootstrapOptions, 'root'>) {
  const cold = await bootstrap({ root, ...options });
  await writeSearchStructure(root);
  const warm = await bootstrap({ root, ...options });
  return { cold, warm };
}

describe('a session start without the search structure', () => {
  it('gives the bytes a start with it gives, for random stores, queries, formats and encodings', async () => {
    const rnd = prng(20261127);
    let compared = 0;
    for (let store = 0; store < 24; store++) {
      const root = tempDir('compound-cold-');
      const size = [0, 1, 5, 30, 120, 400][store % 6]!;
      // repo names that need no sanitising and one that sorts next to another (api, api-v2)
      const entries = randomEntries(rnd, size, ['api', 'api-v2', 'web'], ['claude-code', 'codex']);
      writeIndex(root, store % 7 === 3 ? [...entries, { id: 'nope', text: 42, path: 'knowledge/global/fact/x.md' }] : entries, { counts: store % 4 !== 1 });
      const indexFile = join(root, 'knowledge', 'index.json');
      const original = readFileSync(indexFile);
      for (let k = 0; k < 3; k++) {
        const options = {
          repo: rnd() < 0.8 ? (rnd() < 0.5 ? 'api' : 'web') : undefined,
          agent: rnd() < 0.5 ? 'codex' : undefined,
          task: TASKS[Math.floor(rnd() * TASKS.length)]!,
          budget: Math.round(80 * Math.pow(100, rnd())),
          format: FORMATS[Math.floor(rnd() * FORMATS.length)]!,
          minConfidence: rnd() < 0.5 ? 0 : 0.4,
          encoding: rnd() < 0.8 ? ('o200k_base' as const) : ('cl100k_base' as const),
          explain: rnd() < 0.2,
        };
        writeFileSync(indexFile, original); // a new mtime: the structure built before is stale
        const { cold, warm } = await coldThenWarm(root, options);
        const label = `store ${store} (${size}) ${JSON.stringify(options)}`;
        expect(cold.source, label).toBe('index');
        expect(warm.source, label).toBe('structure');
        expect(cold.output, label).toBe(warm.output);
        expect(cold.ids, label).toEqual(warm.ids);
        expect(cold.tokens, label).toBe(warm.tokens);
        expect(cold.counts, label).toBe(warm.counts);
        compared++;
      }
    }
    expect(compared).toBe(72);
  });

  it('reads token counts from index.json, so the default markdown and hook starts load no tokenizer', async () => {
    const root = tempDir('compound-cold-');
    writeIndex(root, randomEntries(prng(5), 200, ['api'], ['codex']), { counts: true });
    for (const format of ['markdown', 'claude-code', 'codex'] as const) {
      const r = await bootstrap({ root, repo: 'api', task: 'vitest fails in docker', budget: 1500, format, minConfidence: 0.3, encoding: 'o200k_base' });
      expect(r.source).toBe('index');
      expect(r.counts, format).toBe('precomputed');
      expect(r.ids.length).toBeGreaterThan(3);
    }
    // counts of another renderer are not trusted: counted instead, the same answer
    const indexFile = join(root, 'knowledge', 'index.json');
    const counted = await bootstrap({ root, repo: 'api', task: 'vitest', budget: 1500, format: 'markdown', minConfidence: 0.3, encoding: 'o200k_base' });
    writeFileSync(indexFile, readFileSync(indexFile, 'utf8').replace(/"render":"[0-9a-f]+"/, '"render":"0000000000000000"'));
    const other = await bootstrap({ root, repo: 'api', task: 'vitest', budget: 1500, format: 'markdown', minConfidence: 0.3, encoding: 'o200k_base' });
    expect(other.counts).toBe('tokenizer');
    expect(other.output).toBe(counted.output);
  });

  it('reads an index.json laid out another way whole, and lines longer than a read block', async () => {
    const root = tempDir('compound-cold-');
    const long = entry({ text: `A very long pitfall about vitest ${'and docker '.repeat(9000)}end.`, category: 'pitfall', scope: 'repo', repo: 'api' });
    const entries = [...randomEntries(prng(8), 60, ['api', 'web'], ['codex']), long];
    writeIndex(root, entries, { counts: true });
    const options = { repo: 'api', task: 'vitest docker', budget: 200_000, format: 'markdown' as const, minConfidence: 0, encoding: 'o200k_base' as const };
    const lines = await bootstrap({ root, ...options });
    expect(lines.ids).toContain(long.id);
    // the same index pretty-printed (not as compound writes it): parsed whole, the same answer
    const indexFile = join(root, 'knowledge', 'index.json');
    const written = readFileSync(indexFile, 'utf8');
    writeFileSync(indexFile, `${JSON.stringify(JSON.parse(written), null, 2)}\n`);
    const whole = await bootstrap({ root, ...options });
    expect(whole.output).toBe(lines.output);
    // CRLF line ends (a checkout that converted them): read whole, the same answer
    writeFileSync(indexFile, written.replace(/\n/g, '\r\n'));
    expect((await bootstrap({ root, ...options })).output).toBe(lines.output);
    // truncated: an empty start with a note, never a crash
    writeFileSync(indexFile, readFileSync(indexFile, 'utf8').slice(0, 500));
    const broken = await bootstrap({ root, ...options });
    expect(broken.ids).toEqual([]);
    expect(broken.notes.join('\n')).toMatch(/not a valid index/);
  });
});
