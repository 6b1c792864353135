import { describe, expect, it } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { bootstrap } from '../../src/bootstrap/bootstrap.js';
import { writeSearchStructure } from '../../src/bootstrap/cache.js';
import { FORMATS } from '../../src/bootstrap/render.js';
import { splitBootstrapBlocks } from '../../src/sessions/bootstrap-markers.js';
import { tempDir } from '../helpers.js';
import { prng, randomEntries, writeIndex } from './fixtures.js';

const COUNT = { o200k_base: o200k, cl100k_base: cl100k } as const;
const TASKS = ['', 'vitest fails in docker', 'fix `snake_case_name` in src/cli/main.ts --no-verify', 'café 日本語 deploy', 'cache token port server config migrate schema'];

describe('budget property', () => {
  it('never prints more tokens than the budget, for every format, budget and store shape', async () => {
    const rnd = prng(20260521);
    let checked = 0;
    for (let store = 0; store < 36; store++) {
      const root = tempDir('compound-budget-');
      const size = [0, 1, 3, 10, 40, 120, 300][store % 7]!;
      const entries = randomEntries(rnd, size, ['api', 'web', 'infra'], ['claude-code', 'codex']);
      // some stores carry an invalid entry, which must be skipped, not fatal
      writeIndex(root, store % 5 === 4 ? [...entries, { id: 'nope', text: 42 }] : entries, { counts: store % 3 !== 2 });
      // every other store: the search structure built, as reindex leaves it
      const warm = store % 2 === 0;
      if (warm) await writeSearchStructure(root);
      for (let k = 0; k < 4; k++) {
        const budget = Math.round(50 * Math.pow(160, rnd())); // 50 .. 8000, log-uniform
        const encoding = rnd() < 0.75 ? 'o200k_base' : 'cl100k_base';
        const task = TASKS[Math.floor(rnd() * TASKS.length)]!;
        for (const format of FORMATS) {
          const options = { root, repo: 'api', agent: rnd() < 0.5 ? 'codex' : undefined, task, budget, format, minConfidence: rnd() < 0.5 ? 0 : 0.4, encoding } as const;
          const r = await bootstrap(options);
          const real = COUNT[encoding](r.output, { disallowedSpecial: new Set() });
          const label = `store ${store} (${size} items) budget ${budget} ${format} ${encoding}`;
          expect(real, label).toBeLessThanOrEqual(budget);
          expect(r.tokens, label).toBe(real);
          if (r.output === '') continue;
          let text = r.output;
          if (format === 'claude-code') {
            expect(r.output.length, label).toBeLessThanOrEqual(10_000);
            text = (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
          }
          if (format === 'json') JSON.parse(r.output);
          expect(splitBootstrapBlocks(text).blocks.map((b) => b.itemIds), label).toEqual([r.ids]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
