import { describe, expect, it } from 'vitest';
import { findSecrets, KIND_INFO, placeholder, redact, SECRET_KINDS, type SecretKind } from '../../src/redact/index.js';
import { NEGATIVES, POSITIVES } from './cases.js';
import { SECRETS } from './fakes.js';

const kindsWithPositives = SECRET_KINDS.filter((k) => POSITIVES[k].length > 0);

describe('every kind has cases', () => {
  it.each(SECRET_KINDS.filter((k) => k !== 'user-name'))('%s has true- and false-positive cases', (kind) => {
    expect(POSITIVES[kind].length).toBeGreaterThan(0);
    expect(NEGATIVES[kind].length).toBeGreaterThan(0);
  });
});

describe('true positives', () => {
  for (const kind of kindsWithPositives) {
    it.each(POSITIVES[kind].map((p, i) => [i, p] as const))(`${kind} #%i`, (_i, p) => {
      const findings = findSecrets(p.text);
      const at = p.text.indexOf(p.secret);
      expect(at).toBeGreaterThanOrEqual(0);
      const hit = findings.find((f) => f.start <= at && f.end >= at + p.secret.length);
      expect(hit, JSON.stringify(findings)).toBeDefined();
      expect(hit?.kind).toBe(kind);
      expect(hit?.category).toBe(KIND_INFO[kind].category);

      const out = redact(p.text).text;
      expect(out).not.toContain(p.secret);
      expect(out).toContain(kind === 'home-path' ? '~' : placeholder(kind));
    });
  }
});

describe('false positives', () => {
  for (const kind of SECRET_KINDS) {
    it.each(NEGATIVES[kind].map((t, i) => [i, t] as const))(`${kind} #%i is clean`, (_i, text) => {
      const findings = findSecrets(text);
      expect(findings, JSON.stringify(findings.map((f) => [f.kind, text.slice(f.start, f.end)]))).toEqual([]);
    });
  }
});

describe('descriptions never contain the secret', () => {
  it('holds for every planted value', () => {
    for (const kind of kindsWithPositives) {
      for (const p of POSITIVES[kind]) {
        for (const f of findSecrets(p.text)) {
          const value = p.text.slice(f.start, f.end);
          expect(f.description).not.toContain(value);
          expect(f.description.length).toBeLessThan(90);
        }
      }
    }
  });
});

describe('positions', () => {
  it('reports 1-based line and column for each finding', () => {
    const text = [
      '# notes',
      `export GITHUB_TOKEN=${SECRETS.ghp}`,
      '',
      `  curl -H "Authorization: Bearer ${SECRETS.bearer}" \\`,
      `	mail marco.rossi@gmail.com; DB_PASSWORD=${SECRETS.envPassword}`,
    ].join('\n');
    const findings = findSecrets(text);
    const expected: [SecretKind, string][] = [
      ['github-token', SECRETS.ghp],
      ['bearer-header', SECRETS.bearer],
      ['email', 'marco.rossi@gmail.com'],
      ['secret-assignment', SECRETS.envPassword],
    ];
    expect(findings.map((f) => f.kind)).toEqual(expected.map(([k]) => k));
    for (const [i, [, value]] of expected.entries()) {
      const f = findings[i];
      const start = text.indexOf(value);
      const before = text.slice(0, start).split('\n');
      expect(f?.start).toBe(start);
      expect(f?.end).toBe(start + value.length);
      expect(f?.line).toBe(before.length);
      expect(f?.column).toBe((before[before.length - 1] as string).length + 1);
    }
    expect(findings.map((f) => [f.line, f.column])).toEqual([
      [2, 21],
      [4, 34],
      [5, 7],
      [5, 42],
    ]);
  });

  it('counts JSONL lines, not escaped newlines inside a line', () => {
    const line1 = JSON.stringify({ type: 'user', message: { content: 'hello\nworld' } });
    const line2 = JSON.stringify({ type: 'assistant', text: `use\n${SECRETS.npm}` });
    const f = findSecrets(`${line1}\n${line2}\n`);
    expect(f).toHaveLength(1);
    expect(f[0]?.kind).toBe('npm-token');
    expect(f[0]?.line).toBe(2);
    expect(f[0]?.column).toBe(line2.indexOf(SECRETS.npm) + 1);
  });
});

describe('overlaps', () => {
  it('names the most specific kind and covers the union of spans', () => {
    const text = `GITHUB_TOKEN=${SECRETS.ghp}`;
    const f = findSecrets(text);
    expect(f).toHaveLength(1);
    expect(f[0]?.kind).toBe('github-token');
  });

  it('a JWT in a bearer header is reported once', () => {
    const f = findSecrets(`Authorization: Bearer ${SECRETS.jwt}`);
    expect(f).toHaveLength(1);
    expect(['jwt', 'bearer-header']).toContain(f[0]?.kind);
  });
});

describe('options', () => {
  it('reports explicit users as user-name findings', () => {
    const f = findSecrets('ping priya about the deploy; Priya-laptop is down', { users: ['priya'] });
    expect(f.map((x) => x.kind)).toEqual(['user-name', 'user-name']);
  });

  it('honours compound:allow-secret only when asked', () => {
    const text = `SIGNING_SEED=${SECRETS.highEntropy} # compound:allow-secret (test fixture)`;
    expect(findSecrets(text)).toHaveLength(1);
    expect(findSecrets(text, { honorAllowMarker: true })).toHaveLength(0);
    expect(redact(text).text).not.toContain(SECRETS.highEntropy);
  });
});
