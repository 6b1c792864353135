import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hermesReader } from '../../src/sessions/readers/hermes.js';
import { openaiChatReader } from '../../src/sessions/readers/openai-chat.js';
import { detectFile } from '../../src/sessions/detect.js';
import { jsonl, tempDir, TEST_SESSIONS } from './support.js';
import {
  counts,
  expectDeterministic,
  expectWarningAt,
  expectWellFormed,
  ofKind,
  put,
  readWith,
  sourceLine,
  withInvalidUtf8,
} from './reader-checks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const DIR = join(TEST_SESSIONS, 'hermes');
const GATEWAY_OK = join(DIR, '20260302_091512_a1b2c3.jsonl');
const GATEWAY_FAIL = join(DIR, '20260303_140233_d4e5f6.jsonl');
const LOG = join(DIR, 'session_20260304_101010_0f9e8d.json');

/** Counts from the raw messages: typed prompts, tool_calls, failing tool replies (not denials). */
function hermesCounts(messages: Json[]): { prompts: number; toolCalls: number; toolErrors: number } {
  let prompts = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  for (const m of messages) {
    if (m.role === 'user' && !String(m.content).startsWith('[System note')) prompts++;
    if (m.role === 'assistant') toolCalls += (m.tool_calls ?? []).length;
    if (m.role === 'tool' && String(m.content).startsWith('{')) {
      const c = JSON.parse(m.content);
      const failed = (typeof c.exit_code === 'number' && c.exit_code !== 0) || Boolean(c.error) || c.success === false;
      if (failed && c.status !== 'blocked') toolErrors++;
    }
  }
  return { prompts, toolCalls, toolErrors };
}

