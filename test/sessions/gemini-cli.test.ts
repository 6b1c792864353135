import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiCliReader } from '../../src/sessions/readers/gemini-cli.js';
import { unframedShellOutput } from '../../src/sessions/readers/gemini-shell-output.js';
import { detectFile } from '../../src/sessions/detect.js';
import type { Session } from '../../src/sessions/model.js';
import { SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith, withInvalidUtf8 } from './reader-checks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const DIR = join(TEST_SESSIONS, 'gemini-cli');
const OK = join(DIR, 'session-2026-02-10T09-14-5e2a91c0.json');
const FAIL = join(DIR, 'session-2026-02-11T16-40-8b7d3f21.json');
const LOGS = join(DIR, 'logs.json');
const LINES = join(DIR, 'session-2026-03-10T08-41-7c1d2e3f.jsonl');
const SHARE = join(DIR, 'chat-share-weather-cli.md'); // read in gemini-markdown.test.ts
const SHARED_DIR = join(SHARED, 'gemini-cli', 'codemie-code');

/** Counts straight from the chat JSON. A call fails when its status is not success (a cancel is a
 * rejection, not a failure), its response holds an error, or the shell output states a non-zero exit. */
function chatCounts(doc: Json): { prompts: number; toolCalls: number; toolErrors: number } {
  let toolCalls = 0;
  let toolErrors = 0;
  for (const m of doc.messages) {
    for (const c of m.toolCalls ?? []) {
      toolCalls++;
      if (c.status === undefined || c.status === 'cancelled') continue;
      const resp = c.result?.[0]?.functionResponse?.response ?? {};
      if (c.status !== 'success' || resp.error || /^Exit Code: [1-9]/m.test(String(resp.output ?? ''))) toolErrors++;
    }
  }
  return { prompts: doc.messages.filter((m: Json) => m.type === 'user').length, toolCalls, toolErrors };
}

/** Each event must cite the line where its message (or tool call) object opens: `{` followed
 * within a few lines by that object's own id. */
function expectLinesPointAtObjects(file: string, s: Session, doc: Json): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const opensWithId = (line: number, id: string): void => {
    expect(lines[line - 1]!.trim()).toBe('{');
    expect(lines.slice(line, line + 3).join('\n')).toContain(`"id": "${id}"`);
  };
  const users = doc.messages.filter((m: Json) => m.type === 'user');
  ofKind(s, 'user').forEach((e, i) => opensWithId(e.source.line, users[i].id));
  const withText = doc.messages.filter((m: Json) => m.type === 'gemini' && m.content);
  ofKind(s, 'assistant').forEach((e, i) => opensWithId(e.source.line, withText[i].id));
  for (const c of ofKind(s, 'tool_call')) opensWithId(c.source.line, c.callId!);
}

describe.skipIf(!existsSync(SHARED))('Gemini CLI reader on the shared corpus', () => {
  const files = existsSync(SHARED_DIR) ? readdirSync(SHARED_DIR).map((f) => join(SHARED_DIR, f)).sort() : [];

  it('finds the chat and the logs.json', () => {
    expect(files.map((f) => f.slice(SHARED_DIR.length + 1))).toEqual(['logs.json', 'session-2026-01-16T11-01-file-ops-37b7abef.json']);
  });

  it('chat: detected, no warnings, counts and cited lines match the raw JSON', async () => {
    const file = files[1]!;
    const detected = await detectFile(file);
    expect(detected.ok && detected.reader.format).toBe('gemini-cli');
    const { sessions, warnings } = await readWith(geminiCliReader, file);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
    expect(counts(s)).toEqual(chatCounts(doc));
    expect(s.id).toBe(doc.sessionId);
    expect(s.startedAt).toBe(doc.startTime);
    expect(s.endedAt).toBe(doc.lastUpdated);
    expect(s.models).toEqual(['gemini-3-pro']);
    expectWellFormed(s, file);
    expectLinesPointAtObjects(file, s, doc);
    // every call has its result, linked by id
    const results = ofKind(s, 'tool_result');
    expect(results.map((r) => r.callId)).toEqual(ofKind(s, 'tool_call').map((c) => c.callId));
    await expectDeterministic(geminiCliReader, file);
  });

  it('logs.json: prompts only, one session per sessionId, counts match the raw JSON', async () => {
    const file = files[0]!;
    const detected = await detectFile(file);
    expect(detected.ok && detected.reader.format).toBe('gemini-cli');
    const { sessions, warnings } = await readWith(geminiCliReader, file);
    expect(warnings).toEqual([]);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Json[];
    const ids = [...new Set(raw.map((e) => e.sessionId))];
    expect(sessions.map((s) => s.id)).toEqual(ids);
    for (const s of sessions) {
      expect(counts(s)).toEqual({ prompts: raw.filter((e) => e.sessionId === s.id && e.type === 'user').length, toolCalls: 0, toolErrors: 0 });
      expectWellFormed(s, file);
    }
    expect(ofKind(sessions[0]!, 'user').map((u) => u.text)).toEqual(raw.map((e) => e.message));
  });
});

