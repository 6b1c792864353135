import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { codexReader, isInjectedCodexText, repoFromUrl } from '../../src/sessions/readers/codex.js';
import { codeModeCall, codeModeOutput } from '../../src/sessions/readers/codex-code-mode.js';
import { detectFile } from '../../src/sessions/detect.js';
import { readSessionFile } from '../../src/sessions/read.js';
import { sessionStats, type Session, type SessionEvent } from '../../src/sessions/model.js';
import { codexCounts, jsonl, SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { renderCaptured } from '../../src/sessions/captured.js';

type ToolResult = Extract<SessionEvent, { kind: 'tool_result' }>;
const results = (s: Session): ToolResult[] => s.events.filter((e): e is ToolResult => e.kind === 'tool_result');

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsonlFiles(p));
    else if (e.name.endsWith('.jsonl')) out.push(p);
  }
  return out.sort();
}

async function readOne(file: string): Promise<Session> {
  const r = await readSessionFile(file);
  expect(r.ok).toBe(true);
  expect(r.sessions).toHaveLength(1);
  return r.sessions[0]!;
}

describe.skipIf(!existsSync(SHARED))('Codex reader on the shared corpus', () => {
  const files = existsSync(SHARED) ? jsonlFiles(join(SHARED, 'codex')) : [];

  it('finds the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const file of files) {
    const name = existsSync(SHARED) ? relative(SHARED, file) : file;
    it(`${name}: detected, read without warnings, counts match a plain JSON count`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('codex');
      const r = await readSessionFile(file);
      expect(r.warnings).toEqual([]);
      const s = r.sessions[0]!;
      const { prompts, toolCalls, toolErrors } = sessionStats(s);
      expect({ prompts, toolCalls, toolErrors }).toEqual(codexCounts(file));
      for (const e of s.events) {
        expect(e.source.file).toBe(file);
        expect(e.source.line).toBeGreaterThan(0);
      }
    });
  }

  it('modern rollout: repo from the git remote, model from turn_context, doubled messages kept once', async () => {
    const file = files.find((f) => f.includes('rollout-2026-05-11'))!;
    const s = await readOne(file);
    expect(s).toMatchObject({ id: '019e1625-789d-76c0-80ab-3724b5ddb799', repo: 'codemie-code', branch: 'feat/codex-agent-plugin', models: ['gpt-5.5'], agent: 'codex' });
    const users = s.events.filter((e) => e.kind === 'user' && !e.injected).map((e) => e.kind === 'user' && e.text);
    expect(users).toEqual(['show tools', "let's update the defailt context compart to 90 in env var"]);
    // each agent_message / assistant response_item pair gives one event
    expect(s.events.filter((e) => e.kind === 'assistant')).toHaveLength(13);
    // AGENTS.md and environment_context are injected, developer text is a system event
    expect(s.events.filter((e) => e.kind === 'user' && e.injected)).toHaveLength(2);
    expect(s.events.filter((e) => e.kind === 'system').every((e) => e.injected)).toBe(true);
    // the failing rg: exit code from exec_command_end, output from aggregated_output
    const failed = results(s).filter((r) => r.isError && r.name === 'exec_command');
    expect(failed.map((r) => r.exitCode)).toEqual([2, 1, 1, 1]);
    expect(failed[0]!.output).toContain('No such file or directory');
  });

  it('legacy rollout: exit codes from the metadata envelope and sandbox text, reasoning summaries', async () => {
    const s = await readOne(files.find((f) => f.endsWith('example.jsonl'))!);
    expect(s.repo).toBe('codex_log_viewer');
    expect(s.startedAt).toBe('2025-09-10T02:47:38.812Z');
    const errs = results(s).filter((r) => r.isError);
    expect(errs.map((r) => r.exitCode ?? null)).toEqual([1, 2, null, null, null, null, 1]);
    expect(s.events.filter((e) => e.kind === 'reasoning').length).toBeGreaterThan(10);
    const call = s.events.find((e) => e.kind === 'tool_call');
    expect(call).toMatchObject({ name: 'shell', command: 'ls -la' });
  });

  it('Codex Desktop rollout: agent_reasoning and reasoning items de-duplicated', async () => {
    const file = files.find((f) => f.includes('redacted'))!;
    const s = await readOne(file);
    const reasoning = s.events.filter((e) => e.kind === 'reasoning').map((e) => e.kind === 'reasoning' && e.text);
    // one event per readable summary item of the response_item stream; agent_reasoning copies dropped
    const items = jsonl(file).filter((o) => o.type === 'response_item' && o.payload.type === 'reasoning');
    const summaries = items.flatMap((o) => o.payload.summary.map((x: { text: string }) => x.text));
    expect(reasoning).toEqual(summaries);
  });
});

