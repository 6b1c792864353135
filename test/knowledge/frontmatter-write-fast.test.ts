// The fast front-matter writer must give the `yaml` package's bytes wherever it answers at all:
// for the items a real harvest writes, and for generated values full of YAML's corner cases
// (indicators, number-like and bool-like strings, control characters, surrogates, odd numbers).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stringifySimpleFrontMatter } from '../../src/knowledge/frontmatter-write-fast.js';
import { stringifyWithYaml } from '../../src/knowledge/frontmatter.js';
import { orderedMeta, parseItemBytes, serializeItem } from '../../src/knowledge/codec.js';
import { harvest } from '../../src/harvest/harvest.js';
import { initStore } from '../../src/knowledge/init.js';
import { tempDir } from '../helpers.js';
import { prng } from '../prng.js';

/** Same bytes as yaml, or no answer. */
function expectSameOrNone(data: Record<string, unknown>): boolean {
  const fast = stringifySimpleFrontMatter(data);
  if (fast !== undefined) expect(fast).toBe(stringifyWithYaml(data));
  return fast !== undefined;
}

const PIECES = [
  'a', 'Z', 'fix', ' ', '  ', ':', ': ', ' #', '#', '-', '- ', '?', '? ', ',', '[', ']', '{', '}', '"', "'", '`', '!', '&', '*',
  '|', '>', '%', '@', '.', '...', '---', '~', '\t', '\n', '\r', 'é', '…', '→', '😀', '\ud800', '\u0085', '\x7f', '\x01', 'e', 'E',
  '+', '0', '7', '42', '0x1F', '0o17', '.5', '1e3', 'true', 'False', 'NULL', 'null', '.inf', '.NaN', 'yes', 'n', '2026-01-30',
  'T10:55:51.925Z', '/', '\\', '=', '(', ')',
];

function randomString(rand: () => number): string {
  const n = Math.floor(rand() * 5);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rand() * PIECES.length)]!;
  return s;
}

const NUMBERS = [0, 1, 42, 0.95, 0.5, -3, -0, 1e21, 5e-7, 1 / 3, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 2];

function randomScalar(rand: () => number): unknown {
  const r = rand();
  if (r < 0.6) return randomString(rand);
  if (r < 0.9) return NUMBERS[Math.floor(rand() * NUMBERS.length)];
  return [true, null, undefined][Math.floor(rand() * 3)];
}

const KEYS = ['id', 'title', 'category', 'confidence', 'tags', 'sources', 'conflicts_with', 'a b', 'true', 'x:', 'Key', 'null'];

function randomValue(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (r < 0.55 || depth > 1) return randomScalar(rand);
  const n = Math.floor(rand() * 4);
  if (r < 0.75) return Array.from({ length: n }, () => randomScalar(rand));
  if (r < 0.92) return Array.from({ length: n }, () => randomRecord(rand, depth + 1));
  return Array.from({ length: n }, () => randomValue(rand, depth + 1)); // mixed and nested
}

function randomRecord(rand: () => number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(rand() * 5);
  for (let i = 0; i < n; i++) {
    const key = rand() < 0.85 ? KEYS[Math.floor(rand() * 7)]! : KEYS[Math.floor(rand() * KEYS.length)]!;
    out[key] = depth > 0 ? randomScalar(rand) : randomValue(rand, depth);
  }
  return out;
}

describe('fast front-matter writer', () => {
  it('gives yaml\'s bytes for 20,000 generated mappings, and answers for a fair share of them', () => {
    const rand = prng(2026);
    let answered = 0;
    for (let i = 0; i < 20000; i++) if (expectSameOrNone(randomRecord(rand))) answered++;
    // the share it answers shows the comparison is not vacuous
    expect(answered).toBeGreaterThan(2000);
  });

  it('gives yaml\'s bytes for every item a harvest of test_sessions writes, and answers for nearly all', async () => {
    const root = tempDir();
    initStore(root);
    const result = await harvest({ root, inputs: [join(__dirname, '..', '..', 'test_sessions')] });
    const written = result.plan.entries.filter((e) => e.content !== undefined);
    expect(written.length).toBeGreaterThan(15);
    let answered = 0;
    for (const entry of written) {
      const { item } = parseItemBytes(entry.path, Buffer.from(entry.content!));
      const data = orderedMeta(item!.meta);
      if (expectSameOrNone(data)) answered++;
      // the file as planned (the fast path, where it answers) has yaml's front matter
      expect(entry.content!.startsWith(`---\n${stringifyWithYaml(data)}---\n`)).toBe(true);
      expect(serializeItem(item!)).toBe(entry.content);
    }
    expect(answered).toBeGreaterThanOrEqual(written.length - 1);
  }, 30000);

  it('leaves to yaml what it must quote', () => {
    const meta = (over: Record<string, unknown>) => ({ id: 'abc', title: 'x', tags: ['a'], ...over });
    for (const title of ['a\nb', 'tab\there', '\x01', '\x7f', '😀', '\ud800', '--->', '...x', '%x'])
      expect(stringifySimpleFrontMatter(meta({ title }))).toBeUndefined();
    expect(stringifySimpleFrontMatter(meta({ confidence: -0 }))).toBeUndefined();
    expect(stringifySimpleFrontMatter(meta({ confidence: Number.NaN }))).toBeUndefined();
    expect(stringifySimpleFrontMatter(meta({ repo: undefined }))).toBeUndefined();
    expect(stringifySimpleFrontMatter(meta({ title: 'npm ci needs a lockfile, run npm install first' }))).toBe('id: abc\ntitle: npm ci needs a lockfile, run npm install first\ntags: [a]\n');
    // quoted as yaml quotes them
    for (const [title, written] of [
      ['', '""'],
      ['a: b', '"a: b"'],
      ['`npm ci` fails', '"`npm ci` fails"'],
      ['say "hi"', 'say "hi"'],
      ['"hi": x', `'"hi": x'`],
      [`it's: "x"`, `"it's: \\"x\\""`],
      ['true', '"true"'],
      ['0x1F', '"0x1F"'],
      ['C:\\temp: x', '"C:\\\\temp: x"'],
    ])
      expect(stringifySimpleFrontMatter(meta({ title }))).toBe(`id: abc\ntitle: ${written}\ntags: [a]\n`);
    expect(stringifySimpleFrontMatter(meta({ tags: ['a,b', 'c'] }))).toBe('id: abc\ntitle: x\ntags: ["a,b", c]\n');
  });
});