describe('Gemini CLI reader on test_sessions', () => {
  const files = readdirSync(DIR).map((f) => join(DIR, f)).sort();

  it('has two chats, their logs.json, a chat in the newer one-object-a-line layout and a markdown export', () => {
    expect(files).toEqual([SHARE, LOGS, OK, FAIL, LINES]);
  });

  for (const file of [OK, FAIL]) {
    it(`${file.slice(DIR.length + 1)}: detected, no warnings, counts and lines match the raw JSON`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('gemini-cli');
      const { sessions, warnings } = await readWith(geminiCliReader, file);
      expect(warnings).toEqual([]);
      const doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
      expect(counts(sessions[0]!)).toEqual(chatCounts(doc));
      expectWellFormed(sessions[0]!, file);
      expectLinesPointAtObjects(file, sessions[0]!, doc);
      await expectDeterministic(geminiCliReader, file);
    });
  }

  it('success: the crash, its diagnosis, the fix and the passing run', async () => {
    const s = (await readWith(geminiCliReader, OK)).sessions[0]!;
    const [crash, , , tests, , commit] = ofKind(s, 'tool_result');
    expect(crash).toMatchObject({ name: 'run_shell_command', isError: true, exitCode: 1 });
    expect(crash!.output).toContain("TypeError: Cannot read properties of undefined (reading 'id')");
    const diagnosis = s.events.find((e) => e.kind === 'assistant' && e.index > crash!.index)!;
    expect(diagnosis.kind === 'assistant' && diagnosis.text).toContain('accounts[0]');
    expect(tests).toMatchObject({ isError: false, exitCode: 0 });
    expect(commit!.output).toContain('[main 7e3b0a9]');
    expect(ofKind(s, 'tool_call')[0]!.command).toBe('npm run sync -- --dry-run --remote fixtures/empty-ledger.json');
  });

  it('failure cut short: thoughts, an edit error, a cancelled call, a call still pending', async () => {
    const s = (await readWith(geminiCliReader, FAIL)).sessions[0]!;
    const thought = ofKind(s, 'reasoning')[0]!;
    expect(thought.text).toMatch(/^Planning the ESLint 9 migration: /);
    expect(thought.time).toBe('2026-02-11T16:40:20.114Z');
    const results = ofKind(s, 'tool_result');
    const edit = results.find((r) => r.name === 'replace')!;
    expect(edit.isError).toBe(true);
    expect(edit.output).toContain('0 occurrences found');
    expect(results.find((r) => r.rejected)).toMatchObject({ isError: true, name: 'run_shell_command' });
    expect(results.filter((r) => r.exitCode === 2)).toHaveLength(2);
    expect(s.events.at(-1)).toMatchObject({ kind: 'tool_call', callId: 'run_shell_command-1770828139006-f6' });
    expect(counts(s)).toEqual({ prompts: 2, toolCalls: 6, toolErrors: 3 });
  });

  it('logs.json repeats the chats’ prompts under the same session ids', async () => {
    const logs = (await readWith(geminiCliReader, LOGS)).sessions;
    const chats = [(await readWith(geminiCliReader, OK)).sessions[0]!, (await readWith(geminiCliReader, FAIL)).sessions[0]!];
    expect(logs.map((s) => s.id)).toEqual(chats.map((s) => s.id));
    logs.forEach((s, i) => {
      expect(ofKind(s, 'user').map((u) => u.text)).toEqual(ofKind(chats[i]!, 'user').map((u) => u.text));
    });
  });
});

