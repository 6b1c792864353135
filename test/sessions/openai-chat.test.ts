import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openaiChatReader } from '../../src/sessions/readers/openai-chat.js';
import { detectFile } from '../../src/sessions/detect.js';
import { jsonl, SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith, withInvalidUtf8 } from './reader-checks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const DIR = join(TEST_SESSIONS, 'openai-chat');
const DOCKER = join(DIR, 'storefront-docker-build.jsonl');
const FLAKY = join(DIR, 'billing-flaky-due-date.jsonl');

/** Counts from the raw lines: user turns, tool_calls, tool replies stating a non-zero exit. */
function chatCounts(rows: Json[]): { prompts: number; toolCalls: number; toolErrors: number } {
  let toolErrors = 0;
  for (const r of rows.filter((x) => x.role === 'tool')) {
    const c = String(r.content);
    const code = c.startsWith('{') ? JSON.parse(c).exit_code : Number(/Exit code: (\d+)/.exec(c)?.[1] ?? 0);
    if (code) toolErrors++;
  }
  return {
    prompts: rows.filter((r) => r.role === 'user').length,
    toolCalls: rows.reduce((n, r) => n + (r.tool_calls?.length ?? 0), 0),
    toolErrors,
  };
}

describe('OpenAI-chat reader on test_sessions', () => {
  const files = readdirSync(DIR).map((f) => join(DIR, f)).sort();

  it('has a success and a failure ending in open questions', () => {
    expect(files).toEqual([FLAKY, DOCKER]);
  });

  for (const file of files) {
    it(`${file.slice(DIR.length + 1)}: detected, read without warnings, counts match the raw JSON`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('openai-chat');
      const { sessions, warnings } = await readWith(openaiChatReader, file);
      expect(warnings).toEqual([]);
      expect(sessions).toHaveLength(1);
      expectWellFormed(sessions[0]!, file);
      expect(counts(sessions[0]!)).toEqual(chatCounts(jsonl(file)));
      await expectDeterministic(openaiChatReader, file);
    });
  }

  it('content as a list of parts, JSON tool output, the fix after the failing build', async () => {
    const s = (await readWith(openaiChatReader, DOCKER)).sessions[0]!;
    expect(s.format).toBe('openai-chat');
    expect(s.id).toMatch(/^storefront-docker-build-[0-9a-f]{8}$/);
    expect(s.models).toEqual(['gpt-4.1']);
    expect(s.startedAt).toBe('2026-02-18T08:31:04Z');
    expect(s.endedAt).toBe('2026-02-18T08:36:02Z');
    expect(ofKind(s, 'system')[0]!.injected).toBe(true);
    const prompt = ofKind(s, 'user')[0]!.text;
    expect(prompt).toContain('Missing: @types/node@20.11.30 from lock file');
    expect(prompt).toContain('[image]');
    const [build, log, lock, rebuild] = ofKind(s, 'tool_result');
    expect(build).toMatchObject({ name: 'shell', isError: true, exitCode: 1, callId: 'call_s1' });
    expect(log!.output).toContain('9d2c4e1 chore: add @types/node'); // {"stdout":…} unwrapped
    expect(lock).toMatchObject({ isError: false, exitCode: 0 });
    expect(ofKind(s, 'tool_call')[2]!.command).toBe('npm install --package-lock-only --ignore-scripts && git diff --stat');
    expect(rebuild!.output).toContain('142 passed');
    expect(ofKind(s, 'assistant').at(-1)!.text).toContain('npm ci'); // content given as output_text parts
  });

  it('failure with open questions: the cause is found, the session ends asking', async () => {
    const s = (await readWith(openaiChatReader, FLAKY)).sessions[0]!;
    expect(s.startedAt).toBeUndefined(); // no timestamps in this log, and no wall clock either
    const failing = ofKind(s, 'tool_result').find((r) => r.isError)!;
    expect(failing.output).toContain('AssertionError: assert datetime.date(2026, 3, 1) == datetime.date(2026, 2, 28)');
    const last = s.events.at(-1)!;
    expect(last.kind === 'assistant' && last.text).toMatch(/Open questions[\s\S]*1\. Which timezone/);
  });
});

describe.skipIf(!existsSync(SHARED))('OpenAI-chat detection leaves the specific formats alone', () => {
  const dirs = ['claude-code', 'codex'];
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.jsonl')) files.push(join(d, e.name));
    }
  };
  if (existsSync(SHARED)) for (const d of dirs) walk(join(SHARED, d));
  for (const d of dirs) if (existsSync(join(TEST_SESSIONS, d))) walk(join(TEST_SESSIONS, d));

  it('scores 0 on every Claude Code and Codex transcript', () => {
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const head = readFileSync(f).subarray(0, 65536).toString('utf8');
      expect(openaiChatReader.detect(head, f), f).toBe(0);
    }
  });
});

