import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { claudeCodeReader, firstTypeKey } from '../../src/sessions/readers/claude-code.js';
import { detectFile } from '../../src/sessions/detect.js';
import { readSessionFile, readSessions } from '../../src/sessions/read.js';
import { sessionStats, type Session, type SessionEvent } from '../../src/sessions/model.js';
import { claudeCounts, SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { claudeSession } from '../harvest/transcripts.js';

function claudeFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

async function readOne(file: string): Promise<Session> {
  const r = await readSessionFile(file);
  expect(r.ok).toBe(true);
  expect(r.sessions).toHaveLength(1);
  return r.sessions[0]!;
}

const kinds = (s: Session, kind: SessionEvent['kind']) => s.events.filter((e) => e.kind === kind);

describe.skipIf(!existsSync(SHARED))('Claude Code reader on the shared corpus', () => {
  const files = existsSync(SHARED) ? claudeFiles(join(SHARED, 'claude-code')) : [];

  it('finds the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    const name = existsSync(SHARED) ? relative(SHARED, file) : file;
    it(`${name}: detected, read without warnings, counts match a plain JSON count`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('claude-code');
      const r = await readSessionFile(file);
      expect(r.warnings).toEqual([]);
      expect(r.sessions).toHaveLength(1);
      const s = r.sessions[0]!;
      const stats = sessionStats(s);
      const expected = claudeCounts(file);
      expect({ prompts: stats.prompts, toolCalls: stats.toolCalls, toolErrors: stats.toolErrors }).toEqual(expected);
      // every event cites its evidence
      for (const e of s.events) {
        expect(e.source.file).toBe(file);
        expect(e.source.line).toBeGreaterThan(0);
        expect(typeof e.source.offset).toBe('number');
      }
      expect(s.events.map((e) => e.index)).toEqual(s.events.map((_, i) => i));
    });
  }

  it('links the spotter subagents to their parent and names the Explore type', async () => {
    const { sessions } = await readSessions([join(SHARED, 'claude-code/spotter')]);
    const parent = sessions.find((s) => s.id === '4d5611e5-241a-462a-8d15-5122611a9569')!;
    const explore = sessions.find((s) => s.id.endsWith('/agent-a2898e3'))!;
    const compact = sessions.find((s) => s.id.endsWith('/agent-acompact-e1f845'))!;
    expect(parent.parentId).toBeUndefined();
    expect(explore.parentId).toBe(parent.id);
    expect(explore.subagent).toBe('Explore');
    expect(compact.parentId).toBe(parent.id);
    expect(compact.subagent).toBe('compact');
    expect(explore.events.every((e) => e.sidechain)).toBe(true);
  });

  it('reads the spotter session: repo, branch, model, times, compaction and cascades', async () => {
    const s = await readOne(join(SHARED, 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'));
    expect(s).toMatchObject({ format: 'claude-code', agent: 'claude-code', repo: 'spotter-dov', branch: 'spotter-dov', models: ['claude-opus-4-6'] });
    expect(s.startedAt! < s.endedAt!).toBe(true);
    expect(kinds(s, 'system').some((e) => e.kind === 'system' && e.text.startsWith('Conversation compacted (auto'))).toBe(true);
    const summary = kinds(s, 'summary')[0];
    expect(summary?.injected).toBe(true);
    const sub = await readOne(join(SHARED, 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl'));
    const cascades = sub.events.filter((e) => e.kind === 'tool_result' && e.cascade);
    expect(cascades.length).toBe(7);
  });

  it('marks rejections and the interruption in short.jsonl', async () => {
    const s = await readOne(join(SHARED, 'claude-code/spotter/short.jsonl'));
    const results = s.events.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => e.kind === 'tool_result' && e.rejected)).toEqual([true, true]);
    const interrupted = s.events.find((e) => e.kind === 'user' && e.text.startsWith('[Request interrupted'));
    expect(interrupted?.injected).toBe(true);
    expect(sessionStats(s)).toMatchObject({ prompts: 1, toolErrors: 0 });
  });
});

describe('Claude Code reader on test_sessions', () => {
  const dir = join(TEST_SESSIONS, 'claude-code');

  for (const file of claudeFiles(dir)) {
    it(`${relative(TEST_SESSIONS, file)}: counts match a plain JSON count`, async () => {
      const truncated = file.endsWith('partial-truncated.jsonl');
      const r = await readSessionFile(file);
      expect(r.format).toBe('claude-code');
      const s = r.sessions[0]!;
      if (truncated) {
        // the cut last line is reported and skipped; the JSON count skips it too
        expect(r.warnings).toHaveLength(1);
        expect(r.warnings[0]!.line).toBe(8);
        const { prompts, toolCalls } = sessionStats(s);
        expect({ prompts, toolCalls }).toEqual({ prompts: 1, toolCalls: 2 });
      } else {
        expect(r.warnings).toEqual([]);
        const { prompts, toolCalls, toolErrors } = sessionStats(s);
        expect({ prompts, toolCalls, toolErrors }).toEqual(claudeCounts(file));
      }
    });
  }

  it('successful session: failure, diagnosis, fix, success in order; Bash commands and exit codes', async () => {
    const s = await readOne(join(dir, '1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01.jsonl'));
    expect(s.repo).toBe('invoice-api');
    expect(s.branch).toBe('feat/pdf-export');
    const bash = s.events.filter((e) => e.kind === 'tool_call' && e.name === 'Bash');
    expect(bash.map((e) => e.kind === 'tool_call' && e.command)).toEqual([
      'npm test -- test/export.test.ts',
      'npm install pdfkit@0.15.0',
      'npm test -- test/export.test.ts',
      'git add package.json package-lock.json src/cli/export.ts && git commit -m "export: add --format pdf using renderPdf"',
    ]);
    const results = s.events.filter((e) => e.kind === 'tool_result' && e.name === 'Bash');
    expect(results.map((e) => e.kind === 'tool_result' && [e.isError, e.exitCode])).toEqual([
      [true, 1],
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
    const diagnosis = s.events.find((e) => e.kind === 'assistant' && e.text.includes('pdfkit'));
    expect(diagnosis).toBeDefined();
    // reasoning is kept apart from what the model said
    expect(kinds(s, 'reasoning')).toHaveLength(1);
  });

  it('subagent file: parentId from sessionId, type from the parent Task call (found by scanning the parent)', async () => {
    // a copy in a fresh directory, so the type must come from reading the parent file
    const tmp = tempDir();
    const sid = '1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01';
    mkdirSync(join(tmp, sid, 'subagents'), { recursive: true });
    copyFileSync(join(dir, `${sid}.jsonl`), join(tmp, `${sid}.jsonl`));
    copyFileSync(join(dir, sid, 'subagents/agent-a1f2c3d.jsonl'), join(tmp, sid, 'subagents/agent-a1f2c3d.jsonl'));
    const sub = await readOne(join(tmp, sid, 'subagents/agent-a1f2c3d.jsonl'));
    expect(sub.id).toBe(`${sid}/agent-a1f2c3d`);
    expect(sub.parentId).toBe(sid);
    expect(sub.subagent).toBe('Explore');
    expect(sub.models).toEqual(['claude-haiku-4-5-20251001']);

    // without the parent the link remains, the type is unknown
    const alone = tempDir();
    mkdirSync(join(alone, sid, 'subagents'), { recursive: true });
    copyFileSync(join(dir, sid, 'subagents/agent-a1f2c3d.jsonl'), join(alone, sid, 'subagents/agent-a1f2c3d.jsonl'));
    const orphan = await readOne(join(alone, sid, 'subagents/agent-a1f2c3d.jsonl'));
    expect(orphan.parentId).toBe(sid);
    expect(orphan.subagent).toBeUndefined();
  });

  it('a call the user has not allowed is a rejection, not a failure of the tool', async () => {
    const file = join(tempDir(), 'ask.jsonl');
    writeFileSync(file, claudeSession({ id: 'aaaaaaaa-1111-4000-8000-00000000000a', cwd: '/srv/app', start: '2026-03-01T10:00:00Z', turns: [
      { user: 'write the page' },
      { bash: { command: 'cat > chat.html <<EOF', output: "Claude requested permissions to write to /srv/app/chat.html, but you haven't granted it yet.", error: true } },
      { bash: { command: 'npm test', output: 'Exit code 1\nError: no tests', error: true } },
      // an SDK host's permission mode answers the same question so
      { bash: { command: './tools/say.sh "delete it?"', output: 'This command requires approval', error: true } },
      { bash: { command: 'npm run lint', output: 'Exit code 1\nThis command requires approval of the maintainers', error: true } },
    ] }));
    const results = (await readOne(file)).events.filter((e): e is Extract<SessionEvent, { kind: 'tool_result' }> => e.kind === 'tool_result');
    expect(results.map((e) => Boolean(e.rejected))).toEqual([true, false, true, false]);
  });

  it('failed session: cascade, rejection, persisted output and interruption are flagged, not counted as errors', async () => {
    const s = await readOne(join(dir, 'failed-migration.jsonl'));
    const results = s.events.filter((e): e is Extract<SessionEvent, { kind: 'tool_result' }> => e.kind === 'tool_result');
    expect(results.filter((e) => e.cascade)).toHaveLength(1);
    expect(results.filter((e) => e.rejected)).toHaveLength(1);
    expect(results.filter((e) => e.truncated)).toHaveLength(1);
    expect(results.filter((e) => e.isError).map((e) => e.exitCode)).toEqual([1, 2, undefined, undefined, 1]);
    expect(sessionStats(s)).toEqual({ prompts: 3, toolCalls: 7, toolErrors: 3, events: s.events.length });
  });

  it('repeated routine: command wrappers injected, compaction summary injected, three format→lint→test→commit rounds', async () => {
    const s = await readOne(join(dir, 'precommit-routine.jsonl'));
    const injectedUser = s.events.filter((e) => e.kind === 'user' && e.injected);
    expect(injectedUser).toHaveLength(3);
    const summary = kinds(s, 'summary');
    expect(summary).toHaveLength(1);
    expect(summary[0]!.injected).toBe(true);
    const commands = s.events.flatMap((e) => (e.kind === 'tool_call' && e.command ? [e.command.split(' ')[0] + ' ' + e.command.split(' ')[2]] : []));
    expect(commands.filter((c) => c === 'npm format' || c === 'npm lint')).toHaveLength(7); // 3 format + 4 lint
    expect(s.events.filter((e) => e.kind === 'tool_call' && e.command?.startsWith('git add'))).toHaveLength(3);
  });

  it('open questions: the conversation ends with the assistant asking; summary titles are kept once each', async () => {
    const s = await readOne(join(dir, 'open-questions.jsonl'));
    const conversation = s.events.filter((e) => e.kind !== 'summary');
    const last = conversation[conversation.length - 1]!;
    expect(last.kind).toBe('assistant');
    expect(last.kind === 'assistant' && last.text).toMatch(/decisions are yours[\s\S]*\?$/);
    expect(kinds(s, 'summary').map((e) => e.kind === 'summary' && e.text)).toEqual([
      'Design a cache for the exchange-rates client',
      'Exchange-rate cache design: open questions',
    ]);
  });

  it('bootstrap blocks in hook context and in tool output become BootstrapEvents with their ids', async () => {
    const s = await readOne(join(dir, 'bootstrap-given.jsonl'));
    const boots = s.events.filter((e): e is Extract<SessionEvent, { kind: 'bootstrap' }> => e.kind === 'bootstrap');
    expect(boots.map((b) => b.itemIds)).toEqual([['k-7f3a2c', 'k-91c2e0'], ['k-7f3a2c']]);
    expect(boots.every((b) => b.injected)).toBe(true);
    expect(boots[0]!.text).toContain('npm run db:reset');
    // no other event still holds the marked text
    for (const e of s.events) {
      const text = e.kind === 'tool_result' ? e.output : 'text' in e ? e.text : '';
      if (e.kind !== 'bootstrap') expect(text).not.toContain('compound:bootstrap');
    }
    const kbResult = s.events.find((e) => e.kind === 'tool_result' && e.name === 'Bash' && e.output === '');
    expect(kbResult).toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------
// small files written by the tests

function line(o: Record<string, unknown>): string {
  return JSON.stringify(o);
}

const ENV = { isSidechain: false, userType: 'external', cwd: '/w/app', sessionId: 's-merge', version: '2.1.9', gitBranch: 'main' };

function assistantLine(uuid: string, parent: string, id: string, block: Record<string, unknown>, model = 'claude-sonnet-4-5-20250929'): string {
  return line({ parentUuid: parent, ...ENV, type: 'assistant', requestId: `req_${id}`, message: { id, type: 'message', role: 'assistant', model, content: [block] }, uuid, timestamp: '2026-01-05T10:00:02.000Z' });
}

describe('Claude Code reader: message.id merge, rewinds, progress lines', () => {
  it('merges one API response split over lines and drops re-written blocks', async () => {
    const tmp = tempDir();
    const file = join(tmp, 's-merge.jsonl');
    const tool = { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } };
    writeFileSync(
      file,
      [
        line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'run the tests' }, uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z' }),
        assistantLine('a1', 'u1', 'msg_1', { type: 'thinking', thinking: 'Run them first.', signature: 'x' }),
        assistantLine('a2', 'a1', 'msg_1', { type: 'text', text: 'Running the suite.' }),
        assistantLine('a3', 'a2', 'msg_1', { type: 'text', text: 'It takes a minute.' }),
        assistantLine('a4', 'a3', 'msg_1', tool),
        assistantLine('a5', 'a4', 'msg_1', tool), // the same block written again
        line({ parentUuid: 'a5', ...ENV, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }, uuid: 'u2', timestamp: '2026-01-05T10:00:05.000Z' }),
        assistantLine('a6', 'u2', 'msg_2', { type: 'text', text: 'All green.' }),
        assistantLine('a7', 'a6', 'msg_3', { type: 'text', text: 'Anything else?' }, 'claude-haiku-4-5-20251001'),
      ].join('\n') + '\n',
    );
    const [s] = await claudeCodeReader.read(file);
    expect(s!.events.map((e) => e.kind)).toEqual(['user', 'reasoning', 'assistant', 'tool_call', 'tool_result', 'assistant', 'assistant']);
    expect(s!.events[2]).toMatchObject({ kind: 'assistant', text: 'Running the suite.\n\nIt takes a minute.', model: 'claude-sonnet-4-5-20250929' });
    expect(s!.events[2]!.source.line).toBe(3);
    expect(s!.events[4]).toMatchObject({ kind: 'tool_result', callId: 'toolu_1', name: 'Bash', isError: false });
    expect(s!.models).toEqual(['claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929']);
  });

  it("reads the exit code Zed's agent bridge writes into a shell result (mcp__acp__Bash: \"Exited with code 1.\")", async () => {
    const file = join(tempDir(), 's-acp.jsonl');
    const call = (id: string, command: string) => ({ type: 'tool_use', id, name: 'mcp__acp__Bash', input: { command } });
    const result = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content });
    writeFileSync(
      file,
      [
        line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'fix the lint' }, uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z' }),
        assistantLine('a1', 'u1', 'msg_1', call('toolu_1', 'pnpm eslint src/a.vue')),
        line({ parentUuid: 'a1', ...ENV, type: 'user', message: { role: 'user', content: [result('toolu_1', "Exited with code 1.Signal `Hangup: 1`. Final output:\n\nsrc/a.vue\n  381:50  error  'devices' is already declared in the upper scope  no-shadow\n")] }, uuid: 'u2', timestamp: '2026-01-05T10:00:05.000Z' }),
        assistantLine('a2', 'u2', 'msg_2', call('toolu_2', 'pnpm eslint src/a.vue')),
        line({ parentUuid: 'a2', ...ENV, type: 'user', message: { role: 'user', content: [result('toolu_2', 'Exited with code 0.Final output:\n\n')] }, uuid: 'u3', timestamp: '2026-01-05T10:00:09.000Z' }),
      ].join('\n') + '\n',
    );
    const [s] = await claudeCodeReader.read(file);
    const results = s!.events.filter((e): e is Extract<SessionEvent, { kind: 'tool_result' }> => e.kind === 'tool_result');
    expect(results.map((r) => [r.isError, r.exitCode])).toEqual([[true, 1], [false, 0]]);
  });

  it('reads a prompt the user typed while the agent worked (a queued_command attachment) once, as the user\'s', async () => {
    const tmp = tempDir();
    const file = join(tmp, 's-queued.jsonl');
    const queued = (prompt: string, extra: Record<string, unknown> = {}) => ({ type: 'queued_command', prompt, commandMode: 'prompt', origin: { kind: 'human' }, ...extra });
    writeFileSync(
      file,
      [
        line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'can we drop the overrides?' }, uuid: 'u1', timestamp: '2026-07-16T16:08:00.000Z' }),
        line({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-07-16T16:08:33.011Z', sessionId: ENV.sessionId, content: 'no, only the typescript one' }),
        line({ type: 'queue-operation', operation: 'remove', timestamp: '2026-07-16T16:08:35.933Z', sessionId: ENV.sessionId, content: 'no, only the typescript one' }),
        line({ parentUuid: 'u1', ...ENV, type: 'attachment', attachment: queued('no, only the typescript one'), uuid: 'q1', timestamp: '2026-07-16T16:08:36.000Z' }),
        line({ parentUuid: 'q1', ...ENV, type: 'attachment', attachment: queued('npm ls typescript', { commandMode: 'bash' }), uuid: 'q2', timestamp: '2026-07-16T16:08:37.000Z' }),
        assistantLine('a1', 'q2', 'msg_1', { type: 'text', text: 'Only the typescript override stays.' }),
      ].join('\n') + '\n',
    );
    const [s] = await claudeCodeReader.read(file);
    expect(s!.events.map((e) => [e.kind, (e as { text?: string }).text])).toEqual([
      ['user', 'can we drop the overrides?'],
      ['user', 'no, only the typescript one'],
      ['assistant', 'Only the typescript override stays.'],
    ]);
    expect(s!.events[1]!.injected).toBeUndefined();
    expect(s!.events[1]!.source.line).toBe(4);
  });

  it('drops re-written blocks of a message however many it has, and keeps two texts that only differ late', async () => {
    const tmp = tempDir();
    const file = join(tmp, 's-many.jsonl');
    const tools = Array.from({ length: 40 }, (_, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/w/app/f${i}.ts` } }));
    const long = (end: string) => `${'The same opening words, long enough to pass sixty-four characters of text. '}${end}`;
    const lines = [
      line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'read them all' }, uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z' }),
      // 40 blocks of one response, then all of them written again (past the scan's limit)
      ...tools.map((t, i) => assistantLine(`a${i}`, i === 0 ? 'u1' : `a${i - 1}`, 'msg_1', t)),
      ...tools.map((t, i) => assistantLine(`b${i}`, i === 0 ? 'a39' : `b${i - 1}`, 'msg_1', t)),
      // another response: two texts of equal length and opening, then the first again
      assistantLine('c1', 'b39', 'msg_2', { type: 'text', text: long('First ending.') }),
      assistantLine('c2', 'c1', 'msg_2', { type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: 'ls' } }),
      assistantLine('c3', 'c2', 'msg_2', { type: 'text', text: long('Other ending.') }),
      assistantLine('c4', 'c3', 'msg_2', { type: 'text', text: long('First ending.') }),
      // a thought with the same text as a text block is another block
      assistantLine('c5', 'c4', 'msg_2', { type: 'thinking', thinking: long('First ending.'), signature: 'x' }),
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const [s] = await claudeCodeReader.read(file);
    const calls = s!.events.filter((e) => e.kind === 'tool_call');
    expect(calls.map((e) => (e.kind === 'tool_call' ? e.callId : ''))).toEqual([...tools.map((t) => t.id), 'toolu_x']);
    const texts = s!.events.filter((e) => e.kind === 'assistant' || e.kind === 'reasoning').map((e) => ('text' in e ? `${e.kind}: ${e.text}` : ''));
    expect(texts).toEqual([`assistant: ${long('First ending.')}`, `assistant: ${long('Other ending.')}`, `reasoning: ${long('First ending.')}`]);
  });

  it('notices a rewind: a prompt that continues from an earlier point', async () => {
    const tmp = tempDir();
    const file = join(tmp, 'rewind.jsonl');
    writeFileSync(
      file,
      [
        line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'rename foo to bar' }, uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z' }),
        assistantLine('a1', 'u1', 'msg_1', { type: 'text', text: 'Renamed in 3 files.' }),
        line({ parentUuid: 'a1', ...ENV, type: 'user', message: { role: 'user', content: 'also in the docs' }, uuid: 'u2', timestamp: '2026-01-05T10:01:00.000Z' }),
        assistantLine('a2', 'u2', 'msg_2', { type: 'text', text: 'Docs updated.' }),
        // the user went back to a1 and asked something else
        line({ parentUuid: 'a1', ...ENV, type: 'user', message: { role: 'user', content: 'actually, revert it' }, uuid: 'u3', timestamp: '2026-01-05T10:02:00.000Z' }),
      ].join('\n') + '\n',
    );
    const [s] = await claudeCodeReader.read(file);
    expect(s!.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'user', 'assistant', 'system', 'user']);
    expect(s!.events[4]).toMatchObject({ kind: 'system', injected: true });
    expect(sessionStats(s!).prompts).toBe(3);
  });

  it('skips progress lines unparsed but still reports a cut progress line', async () => {
    const tmp = tempDir();
    const file = join(tmp, 'progress.jsonl');
    const progress = line({ parentUuid: 'u1', ...ENV, type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, uuid: 'p1', timestamp: '2026-01-05T10:00:01.000Z' });
    writeFileSync(
      file,
      [line({ parentUuid: null, ...ENV, type: 'user', message: { role: 'user', content: 'hi' }, uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z' }), progress, progress.slice(0, 60)].join('\n'),
    );
    const warnings: { line?: number }[] = [];
    const [s] = await claudeCodeReader.read(file, { onWarning: (w) => warnings.push(w) });
    expect(s!.events).toHaveLength(1);
    expect(warnings.map((w) => w.line)).toEqual([3]);
  });
});

describe('firstTypeKey', () => {
  it('finds what indexOf(\'"type":"\') finds', () => {
    const cases = [
      '',
      '"type":"x"',
      '{"type":"progress"}',
      '{"a":"ype":"","type":"user"}',
      '{"xtype":"a","type":"b"}',
      '{"userType":"external","type":"user"}',
      'ype":"',
      't"ype":"',
      '{"message":{"type":"message"},"type":"assistant"}',
      '"typ"type":"',
    ];
    for (const t of cases) expect(firstTypeKey(t), t).toBe(t.indexOf('"type":"'));
  });
});