describe('Gemini CLI reader: the newer layout, one JSON object a line', () => {
  it('is detected and read: a message written again whole under its id is read once, where it first stood, citing its last line', async () => {
    const detected = await detectFile(LINES);
    expect(detected.ok && detected.reader.format).toBe('gemini-cli');
    const { sessions, warnings } = await readWith(geminiCliReader, LINES);
    expect(warnings).toEqual([]);
    const s = sessions[0]!;
    expect(s).toMatchObject({ id: '7c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', startedAt: '2026-03-10T08:41:35.150Z', endedAt: '2026-03-10T08:43:30.001Z', models: ['gemini-3-flash-preview'] });
    const raw = readFileSync(LINES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);
    // the reply g-1 is on lines 5 and 7 (then with its tool call): one reply, one call, from line 7
    expect(raw[4]!.id).toBe('g-1');
    expect(raw[6]!.id).toBe('g-1');
    expect(ofKind(s, 'assistant').map((e) => e.text)).toEqual(['I will install the dependencies first.', 'This Debian Python is externally managed; I used `--break-system-packages`.']);
    const calls = ofKind(s, 'tool_call');
    expect(calls.map((c) => c.command)).toEqual(['pip3 install --user rich', 'pip3 install --user rich --break-system-packages']);
    expect(calls[0]!.source.line).toBe(7);
    expect(ofKind(s, 'tool_result')[0]).toMatchObject({ isError: true, exitCode: 1, output: 'error: externally-managed-environment\n\n× This environment is externally managed' });
    // the CLI's own context is no prompt, nor is a user line that only echoes a tool's response
    expect(ofKind(s, 'user').map((e) => e.text)).toEqual(['install the deps and run the sync']);
    expect(ofKind(s, 'system').map((e) => e.text)[0]).toMatch(/^<session_context>/);
    expectWellFormed(s, LINES);
    await expectDeterministic(geminiCliReader, LINES);
  });

  it('takes a $set of the messages as all of them anew, and warns of a bad line with its number', async () => {
    const head = JSON.stringify({ sessionId: 's-1', projectHash: 'ab'.repeat(32), startTime: '2026-04-25T08:00:00.000Z', lastUpdated: '2026-04-25T08:00:00.000Z', kind: 'main' });
    const user = (id: string, text: string) => JSON.stringify({ id, timestamp: '2026-04-25T08:01:00.000Z', type: 'user', content: [{ text }] });
    const text = [head, user('a', 'first try'), '{"id": "b", "type": "user", "content": [{"text"', JSON.stringify({ $set: { messages: [JSON.parse(user('c', 'start over'))] } }), user('d', 'go on'), ''].join('\n');
    const f = put(tempDir(), 'session-2026-04-25T08-00-s1.jsonl', text);
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expect(ofKind(sessions[0]!, 'user').map((e) => e.text)).toEqual(['start over', 'go on']);
    expectWarningAt(warnings, f, 3);
  });
});

