import { describe, expect, it } from 'vitest';
import { buildStructure, memorySource, SearchStructure } from '../../src/bootstrap/structure.js';
import { frameFor } from '../../src/bootstrap/render.js';
import { terms } from '../../src/bootstrap/terms.js';
import { DEFAULT_ENCODING, loadCounter } from '../../src/bootstrap/tokens.js';
import { EntryCounter } from '../../src/bootstrap/index-tokens.js';
import { entry, prng, randomEntries } from './fixtures.js';

describe('search structure', () => {
  it('carries exactly the token counts a real count gives, for every item, from index.json', async () => {
    const counter = await loadCounter(DEFAULT_ENCODING);
    const entries = randomEntries(prng(99), 400, ['api'], ['codex']);
    entries.push(entry({ text: 'A "quoted" path C:\\tmp and a tab\there.' }), entry({ text: 'Emoji 🚀 and a lone \ud800 surrogate.' }));
    const counts = new EntryCounter();
    const counted = entries.map((e) => (e.status === 'active' ? { ...e, tokens: counts.count(e) } : e));
    const s = new SearchStructure(memorySource(buildStructure(counted, { tokens: counts.head() })));
    expect(s.header.encoding).toBe(DEFAULT_ENCODING);
    const md = frameFor('markdown', { repo: null, agent: null, budget: 0 });
    const cc = frameFor('claude-code', { repo: null, agent: null, budget: 0 });
    for (let row = 0; row < s.n; row++) {
      const item = s.record(row);
      expect(s.column('mdTokens')[row]).toBe(counter.count(md.line(item, false)));
      expect(s.column('ccTokens')[row]).toBe(counter.count(cc.line(item, false)));
      expect(s.column('ccChars')[row]).toBe(cc.line(item, false).length);
      expect(s.column('idFirstTokens')[row]).toBe(counter.count(md.id(item.id, true)));
      expect(s.column('idRestTokens')[row]).toBe(counter.count(md.id(item.id, false)));
    }
    expect(Object.keys(s.header.constants).length).toBeGreaterThan(5);
    for (const [chunk, n] of Object.entries(s.header.constants)) expect(n).toBe(counter.count(chunk));
    // one active entry without counts: none rather than some
    const missing = counted.map((e, i) => (i === 3 ? { ...e, tokens: undefined } : e));
    expect(new SearchStructure(memorySource(buildStructure(missing, { tokens: counts.head() }))).header.encoding).toBeNull();
    // a writer takes counts over from the index it replaces: nothing left to count
    const again = new EntryCounter({ tokens: counts.head(), items: counted });
    for (const e of counted) if (e.status === 'active') expect(again.count(e)).toEqual(counts.count(e));
    expect(again.counted).toBe(0);
  });

  it('rebuilt from a stale structure gives the bytes of a build from nothing', () => {
    const source = { size: 1, mtimeMs: 1 };
    const before = randomEntries(prng(41), 300, ['api', 'web'], ['codex']);
    before.push(entry({ text: 'Ünïcode and emoji 🚀 in a record.' }));
    const stale = new SearchStructure(memorySource(buildStructure(before, { source }))).previous();
    // a merged pull request: one item rewritten, one deleted, two new
    const after = [...before.slice(0, 10), { ...before[10]!, text: 'Rewritten by a reviewer: run `npm ci` first.' }, ...before.slice(12), entry({ text: 'A new pitfall about `vitest`.' }), entry({ text: 'Another new fact about docker.' })];
    const fresh = buildStructure(after, { source });
    expect(Buffer.from(buildStructure(after, { source, previous: stale })).equals(Buffer.from(fresh))).toBe(true);
  });

  it('is deterministic, keeps only active valid items, and finds every term of every item', () => {
    const entries = randomEntries(prng(7), 200, ['api', 'web'], ['codex']);
    const bytes = buildStructure([...entries, { id: 'bad' }, 'nonsense']);
    expect(Buffer.from(buildStructure([...entries, { id: 'bad' }, 'nonsense'])).equals(Buffer.from(bytes))).toBe(true);
    const s = new SearchStructure(memorySource(bytes));
    expect(s.header.skipped).toBe(2);
    const active = entries.filter((e) => e.status === 'active');
    expect(s.n).toBe(active.length);
    active.forEach((e, row) => {
      expect(s.record(row).id).toBe(e.id);
      for (const t of terms(`${e.title} ${e.text}`)) {
        const post = s.postings(t)!;
        const rows = [];
        for (let k = 0; k < post.length; k += 2) rows.push(post[k]);
        expect(rows, t).toContain(row);
      }
    });
    expect(s.postings('no-such-term-anywhere')).toBeUndefined();
  });

  it('keeps last_seen as time, for recency counted from the newest candidate', () => {
    const s = new SearchStructure(
      memorySource(
        buildStructure([
          entry({ text: 'old one', last_seen: '2020-01-01T00:00:00Z' }),
          entry({ text: 'newest one', last_seen: '2020-01-11T00:00:00Z' }),
          entry({ text: 'no date', last_seen: 'yesterday' }),
          entry({ text: 'stale but newest of all', last_seen: '2020-01-21T00:00:00Z', status: 'stale' }),
        ]),
      ),
    );
    expect([...s.time]).toEqual([Date.parse('2020-01-01T00:00:00Z'), Date.parse('2020-01-11T00:00:00Z'), NaN]);
  });
});
