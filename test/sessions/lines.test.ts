import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachLine, headOf, nextWideByte, readLines, splitLines, startLines, utf8Text, type Line } from '../../src/sessions/lines.js';
import { decodeHead, HEAD_BYTES } from '../../src/sessions/detect.js';
import { prng } from '../prng.js';

const dir = mkdtempSync(join(tmpdir(), 'compound-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function streamed(bytes: Buffer, options: { maxLineBytes?: number; start?: number; startLineNo?: number } = {}): Promise<Line[]> {
  const file = join(dir, `f${n++}`);
  writeFileSync(file, bytes);
  const out: Line[] = [];
  for await (const l of readLines(file, options)) out.push(l);
  return out;
}

function split(bytes: Buffer, options: { maxLineBytes?: number; start?: number; startLineNo?: number } = {}): Line[] {
  const out: Line[] = [];
  splitLines(bytes, options, (l) => out.push(l));
  return out;
}

const cases: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  'one newline': Buffer.from('\n'),
  'no trailing newline': Buffer.from('{"a":1}\n{"b":2}'),
  'trailing newline': Buffer.from('{"a":1}\n{"b":2}\n'),
  'blank lines': Buffer.from('\n\n  \n{"a":1}\n\n'),
  crlf: Buffer.from('{"a":1}\r\n{"b":"x"}\r\n\r\nlast\r'),
  'lone CR': Buffer.from('\r\n\r'),
  'multi-byte': Buffer.from('{"t":"héllo ✦ 日本語 🎉"}\n✦ reply\n│ ✔ tool\n'),
  'BOM at the start': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}\n')]),
  'BOM on later lines': Buffer.concat([Buffer.from('x\n'), Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('y\n'), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\r\n')]),
  'BOM in ASCII-length file': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf])]),
  'invalid UTF-8': Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\nok\n'), Buffer.from([0xe2, 0x82]), Buffer.from('\nend')]),
  'cut multi-byte before newline': Buffer.concat([Buffer.from('ab'), Buffer.from([0xe6, 0x97]), Buffer.from('\r\ncd\n')]),
  'NUL bytes': Buffer.from('a\u0000b\nc\n'),
};

describe('splitLines gives exactly the lines readLines gives', () => {
  for (const [name, bytes] of Object.entries(cases)) {
    it(name, async () => {
      expect(split(bytes)).toEqual(await streamed(bytes));
    });
  }

  it('lines cut at the size limit, including cuts inside a character and before a CR', async () => {
    const long = Buffer.from(`${'x'.repeat(10)}\n${'é'.repeat(20)}\n${'y'.repeat(7)}\r\n${'z'.repeat(30)}\nshort\n${'日'.repeat(9)}`);
    for (const maxLineBytes of [1, 5, 7, 8, 9, 11, 16, 64]) {
      expect(split(long, { maxLineBytes })).toEqual(await streamed(long, { maxLineBytes }));
    }
  });

  it('from a start offset with a start line number', async () => {
    const bytes = Buffer.from('first\nsécond\nthird\r\nfourth');
    for (const start of [0, 6, 14, 21, 27, 40]) {
      expect(split(bytes, { start, startLineNo: 5 })).toEqual(await streamed(bytes, { start, startLineNo: 5 }));
    }
  });

  it('a large mixed file: byte offsets and texts agree line by line', async () => {
    const parts: string[] = [];
    for (let i = 0; i < 3000; i++) parts.push(i % 7 === 0 ? `{"i":${i},"t":"ünïcödé ${'✦'.repeat(i % 5)}"}` : i % 11 === 0 ? '' : `{"i":${i}}${i % 13 === 0 ? '\r' : ''}`);
    const bytes = Buffer.from(parts.join('\n'));
    expect(split(bytes)).toEqual(await streamed(bytes));
    expect(split(bytes, { maxLineBytes: 12 })).toEqual(await streamed(bytes, { maxLineBytes: 12 }));
  });

  it('forEachLine uses the content when given and streams the file otherwise', async () => {
    const bytes = Buffer.from('a\nb\n');
    const file = join(dir, 'each');
    writeFileSync(file, 'different\n');
    const fromContent: string[] = [];
    await forEachLine(file, { content: bytes }, (l) => fromContent.push(l.text));
    expect(fromContent).toEqual(['a', 'b']);
    const fromFile: string[] = [];
    await forEachLine(file, {}, (l) => fromFile.push(l.text));
    expect(fromFile).toEqual(['different']);
  });
});