describe("Gemini CLI reader: the shell tool's framing is not the program's output", () => {
  const shell = (id: string, command: string, output: string): Json => ({
    id: `m-${id}`, timestamp: '2026-04-03T14:52:00.000Z', type: 'gemini', content: '', model: 'gemini-3-flash-preview',
    toolCalls: [{ id, name: 'run_shell_command', args: { command }, status: 'success', timestamp: '2026-04-03T14:52:01.000Z',
      result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }] }],
  });
  const doc = {
    sessionId: 'f1a2b3c4-0000-4000-8000-000000000001', projectHash: 'ab'.repeat(32), startTime: '2026-04-03T14:52:00.000Z', lastUpdated: '2026-04-03T14:59:00.000Z',
    messages: [
      { id: 'u1', timestamp: '2026-04-03T14:52:00.000Z', type: 'user', content: 'install the deps' },
      shell('c1', 'pip3 install --user rich', 'Output: error: externally-managed-environment\n\n× This environment is externally managed\nExit Code: 1\nProcess Group PGID: 1941'),
      shell('c2', 'ls build', 'Output: (empty)\nProcess Group PGID: 1950'),
      shell('c3', 'npm run sync', 'Command: npm run sync\nDirectory: (root)\nOutput: \n> sync\nError: Cannot find module ./cfg\nError: (none)\nExit Code: 2\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 48211'),
      shell('c4', 'echo hi', 'Output: hi'),
    ],
  };

  it('keeps what the Output label holds, a program line that reads Error:, and the exit codes', async () => {
    const f = put(tempDir(), 'session-2026-04-03T14-52-f1a2b3c4.json', JSON.stringify(doc, null, 2));
    const [pip, ls, sync, echo] = ofKind((await readWith(geminiCliReader, f)).sessions[0]!, 'tool_result');
    expect(pip).toMatchObject({ output: 'error: externally-managed-environment\n\n× This environment is externally managed', exitCode: 1, isError: true });
    expect(ls).toMatchObject({ output: '', isError: false });
    expect(sync).toMatchObject({ output: '> sync\nError: Cannot find module ./cfg', exitCode: 2, isError: true });
    // no closing labels: not the tool's framing, left as it is
    expect(echo!.output).toBe('Output: hi');
  });

  it('gives each of several calls made at once its own response, where every call stores them all', async () => {
    const responses = [
      { functionResponse: { id: 'read-1', name: 'read_file', response: { output: 'flask==3.1.3' } } },
      { functionResponse: { id: 'sh-2', name: 'run_shell_command', response: { output: 'Output: ModuleNotFoundError: No module named flask\nExit Code: 1' } } },
    ];
    const call = (id: string, name: string, args: Json) => ({ id, name, args, status: 'success', timestamp: '2026-06-12T04:15:00.000Z', result: responses });
    const batch = {
      sessionId: 'f1a2b3c4-0000-4000-8000-000000000002', projectHash: 'ab'.repeat(32), startTime: '2026-06-12T04:14:00.000Z', lastUpdated: '2026-06-12T04:16:00.000Z', kind: 'main',
      messages: [
        { id: 'u1', timestamp: '2026-06-12T04:14:00.000Z', type: 'user', content: [{ text: 'why does app.py fail?' }] },
        { id: 'g1', timestamp: '2026-06-12T04:15:00.000Z', type: 'gemini', content: '', toolCalls: [call('read-1', 'read_file', { file_path: 'requirements.txt' }), call('sh-2', 'run_shell_command', { command: 'python app.py' })] },
      ],
    };
    const f = put(tempDir(), 'session-2026-06-12T04-14-f1a2b3c4.json', JSON.stringify(batch, null, 2));
    const [read, sh] = ofKind((await readWith(geminiCliReader, f)).sessions[0]!, 'tool_result');
    expect(read).toMatchObject({ output: 'flask==3.1.3', isError: false });
    expect(sh).toMatchObject({ output: 'ModuleNotFoundError: No module named flask', exitCode: 1, isError: true });
  });

  it('unframedShellOutput keeps a tool error other than (none)', () => {
    expect(unframedShellOutput('Command: x\nDirectory: (root)\nOutput: \nError: spawn x ENOENT\nExit Code: 127\nSignal: (none)')).toBe('Error: spawn x ENOENT');
    expect(unframedShellOutput('plain text\nExit Code: 1')).toBe('plain text\nExit Code: 1');
  });
});

