import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearHeadParses, parseHeadLine, takeHeadParse } from '../../src/sessions/jsonl.js';
import { readSessionFile } from '../../src/sessions/read.js';

describe('lines parsed by detection, kept for the reader', () => {
  it('a detector gets the kept value again; the reader takes it once; only early lines are looked up', () => {
    clearHeadParses();
    const line = '{"role":"user","content":"hi"}';
    const first = parseHeadLine(line);
    expect(first).toEqual({ role: 'user', content: 'hi' });
    expect(parseHeadLine(line)).toBe(first); // a second detector: the same value, not a new parse
    expect(takeHeadParse(line, 65)).toBeUndefined(); // past the head: not looked up
    expect(takeHeadParse(`${line} `, 1)).toBeUndefined(); // another text
    expect(takeHeadParse(line, 1)).toBe(first);
    expect(takeHeadParse(line, 1)).toBeUndefined(); // taken once: a reader may change it
  });

  it('keeps objects and arrays only, and forgets everything when cleared', () => {
    clearHeadParses();
    expect(parseHeadLine('42')).toBe(42);
    expect(parseHeadLine('{"a":')).toBeUndefined();
    expect(takeHeadParse('42', 1)).toBeUndefined();
    parseHeadLine('[1]');
    clearHeadParses();
    expect(takeHeadParse('[1]', 1)).toBeUndefined();
  });

  it('two files with the same first lines are each read whole, as without the store', async () => {
    // each is detected (its head lines kept) and read; the second is not handed what the first took
    const dir = mkdtempSync(join(tmpdir(), 'compound-head-'));
    const text = ['{"role":"user","content":"run the tests"}', '{"role":"assistant","content":"They pass."}', ''].join('\n');
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, text);
    writeFileSync(b, text);
    const ra = await readSessionFile(a);
    const rb = await readSessionFile(b);
    expect(ra.format).toBe('openai-chat');
    expect(rb.sessions[0]!.events.map((e) => e.kind)).toEqual(ra.sessions[0]!.events.map((e) => e.kind));
    expect(rb.sessions[0]!.events.map((e) => (e as { text?: string }).text)).toEqual(['run the tests', 'They pass.']);
    expect(rb.sessions[0]!.events[0]).not.toBe(ra.sessions[0]!.events[0]);
  });
});