describe('Hermes reader on test_sessions', () => {
  const files = readdirSync(DIR).map((f) => join(DIR, f)).sort();

  it('has the gateway and JSON-log transcripts', () => {
    expect(files).toEqual([GATEWAY_OK, GATEWAY_FAIL, LOG]);
  });

  for (const file of files) {
    it(`${file.slice(DIR.length + 1)}: detected, read without warnings, counts match the raw JSON`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('hermes');
      const { sessions, warnings } = await readWith(hermesReader, file);
      expect(warnings).toEqual([]);
      expect(sessions).toHaveLength(1);
      const s = sessions[0]!;
      expectWellFormed(s, file);
      const raw = file.endsWith('.json') ? (JSON.parse(readFileSync(file, 'utf8')) as Json).messages : jsonl(file).slice(1);
      expect(counts(s)).toEqual(hermesCounts(raw));
      await expectDeterministic(hermesReader, file);
    });
  }

  it('gateway success: ids, times and model from the file; the failing test run, diagnosis and fix', async () => {
    const s = (await readWith(hermesReader, GATEWAY_OK)).sessions[0]!;
    expect(s.id).toBe('20260302_091512_a1b2c3');
    expect(s.format).toBe('hermes');
    expect(s.agent).toBe('hermes');
    expect(s.models).toEqual(['anthropic/claude-sonnet-4']);
    expect(s.startedAt).toBe('2026-03-02T09:15:12.402211'); // naive local time, kept as written
    expect(s.endedAt).toBe('2026-03-02T09:16:12.775902');
    const results = ofKind(s, 'tool_result');
    const failed = results.find((r) => r.isError)!;
    expect(failed).toMatchObject({ name: 'terminal', exitCode: 1, callId: 'call_7f3a06' });
    expect(failed.output).toContain('JSONDecodeError');
    const call = ofKind(s, 'tool_call').find((c) => c.callId === 'call_7f3a06')!;
    expect(call.command).toBe('cd ~/projects/invoice-tool && python -m pytest -q tests/test_cli.py');
    const diagnosis = s.events.slice(failed.index + 1).find((e) => e.kind === 'assistant')!;
    expect(diagnosis.kind === 'assistant' && diagnosis.text).toContain('stderr');
    expect(diagnosis.kind === 'assistant' && diagnosis.model).toBe('anthropic/claude-sonnet-4');
    const passed = results.filter((r) => r.name === 'terminal' && r.index > failed.index);
    expect(passed[0]).toMatchObject({ isError: false, exitCode: 0 });
    expect(passed[0]!.output).toContain('8 passed');
    // reasoning is kept once even though Hermes stores it twice (reasoning + reasoning_content)
    expect(ofKind(s, 'reasoning')[0]!.text).toBe('Look at the CLI module and the existing tests first.');
    expect(sourceLine(GATEWAY_OK, failed)).toContain('"tool_call_id": "call_7f3a06"');
  });

  it('gateway failure: a denied command is a rejection, not a tool error; raw emoji survive', async () => {
    const s = (await readWith(hermesReader, GATEWAY_FAIL)).sessions[0]!;
    expect(s.models).toEqual(['minimax/minimax-m2.7']);
    expect(ofKind(s, 'user')[0]!.text).toContain('😩');
    const denied = ofKind(s, 'tool_result').find((r) => r.rejected)!;
    expect(denied).toMatchObject({ isError: true, rejected: true, output: 'BLOCKED: Command denied by user' });
    const usage = ofKind(s, 'tool_result').find((r) => r.exitCode === 2)!;
    expect(usage.output).toContain('unrecognized arguments: --keep-daily 7 --keep-weekly 4');
    expect(counts(s)).toEqual({ prompts: 3, toolCalls: 7, toolErrors: 3 });
  });

  it('JSON log: bootstrap block split from the system prompt, injected notes flagged, cut-off end kept', async () => {
    const s = (await readWith(hermesReader, LOG)).sessions[0]!;
    expect(s.id).toBe('20260304_101010_0f9e8d');
    expect(s.startedAt).toBe('2026-03-04T10:10:10.118230');
    expect(s.endedAt).toBe('2026-03-04T10:14:52.903114');
    const boot = ofKind(s, 'bootstrap');
    expect(boot).toHaveLength(1);
    expect(boot[0]!.itemIds).toEqual(['k-3f2a91c0', 'k-77b1e2d4']);
    expect(boot[0]!.text).toContain('make check');
    const system = ofKind(s, 'system')[0]!;
    expect(system.injected).toBe(true);
    expect(system.text).not.toContain('compound:bootstrap');
    const users = ofKind(s, 'user');
    expect(users.map((u) => Boolean(u.injected))).toEqual([false, true]);
    // the line cited for a message is where its object starts in the pretty-printed file
    expect(sourceLine(LOG, users[0]!).trim()).toBe('{');
    expect(readFileSync(LOG, 'utf8').split('\n')[users[0]!.source.line]!.trim()).toBe('"role": "user",');
    // the process died after the last tool call: no result for it
    expect(s.events.at(-1)).toMatchObject({ kind: 'tool_call', callId: 'call_p08' });
    const patchFailure = ofKind(s, 'tool_result').find((r) => r.callId === 'call_p05')!;
    expect(patchFailure.isError).toBe(true);
  });

  it('JSON log: the working directory newer builds write into their system prompt', async () => {
    const log = readFileSync(LOG, 'utf8');
    const doc = JSON.parse(log) as Json;
    doc.system_prompt = `${String(doc.system_prompt)}\n\nHost: Linux\nUser home directory: /home/dev\nCurrent working directory: /home/dev/projects/ledger\n\nActive Hermes profile: default.`;
    const file = put(tempDir(), 'session_20260304_101010_0f9e8d.json', JSON.stringify(doc, null, 2));
    expect((await readWith(hermesReader, file)).sessions[0]!.cwd).toBe('/home/dev/projects/ledger');
    // the fixture's prompt says none
    expect((await readWith(hermesReader, LOG)).sessions[0]!.cwd).toBeUndefined();
  });

  it('the generic OpenAI-chat reader leaves Hermes files alone', () => {
    const head = readFileSync(GATEWAY_OK, 'utf8').slice(0, 65536);
    expect(openaiChatReader.detect(head, GATEWAY_OK)).toBe(0);
    expect(hermesReader.detect(head, GATEWAY_OK)).toBeGreaterThan(0.9);
  });

  it('detects the gateway file even when line 1 is longer than the head', () => {
    const meta = JSON.stringify({ role: 'session_meta', tools: [{ description: 'x'.repeat(70000) }], model: 'm' });
    expect(hermesReader.detect(meta.slice(0, 65536), 'x')).toBeGreaterThan(0.9);
  });
});