describe('Gemini CLI reader on bad input', () => {
  const text = readFileSync(OK, 'utf8');

  it('empty file: no session, a warning', async () => {
    const f = put(tempDir(), 'session-empty.json', '');
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expect(sessions).toEqual([]);
    expectWarningAt(warnings, f);
  });

  it('file cut off mid-write: warned at the last line, complete messages read', async () => {
    const at = text.indexOf('"id": "replace-1770714881002-c3"');
    const cut = text.slice(0, at);
    const f = put(tempDir(), 'session-cut.json', cut);
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.line).toBe(cut.split('\n').length);
    const s = sessions[0]!;
    expect(s.id).toBe('5e2a91c0-7d1b-4c3e-9f10-2b8e6a4d0c11');
    expect(counts(s)).toEqual({ prompts: 1, toolCalls: 2, toolErrors: 1 });
    expectWellFormed(s, f);
  });

  it('invalid UTF-8: warned with its line, the message read with a replacement character', async () => {
    const line = text.split('\n').findIndex((l) => l.includes('yes add the test')) + 1;
    const f = put(tempDir(), 'session-utf8.json', withInvalidUtf8(text, line, 'yes '));
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expectWarningAt(warnings, f, line);
    expect(ofKind(sessions[0]!, 'user')[1]!.text).toBe('yes \uFFFDadd the test, then commit');
  });

  it('cites the same lines whatever the layout: two-space (read off its lines), four-space, one message on one line', async () => {
    const doc = JSON.parse(text) as Json;
    const withoutSources = (s: Session) => s.events.map(({ source: _source, ...rest }) => rest);
    const { sessions: canonical } = await readWith(geminiCliReader, OK);
    // every tool result cites the line of its call's "result" key
    const lines = text.split('\n');
    for (const r of ofKind(canonical[0]!, 'tool_result')) expect(lines[r.source.line - 1]!.trim()).toMatch(/^"result": /);
    const fourSpace = put(tempDir(), 'session-4.json', JSON.stringify(doc, null, 4));
    const { sessions: four, warnings } = await readWith(geminiCliReader, fourSpace);
    expect(warnings).toEqual([]);
    expect(withoutSources(four[0]!)).toEqual(withoutSources(canonical[0]!));
    expectLinesPointAtObjects(fourSpace, four[0]!, doc);
    // message 1 written on one line: the layout no longer agrees with the messages, every event
    // still cites the line its object opens on
    const oneLine = JSON.stringify({ ...doc, messages: doc.messages.map((m: Json, i: number) => (i === 1 ? '@@' : m)) }, null, 2).replace(
      '"@@"',
      JSON.stringify(doc.messages[1]),
    );
    const mixed = put(tempDir(), 'session-mixed.json', oneLine);
    const { sessions: m } = await readWith(geminiCliReader, mixed);
    expect(withoutSources(m[0]!)).toEqual(withoutSources(canonical[0]!));
    const mixedLines = oneLine.split('\n');
    const ownLine = mixedLines.findIndex((l) => l.includes(`"id":"${doc.messages[1].id}"`)) + 1;
    const onOwnLine = m[0]!.events.filter((e) => e.source.line === ownLine);
    expect(onOwnLine.length).toBeGreaterThan(0);
    for (const e of m[0]!.events) {
      if (e.source.line === ownLine) continue;
      expect(mixedLines[e.source.line - 1]!.trim()).toMatch(/^\{$|^"result": /);
    }
    expect(m[0]!.events.map((e) => e.source.line)).not.toEqual(canonical[0]!.events.map((e) => e.source.line));
  });

  it('cites the byte offset of each cited line when characters before it take more than one byte', async () => {
    // a BOM and wide characters before and inside the messages: lines and bytes part ways
    const wide = `\uFEFF${readFileSync(OK, 'utf8').replace(/"content": "/g, '"content": "é✓ ')}`;
    const f = put(tempDir(), 'session-wide.json', wide);
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expect(warnings).toEqual([]);
    const bytes = readFileSync(f);
    const lineStarts = [0];
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lineStarts.push(i + 1);
    const events = sessions[0]!.events;
    expect(events.length).toBeGreaterThan(5);
    for (const e of events) expect(e.source.offset).toBe(lineStarts[e.source.line! - 1]);
    expect(new Set(events.map((e) => e.source.line)).size).toBeGreaterThan(3);
  });

  it('logs.json cut short: the complete entries are read', async () => {
    const logs = readFileSync(LOGS, 'utf8');
    const f = put(tempDir(), 'logs.json', logs.slice(0, logs.lastIndexOf('"timestamp"')));
    const { sessions, warnings } = await readWith(geminiCliReader, f);
    expect(warnings).toHaveLength(1);
    expect(sessions.reduce((n, s) => n + counts(s).prompts, 0)).toBe(3);
  });
});

