/**
 * The plain-data codec against structured clone, which it stands in for between threads: the
 * same values, keys in the same order, on data shaped like sessions and on awkward values.
 */
import { describe, expect, it } from 'vitest';
import { decodePlain, encodePlain, type PackedData } from '../../src/core/plain-data-codec.js';
import { prng } from '../prng.js';

/** What the receiving thread gets: the packed parts pass through structured clone too. */
function roundTrip(value: unknown): unknown {
  return decodePlain(structuredClone(encodePlain(value)) as PackedData);
}

/** Keys in order, values, and -0 / NaN / undefined told apart (JSON would not). */
function exact(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === undefined) return '<undefined>';
    if (typeof v === 'number' && (Number.isNaN(v) || Object.is(v, -0) || !Number.isFinite(v))) return `<${Object.is(v, -0) ? '-0' : String(v)}>`;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return Object.fromEntries(Object.keys(v).map((k) => [`key:${k}`, (v as Record<string, unknown>)[k]]));
    return v;
  });
}

describe('plain-data codec', () => {
  it('gives what structured clone gives for awkward values', () => {
    const protoKey = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const values: unknown[] = [
      'plain',
      '',
      'caf\u00e9 \u2192 \u{1F600}',
      'lone \ud800 surrogate and \udfff',
      0,
      -0,
      NaN,
      Infinity,
      1.5e300,
      true,
      false,
      null,
      undefined,
      [],
      [1, 'two', [3, [4]], { five: 5 }],
      { b: 1, a: 2, 10: 'ten', 2: 'two', '': 'empty', 'with "quotes"\n': 'q' },
      { u: undefined, n: null },
      protoKey,
      Object.assign(Object.create(null) as object, { bare: 'object' }),
    ];
    for (const v of values) {
      const back = roundTrip({ v, again: v });
      expect(exact(back)).toBe(exact(structuredClone({ v, again: v })));
    }
    const back = roundTrip(protoKey) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('round-trips generated session-like data, more shapes than it compiles', () => {
    const rand = prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const texts = ['ok', 'Error: ENOENT', 'line one\nline two', '\u00e9t\u00e9', '\u{1F680} launched', 'x'.repeat(40), ''];
    const events = Array.from({ length: 3000 }, (_, i) => {
      const base = { index: i, kind: pick(['user', 'assistant', 'tool_call', 'tool_result']), source: { file: '', line: i + 1, offset: i * 80 } };
      if (base.kind === 'tool_call') return { ...base, name: pick(['Bash', 'Read', 'Edit']), input: { [`key${i % 2500}`]: pick(texts), nested: [i, { deep: pick(texts) }] } };
      if (base.kind === 'tool_result') return { ...base, output: pick(texts), isError: rand() < 0.3, ...(rand() < 0.5 ? { exitCode: 1 } : {}) };
      return { ...base, text: pick(texts), ...(rand() < 0.2 ? { injected: true } : {}) };
    });
    const value = [{ file: '/f.jsonl', ok: true, sessions: [{ id: 's', events }], warnings: [] }];
    expect(exact(roundTrip(value))).toBe(exact(structuredClone(value)));
  });

  it('refuses what is not plain data', () => {
    for (const v of [new Map(), new Date(0), () => 1, Symbol('s'), 10n, { at: new Uint8Array(2) }, [new (class Point {})()]]) {
      expect(() => encodePlain(v)).toThrow(/not plain data/);
    }
  });

  it('refuses an object that inherits enumerable keys (a polluted Object.prototype)', () => {
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(() => encodePlain({ a: 1 })).toThrow(/not plain data/);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(exact(roundTrip({ a: 1 }))).toBe(exact({ a: 1 }));
  });
});