describe('startLines: one decode gives the first lines and the detection head', () => {
  const check = (bytes: Buffer, limit = HEAD_BYTES) => {
    const d = startLines(bytes, limit);
    const head = decodeHead(bytes.subarray(0, limit));
    expect(headOf(d)).toBe(head);
    // the lines, joined, then what follows them are the head (a BOM aside)
    const joined = (d.lines.length > 0 ? d.lines.join('\n') : '') + d.after;
    expect(joined.charCodeAt(0) === 0xfeff ? joined.slice(1) : joined).toBe(head);
    // the lines are a prefix of the file's lines, raw (CR and BOM kept)
    const raw = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).split('\n');
    expect(d.lines).toEqual(raw.slice(0, d.lines.length));
    return d;
  };
  it('small, BOM, CRLF, and a character cut at the end of the head at every split', async () => {
    check(Buffer.from('{"a":"é"}\n'));
    check(Buffer.from('{"a":"é"}\r\nx'));
    check(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}')]));
    for (const ch of ['é', '✦', '🎉']) {
      const width = Buffer.byteLength(ch);
      for (let shift = 0; shift < width + 2; shift++) {
        const pad = 'x'.repeat(HEAD_BYTES - 2 - shift);
        check(Buffer.from(`${pad}${ch}${ch}tail\n`));
        check(Buffer.from(`${pad}${ch}`));
        check(Buffer.from(`line\n${pad.slice(5)}${ch}\n${ch}\nmore\n`));
      }
    }
    check(Buffer.from('x'.repeat(HEAD_BYTES)));
    check(Buffer.from(`${'x'.repeat(HEAD_BYTES - 1)}\n`));
    check(Buffer.from(`${'x'.repeat(HEAD_BYTES)}\nnext`));
    check(Buffer.from('x'.repeat(HEAD_BYTES + 1)));
    for (const limit of [1, 2, 3, 5, 8, 13]) check(Buffer.from('ab\n✦\r\n\ncd\n'), limit);
  });
  it('splitLines with those lines gives what readLines gives', async () => {
    const files = [
      Buffer.from('{"a":"é"}\r\n\n{"b":"✦"}\nlast'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r\n'), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\n')]),
      Buffer.from(`${'y'.repeat(30)}\n${'é'.repeat(40)}\nz\n`),
    ];
    for (const bytes of files) {
      for (const limit of [4, 16, 35, 1000]) {
        for (const maxLineBytes of [undefined, 10, 33]) {
          const out: Line[] = [];
          const options = maxLineBytes === undefined ? {} : { maxLineBytes };
          splitLines(bytes, { ...options, valid: true, decoded: startLines(bytes, limit).lines }, (l) => out.push(l));
          expect(out).toEqual(await streamed(bytes, options));
        }
      }
    }
  });
  it('with reuseLine, one Line object carries each line in turn: the same values', async () => {
    const file = (wide: string): Buffer => {
      const parts: string[] = [];
      for (let i = 0; i < 300; i++) parts.push(i % 9 === 0 ? `${wide} ${i}` : `line ${i}${i % 4 === 0 ? '\r' : ''}`);
      return Buffer.from(parts.join('\n'));
    };
    const wide = file('wide ✦');
    const ascii = file('ascii');
    const cases: [Buffer, { decoded: string[]; wholeText?: string }][] = [
      [wide, { decoded: startLines(wide, 1000).lines }], // the head's lines, then latin1 slices
      [ascii, { decoded: [], wholeText: ascii.toString('latin1') }], // slices of the whole text
    ];
    for (const [bytes, extra] of cases) {
      const expected = await streamed(bytes, { maxLineBytes: 9 });
      const seen: Line[] = [];
      const objects = new Set<Line>();
      splitLines(bytes, { maxLineBytes: 9, valid: true, reuseLine: true, ...extra }, (l) => {
        objects.add(l);
        seen.push({ ...l });
      });
      expect(seen).toEqual(expected);
      // the cut lines are new objects (bufferLine); every whole one is the same object
      expect(objects.size).toBe(1 + expected.filter((l) => l.truncated).length);
    }
  });
  it('an ASCII file sliced from its whole text gives what readLines gives', async () => {
    const bytes = Buffer.from(`first\r\n\n${'x'.repeat(50)}\nmid\r\r\n{"a":1}\n${'y'.repeat(12)}\r\nend`);
    for (const maxLineBytes of [undefined, 3, 12, 13]) {
      const out: Line[] = [];
      const options = maxLineBytes === undefined ? {} : { maxLineBytes };
      splitLines(bytes, { ...options, valid: true, decoded: [], wholeText: bytes.toString('latin1') }, (l) => out.push(l));
      expect(out).toEqual(await streamed(bytes, options));
    }
  });
  it('past a head of many short lines the rest is decoded at once: still what readLines gives', async () => {
    const lines: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      const text = i % 7 === 0 ? `> note ${i} é✦🎉` : i % 11 === 0 ? '' : `line ${i}`;
      lines.push(Buffer.from(text), Buffer.from(i % 5 === 0 ? '\r\n' : '\n'));
      if (i === 250) lines.push(Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('after a BOM\n'));
      if (i === 300) lines.push(Buffer.from(`${'long é '.repeat(30)}\n`));
    }
    const bytes = Buffer.concat([...lines, Buffer.from('last line, no newline')]);
    for (const limit of [600, 1000, 2000]) {
      const decoded = startLines(bytes, limit).lines;
      expect(decoded.length).toBeGreaterThanOrEqual(64); // the one-call path is taken
      for (const maxLineBytes of [undefined, 40]) {
        const out: Line[] = [];
        const options = maxLineBytes === undefined ? {} : { maxLineBytes };
        splitLines(bytes, { ...options, valid: true, decoded }, (l) => out.push(l));
        expect(out).toEqual(await streamed(bytes, options));
      }
    }
  });
});

