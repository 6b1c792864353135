// mergeCandidates directly: which candidates share an item, and what a reinforcement writes.
// The merger keeps ids and similarity tokens per candidate text; these cases pin down that a
// text's other fields (category, scope, repo, title) still decide as they did.
import { describe, expect, it } from 'vitest';
import { mergeCandidates, type OriginCandidate } from '../../src/harvest/merge.js';
import type { Candidate } from '../../src/harvest/candidate.js';
import { capSources, MAX_SOURCES, type StoredItem } from '../../src/knowledge/item.js';

function candidate(over: Partial<Candidate> = {}): Candidate {
  return {
    category: 'pitfall',
    scope: 'global',
    title: 'npm ci needs a lockfile',
    text: 'Running `npm ci` without package-lock.json fails with EUSAGE; run `npm install` once to create the lockfile.',
    confidence: 0.7,
    tags: ['npm'],
    evidence: { event: 3 },
    quotes: [],
    rule: 'test',
    ...over,
  };
}

function seen(c: Candidate, session: string): OriginCandidate {
  return { candidate: c, origin: { session, format: 'claude-code', seen: `2026-01-0${session.length % 9}T00:00:00Z` } };
}

describe('mergeCandidates', () => {
  it('gives one text in another category, scope or repo an item of its own', () => {
    const r = mergeCandidates(
      [],
      [
        seen(candidate(), 's1'),
        seen(candidate({ category: 'fact' }), 's2'),
        seen(candidate({ scope: 'repo', repo: 'app' }), 's3'),
        seen(candidate({ scope: 'repo', repo: 'api' }), 's4'),
        seen(candidate({ scope: 'repo', repo: 'app' }), 's5'),
      ],
      new Set(),
    );
    expect(r.records.map((x) => x.outcome)).toEqual(['added', 'added', 'added', 'added', 'reinforced']);
    expect(new Set(r.created).size).toBe(4);
    expect(r.records[4]!.id).toBe(r.records[2]!.id);
  });

  it('compares a text by its title too: a near duplicate under one title is new under another', () => {
    const base = candidate({ title: 'x', text: 'The dev server listens on port 4000 and serves the API under /api.' });
    const near = { text: 'The dev server listens on port 4000 and serves the API under /api/v2.' };
    const r = mergeCandidates([], [seen(base, 's1'), seen(candidate({ ...near, title: 'x' }), 's2'), seen(candidate({ ...near, title: 'an unrelated long title about deploy keys rotation secrets' }), 's3')], new Set());
    expect(r.records.map((x) => x.outcome)).toEqual(['added', 'reinforced', 'added']);
  });

  it('keeps two alike texts apart when their titles name different things, and together when they name the same', () => {
    const about = (pkg: string) => candidate({ category: 'tool-quirk', title: `${pkg} is not installed`, text: `\`npm test\` fails with \`Cannot find module '${pkg}'\`: ${pkg} is not installed; install it and rerun.` });
    const r = mergeCandidates([], [seen(about('left-pad'), 's1'), seen(about('eslint-plugin-import'), 's2'), seen(about('left-pad'), 's3')], new Set());
    expect(r.records.map((x) => x.outcome)).toEqual(['added', 'added', 'reinforced']);
  });

  it('reinforces a store item through a copy: the store item stays as read, the result counts every session once', () => {
    const first = [...mergeCandidates([], [seen(candidate(), 's0')], new Set()).items.values()][0]!;
    const storeItem: StoredItem = { ...first, path: 'knowledge/global/pitfall/x.md', text: '', title: first.meta.title ?? '', raw: '' };
    const before = structuredClone(storeItem);
    const sessions = ['s1', 's2', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's11', 's12'];
    const r = mergeCandidates([storeItem], sessions.map((s) => seen(candidate({ confidence: 0.9 }), s)), new Set());
    expect(storeItem).toEqual(before);
    expect(r.records.map((x) => x.outcome).filter((o) => o === 'duplicate')).toHaveLength(1);
    const after = r.items.get(first.meta.id)!;
    expect(after.meta.evidence).toBe(before.meta.evidence + sessions.length - 1);
    expect(after.meta.confidence).toBe(0.95);
    // at most MAX_SOURCES: the first (its body's evidence section cites it), then the newest
    const kept = after.meta.sources.map((x) => x.session);
    expect(kept).toEqual(['s0', 's6', 's7', 's8', 's9', 's10', 's11', 's12']);
    expect(after.body).toContain('session `s0`');
    expect(new Set(kept).size).toBe(kept.length);
    // the same, merged from scratch, reinforces the new item in place: same counts
    const fresh = mergeCandidates([], ['s0', ...sessions].map((s) => seen(candidate({ confidence: 0.9 }), s)), new Set());
    expect(fresh.items.get(first.meta.id)!.meta.sources).toEqual(after.meta.sources);
    expect(fresh.items.get(first.meta.id)!.meta.evidence).toBe(after.meta.evidence);
  });

  it('keeps tags sorted, unique and at most eight when reinforcing, whatever the stored item had', () => {
    const stored = (tags: string[]): StoredItem => {
      const r = mergeCandidates([], [seen(candidate(), 's0')], new Set());
      const item = [...r.items.values()][0]!;
      return { ...item, meta: { ...item.meta, tags }, path: 'knowledge/global/pitfall/x.md', text: '', title: item.meta.title ?? '', raw: '' };
    };
    const tagsAfter = (tags: string[], more: string[]): string[] => {
      const r = mergeCandidates([stored(tags)], [seen(candidate({ tags: more }), 's1')], new Set());
      expect(r.records[0]!.outcome).toBe('reinforced');
      return [...r.items.values()][0]!.meta.tags;
    };
    expect(tagsAfter(['a', 'b'], ['a'])).toEqual(['a', 'b']);
    expect(tagsAfter(['b', 'a'], ['a'])).toEqual(['a', 'b']); // a hand-edited order is sorted
    expect(tagsAfter(['a', 'a'], [])).toEqual(['a']);
    expect(tagsAfter(['a', 'c'], ['b'])).toEqual(['a', 'b', 'c']);
    expect(tagsAfter(['1', '2', '3', '4', '5', '6', '7', '8', '9'], ['1'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(tagsAfter(['2', '3', '4', '5', '6', '7', '8', '9'], ['1'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });
});

describe('capSources (also what a repo rename keeps of two merged items)', () => {
  it('keeps the first source and the newest ones, at most MAX_SOURCES', () => {
    const list = Array.from({ length: 12 }, (_, i) => `s${i}`);
    expect(capSources(list)).toEqual(['s0', 's5', 's6', 's7', 's8', 's9', 's10', 's11']);
    expect(capSources(list)).toHaveLength(MAX_SOURCES);
    expect(capSources(list.slice(0, 3))).toEqual(['s0', 's1', 's2']);
  });
});
