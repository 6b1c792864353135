import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiCliReader } from '../../src/sessions/readers/gemini-cli.js';
import { detectMarkdownExport } from '../../src/sessions/readers/gemini-markdown.js';
import { detectFile } from '../../src/sessions/detect.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import type { Session } from '../../src/sessions/model.js';
import { tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith } from './reader-checks.js';

/** An entry of the history Gemini CLI keeps, as the Gemini API holds it. */
interface Entry {
  role: 'user' | 'model';
  parts: { text?: string; functionCall?: Record<string, unknown>; functionResponse?: Record<string, unknown> }[];
}

/** Gemini CLI's markdown export (`/chat share file.md`), hand-made. */
const EXPORT = join(TEST_SESSIONS, 'gemini-cli', 'chat-share-weather-cli.md');
const TEXT = readFileSync(EXPORT, 'utf8');
const LINES = TEXT.split('\n');

/** What Gemini CLI's `/chat share` writes for a history of `{role, parts}` entries: `layout`
 * 'old' is the 2025 one (`🧑‍💻 ## USER`). */
function exportOf(history: Entry[], layout: 'new' | 'old' = 'new'): string {
  const fence = (label: string, value: unknown) => `**${label}**:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  return history
    .map((entry) => {
      const text = entry.parts
        .map((p) => p.text ?? (p.functionCall ? fence('Tool Command', p.functionCall) : p.functionResponse ? fence('Tool Response', p.functionResponse) : ''))
        .join('');
      const icon = entry.role === 'user' ? '🧑‍💻' : '✨';
      const role = entry.role.toUpperCase();
      return `${layout === 'new' ? `## ${role} ${icon}` : `${icon} ## ${role}`}\n\n${text}`;
    })
    .join('\n\n---\n\n');
}

/** The n-th 1-based line holding `marker`, for each occurrence. */
function linesWith(marker: string): number[] {
  return LINES.flatMap((l, i) => (l.includes(marker) ? [i + 1] : []));
}

/** Counts straight from the markdown: prompts are user blocks that are neither the CLI's context
 * or snapshot nor tool responses; a response fails when it holds an error (a cancel is a
 * rejection) or states a non-zero exit code. */
function exportCounts(text: string): { prompts: number; toolCalls: number; toolErrors: number } {
  const blocks = text.split(/\n\n---\n\n(?=## (?:USER|MODEL) )/);
  const prompts = blocks.filter((b) => b.startsWith('## USER') && !/^## USER \S+\n\n(?:<session_context>|<state_snapshot>|\*\*Tool Response\*\*:)/.test(b)).length;
  const fences = (label: string): { response?: { error?: unknown; output?: unknown } }[] =>
    [...text.matchAll(new RegExp(`\\*\\*${label}\\*\\*:\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``, 'g'))].map((m) => JSON.parse(m[1]!) as { response?: { error?: unknown; output?: unknown } });
  const toolErrors = fences('Tool Response').filter(
    (r) => (r.response?.error && !String(r.response.error).startsWith('[Operation Cancelled]')) || /^Exit Code: [1-9]/m.test(String(r.response?.output ?? '')),
  ).length;
  return { prompts, toolCalls: fences('Tool Command').length, toolErrors };
}