/** One rollout record at second `t` of a test session, and the call and output records of a tool. */
const rolloutRecord = (type: string, payload: Record<string, unknown>, t: number): string => JSON.stringify({ timestamp: `2026-01-05T10:00:0${t}.000Z`, type, payload });
const rolloutCall = (id: string, name: string, args: Record<string, unknown>, t: number): string => rolloutRecord('response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id }, t);
const rolloutOutput = (id: string, text: string, t: number): string => rolloutRecord('response_item', { type: 'function_call_output', call_id: id, output: text }, t);
/** A rollout of these records, one per line, in a temp folder. */
function rolloutFile(name: string, records: string[]): string {
  const file = join(tempDir(), name);
  writeFileSync(file, records.join('\n') + '\n');
  return file;
}

describe('Codex reader on test_sessions', () => {
  const dir = join(TEST_SESSIONS, 'codex');

  for (const file of jsonlFiles(dir)) {
    it(`${relative(TEST_SESSIONS, file)}: counts match a plain JSON count`, async () => {
      const r = await readSessionFile(file);
      expect(r.format).toBe('codex');
      const s = r.sessions[0]!;
      if (file.includes('019cc2b0')) {
        // the partial rollout: its last line is cut
        expect(r.warnings.map((w) => w.line)).toEqual([20]);
        expect(sessionStats(s)).toMatchObject({ prompts: 1, toolCalls: 2, toolErrors: 0 });
      } else {
        expect(r.warnings).toEqual([]);
        const { prompts, toolCalls, toolErrors } = sessionStats(s);
        expect({ prompts, toolCalls, toolErrors }).toEqual(codexCounts(file));
      }
    });
  }

  it('success: the failing unified-exec command carries exit 1 and the full output; the poll is not an error', async () => {
    const s = await readOne(jsonlFiles(dir).find((f) => f.includes('019cc1a0'))!);
    const rs = results(s);
    const first = rs.find((r) => r.name === 'exec_command')!;
    expect(first).toMatchObject({ isError: true, exitCode: 1 });
    expect(first.output).toContain("AssertionError: assert Decimal('0.12') == Decimal('0.13')");
    expect(rs.filter((r) => r.name === 'write_stdin').every((r) => !r.isError && r.exitCode === undefined)).toBe(true);
    const last = rs.filter((r) => r.name === 'exec_command').pop()!;
    expect(last).toMatchObject({ isError: false, exitCode: 0 });
    expect(s.events.filter((e) => e.kind === 'reasoning')).toHaveLength(2);
    expect(s.events.filter((e) => e.kind === 'tool_call' && e.name === 'apply_patch')).toHaveLength(1);
  });

  it('bootstrap blocks in AGENTS.md context and in command output become BootstrapEvents', async () => {
    const s = await readOne(jsonlFiles(dir).find((f) => f.includes('019cc5e0'))!);
    const boots = s.events.filter((e) => e.kind === 'bootstrap');
    expect(boots.map((b) => b.kind === 'bootstrap' && b.itemIds)).toEqual([['k-0b1d9e', 'k-44e07a'], ['k-0b1d9e']]);
    expect(boots.every((b) => b.injected)).toBe(true);
  });

  it('repeated routine: ruff format, ruff check, pytest and commit three times, one lint failure', async () => {
    const s = await readOne(jsonlFiles(dir).find((f) => f.includes('019cc3c0'))!);
    const cmds = s.events.flatMap((e) => (e.kind === 'tool_call' && e.name === 'exec_command' && e.command ? [e.command] : []));
    expect(cmds.filter((c) => c === 'ruff format .')).toHaveLength(3);
    expect(cmds.filter((c) => c === 'ruff check .')).toHaveLength(4);
    expect(cmds.filter((c) => c.startsWith('git commit'))).toHaveLength(3);
    expect(sessionStats(s).toolErrors).toBe(1);
  });
});

describe('Codex reader: details', () => {
  it('de-duplicates the two streams in either order and keeps genuinely repeated messages', async () => {
    const tmp = tempDir();
    const file = join(tmp, 'rollout-dup.jsonl');
    const env = (type: string, payload: Record<string, unknown>, t: number) => JSON.stringify({ timestamp: `2026-01-05T10:00:0${t}.000Z`, type, payload });
    writeFileSync(
      file,
      [
        env('session_meta', { id: 'dup-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/w/app' }, 0),
        env('event_msg', { type: 'user_message', message: 'run tests' }, 1),
        env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run tests' }] }, 1),
        env('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'On it.' }] }, 2),
        env('event_msg', { type: 'agent_message', message: 'On it.' }, 2),
        env('event_msg', { type: 'user_message', message: 'run tests' }, 3), // asked again: a new prompt
        env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run tests' }] }, 3),
      ].join('\n') + '\n',
    );
    const [s] = await codexReader.read(file);
    expect(s!.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'user']);
    expect(s!.repo).toBe('app');
  });

  it("records whether every turn ran in the agent's sandbox (`type` in newer rollouts, `mode` in older ones)", async () => {
    const meta = rolloutRecord('session_meta', { id: 'sb-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/w/app' }, 0);
    const turn = (policy: Record<string, unknown>, t: number) => rolloutRecord('turn_context', { cwd: '/w/app', model: 'gpt-5', sandbox_policy: policy }, t);
    const read = async (records: string[]) => (await codexReader.read(rolloutFile('rollout-sb.jsonl', records)))[0]!.sandboxed;
    expect(await read([meta, turn({ type: 'workspace-write', network_access: false }, 1), turn({ mode: 'read-only' }, 2)])).toBe(true);
    // one turn outside it: not every command ran inside
    expect(await read([meta, turn({ type: 'workspace-write' }, 1), turn({ type: 'danger-full-access' }, 2)])).toBe(false);
    expect(await read([meta])).toBeUndefined();
  });

  it('records the shell its environment context names, the first one', async () => {
    const meta = rolloutRecord('session_meta', { id: 'sh-1', timestamp: '2025-09-29T12:03:37.000Z', cwd: 'c:\\Users\\dev\\app' }, 0);
    const context = (shell: string, t: number) => rolloutRecord('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>c:\\Users\\dev\\app</cwd>\n  <shell>${shell}</shell>\n</environment_context>` }] }, t);
    const read = async (records: string[]) => (await codexReader.read(rolloutFile('rollout-sh.jsonl', records)))[0]!.declaredShell;
    expect(await read([meta, context('powershell.exe', 1), context('zsh', 2)])).toBe('powershell.exe');
    expect(await read([meta])).toBeUndefined();
    // a captured session keeps it, and whether its turns ran sandboxed
    const [s] = await codexReader.read(rolloutFile('rollout-sh2.jsonl', [meta, rolloutRecord('turn_context', { cwd: '/w', model: 'gpt-5', sandbox_policy: { type: 'workspace-write' } }, 1), context('powershell.exe', 2)]));
    const captured = join(tempDir(), 'captured-sh.jsonl');
    writeFileSync(captured, renderCaptured(s!, 'app', (t) => t));
    const [back] = (await readSessionFile(captured)).sessions;
    expect([back!.declaredShell, back!.sandboxed]).toEqual(['powershell.exe', true]);
  });

  it("records the Codex release its session_meta names, and a captured session keeps it", async () => {
    const meta = rolloutRecord('session_meta', { id: 'v-1', timestamp: '2025-10-09T12:03:37.000Z', cwd: '/w', cli_version: '0.46.0' }, 0);
    const [s] = await codexReader.read(rolloutFile('rollout-v.jsonl', [meta]));
    expect(s!.agentVersion).toBe('0.46.0');
    const captured = join(tempDir(), 'captured-v.jsonl');
    writeFileSync(captured, renderCaptured(s!, 'app', (t) => t));
    expect((await readSessionFile(captured)).sessions[0]!.agentVersion).toBe('0.46.0');
    expect((await codexReader.read(rolloutFile('rollout-v0.jsonl', [rolloutRecord('session_meta', { id: 'v-0', timestamp: '2025-10-09T12:03:37.000Z', cwd: '/w' }, 0)])))[0]!.agentVersion).toBeUndefined();
  });

  it('an output record of a call exec_command_end already answered adds only its time; others are read', async () => {
    const file = join(tempDir(), 'rollout-outputs.jsonl');
    const call = (id: string, cmd: string, t: number) => rolloutCall(id, 'exec_command', { cmd }, t);
    writeFileSync(
      file,
      [
        rolloutRecord('session_meta', { id: 'out-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/w/app' }, 0),
        call('c1', 'npm test', 1),
        rolloutRecord('event_msg', { type: 'exec_command_end', call_id: 'c1', exit_code: 1, aggregated_output: 'FAIL full output' }, 2),
        rolloutOutput('c1', 'Process exited with code 1\nFAIL cut output', 3),
        call('c2', 'ls', 4),
        rolloutOutput('c2', 'Process exited with code 0\nsrc', 5),
        // a cut copy of an answered output is still parsed, so the cut is reported
        rolloutOutput('c1', 'late', 6).slice(0, -2),
        rolloutOutput('c1', 'again', 7),
      ].join('\n') + '\n',
    );
    const warnings: string[] = [];
    const [s] = await codexReader.read(file, { onWarning: (w) => warnings.push(`${w.line}: ${w.message.slice(0, 12)}`) });
    expect(results(s!).map((r) => [r.callId, r.output, r.exitCode])).toEqual([
      ['c1', 'FAIL full output', 1],
      ['c2', 'Process exited with code 0\nsrc', 0],
    ]);
    expect(warnings).toEqual(['7: invalid JSON']);
    expect(s!.endedAt).toBe('2026-01-05T10:00:07.000Z'); // the time of the last, skipped, record
  });

  it("a command that returned still running and ended later keeps when it ended; a second run meanwhile collided with it", async () => {
    const call = (id: string, cmd: string, t: number) => rolloutCall(id, 'exec_command', { cmd }, t);
    const locked = 'Error: A `brew install --cask font-x` process has already locked ~/Library/Caches/Homebrew/downloads/font-x.zip.incomplete.';
    const file = rolloutFile('rollout-overlap.jsonl', [
      rolloutRecord('session_meta', { id: 'overlap-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/w/app' }, 0),
      call('c1', 'brew install --cask font-x', 1),
      rolloutOutput('c1', 'Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n', 2),
      call('c2', 'brew install --cask font-x', 3),
      rolloutOutput('c2', `Chunk ID: b\nWall time: 0.3 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\n${locked}\n`, 4),
      rolloutRecord('event_msg', { type: 'exec_command_end', call_id: 'c1', exit_code: 0, aggregated_output: 'font-x was successfully installed!' }, 6),
      call('c3', 'brew install --cask font-x && fc-list | grep FontX', 7),
      rolloutOutput('c3', 'Chunk ID: c\nWall time: 0.5 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nFontX Regular\n', 8),
    ]);
    const [s] = await codexReader.read(file);
    const first = results(s!).find((r) => r.callId === 'c1')!;
    expect([first.output, first.exitCode, first.endTime]).toEqual(['font-x was successfully installed!', 0, '2026-01-05T10:00:06.000Z']);
    // the lock error came from the agent's own first run, still going: no pitfall with a "fix"
    expect(extractSession(s!).filter((i) => i.rule === 'error-fix')).toEqual([]);
    // …and the same once captured where it ran (the captured format keeps when the run ended)
    const captured = join(tempDir(), 'captured.jsonl');
    writeFileSync(captured, renderCaptured(s!, 'app', (t) => t));
    const [back] = (await readSessionFile(captured)).sessions;
    expect(results(back!).find((r) => r.callId === 'c1')!.endTime).toBe('2026-01-05T10:00:06.000Z');
    expect(extractSession(back!).filter((i) => i.rule === 'error-fix')).toEqual([]);
  });

  it('a command that could not start ("execution error: …", no exit code) failed', async () => {
    const call = (id: string, command: string, t: number) => rolloutCall(id, 'shell_command', { command }, t);
    const file = rolloutFile('rollout-start.jsonl', [
      rolloutRecord('session_meta', { id: 'start-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: 'C:\\repos\\app' }, 0),
      call('c1', 'Get-ChildItem -Force', 1),
      rolloutOutput('c1', 'execution error: Io(Custom { kind: Other, error: "windows sandbox: runner error: CreateProcessAsUserW failed: 1312" })', 2),
      call('c2', 'Get-ChildItem -Force', 3),
      rolloutOutput('c2', 'Exit code: 0\nWall time: 0.9 seconds\nOutput:\nsrc', 4),
      // (exec_command's own words for it name the line it could not start)
      call('c3', 'pwd', 5),
      rolloutOutput('c3', 'exec_command failed for `/bin/zsh -lc pwd`: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 1, stderr: StreamOutput { text: \\"bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\\n\\" } } }))" }', 6),
    ]);
    const [s] = await codexReader.read(file);
    expect(results(s!).map((r) => r.isError)).toEqual([true, false, true]);
  });

  it("the shell tool's `failed in sandbox: <stderr>` (CLI 0.4x, a modern file, no exit code) failed; its JSON envelope did not", async () => {
    const call = (id: string, command: string, t: number) => rolloutCall(id, 'shell', { command: ['bash', '-lc', command] }, t);
    const file = rolloutFile('rollout-sandboxed.jsonl', [
      rolloutRecord('session_meta', { id: 'sandboxed-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/Users/dev/app' }, 0),
      call('c1', 'python3 -c "import app"', 1),
      rolloutOutput('c1', 'failed in sandbox: Traceback (most recent call last):\nModuleNotFoundError: No module named app', 2),
      call('c2', 'python3 --version', 3),
      rolloutOutput('c2', JSON.stringify({ output: 'Python 3.9.6\n', metadata: { exit_code: 0, duration_seconds: 0.1 } }), 4),
      call('c3', 'rg missing | head', 5),
      rolloutOutput('c3', 'failed in sandbox: ', 6),
    ]);
    const [s] = await codexReader.read(file);
    expect(results(s!).map((r) => r.isError)).toEqual([true, false, true]);
  });

  it('a call the user turned down or stopped while it ran is rejected: neither a failure nor a success', async () => {
    const call = (id: string, t: number) => rolloutCall(id, 'exec_command', { cmd: 'git checkout -b 010-use-case-10', sandbox_permissions: 'require_escalated' }, t);
    const file = rolloutFile('rollout-rejected.jsonl', [
      rolloutRecord('session_meta', { id: 'rej-1', timestamp: '2026-01-05T10:00:00.000Z', cwd: '/home/dev/lab' }, 0),
      call('c1', 1),
      rolloutOutput('c1', 'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }', 2),
      call('c2', 3),
      rolloutOutput('c2', 'aborted by user after 8.1s', 4),
      // the automatic approval review ran out of time: the call never ran, the decision is the user's
      call('c3', 5),
      rolloutOutput('c3', 'The automatic permission approval review did not finish before its deadline. Do not assume the action is unsafe based on the timeout alone. You may retry once, or ask the user for guidance or explicit approval.', 6),
    ]);
    const [s] = await codexReader.read(file);
    expect(results(s!).map((r) => [r.isError, r.rejected])).toEqual([
      [true, true],
      [true, true],
      [false, true],
    ]);
  });

  it('recognises injected context and repository names', () => {
    expect(isInjectedCodexText('<environment_context>\n<cwd>/x</cwd>\n</environment_context>')).toBe(true);
    expect(isInjectedCodexText('<turn_aborted>\nThe user interrupted.\n</turn_aborted>')).toBe(true);
    expect(isInjectedCodexText('<b>bold</b> is not rendered, why?')).toBe(false);
    expect(isInjectedCodexText('fix the <Header> component')).toBe(false);
    expect(repoFromUrl('git@github.com:acme/ledger-sync.git')).toBe('ledger-sync');
    expect(repoFromUrl('https://github.com/acme/ledger-sync')).toBe('ledger-sync');
  });
});

describe('Codex code mode (one `exec` tool whose JavaScript calls the real tools)', () => {
  const t = (n: number) => `2026-09-09T08:18:${String(n).padStart(2, '0')}.000Z`;
  const envelope = (text: string) => [{ type: 'input_text', text: 'Script completed\nWall time 0.4 seconds\nOutput:\n' }, { type: 'input_text', text }];
  const exec = (n: number, id: string, cmd: string) => ({
    timestamp: t(n),
    type: 'response_item',
    payload: { type: 'custom_tool_call', status: 'completed', call_id: id, name: 'exec', input: `const r = await tools.exec_command({cmd:${JSON.stringify(cmd)},"workdir":"/work/app","yield_time_ms":10000});\ntext(r.output);\n` },
  });
  const output = (n: number, id: string, text: string) => ({ timestamp: t(n), type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: id, output: envelope(text) } });
  const ran = (n: number, cmd: string, exit: number) => ({
    timestamp: t(n),
    type: 'event_msg',
    payload: { type: 'item_completed', item: { type: 'CommandExecution', id: `exec-${n}`, command: ['/bin/zsh', '-lc', cmd], status: 'completed', exit_code: exit } },
  });
  const FAILED = 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named \'wordfreq\'\n';
  const patch = '*** Begin Patch\n*** Add File: /work/app/wordfreq/__init__.py\n+"""Count words."""\n*** End Patch';
  const rows = (withExitEvents: boolean) => [
    { timestamp: t(0), type: 'session_meta', payload: { id: 'code-mode-1', timestamp: t(0), cwd: '/work/app', cli_version: '0.153.4' } },
    { timestamp: t(1), type: 'event_msg', payload: { type: 'user_message', message: 'add the wordfreq CLI' } },
    exec(2, 'c1', 'python3 -c "import wordfreq"'),
    ...(withExitEvents ? [ran(3, 'python3 -c "import wordfreq"', 1)] : []),
    output(4, 'c1', FAILED),
    { timestamp: t(5), type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: 'c2', name: 'exec', input: `const patch = ${JSON.stringify(patch)};\ntext(await tools.apply_patch(patch));\n` } },
    { timestamp: t(6), type: 'event_msg', payload: { type: 'patch_apply_end', call_id: 'exec-6', stdout: 'Success. Updated the following files:\nA wordfreq/__init__.py\n', stderr: '', success: true } },
    output(7, 'c2', '{}'),
    exec(8, 'c3', 'python3 -m wordfreq --top 2'),
    ...(withExitEvents ? [ran(9, 'python3 -m wordfreq --top 2', 0)] : []),
    output(10, 'c3', 'a: 2\nb: 2\n'),
  ];

  it('reads the command or patch the script runs, the output without the envelope, and each exit', async () => {
    for (const withExitEvents of [true, false]) {
      const file = join(tempDir(), 'rollout-2026-09-09T08-18-00-code-mode.jsonl');
      writeFileSync(file, rows(withExitEvents).map((r) => JSON.stringify(r)).join('\n') + '\n');
      const s = await readOne(file);
      const calls = s.events.filter((e): e is Extract<SessionEvent, { kind: 'tool_call' }> => e.kind === 'tool_call');
      expect(calls.map((c) => c.name)).toEqual(['exec_command', 'apply_patch', 'exec_command']);
      expect(calls[0]!.command).toBe('python3 -c "import wordfreq"');
      expect(calls[0]!.input).toEqual({ cmd: 'python3 -c "import wordfreq"', workdir: '/work/app' });
      expect(calls[1]!.input).toEqual({ input: patch });
      // the patch event carries its own id: it reports on the script's patch, and adds no result of its own
      const rs = results(s);
      expect(rs.map((r) => r.output)).toEqual([FAILED, '{}', 'a: 2\nb: 2\n']);
      // with CommandExecution events the exit codes are theirs; without, the output tells the failure
      expect(rs.map((r) => r.isError)).toEqual([true, false, false]);
      expect(rs[0]!.exitCode).toBe(withExitEvents ? 1 : undefined);
    }
  });

  it('takes the first tool the script calls, reads inline and declared string arguments, and leaves other scripts alone', () => {
    expect(codeModeCall('text(await tools.apply_patch("*** Begin Patch\\n*** End Patch"));')).toEqual({ name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } });
    expect(codeModeCall('const a = await tools.exec_command({cmd:"ls"}); const b = await tools.exec_command({cmd:"pwd"});')).toEqual({ name: 'exec_command', input: { cmd: 'ls' } });
    expect(codeModeCall('const r = await tools.exec_command({cmd:`ls ${dir}`});')).toBeUndefined(); // a template string: not guessed
    expect(codeModeCall('text(1 + 1);')).toBeUndefined();
    expect(codeModeCall('const $p = "*** Begin Patch\\n*** End Patch"; await tools.apply_patch($p);')).toEqual({ name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } });
    expect(codeModeCall('await tools.exec_command({cmd:"git restore x","workdir":"/w","sandbox_permissions":"require_escalated","justification":"May I?"})')).toEqual({ name: 'exec_command', input: { cmd: 'git restore x', workdir: '/w', sandbox_permissions: 'require_escalated' } });
    expect(codeModeOutput([{ type: 'input_text', text: 'Script failed\nWall time 0.1 seconds\nOutput:\n' }, { type: 'input_text', text: 'ReferenceError: x is not defined' }])).toEqual({ text: 'ReferenceError: x is not defined', scriptFailed: true });
    expect(codeModeOutput({ output: 'x' })).toBeUndefined();
  });
});
