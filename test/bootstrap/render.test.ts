import { describe, expect, it } from 'vitest';
import { splitBootstrapBlocks } from '../../src/sessions/bootstrap-markers.js';
import { FORMATS, frameFor, renderChunks, type RenderItem } from '../../src/bootstrap/render.js';
import { ENCODINGS, loadCounter } from '../../src/bootstrap/tokens.js';
import { entryToDoc } from '../../src/bootstrap/structure.js';
import { prng, randomEntries } from './fixtures.js';

function items(seed: number, n: number): RenderItem[] {
  return randomEntries(prng(seed), n, ['api', 'web'], ['codex']).map((e) => entryToDoc(e)!.item);
}

describe('renderers', () => {
  it('chunk token counts add up to the count of the whole output, for every format and encoding', async () => {
    for (const encoding of ENCODINGS) {
      const counter = await loadCounter(encoding);
      for (let seed = 1; seed <= 12; seed++) {
        const taken = items(seed, seed * 3);
        for (const format of FORMATS) {
          const frame = frameFor(format, { repo: seed % 2 ? 'api' : null, agent: 'claude-code', budget: 2000 });
          for (const list of [taken, taken.slice(0, 1), []]) {
            const chunks = renderChunks(frame, list);
            const sum = chunks.reduce((a, c) => a + counter.count(c), 0);
            expect(counter.count(chunks.join('')), `${encoding} ${format} seed ${seed}`).toBe(sum);
          }
        }
      }
    }
  });

  it('wraps every format in markers that the session readers parse back to the ids given', () => {
    const taken = items(3, 9);
    for (const format of FORMATS) {
      const out = renderChunks(frameFor(format, { repo: null, agent: null, budget: 1 }), taken).join('');
      const split = splitBootstrapBlocks(format === 'claude-code' ? (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : out);
      expect(split.blocks, format).toHaveLength(1);
      expect(split.blocks[0]!.itemIds, format).toEqual(taken.map((t) => t.id));
    }
  });

  it('groups markdown by category, pitfalls first and questions last, each line with confidence and evidence', () => {
    const base = items(5, 30);
    const out = renderChunks(frameFor('markdown', { repo: null, agent: null, budget: 1 }), base).join('');
    const headings = [...out.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    const order: [string, string][] = [['pitfall', 'Pitfalls'], ['tool-quirk', 'Tool quirks'], ['pattern', 'Patterns'], ['fact', 'Facts'], ['question', 'Open questions']];
    expect(headings).toEqual(order.filter(([c]) => base.some((b) => b.category === c)).map(([, h]) => h));
    for (const line of out.split('\n').filter((l) => l.startsWith('- '))) expect(line).toMatch(/_\(conf \d\.\d\d, seen \d+x\)_$/);
  });

  it('json and claude-code outputs are valid JSON; item text can never close the block early', () => {
    const taken = items(8, 20);
    const json = JSON.parse(renderChunks(frameFor('json', { repo: 'api', agent: null, budget: 10 }), taken).join('')) as { items: { id: string }[]; open: string; close: string };
    expect(json.items.map((i) => i.id)).toEqual(taken.map((t) => t.id));
    const cc = renderChunks(frameFor('claude-code', { repo: null, agent: null, budget: 1 }), taken).join('');
    const parsed = JSON.parse(cc) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
    expect(parsed.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const md = renderChunks(frameFor('markdown', { repo: null, agent: null, budget: 1 }), taken).join('');
    expect(md.match(/<!-- \/compound:bootstrap -->/g)).toHaveLength(1);
  });
});