async function readExport(file: string): Promise<Session> {
  const { sessions, warnings } = await readWith(geminiCliReader, file);
  expect(warnings).toEqual([]);
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

describe('Gemini CLI markdown export (`/chat share file.md`)', () => {
  it('is detected as gemini-cli by its first line, whatever the file is called', async () => {
    const dir = tempDir();
    for (const [name, text] of [
      ['chat.md', TEXT],
      ['conversation.txt', TEXT],
      ['no-extension', TEXT],
      ['with-bom.md', `\uFEFF\n\n${TEXT}`],
      ['crlf.md', TEXT.replace(/\n/g, '\r\n')],
      ['old-layout.md', exportOf([{ role: 'user', parts: [{ text: 'hi' }] }], 'old')],
      ['model-first.md', exportOf([{ role: 'model', parts: [{ text: 'hello' }] }])],
    ]) {
      const detected = await detectFile(put(dir, name!, text!));
      expect(detected.ok && detected.reader.format, name).toBe('gemini-cli');
    }
  });

  it('claims no file whose first line is not a block header, nor any other bundled transcript', async () => {
    const dir = tempDir();
    const notes = put(dir, 'notes.md', `# Notes on the export\n\n${TEXT}`);
    const detected = await detectFile(notes);
    expect(detected.ok && detected.reader.format).not.toBe('gemini-cli');
    expect(geminiCliReader.detect(TEXT, EXPORT)).toBeGreaterThan(0);
    expect(detectMarkdownExport('## User\n\nhi\n')).toBe(0);
    expect(detectMarkdownExport('## USER 🧑‍💻 and more\n')).toBe(0);
    const others = readdirSync(TEST_SESSIONS, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && join(d.parentPath, d.name) !== EXPORT);
    expect(others.length).toBeGreaterThan(10);
    for (const d of others) expect(detectMarkdownExport(readFileSync(join(d.parentPath, d.name), 'utf8').slice(0, 64 * 1024)), d.name).toBe(0);
  });

  it('reads the hand-made export: no warnings, counts from the raw markdown, each event at its part’s line', async () => {
    const s = await readExport(EXPORT);
    expect(s).toMatchObject({ format: 'gemini-cli', agent: 'gemini-cli', cwd: '/home/dev/weather-cli', models: [] });
    expect(counts(s)).toEqual(exportCounts(TEXT));
    expect(counts(s)).toEqual({ prompts: 2, toolCalls: 5, toolErrors: 1 });
    expectWellFormed(s, EXPORT);
    // a call cites its marker's line (after a text, or after the fence before it), a response its own
    expect(ofKind(s, 'tool_call').map((c) => c.source.line)).toEqual(linesWith('**Tool Command**:'));
    expect(ofKind(s, 'tool_result').map((r) => r.source.line)).toEqual(linesWith('**Tool Response**:'));
    for (const c of ofKind(s, 'tool_call')) expect(LINES.slice(c.source.line, c.source.line + 3).join('\n')).toContain(`"name": "${c.name}"`);
    // a text cites the line it starts on
    for (const e of s.events) {
      if (e.kind === 'user' || e.kind === 'assistant' || e.kind === 'system' || e.kind === 'summary') {
        expect(LINES[e.source.line - 1]!.startsWith(e.text.split('\n')[0]!), e.text).toBe(true);
      }
    }
    await expectDeterministic(geminiCliReader, EXPORT);
  });

  it('takes what the CLI wrote for no prompt: its context, the compression snapshot, the model’s “Got it.”, the referenced files', async () => {
    const s = await readExport(EXPORT);
    expect(s.events.slice(0, 5).map((e) => [e.kind, e.injected ?? false, e.source.line])).toEqual([
      ['system', true, 3],
      ['summary', true, 29],
      ['system', true, 43],
      ['user', false, 49],
      ['system', true, 50],
    ]);
    expect(ofKind(s, 'user').map((e) => e.text)).toEqual(['run the tests, the dev deps are listed in @requirements-dev.txt', 'leave the README alone, thanks']);
    expect(ofKind(s, 'system')[2]!.text).toMatch(/^--- Content from referenced files ---\nContent from @requirements-dev\.txt:\npytest==8\.3\.5\n[\s\S]*--- End of content ---$/);
    // a `---` line inside a reply is no block separator
    expect(ofKind(s, 'assistant').at(-1)!.text).toMatch(/^Understood, [\s\S]*\n---\n\nThe bare `python` on this machine has no pytest\.$/);
  });

  it('pairs each response with its call and reads exit codes, failures and the cancel as the JSON layouts do', async () => {
    const s = await readExport(EXPORT);
    const calls = ofKind(s, 'tool_call');
    const results = ofKind(s, 'tool_result');
    expect(calls.map((c) => c.command ?? c.name)).toEqual([
      'python -m pytest -q',
      'read_file',
      '.venv/bin/pip install -r requirements-dev.txt',
      '.venv/bin/python -m pytest -q',
      'replace',
    ]);
    // the calls hold no id: each takes its response's (two calls of a turn answered in order)
    expect(calls.map((c) => c.callId)).toEqual(results.map((r) => r.callId));
    expect(results.map((r) => r.name)).toEqual(calls.map((c) => c.name));
    const [pytest, read, pip, retry, replace] = results;
    expect(pytest).toMatchObject({ isError: true, exitCode: 1, output: '/home/dev/weather-cli/.venv/bin/python: No module named pytest' });
    expect(read).toMatchObject({ isError: false, exitCode: undefined });
    expect(read!.output).toContain('requires-python = ">=3.11"');
    expect(pip).toMatchObject({ isError: false, exitCode: undefined, output: 'Successfully installed httpx-0.28.1 pytest-8.3.5 respx-0.22.0' });
    expect(retry).toMatchObject({ isError: false, output: expect.stringMatching(/\n6 passed in 0\.42s$/) });
    expect(replace).toMatchObject({ isError: true, rejected: true, output: '[Operation Cancelled] Reason: User did not allow tool call' });
  });

  it('gives the session an id from its path: the same file the same id, another path another', async () => {
    const s = await readExport(EXPORT);
    expect(s.id).toMatch(/^gemini-chat-share-weather-cli-[0-9a-f]{10}$/);
    expect((await readExport(EXPORT)).id).toBe(s.id);
    const copy = put(tempDir(), 'chat-share-weather-cli.md', TEXT);
    expect((await readExport(copy)).id).not.toBe(s.id);
    // the only time an export records is the day its context gives
    expect(s.startedAt).toBe('2026-03-12');
  });

  it('the 2025 layout: icons first, ids in the calls, the untagged context naming its directory', async () => {
    const history: Entry[] = [
      { role: 'user', parts: [{ text: "This is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux\nI'm currently working in the directory: /home/dev/shop\n" }] },
      { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
      { role: 'user', parts: [{ text: 'run the tests' }] },
      { role: 'model', parts: [{ text: 'Running them.' }, { functionCall: { id: 'call_1', name: 'run_shell_command', args: { command: 'npm test' } } }, { functionCall: { id: 'call_2', name: 'run_shell_command', args: { command: 'npm run lint' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'call_2', name: 'run_shell_command', response: { output: 'Output: ok\nProcess Group PGID: 7' } } }, { functionResponse: { id: 'call_1', name: 'run_shell_command', response: { output: 'Output: 1 failing\nExit Code: 2\nProcess Group PGID: 8' } } }] },
    ];
    const file = put(tempDir(), 'shop.md', exportOf(history, 'old'));
    const s = await readExport(file);
    expect(s.cwd).toBe('/home/dev/shop');
    expect(s.events.map((e) => [e.kind, e.injected ?? false])).toEqual([
      ['system', true],
      ['system', true],
      ['user', false],
      ['assistant', false],
      ['tool_call', false],
      ['tool_call', false],
      ['tool_result', false],
      ['tool_result', false],
    ]);
    // answered out of order: by id
    expect(ofKind(s, 'tool_result').map((r) => [r.callId, r.isError, r.exitCode])).toEqual([
      ['call_2', false, undefined],
      ['call_1', true, 2],
    ]);
    expectWellFormed(s, file);
  });
});

describe('Gemini CLI markdown export on bad input', () => {
  it('a ```json fence that does not parse: warned at its line, skipped, the rest read', async () => {
    // the read_file call's fence: `{`, "name" and "args" stand between it and the path
    const fenceLine = linesWith('"file_path": "pyproject.toml"')[0]! - 4;
    expect(LINES[fenceLine - 1]).toBe('```json');
    const bad = LINES.map((l, i) => (i === fenceLine + 1 ? '  "name": "read_file",,' : l)).join('\n');
    const file = put(tempDir(), 'bad-fence.md', bad);
    const { sessions, warnings } = await readWith(geminiCliReader, file);
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, file, fenceLine);
    expect(warnings[0]!.message).toContain('**Tool Command**');
    const s = sessions[0]!;
    expect(ofKind(s, 'tool_call').map((c) => c.name)).toEqual(['run_shell_command', 'run_shell_command', 'run_shell_command', 'replace']);
    // the response whose call was lost is still read, and so is all that follows
    expect(ofKind(s, 'tool_result')).toHaveLength(5);
    expect(ofKind(s, 'user').map((e) => e.text).at(-1)).toBe('leave the README alone, thanks');
    expectWellFormed(s, file);
  });

  it('cut off inside a fence: warned at that fence, the parts before it read', async () => {
    const at = TEXT.indexOf('"command": ".venv/bin/python -m pytest -q"');
    const cut = TEXT.slice(0, at);
    const file = put(tempDir(), 'cut.md', cut);
    const { sessions, warnings } = await readWith(geminiCliReader, file);
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, file, cut.split('\n').findLastIndex((l) => l === '```json') + 1);
    expect(counts(sessions[0]!)).toEqual({ prompts: 1, toolCalls: 3, toolErrors: 1 });
  });

  it('empty or blank file: as for the other layouts, no session and a warning; a lone header: a session with no events', async () => {
    const dir = tempDir();
    for (const [name, text] of [['empty.md', ''], ['blank.md', '\n  \n']]) {
      const file = put(dir, name!, text!);
      expect((await detectFile(file)).ok).toBe(false);
      const { sessions, warnings } = await readWith(geminiCliReader, file);
      expect(sessions).toEqual([]);
      expectWarningAt(warnings, file);
    }
    const lone = put(dir, 'lone.md', '## USER 🧑‍💻\n\n');
    expect(await readExport(lone)).toMatchObject({ format: 'gemini-cli', events: [] });
  });
});

describe('Gemini CLI markdown export against the JSON chat of the same conversation', () => {
  const turns = [
    {
      reply: 'I will install the dependencies first.',
      id: 'run_shell_command_1777106575000_0',
      command: 'pip3 install --user rich',
      output: 'Output: error: externally-managed-environment\n\n× This environment is externally managed\nExit Code: 1\nProcess Group PGID: 1941',
    },
    {
      reply: 'This Debian Python is externally managed; I used `--break-system-packages`.',
      id: 'run_shell_command_1777106600000_0',
      command: 'pip3 install --user rich --break-system-packages',
      output: 'Output: Successfully installed rich-14.0.0\nProcess Group PGID: 1950',
    },
  ];
  const prompt = 'install the deps and run the sync';
  const time = '2026-03-10T08:42:51.457Z';
  const chat = {
    sessionId: '7c1d2e3f-0000-4000-8000-0000000000e1',
    projectHash: 'c0'.repeat(32),
    startTime: time,
    lastUpdated: time,
    messages: [
      { id: 'u-1', timestamp: time, type: 'user', content: [{ text: prompt }] },
      ...turns.map((t, i) => ({
        id: `g-${i}`,
        timestamp: time,
        type: 'gemini',
        content: t.reply,
        toolCalls: [{ id: t.id, name: 'run_shell_command', args: { command: t.command }, status: 'success', timestamp: time, result: [{ functionResponse: { id: t.id, name: 'run_shell_command', response: { output: t.output } } }] }],
      })),
    ],
  };
  const history: Entry[] = [
    { role: 'user', parts: [{ text: prompt }] },
    ...turns.flatMap((t): Entry[] => [
      { role: 'model', parts: [{ text: t.reply }, { functionCall: { name: 'run_shell_command', args: { command: t.command } } }] },
      { role: 'user', parts: [{ functionResponse: { id: t.id, name: 'run_shell_command', response: { output: t.output } } }] },
    ]),
  ];

  it('reads the same events and a harvest finds the same candidates', async () => {
    const dir = tempDir();
    const fromChat = await readExport(put(dir, 'session-2026-03-10T08-42-7c1d2e3f.json', JSON.stringify(chat, null, 2)));
    const fromExport = await readExport(put(dir, 'chat.md', exportOf(history)));
    const bare = (s: Session) => s.events.map(({ source: _source, time: _time, ...rest }) => rest);
    expect(bare(fromExport)).toEqual(bare(fromChat));
    const candidates = (s: Session) => extractSession(s).map((c) => ({ ...c, evidence: { event: c.evidence.event } }));
    expect(candidates(fromChat).length).toBeGreaterThan(0);
    expect(candidates(fromExport)).toEqual(candidates(fromChat));
  });
});