describe('Hermes reader on bad input', () => {
  const text = readFileSync(GATEWAY_OK, 'utf8');
  const lines = text.split('\n').filter(Boolean);

  it('empty file: no session, a warning, no throw', async () => {
    const f = put(tempDir(), 'empty.jsonl', '');
    const { sessions, warnings } = await readWith(hermesReader, f);
    expect(sessions).toEqual([]);
    expectWarningAt(warnings, f);
  });

  it('invalid JSON line in the middle: warned with its line, the rest is read', async () => {
    const broken = [...lines.slice(0, 5), '{"role": "assistant", "content": oops}', ...lines.slice(5)].join('\n') + '\n';
    const f = put(tempDir(), 'broken.jsonl', broken);
    const { sessions, warnings } = await readWith(hermesReader, f);
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, f, 6);
    const good = (await readWith(hermesReader, GATEWAY_OK)).sessions[0]!;
    expect(counts(sessions[0]!)).toEqual(counts(good));
    expect(sessions[0]!.events.length).toBe(good.events.length);
  });

  it('truncated last line: warned, everything before it read', async () => {
    const cut = lines.join('\n').slice(0, -40);
    const f = put(tempDir(), 'cut.jsonl', cut);
    const { sessions, warnings } = await readWith(hermesReader, f);
    expectWarningAt(warnings, f, lines.length);
    expect(ofKind(sessions[0]!, 'tool_result').at(-1)!.output).toContain('[main 4c1d9e2]');
  });

  it('invalid UTF-8: warned with its line, decoded with replacement characters', async () => {
    const f = put(tempDir(), 'bad-utf8.jsonl', withInvalidUtf8(text, 2, 'add a '));
    const { sessions, warnings } = await readWith(hermesReader, f);
    expectWarningAt(warnings, f, 2);
    expect(ofKind(sessions[0]!, 'user')[0]!.text).toContain('add a \uFFFD--json');
  });

  it('JSON log cut off mid-write: warned, the complete messages are read', async () => {
    const log = readFileSync(LOG, 'utf8');
    const at = log.indexOf('"tool_call_id": "call_p06"');
    const f = put(tempDir(), 'session_cut.json', log.slice(0, at));
    const { sessions, warnings } = await readWith(hermesReader, f);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.line).toBe(log.slice(0, at).split('\n').length);
    const s = sessions[0]!;
    expect(s.id).toBe('20260304_101010_0f9e8d');
    expect(ofKind(s, 'bootstrap')).toHaveLength(1);
    expect(s.events.at(-1)).toMatchObject({ kind: 'tool_call', callId: 'call_p06' });
    expectWellFormed(s, f);
  });

  it('JSON log with invalid UTF-8 and an empty JSON log', async () => {
    const log = readFileSync(LOG, 'utf8');
    const line = log.split('\n').findIndex((l) => l.includes('upgrade pydantic')) + 1;
    const dir = tempDir();
    const f = put(dir, 'session_bad.json', withInvalidUtf8(log, line, 'upgrade '));
    const { sessions, warnings } = await readWith(hermesReader, f);
    expectWarningAt(warnings, f, line);
    expect(ofKind(sessions[0]!, 'user')[0]!.text).toContain('upgrade \uFFFDpydantic');
    const e = put(dir, 'session_empty.json', '\n');
    const empty = await readWith(hermesReader, e);
    expect(empty.sessions).toEqual([]);
    expectWarningAt(empty.warnings, e);
  });
});
