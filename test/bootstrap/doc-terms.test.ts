import { describe, expect, it } from 'vitest';
import { termFrequencies, weightedLength, weightedTerms } from '../../src/bootstrap/doc-terms.js';
import { terms } from '../../src/bootstrap/terms.js';
import { entry, prng, randomEntries } from './fixtures.js';

describe('term frequencies found by searching', () => {
  it('equal those of analysing the whole item, for random items and task terms', () => {
    const rnd = prng(314);
    const items = randomEntries(rnd, 300, ['api'], ['codex']);
    items.push(
      entry({ text: 'Entries and entry, tests and test; HTTPServer parseIndex src/cli/main.ts --no-verify --no-verify-x a.b.c e.g. C:\\tmp\\x.js', title: 'Entries of parseIndex', tags: ['http-server', 'main.ts'] }),
      entry({ text: 'Ünïcode Café and café, naïve entries, ǅungla', title: 'CAFÉ' }),
      entry({ text: '---x --y -z ..w policies policy Policies' }),
    );
    let checked = 0;
    for (const it of items) {
      const own = [...new Set(terms(`${it.title} ${it.text} ${it.tags.join(' ')}`))];
      const task = [...own.filter(() => rnd() < 0.5), 'entry', 'test', 'http', 'no-verify', 'main.ts', 'café', 'policy', 'zzz'];
      const all = weightedTerms(it);
      expect(termFrequencies(it, task), it.text).toEqual(task.map((t) => all.get(t) ?? 0));
      expect(weightedLength(it)).toBe([...all.values()].reduce((a, b) => a + b, 0));
      checked += task.length;
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