describe('OpenAI-chat reader on bad input', () => {
  const text = readFileSync(DOCKER, 'utf8');
  const lines = text.split('\n').filter(Boolean);

  it('empty file and a file of blank lines: no session, a warning', async () => {
    const dir = tempDir();
    for (const [name, body] of [['empty.jsonl', ''], ['blank.jsonl', '\n\n  \n']] as const) {
      const f = put(dir, name, body);
      const { sessions, warnings } = await readWith(openaiChatReader, f);
      expect(sessions).toEqual([]);
      expectWarningAt(warnings, f);
    }
  });

  it('invalid JSON line and a line without a role in the middle: both warned, the rest read', async () => {
    const broken = [...lines.slice(0, 3), '{"role":"assistant","content":"cut', '{"note":"not a message"}', ...lines.slice(3)].join('\n');
    const f = put(tempDir(), 'broken.jsonl', broken);
    const { sessions, warnings } = await readWith(openaiChatReader, f);
    expect(warnings.map((w) => w.line)).toEqual([4, 5]);
    const good = (await readWith(openaiChatReader, DOCKER)).sessions[0]!;
    expect(counts(sessions[0]!)).toEqual(counts(good));
  });

  it('truncated last line: warned, the rest read', async () => {
    const f = put(tempDir(), 'cut.jsonl', lines.join('\n').slice(0, -25));
    const { sessions, warnings } = await readWith(openaiChatReader, f);
    expectWarningAt(warnings, f, lines.length);
    expect(ofKind(sessions[0]!, 'tool_result')).toHaveLength(4);
  });

  it('invalid UTF-8: warned with its line, replacement character in the text', async () => {
    const f = put(tempDir(), 'utf8.jsonl', withInvalidUtf8(text, 1, 'You are '));
    const { sessions, warnings } = await readWith(openaiChatReader, f);
    expectWarningAt(warnings, f, 1);
    expect(ofKind(sessions[0]!, 'system')[0]!.text).toContain('You are \uFFFDa coding agent');
  });
});

describe('OpenAI-chat reader: Anthropic Messages-API content blocks', () => {
  // a custom agent on the Anthropic SDK logs {role, content} lines whose content is blocks
  const lines = [
    { role: 'system', content: 'You are a coding agent. You have access to read_file and run_command.' },
    { role: 'user', content: 'Build the task API and run the tests.' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'Start with the server.' }, { type: 'text', text: 'Let me start the server.' }, { type: 'tool_use', id: 'toolu_1', name: 'run_command', input: { command: 'npm start' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Blocked: server-starting commands are not allowed. Use npm test instead.', is_error: true }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'run_command', input: { command: 'npm test' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'Tests: 29 passed, 29 total' }] }, { type: 'text', text: 'Now add the report endpoint.' }] },
  ];

  it('reads tool_use blocks as calls and tool_result blocks as results, never as the user speaking', async () => {
    const file = put(tempDir(), 'anthropic-blocks.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const detected = await detectFile(file);
    expect(detected.ok && detected.reader.format).toBe('openai-chat');
    const { sessions, warnings } = await readWith(openaiChatReader, file);
    expect(warnings).toEqual([]);
    const s = sessions[0]!;
    expectWellFormed(s, file);
    expect(ofKind(s, 'user').map((e) => e.text)).toEqual(['Build the task API and run the tests.', 'Now add the report endpoint.']);
    const calls = ofKind(s, 'tool_call');
    expect(calls.map((c) => [c.name, c.command, c.callId])).toEqual([
      ['run_command', 'npm start', 'toolu_1'],
      ['run_command', 'npm test', 'toolu_2'],
    ]);
    const results = ofKind(s, 'tool_result');
    expect(results.map((r) => [r.callId, r.name, r.isError, r.output])).toEqual([
      ['toolu_1', 'run_command', true, 'Blocked: server-starting commands are not allowed. Use npm test instead.'],
      ['toolu_2', 'run_command', false, 'Tests: 29 passed, 29 total'],
    ]);
    expect(ofKind(s, 'reasoning').map((e) => e.text)).toEqual(['Start with the server.']);
    expect(ofKind(s, 'assistant').map((e) => e.text)).toEqual(['Let me start the server.']);
  });

  it('reads a command result in plain text as a terminal would: failed when it reads as a failure, whatever the shell', async () => {
    const rows = [
      { role: 'user', content: 'List the sources.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command: 'ls src -la' }) } }] },
      { role: 'tool', tool_call_id: 'c1', content: "'ls' is not recognized as an internal or external command,\noperable program or batch file.\n" },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command: 'dir src' }) } }] },
      { role: 'tool', tool_call_id: 'c2', content: ' Directory of C:\\work\\app\\src\n\n05/12/2026  10:00    <DIR>          routes\n' },
      // a tool that ran no command: its text is not judged as a terminal's
      { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: 'NOTES.md' }) } }] },
      { role: 'tool', tool_call_id: 'c3', content: 'TODO: the command not found case' },
    ];
    const file = put(tempDir(), 'windows-run.jsonl', `${rows.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const { sessions } = await readWith(openaiChatReader, file);
    expect(ofKind(sessions[0]!, 'tool_result').map((r) => r.isError)).toEqual([true, false, false]);
  });
});
