import { describe, expect, it } from 'vitest';
import { parseItemBytes, serializeItem } from '../../src/knowledge/codec.js';
import { makeItem } from '../helpers.js';
import { splitBody, titleFromText } from '../../src/knowledge/body.js';

const enc = (s: string) => new TextEncoder().encode(s);
const PATH = 'knowledge/global/fact/x.md';

function codes(text: string | Uint8Array): string[] {
  return parseItemBytes(PATH, typeof text === 'string' ? enc(text) : text).problems.map((p) => p.code);
}

const valid = serializeItem(
  makeItem('The spotter asset build runs `node build.js` from `assets/`.', {
    repo: 'spotter',
    scope: 'repo',
    tags: ['build', 'assets'],
    sources: [{ session: 's1', format: 'claude-code', event: 4, line: 12 }],
  }),
);

describe('item codec', () => {
  it('writes canonical front matter in schema order with one line per source', () => {
    expect(valid).toMatch(/^---\nid: [0-9a-f]{10}\ncategory: fact\nscope: repo\nrepo: spotter\nconfidence: 0.7\nevidence: 1\n/);
    expect(valid).toContain('tags: [build, assets]\n');
    expect(valid).toContain('  - {session: s1, format: claude-code, event: 4, line: 12}\n');
  });

  it('is round-trip stable: parse then serialize gives the same bytes', () => {
    const parsed = parseItemBytes(PATH, enc(valid));
    expect(parsed.problems).toEqual([]);
    expect(serializeItem(parsed.item!)).toBe(valid);
    expect(parsed.item!.raw).toBe(valid);
  });

  it('keeps timestamps as strings (no Date conversion)', () => {
    const parsed = parseItemBytes(PATH, enc(valid));
    expect(parsed.item!.meta.first_seen).toBe('2026-05-11T11:26:55Z');
  });

  it('separates the knowledge text from the evidence section', () => {
    const body = 'Use `git push -u origin <branch>` on a new branch.\n\n## Evidence\n- session s1 line 4\n';
    expect(splitBody(body)).toEqual({ text: 'Use `git push -u origin <branch>` on a new branch.', evidence: '## Evidence\n- session s1 line 4' });
    expect(splitBody('```\n## Evidence\n```\ntext')).toEqual({ text: '```\n## Evidence\n```\ntext', evidence: '' });
  });

  it('derives a title from the first sentence', () => {
    expect(titleFromText('Run **mix format** first. Then lint.')).toBe('Run mix format first');
  });

  it('survives a `---` inside a code fence but flags a bare one, with its line', () => {
    const fenced = valid.replace(/\n$/, '\n\n```\n---\n```\n');
    expect(codes(fenced)).toEqual([]);
    const bare = `${valid}\n---\nmore\n`;
    const r = parseItemBytes(PATH, enc(bare));
    expect(r.problems.map((p) => p.code)).toEqual(['E_ITEM_BODY_SEPARATOR']);
    expect(r.problems[0]!.line).toBe(bare.split('\n').lastIndexOf('---') + 1);
  });
});

describe('bad item files, each named with file and line', () => {
  it('invalid YAML reports the YAML line', () => {
    const text = valid.replace('confidence: 0.7', 'confidence: [0.7');
    const r = parseItemBytes(PATH, enc(text));
    expect(r.problems[0]!.code).toBe('E_ITEM_YAML');
    expect(r.problems[0]!.file).toBe(PATH);
    expect(r.problems[0]!.line).toBeGreaterThan(1);
    expect(r.item).toBeUndefined();
  });

  it('a missing field', () => {
    expect(codes(valid.replace(/evidence: 1\n/, ''))).toEqual(['E_SCHEMA_MISSING_FIELD']);
  });

  it('an unknown field, at its line', () => {
    const r = parseItemBytes(PATH, enc(valid.replace('status: active\n', 'status: active\nowner: me\n')));
    expect(r.problems.map((p) => p.code)).toEqual(['E_SCHEMA_UNKNOWN_FIELD']);
    expect(r.problems[0]!.line).toBe(valid.split('\n').indexOf('status: active') + 2);
  });

  it('confidence: 1.7, at its line', () => {
    const r = parseItemBytes(PATH, enc(valid.replace('confidence: 0.7', 'confidence: 1.7')));
    expect(r.problems.map((p) => p.code)).toEqual(['E_SCHEMA_CONFIDENCE']);
    expect(r.problems[0]!.line).toBe(6);
  });

  it('CRLF line endings and a BOM are reported but the item still loads', () => {
    const crlf = parseItemBytes(PATH, enc(valid.replace(/\n/g, '\r\n')));
    expect(crlf.problems.map((p) => p.code)).toEqual(['E_ITEM_CRLF']);
    expect(crlf.item?.meta.repo).toBe('spotter');
    const bom = parseItemBytes(PATH, enc(`\uFEFF${valid}`));
    expect(bom.problems.map((p) => p.code)).toEqual(['E_ITEM_BOM']);
    expect(bom.item).toBeDefined();
  });

  it('invalid UTF-8 names the line of the bad byte', () => {
    const bytes = Buffer.concat([Buffer.from(valid), Buffer.from([0xff, 0xfe, 0x0a])]);
    const r = parseItemBytes(PATH, bytes);
    expect(r.problems.map((p) => p.code)).toEqual(['E_ITEM_ENCODING']);
    expect(r.problems[0]!.line).toBe(valid.split('\n').length);
  });

  it('an empty file', () => {
    expect(codes('')).toEqual(['E_ITEM_EMPTY']);
  });

  it('a 5 MB item', () => {
    expect(codes(`${valid}${'x'.repeat(5 * 1024 * 1024)}`)).toEqual(['E_ITEM_TOO_LARGE']);
  });

  it('no front matter at all', () => {
    expect(codes('just text\n')).toEqual(['E_ITEM_YAML']);
  });

  it('a bad status, scope without repo, bad dates', () => {
    expect(codes(valid.replace('status: active', 'status: done'))).toEqual(['E_SCHEMA_STATUS']);
    expect(codes(valid.replace('repo: spotter\n', ''))).toEqual(['E_SCHEMA_REPO']);
    expect(codes(valid.replace(/last_seen: .*\n/, 'last_seen: 2020-01-01\n'))).toEqual(['E_SCHEMA_DATE_ORDER']);
    expect(codes(valid.replace(/first_seen: .*\n/, 'first_seen: yesterday\n'))).toEqual(['E_SCHEMA_DATE']);
  });
});
