import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseCanonicalFrontMatter, parseSimpleFrontMatter } from '../../src/knowledge/frontmatter-fast.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { makeItem } from '../helpers.js';
import { prng } from '../prng.js';


const NASTY = ['yes', 'no', 'null', '~', 'true', '1e5', '0x1F', '1234e56789', '0123456789', '12:30', 'a: b', 'a #b', '#c', '- x', '[x]', '{y}', 'it\'s', '"q"', 'back\\slash', ' lead', 'trail ', 'ünïcödé', 'a,b', '.inf', '2026-05-11', '2026-05-11T11:26:55Z', '*star', '&amp', '!tag', '%p', '@at', '`tick`', '|pipe', '>gt', '?q', 'spotter', 'mix phx.server'];

describe('fast front matter parser', () => {
  it('agrees with the YAML parser on everything it accepts, for serialised items with nasty values', () => {
    const rnd = prng(42);
    const NORMAL = ['build', 'mix format', 'port 4000', 'src/app.ts', 'v1.2.3', 'node_modules', 'a.b:c', 'x-y_z'];
    const pick = (xs: readonly string[]): string => {
      const from = rnd() < 0.25 ? xs : NORMAL;
      return from[Math.floor(rnd() * from.length)]!;
    };
    let accepted = 0;
    let canonicalAccepted = 0;
    let canonicalDeclined = 0;
    for (let i = 0; i < 2000; i++) {
      const text = `Item ${i} ${pick(NASTY)}.`;
      const item = makeItem(text, { title: `${pick(NASTY)} ${pick(NASTY)}`.trim() || 'x', tags: [pick(NASTY), pick(NASTY)], sources: [{ session: pick(NASTY), format: 'claude-code', event: i, line: i + 1 }], repo: pick(NASTY).replace(/\s/g, '') || 'r', scope: 'repo' });
      const file = serializeItem(item);
      const matter = file.slice(4, file.indexOf('\n---\n', 4));
      const fast = parseSimpleFrontMatter(matter.split('\n'));
      const slow = YAML.parse(matter) as unknown;
      if (fast !== undefined) {
        accepted++;
        expect(fast).toEqual(slow);
      }
      // the one-regex path for our own layout: the same as the line-by-line path, or declines
      const canonical = parseCanonicalFrontMatter(matter);
      if (canonical !== undefined) {
        canonicalAccepted++;
        expect(canonical).toEqual(slow);
        expect(JSON.stringify(canonical)).toBe(JSON.stringify(fast));
      } else if (fast !== undefined) canonicalDeclined++;
    }
    expect(accepted).toBeGreaterThan(100);
    expect(canonicalAccepted).toBeGreaterThan(100);
    // it declines only what scalar() declines inside the line-by-line path too
    expect(canonicalDeclined).toBe(0);
  });

  it('the one-regex path declines anything but our own layout, and keeps optional keys and links', () => {
    const base = ['id: 0a1b2c3d4e', 'category: fact', 'scope: repo', 'repo: spotter', 'confidence: 0.7', 'evidence: 2', 'first_seen: 2026-05-11', 'last_seen: 2026-05-12T10:00:00Z', 'status: active', 'tags: [mix, port]', 'sources:', '  - {session: s1, format: codex, event: 3}', '  - {session: s2, format: claude-code, event: 4, line: 9}'];
    expect(parseCanonicalFrontMatter(base.join('\n'))).toEqual(parseSimpleFrontMatter(base));
    const linked = [...base, 'supersedes: [0a1b2c3d4f]', 'conflicts_with: [0a1b2c3d40, 0a1b2c3d41]'];
    expect(parseCanonicalFrontMatter(linked.join('\n'))).toEqual(parseSimpleFrontMatter(linked));
    const empty = [...base.slice(0, 10), 'sources: []'];
    expect(parseCanonicalFrontMatter(empty.join('\n'))).toEqual({ ...parseSimpleFrontMatter(empty) });
    for (const bad of [
      [base[1]!, base[0]!, ...base.slice(2)], // keys out of order
      [...base.slice(0, 9), 'status: yes', ...base.slice(10)], // a value YAML reads as a boolean
      [...base, 'extra: 1'],
      base.map((l) => l.replace('repo: spotter', 'repo: spotter\r')),
    ]) {
      expect(parseCanonicalFrontMatter(bad.join('\n'))).toBeUndefined();
    }
    expect(parseCanonicalFrontMatter(['id: 1234567890', ...base.slice(1)].join('\n'))!.id).toBe(1234567890); // as YAML reads it
  });

  it('declines what it cannot be sure of', () => {
    for (const line of ['title: yes', 'title: a: b', 'title: "a\\"b"', 'id: 0x1F', 'title: x # c', 'tags: [a, "b,c"]', 'a: 1\na: 2', '  indented: x']) {
      expect(parseSimpleFrontMatter(line.split('\n'))).toBeUndefined();
    }
    expect(parseSimpleFrontMatter(['id: 1234e56789'])).toEqual({ id: 1234e56789 });
    expect(parseSimpleFrontMatter(['first_seen: 2026-05-11T11:26:55Z', 'tags: []', 'sources:', '  - {session: s, format: codex, event: 3}'])).toEqual({ first_seen: '2026-05-11T11:26:55Z', tags: [], sources: [{ session: 's', format: 'codex', event: 3 }] });
  });
});
