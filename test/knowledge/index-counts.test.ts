// index.json with token counts (written by harvest and reindex, bootstrap/index-tokens.ts) is in
// sync with the item files when it is the index without them plus well-formed counts.
import { describe, expect, it } from 'vitest';
import { buildIndex, renderIndex, textWithoutCounts, type EntryCounts } from '../../src/knowledge/index-file.js';
import type { StoredItem } from '../../src/knowledge/item.js';
import { makeItem } from '../helpers.js';

function stored(text: string, meta: Parameters<typeof makeItem>[1] = {}): StoredItem {
  const item = makeItem(text, meta);
  return { ...item, path: `knowledge/global/${item.meta.category}/${item.meta.id}.md`, title: text.slice(0, 30), text } as StoredItem;
}

const COUNTS: EntryCounts = {
  head: () => ({ encoding: 'o200k_base', render: '0123456789abcdef', chunks: { '{"x":"}\\n"': 3, '=': 1 } }),
  count: (e) => [e.text.length, e.text.length + 1, 4, 4, 7],
};

describe('index.json without its token counts', () => {
  const items = [stored('The API uses port 4000 locally; `"tokens":[1]}` is text.'), stored('Run `mix format` first.', { status: 'stale' }), stored('Deploys go through `make release`.')];

  it('is exactly the index rendered without counts, found by a text search', () => {
    const withCounts = renderIndex(buildIndex(items, COUNTS));
    expect(withCounts).toContain('"tokens":[');
    expect(textWithoutCounts(withCounts)).toBe(renderIndex(buildIndex(items)));
  });

  it('is not found when the counts are not all there, of one width, on active entries only', () => {
    const withCounts = renderIndex(buildIndex(items, COUNTS));
    expect(textWithoutCounts(renderIndex(buildIndex(items)))).toBeUndefined(); // no head
    const missing = withCounts.replace(/,"tokens":\[[\d,]+\]\}(,?)\n/, '}$1\n');
    expect(textWithoutCounts(missing)).toBeUndefined();
    const uneven = withCounts.replace(/,"tokens":\[([\d,]+)\]\}/, ',"tokens":[$1,9]}');
    expect(textWithoutCounts(uneven)).toBeUndefined();
  });
});