describe('Gemini CLI saved chat (`/chat save` → checkpoint-<tag>.json)', () => {
  const saved = [
    { role: 'user', parts: [{ text: "This is the Gemini CLI. We are setting up the context for our chat.\n  Today's date is Monday, July 7, 2025.\n  My operating system is: linux\n  I'm currently working in the directory: /home/dev/shop\n" }] },
    { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
    { role: 'user', parts: [{ text: 'run the tests' }] },
    { role: 'model', parts: [{ text: 'Running them.' }, { functionCall: { name: 'run_shell_command', args: { command: 'npm test' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'run_shell_command-1751899028178-d7ab3', name: 'run_shell_command', response: { output: 'Command: npm test\nDirectory: (root)\nOutput: 1 failing\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242' } } }] },
    { role: 'model', parts: [{ functionCall: { name: 'replace', args: { file_path: '/home/dev/shop/a.ts', old_string: 'x', new_string: 'y' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'replace-1751899378908-c434e', name: 'replace', response: { error: '[Operation Cancelled] Reason: User did not allow tool call' } } }] },
  ];

  it('reads the conversation, with the CLI context injected, its working directory, calls and results at their lines', async () => {
    const text = JSON.stringify(saved, null, 2);
    const file = put(tempDir(), 'checkpoint-tests.json', text);
    expect(geminiCliReader.detect(text.slice(0, 4096))).toBeGreaterThan(0);
    const detected = await detectFile(file);
    expect(detected.ok && detected.reader.format).toBe('gemini-cli');
    const { sessions, warnings } = await readWith(geminiCliReader, file);
    expect(warnings).toEqual([]);
    const [s] = sessions;
    expect(s!.cwd).toBe('/home/dev/shop');
    expect(s!.events.map((e) => [e.kind, e.injected ?? false])).toEqual([
      ['system', true],
      ['system', true],
      ['user', false],
      ['assistant', false],
      ['tool_call', false],
      ['tool_result', false],
      ['tool_call', false],
      ['tool_result', false],
    ]);
    const [, failed, , rejected] = s!.events.filter((e) => e.kind === 'tool_call' || e.kind === 'tool_result');
    expect(failed).toMatchObject({ kind: 'tool_result', isError: true, exitCode: 1, output: '1 failing' });
    expect(rejected).toMatchObject({ kind: 'tool_result', rejected: true });
    // each event cites the line its entry opens on
    const lines = text.split('\n');
    for (const e of s!.events) expect(lines[e.source.line - 1]).toBe('  {');
    await expectDeterministic(geminiCliReader, file);
    // cut short: the entries that ended before the cut, and a warning naming the line
    const cut = put(tempDir(), 'checkpoint-cut.json', text.slice(0, text.indexOf('"functionCall"')));
    const partial = await readWith(geminiCliReader, cut);
    expect(partial.warnings).toHaveLength(1);
    expect(partial.warnings[0]!.message).toContain('cut short');
    expect(partial.sessions[0]!.events.filter((e) => e.kind === 'user')).toHaveLength(1);
  });
});
