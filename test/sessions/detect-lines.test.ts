// Readers may judge a file by its head's complete lines (SessionReader.detectLines) so that the
// head string need not be built. Wherever they answer, the answer must be detect's on the head.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeHead, detectFormat, HEAD_BYTES, type DetectOutcome } from '../../src/sessions/detect.js';
import { startLines } from '../../src/sessions/lines.js';
import { READERS } from '../../src/sessions/registry.js';
import { walkInputs } from '../../src/sessions/walk.js';
import { SHARED, TEST_SESSIONS } from './support.js';

const BOM = '\uFEFF';
const claudeLine = '{"type":"user","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi ✦"}}';
const codexLine = '{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}';

const synthetic: string[] = [
  `${claudeLine}\n`,
  `${BOM}${claudeLine}\n`,
  `\n \r\n\t\n${claudeLine}\r\n`,
  `${BOM}\n\n${codexLine}\n`,
  `${codexLine}\n${claudeLine}\n`,
  '{"id":"x","timestamp":"t","instructions":"i ✦"}\n',
  // undecided by its complete lines: the detectors need the rest of the head
  `${'{"type":"user","note":"✦"}\n'.repeat(25)}${claudeLine}\n`,
  `${'{"type":"progress","x":1}\n'.repeat(3)}{"type":"user","parentUuid":"p","sessionId":"s","long":"${'é'.repeat(HEAD_BYTES)}"}\n`,
  `{"summary":"✦","leafUuid":"${'x'.repeat(HEAD_BYTES)}"}\n`,
  `{"type":"system","subtype":"init","session_id":"s","x":"✦"}\n${claudeLine}\n`,
  '\u00a0{"type":"user","parentUuid":null,"sessionId":"s","x":"✦"}\n',
  '[{"sessionId":"s","messageId":0,"type":"user","message":"✦"}]\n',
  '{\n  "sessionId": "s",\n  "projectHash": "p",\n  "messages": [],\n  "x": "✦"\n}\n',
  'plain text ✦, nobody claims this\n',
  '\n\n   \n',
];

async function files(): Promise<{ name: string; bytes: Buffer }[]> {
  const out = synthetic.map((text, i) => ({ name: `synthetic-${i}`, bytes: Buffer.from(text) }));
  const dirs = [TEST_SESSIONS, SHARED].filter((d) => existsSync(d));
  const { files: found } = await walkInputs(dirs);
  for (const file of found) out.push({ name: file, bytes: readFileSync(file) });
  return out;
}

const summary = (o: DetectOutcome) => (o.ok ? { format: o.reader.format, score: o.score } : { reason: o.reason });

describe('detection by complete head lines', () => {
  it('where a reader answers from the lines, it gives what detect gives on the head', async () => {
    let answered = 0;
    for (const { name, bytes } of await files()) {
      for (const limit of [HEAD_BYTES, 200, 90, 40]) {
        const { lines, after } = startLines(bytes, limit);
        const head = decodeHead(bytes.subarray(0, limit));
        for (const reader of READERS) {
          if (!reader.detectLines) continue;
          const byLines = reader.detectLines(lines, after);
          if (byLines === undefined) continue;
          answered++;
          expect(byLines, `${reader.format} on ${name} (head of ${limit} bytes)`).toBe(reader.detect(head, name));
        }
      }
    }
    expect(answered).toBeGreaterThan(50); // the lines settle most files
  });

  it('detectFormat picks the same reader with lines as with the head text', async () => {
    for (const { name, bytes } of await files()) {
      const head = { bytes: bytes.subarray(0, HEAD_BYTES), size: bytes.length };
      const text = decodeHead(head.bytes);
      const lines = startLines(bytes, HEAD_BYTES);
      expect(summary(detectFormat({ ...head, lines }, name)), name).toEqual(summary(detectFormat({ ...head, text }, name)));
      if (lines.head !== undefined) expect(lines.head).toBe(text); // made for a reader that needed it
    }
  });

  it('a Claude Code or Codex file is detected without building its head', () => {
    // lines of JSONL length: a head of short lines is decoded in one piece anyway (manyShortLines)
    const pad = 'y'.repeat(300);
    for (const text of [`${claudeLine}\n${`{"type":"assistant","x":"✦ ${pad}"}\n`.repeat(50)}`, `${codexLine}\n{"x":"✦ ${pad}"}\n`]) {
      const bytes = Buffer.from(text);
      const lines = startLines(bytes, HEAD_BYTES);
      const o = detectFormat({ bytes, size: bytes.length, lines }, 'x');
      expect(o.ok).toBe(true);
      expect(lines.head).toBeUndefined();
    }
  });
});

describe('decodeHead', () => {
  it('gives what TextDecoder gives, whichever way it decodes', () => {
    const td = new TextDecoder('utf-8');
    const long = `${'{"text":"a → b ✦ 𝄞 ü"}\n'.repeat(80)}`; // past 1024 bytes: decoded by transcoding
    const cases = [
      Buffer.from('{"type":"user"}\n', 'utf8'), // ASCII
      Buffer.from('{"text":"→ ü"}\n', 'utf8'), // short, valid
      Buffer.from(long, 'utf8'),
      Buffer.from(`${BOM}${long}`, 'utf8'), // a BOM is dropped
      Buffer.from(`${BOM}{"a":1}`, 'utf8'),
      Buffer.from(long, 'utf8').subarray(0, 1500), // a character cut at the end
      Buffer.concat([Buffer.from(long, 'utf8'), Buffer.from([0xff, 0xc3, 0x28])]), // invalid bytes
    ];
    for (const bytes of cases) expect(decodeHead(bytes)).toBe(td.decode(bytes));
  });
});
