import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearHeadParses, firstLineObject, parseHeadLine, takeHeadParse } from '../../src/sessions/jsonl.js';
import { claudeCodeReader } from '../../src/sessions/readers/claude-code.js';
import { geminiCliReader } from '../../src/sessions/readers/gemini-cli.js';
import { hermesReader } from '../../src/sessions/readers/hermes.js';
import { readSessionFile } from '../../src/sessions/read.js';
import { tempDir } from '../helpers.js';

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
    const dir = tempDir('compound-head-');
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

describe('a first line that is a whole JSON object', () => {
  const claudeLine = '{"parentUuid":null,"sessionId":"s-1","type":"user","message":{"role":"user","content":"hi"},"uuid":"u-1"}';

  it('is found past blank lines, parsed once, and only when whole', () => {
    clearHeadParses();
    const o = firstLineObject('\n  {"role":"user","content":"hi"}  \n{"x":1}');
    expect(o).toEqual({ role: 'user', content: 'hi' });
    expect(firstLineObject('{"role":"user","content":"hi"}\n')).toBe(o); // the kept parse
    expect(firstLineObject('{\n  "sessionId": "s"\n}')).toBeUndefined(); // pretty-printed
    expect(firstLineObject('{"cut":"sho')).toBeUndefined();
    expect(firstLineObject('[1]\n')).toBeUndefined();
    expect(firstLineObject('')).toBeUndefined();
  });

  it('without a type, the file is no Claude Code transcript, whatever later lines hold', () => {
    // an OpenAI-chat line first: detection used to search the head for Claude Code's keys
    const head = ['{"role":"user","content":"hi"}', claudeLine, ''].join('\n');
    const lines = { lines: head.split('\n').slice(0, 2), after: '\n' };
    clearHeadParses();
    expect(claudeCodeReader.detect(head, 'x.jsonl')).toBe(0);
    expect(claudeCodeReader.detectLines?.(lines.lines, lines.after)).toBe(0);
    // typed, it still is one
    clearHeadParses();
    expect(claudeCodeReader.detect(`${claudeLine}\n`, 'x.jsonl')).toBe(0.95);
  });

  it('is the whole document for Gemini CLI and never a pretty-printed Hermes log', () => {
    clearHeadParses();
    const keys = '"sessionId":"s","projectHash":"p","messages":[]';
    expect(geminiCliReader.detect(`{${keys}}\n`, 'x.json')).toBe(0.95); // one-line chat
    expect(geminiCliReader.detect(`{"role":"user"}\n{${keys}}\n`, 'x.jsonl')).toBe(0); // JSONL
    expect(geminiCliReader.detect(`{\n  ${keys}\n}\n`, 'x.json')).toBe(0.95); // pretty-printed
    const log = '{\n  "session_id": "s",\n  "session_start": "2026-01-05T10:00:00"\n}\n';
    expect(hermesReader.detect(log, 'x.json')).toBe(0.9);
    expect(hermesReader.detect('{"role":"user"}\n  "session_id": 1\n  "session_start": 2\n', 'x.jsonl')).toBe(0);
  });
});