describe('nextWideByte', () => {
  const naive = (buf: Uint8Array, from: number): number => {
    for (let i = from; i < buf.length; i++) if (buf[i]! >= 0x80) return i;
    return Infinity;
  };
  it('finds the first byte past ASCII from any offset, at any alignment of the memory', () => {
    const next = prng(11);
    const backing = Buffer.alloc(300);
    for (let k = 0; k < 3000; k++) {
      // a view at an odd offset of a shared buffer, with a few wide bytes or none
      const start = Math.floor(next() * 8);
      const buf = backing.subarray(start, start + Math.floor(next() * 120));
      buf.fill(0x61);
      const wide = Math.floor(next() * 4);
      for (let w = 0; w < wide && buf.length > 0; w++) buf[Math.floor(next() * buf.length)] = 0x80 + Math.floor(next() * 0x80);
      const from = Math.floor(next() * (buf.length + 2));
      expect(nextWideByte(buf, from), `${start} ${buf.length} ${from}`).toBe(naive(buf, from));
    }
  });
});

describe('utf8Text', () => {
  it('gives what toString("utf8") gives for short and long, ASCII and wide, lines', () => {
    const next = prng(12);
    const pieces = ['a', 'xyz ', '"\\n', '\r', 'é', '✓', '❯', '😀', '\uFEFF', '\u2028', 'ÿ', '\t'];
    for (let k = 0; k < 400; k++) {
      // lengths around the long-line threshold, with no wide character, one, or many
      const length = Math.floor(next() * 2600);
      const wide = Math.floor(next() * 3);
      let text = '';
      while (Buffer.byteLength(text) < length) text += next() < 0.02 * wide ? pieces[4 + Math.floor(next() * 8)]! : pieces[Math.floor(next() * 4)]!;
      const buf = Buffer.from(`pre${text}post`);
      const start = 3;
      const end = buf.length - 4;
      expect(utf8Text(buf, start, end), `${k}`).toBe(buf.toString('utf8', start, end));
    }
  });
});
