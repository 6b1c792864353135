import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specstoryReader } from '../../src/sessions/readers/specstory.js';
import { detectFile } from '../../src/sessions/detect.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith, withInvalidUtf8 } from './reader-checks.js';

const SHARED_DIR = join(SHARED, 'cursor-specstory', 'minsky');
const DIR = join(TEST_SESSIONS, 'specstory', 'shop-frontend', '.specstory', 'history');
const JEST = join(DIR, '2025-06-02_14-05-jest-fails-after-switching-to-esm.md');
const LEAK = join(DIR, '2025-06-05_09-30Z-worker-memory-grows-until-oom.md');

/**
 * Counts with nothing but line regexes: the file split at `---` lines into chunks; a chunk is a
 * tool when its first line is a rendered tool (shell block, Read file, <details>, diff, <tool-use>);
 * a shell chunk failed when its text after the command reads Error / error: / fatal: / FAIL.
 */
function markdownCounts(file: string): { prompts: number; toolCalls: number; toolErrors: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const chunks: string[][] = [[]];
  for (const l of lines) {
    if (l === '---') chunks.push([]);
    else chunks.at(-1)!.push(l);
  }
  let toolCalls = 0;
  let toolErrors = 0;
  for (const c of chunks) {
    const first = c.find((l) => l.trim() !== '')?.trim() ?? '';
    if (!/^(```(bash|sh|zsh|shell)\s*$|Read file: |<details|```diff\s*$|<tool-use |Tool use: \*\*)/.test(first)) continue;
    toolCalls++;
    const text = c.join('\n');
    const shell = text.search(/^```(bash|sh|zsh|shell)\s*$/m);
    if (shell !== -1 && /\bError\b|\berror:|fatal:|\bFAIL\b|FATAL ERROR/.test(text.slice(shell).replace(/^```bash\n.*\n```/, ''))) toolErrors++;
  }
  return { prompts: lines.filter((l) => /^_\*\*User/.test(l)).length, toolCalls, toolErrors };
}

describe.skipIf(!existsSync(SHARED))('SpecStory reader on the shared corpus', () => {
  const files = existsSync(SHARED_DIR) ? readdirSync(SHARED_DIR).map((f) => join(SHARED_DIR, f)) : [];

  it('finds the minsky export', () => {
    expect(files).toHaveLength(1);
  });

  it('minsky: detected, no warnings, counts match a line-regex count', async () => {
    const file = files[0]!;
    const detected = await detectFile(file);
    expect(detected.ok && detected.reader.format).toBe('specstory');
    const { sessions, warnings } = await readWith(specstoryReader, file);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect(counts(s)).toEqual(markdownCounts(file));
    expectWellFormed(s, file);
    await expectDeterministic(specstoryReader, file);
  });

  it('minsky: the injected rule, the error → root cause → fix story', async () => {
    const s = (await readWith(specstoryReader, files[0]!)).sessions[0]!;
    expect(s.agent).toBe('cursor');
    expect(s.id).toBe('2025-04-29_20-13-session-start-error-for-task-008');
    expect(s.startedAt).toBe('2025-04-29T16:13:16');
    expect(s.models).toEqual([]); // v1 exports name no model
    const rule = ofKind(s, 'system')[0]!;
    expect(rule.injected).toBe(true);
    expect(rule.text).toMatch(/^### Rule: minsky-workflow/);
    expect(rule.text.trimEnd().endsWith('```')).toBe(true); // the rule's glued closing fence ends it
    expect(ofKind(s, 'user')[0]!.text).toContain("Error starting session: Session 'task#008' not found.");
    const failures = ofKind(s, 'tool_result').filter((r) => r.isError);
    expect(failures[0]!.output).toContain('fatal: destination path');
    const calls = ofKind(s, 'tool_call');
    expect(calls.filter((c) => c.name === 'codebase_search').map((c) => c.input.query)).toEqual([
      'implementation of session start command',
      'SessionDB implementation',
      'GitService clone implementation',
    ]);
    expect(calls.filter((c) => c.name === 'read_file').map((c) => c.input.path)).toContain('src/domain/git.ts');
    const edit = calls.at(-1)!;
    expect(edit.name).toBe('edit_file');
    expect(String(edit.input.diff)).toContain('await sessionDB.addSession(sessionRecord);');
    expect(ofKind(s, 'user').at(-1)!.text).toBe('@test-driven-bugfix.mdc');
  });
});

describe('SpecStory reader on test_sessions', () => {
  for (const file of [JEST, LEAK]) {
    it(`${file.slice(DIR.length + 1)}: detected, no warnings, counts match a line-regex count`, async () => {
      const detected = await detectFile(file);
      expect(detected.ok && detected.reader.format).toBe('specstory');
      const { sessions, warnings } = await readWith(specstoryReader, file);
      expect(warnings).toEqual([]);
      expect(counts(sessions[0]!)).toEqual(markdownCounts(file));
      expectWellFormed(sessions[0]!, file);
      await expectDeterministic(specstoryReader, file);
    });
  }

  it('v1 success: bootstrap block inside a rule, failing test run, diagnosis, diff fix, passing run', async () => {
    const s = (await readWith(specstoryReader, JEST)).sessions[0]!;
    expect(s.repo).toBe('shop-frontend'); // the folder holding .specstory/
    const boot = ofKind(s, 'bootstrap');
    expect(boot).toHaveLength(1);
    expect(boot[0]!.itemIds).toEqual(['k-a41c09e2', 'k-5d0e7731']);
    expect(ofKind(s, 'system')[0]!.text).not.toContain('compound:bootstrap');
    const [fail, search, pass, commit] = ofKind(s, 'tool_result');
    expect(fail).toMatchObject({ name: 'run_terminal_cmd', isError: true });
    expect(fail!.output).toContain('SyntaxError: Cannot use import statement outside a module');
    expect(search!.name).toBe('codebase_search');
    expect(pass).toMatchObject({ isError: false });
    expect(pass!.output).toContain('87 passed'); // an ExperimentalWarning is not a failure
    expect(commit!.output).toContain('[main 2b81f4c]');
    const edit = ofKind(s, 'tool_call').find((c) => c.name === 'edit_file')!;
    expect(String(edit.input.diff)).toContain('--experimental-vm-modules');
  });

  it("names the agent by the tool, however SpecStory's version spells it", async () => {
    const named = async (header: string) => {
      const f = put(tempDir(), 'session.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n<!-- ${header} Session 6c1e0b7a-93d4-4f2e-8a51-0d7c2e9b4f18 (2026-06-16 04:16:01Z) -->\n\n_**User (2026-06-16 04:16:01Z)**_\n\nhello\n\n---\n\n_**Agent (model gpt-5)**_\n\nHi.\n`);
      return (await readWith(specstoryReader, f)).sessions[0]!.agent;
    };
    for (const header of ['Cursor IDE', 'cursoride', 'cursor']) expect(await named(header)).toBe('cursor');
    for (const header of ['VS Code Copilot IDE', 'copilotide', 'vscode']) expect(await named(header)).toBe('copilot');
    expect(await named('Codex CLI')).toBe('codex');
    expect(await named('Claude Code')).toBe('claude-code');
    expect(await named('Windsurf')).toBe('windsurf');
  });

  it('v2 failure with open questions: header ids, model, think blocks, <tool-use> blocks', async () => {
    const s = (await readWith(specstoryReader, LEAK)).sessions[0]!;
    expect(s.id).toBe('6c1e0b7a-93d4-4f2e-8a51-0d7c2e9b4f18');
    expect(s.agent).toBe('cursor');
    expect(s.models).toEqual(['claude-4-sonnet']);
    expect(s.startedAt).toBe('2025-06-05T09:30:00Z');
    expect(s.endedAt).toBe('2025-06-05T10:12:00Z');
    expect(ofKind(s, 'reasoning')[0]!.text).toMatch(/^Reproduce with the soak script/);
    const calls = ofKind(s, 'tool_call');
    expect(calls.map((c) => c.name)).toEqual(['run_terminal_cmd', 'grep', 'read_file', 'search_replace', 'run_terminal_cmd', 'run_terminal_cmd']);
    expect(calls[1]!.input.query).toBe('\\.on\\(|new Map|cache');
    expect(calls[3]!.input.path).toBe('src/resize.js');
    expect(calls[5]!.command).toBe('node --heapsnapshot-signal=SIGUSR2 scripts/soak.js --jobs 3000 && node scripts/diff-snapshots.js');
    const results = ofKind(s, 'tool_result');
    expect(results[0]!.output).toContain('FATAL ERROR: Reached heap limit');
    expect(results.map((r) => r.isError)).toEqual([true, false, false, true]);
    const last = s.events.at(-1)!;
    expect(last.kind === 'assistant' && last.model).toBe('claude-4-sonnet');
    expect(last.kind === 'assistant' && last.text).toMatch(/Open questions:\n1\. /);
  });
});

describe('SpecStory reader on bad input', () => {
  const text = readFileSync(JEST, 'utf8');

  it("dates a chat whose sections carry no time by its title's US-form time, else by its file's name", async () => {
    const chat = (title: string) => `## SpecStory\n\n${title}\n\n_**User**_\n\nhow is the id used?\n\n---\n\n_**Assistant**_\n\nThe id names the task.\n`;
    const start = async (name: string, title: string) => (await readWith(specstoryReader, put(tempDir(), name, chat(title)))).sessions[0]!.startedAt;
    expect(await start('2025-03-06_06-53-task-ids.md', '## Task ids (3/6/2025, 6:53:59 PM)')).toBe('2025-03-06T18:53:59');
    expect(await start('2025-03-06_06-53-task-ids.md', '## Task ids (12/1/2025, 12:05:00 AM)')).toBe('2025-12-01T00:05:00');
    // (a checkout gives every file the time of the checkout: the name keeps when the chat began)
    expect(await start('2025-03-06_06-53-task-ids.md', '## Task ids')).toBe('2025-03-06T06:53:00');
    expect(await start('2025-11-02_20-46Z-task-ids.md', '## Task ids')).toBe('2025-11-02T20:46:00Z');
    expect(await start('notes.md', '## Task ids')).toBeUndefined();
  });

  it('empty file: no session, a warning', async () => {
    const f = put(tempDir(), 'empty.md', '');
    const { sessions, warnings } = await readWith(specstoryReader, f);
    expect(sessions).toEqual([]);
    expectWarningAt(warnings, f);
  });

  it('export cut inside a code block: warned at the open fence, what came before is read', async () => {
    const cut = text.slice(0, text.indexOf('Tests:       87 passed'));
    const f = put(tempDir(), 'cut.md', cut);
    const { sessions, warnings } = await readWith(specstoryReader, f);
    const fenceLine = cut.split('\n').lastIndexOf('```') + 1;
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, f, fenceLine);
    const s = sessions[0]!;
    expect(ofKind(s, 'tool_result').at(-1)!.output).toContain('Test Suites: 12 passed');
    expectWellFormed(s, f);
  });

  it('invalid UTF-8: warned with its line', async () => {
    const f = put(tempDir(), 'utf8.md', withInvalidUtf8(text, 7, 'since '));
    const { sessions, warnings } = await readWith(specstoryReader, f);
    expectWarningAt(warnings, f, 7);
    expect(ofKind(sessions[0]!, 'user')[0]!.text).toMatch(/^since \uFFFDI set/);
  });

  it('a tool argument SpecStory did not record ("Read file: undefined") is left out, not read as a path', async () => {
    const f = put(tempDir(), 'read.md', '<!-- Generated by SpecStory -->\n\n# Avatars (2025-01-01 10:00:00)\n\n_**User**_\n\nwhy is the avatar missing?\n\n---\n\n_**Assistant**_\n\nRead file: undefined\n\n---\n\nRead file: public/avatars/README.md\n\n---\n');
    const calls = ofKind((await readWith(specstoryReader, f)).sessions[0]!, 'tool_call');
    expect(calls.map((c) => c.input)).toEqual([{}, { path: 'public/avatars/README.md' }]);
  });

  it("a Claude Code chat's harness text in a user turn (a local-command caveat, a slash command) is injected, not the user's words", async () => {
    const caveat = '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.</local-command-caveat>';
    const f = put(
      tempDir(),
      'cc.md',
      `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-09-20 17:05:10Z\n\n_**User (2026-09-20 17:05:10Z)**_\n\n${caveat}\n\n---\n\n_**User (2026-09-20 17:05:14Z)**_\n\n<command-name>/effort</command-name>\n\n---\n\n_**User (2026-09-20 17:06:00Z)**_\n\nI rebuilt the devcontainer, check that the sandbox works\n\n---\n\n_**Agent (claude-opus-5)**_\n\nChecking.\n`,
    );
    const users = ofKind((await readWith(specstoryReader, f)).sessions[0]!, 'user');
    expect(users.map((u) => [u.text.slice(0, 24), Boolean(u.injected)])).toEqual([
      ['<local-command-caveat>Ca', true],
      ['<command-name>/effort</c', true],
      ['I rebuilt the devcontain', false],
    ]);
  });

  it("reads a shell tool's command written inline (Claude Code's description then `cmd`, Copilot's `- command:`) and its output", async () => {
    const bash = '<tool-use data-tool-type="shell" data-tool-name="Bash"><details>\n<summary>Tool use: **Bash**</summary>\nShow the diff and the profile head\n\n`git diff && head -c 400 .devcontainer/seccomp.json`\n\n````text\nfatal: not a git repository\n````\n</details></tool-use>';
    const copilot = '<tool-use data-tool-type="generic" data-tool-name="run_in_terminal"><details>\n<summary>Tool use: **run_in_terminal**</summary>\n\n**Input:**\n\n- command: `mvn -q verify`\n- explanation: `Build the project.`\n- isBackground: `false`\n\n</details></tool-use>';
    const f = put(tempDir(), 'inline.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-09-20 17:05:10Z\n\n_**User (2026-09-20 17:05:10Z)**_\n\ncheck the sandbox\n\n---\n\n_**Agent (claude-opus-5)**_\n\n${bash}\n\n---\n\n_**Agent (copilot/auto)**_\n\n${copilot}\n`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    expect(ofKind(session, 'tool_call').map((c) => [c.name, c.command])).toEqual([
      ['Bash', 'git diff && head -c 400 .devcontainer/seccomp.json'],
      ['run_in_terminal', 'mvn -q verify'],
    ]);
    const results = ofKind(session, 'tool_result');
    expect(results[0]!.output).toBe('fatal: not a git repository');
    expect(results[0]!.isError).toBe(true);
    // Copilot's input list is the call, not its output
    expect(results[1]?.output ?? '').not.toContain('explanation');
  });

  it("reads Copilot's multi-line command and its labelled result, and a backtick inside an inline command", async () => {
    const multi = '<tool-use data-tool-type="generic" data-tool-name="run_in_terminal"><details>\n<summary>Tool use: **run_in_terminal**</summary>\n\n**Input:**\n\n- command:\n\n```\ncd api\nmvn -q verify\n```\n\n**Error:**\n\n```\n[ERROR] BUILD FAILURE\n```\n</details></tool-use>';
    const ticked = '<tool-use data-tool-type="shell" data-tool-name="Bash"><details>\n<summary>Tool use: **Bash**</summary>\nCommit the fix\n\n`git commit -m "Fix `parse` on empty input"`\n\n```text\n[main 1a2b3c4] Fix parse\n```\n</details></tool-use>';
    const f = put(tempDir(), 'multi.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-09-20 17:05:10Z\n\n_**User (2026-09-20 17:05:10Z)**_\n\nbuild it\n\n---\n\n_**Agent (copilot/auto)**_\n\n${multi}\n\n---\n\n_**Agent (claude-opus-5)**_\n\n${ticked}\n`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    expect(ofKind(session, 'tool_call').map((c) => c.command)).toEqual(['cd api\nmvn -q verify', 'git commit -m "Fix `parse` on empty input"']);
    const [failed, committed] = ofKind(session, 'tool_result');
    expect([failed!.output, failed!.isError]).toEqual(['[ERROR] BUILD FAILURE', true]);
    expect(committed!.isError).toBe(false);
  });

  it("reads Codex's exec_command: the command in the summary, the output whole (a fence inside it too) without its envelope, the envelope's exit code; apply_patch's file", async () => {
    const exec = (cmd: string, body: string) => `<tool-use data-tool-type="shell" data-tool-name="exec_command"><details>\n<summary>Tool use: **exec_command** \`${cmd}\`</summary>\n\`\`\`\n${body}\n\`\`\`\n</details></tool-use>`;
    const readme = exec("sed -n '1,40p' README.md", 'Chunk ID: 0e3f21\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 40\nOutput:\n# Demo\n\n```bash\nnpm run dev\n```\nThen open the app.');
    const failing = exec('npm run release:dmg', 'Chunk ID: 1a2b3c\nWall time: 0.2 seconds\nProcess exited with code 1\nOriginal token count: 12\nOutput:\nExtension zip not found: dist/release/app.zip');
    const patch = '<tool-use data-tool-type="write" data-tool-name="apply_patch"><details>\n<summary>Tool use: **apply_patch**</summary>\n**Update: `scripts/release/build-dmg.sh`**\n\n```diff\n@@\n-exit 1\n+build_zip\n```\n</details></tool-use>';
    const f = put(tempDir(), 'codex.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-02-27 18:12:11Z\n\n_**User (2026-02-27 18:12:11Z)**_\n\nmake the dmg\n\n---\n\n_**Agent (gpt-5.3-codex 2026-02-27 18:12:19Z)**_\n\n${readme}\n\n_**Agent (gpt-5.3-codex 2026-02-27 18:12:19Z)**_\n\n${failing}\n\n_**Agent (gpt-5.3-codex 2026-02-27 18:12:20Z)**_\n\n${patch}\n`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    expect(ofKind(session, 'tool_call').map((c) => [c.name, c.command ?? c.input.path])).toEqual([
      ['exec_command', "sed -n '1,40p' README.md"],
      ['exec_command', 'npm run release:dmg'],
      ['apply_patch', 'scripts/release/build-dmg.sh'],
    ]);
    const [shown, failed] = ofKind(session, 'tool_result');
    expect(shown).toMatchObject({ output: '# Demo\n\n```bash\nnpm run dev\n```\nThen open the app.', exitCode: 0, isError: false });
    expect(failed).toMatchObject({ output: 'Extension zip not found: dist/release/app.zip', exitCode: 1, isError: true });
  });

  it("joins a write_stdin poll shown without its arguments to the Codex command still running: its output and exit are the command's, the poll no tool of its own", async () => {
    const exec = '<tool-use data-tool-type="shell" data-tool-name="exec_command"><details>\n<summary>Tool use: **exec_command** `firebase deploy --only firestore:rules`</summary>\n```\nChunk ID: c5aca2\nWall time: 1.0004 seconds\nProcess running with session ID 56934\nOriginal token count: 0\nOutput:\n```\n</details></tool-use>';
    const poll = '<tool-use data-tool-type="unknown" data-tool-name="write_stdin"><details>\n<summary>Tool use: **write_stdin**</summary>\n```\nChunk ID: 355221\nWall time: 0.9315 seconds\nProcess exited with code 1\nOriginal token count: 30\nOutput:\nAuthentication Error: Your credentials are no longer valid. Please run firebase login --reauth\n```\n</details></tool-use>';
    const f = put(tempDir(), 'poll.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-05-28 03:32:11Z\n\n_**User (2026-05-28 03:32:11Z)**_\n\ndeploy the rules\n\n---\n\n_**Agent (gpt-5.5 2026-05-28 03:32:34Z)**_\n\n${exec}\n\n_**Agent (gpt-5.5 2026-05-28 03:32:38Z)**_\n\n${poll}\n`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    const steps = viewOf(session).steps;
    expect(steps.map((s) => [s.call.name, s.command, s.failed, s.exitCode])).toEqual([['exec_command', 'firebase deploy --only firestore:rules', true, 1]]);
    expect(steps[0]!.output).toBe('Authentication Error: Your credentials are no longer valid. Please run firebase login --reauth');
  });

  it("reads Copilot's input list as the call's arguments (a fenced value too), never as its output", async () => {
    const edit = '<tool-use data-tool-type="generic" data-tool-name="replace_string_in_file"><details>\n<summary>Tool use: **replace_string_in_file**</summary>\n\n**Input:**\n\n- filePath: `/home/dev/shop/lib/shop/order.ex`\n- newString:\n\n```\n  field :booking_id, :binary_id\n```\n\n- oldString:\n\n```\n  field :guest_id, :binary_id\n```\n\n</details></tool-use>';
    const read = '<tool-use data-tool-type="read" data-tool-name="read_file"><details>\n<summary>Tool use: **read_file**</summary>\n\n**Input:**\n\n- filePath: `/home/dev/shop/lib/shop/order.ex`\n- limit: `25`\n\n</details></tool-use>';
    const f = put(tempDir(), 'copilot.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2025-10-16 20:06:56Z\n\n_**User (2025-10-16 20:06:56Z)**_\n\nlink orders to bookings\n\n---\n\n_**Agent (copilot/claude-sonnet-4.5)**_\n\n${read}\n\n_**Agent (copilot/claude-sonnet-4.5)**_\n\n${edit}\n`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    expect(ofKind(session, 'tool_call').map((c) => c.input)).toEqual([
      { filePath: '/home/dev/shop/lib/shop/order.ex', limit: '25' },
      { filePath: '/home/dev/shop/lib/shop/order.ex', newString: '  field :booking_id, :binary_id', oldString: '  field :guest_id, :binary_id' },
    ]);
    expect(ofKind(session, 'tool_result')).toEqual([]);
  });

  it('a code block left open before the next dated section: warned at its fence, the chat after it still read', async () => {
    const f = put(tempDir(), 'open.md', '<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2025-10-16 20:06:56Z\n\n_**User (2025-10-16 20:06:56Z)**_\n\nlink orders to bookings\n\n---\n\n_**Agent (copilot/claude-sonnet-4.5)**_\n\n\n```\n\n\n---\n\n_**User (2025-10-16 20:52:31Z)**_\n\nnow add the bookings page\n\n---\n\n_**Agent (copilot/claude-sonnet-4.5)**_\n\nAdding it.\n');
    const { sessions, warnings } = await readWith(specstoryReader, f);
    expectWarningAt(warnings, f, 14);
    expect(ofKind(sessions[0]!, 'user').map((u) => u.text)).toEqual(['link orders to bookings', 'now add the bookings page']);
    expect(ofKind(sessions[0]!, 'assistant').at(-1)!.text).toBe('Adding it.');
  });

  it("keeps a Cursor call's summary when an empty copy of the block follows it, and pairs each output with its own call", async () => {
    const edit = '<tool-use data-tool-type="write" data-tool-name="edit_file_v2">\n\n<details><summary>Tool use: **edit_file_v2** • Edit file: c:\\app\\tests\\pin.test.ts</summary>\n\n</details>\n\n</tool-use>\n\n<tool-use data-tool-type="write" data-tool-name="edit_file_v2"><details>\n<summary>Tool use: **edit_file_v2**</summary>\n\n</details></tool-use>';
    const run = (command: string, output?: string) => `<tool-use data-tool-type="shell" data-tool-name="run_terminal_command_v2">\n<details><summary>Tool use: **run_terminal_command_v2** • Run command: ${command}</summary>\n\n\`\`\`bash\n${command}\n\`\`\`\n${output !== undefined ? `\n\`\`\`\n${output}\n\`\`\`\n` : ''}</details>\n</tool-use>\n\n<tool-use data-tool-type="shell" data-tool-name="run_terminal_command_v2"><details>\n<summary>Tool use: **run_terminal_command_v2**</summary>\n\n</details></tool-use>`;
    const agent = (body: string) => `_**Agent (composer-2-fast)**_\n\n${body}\n\n`;
    const f = put(tempDir(), 'cursor.md', `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n_**User (2026-03-25 15:55:48Z)**_\n\nfix pinning\n\n---\n\n${agent(edit)}${agent(run('Start-Sleep -Seconds 25'))}${agent(run('cd app &amp;&amp; npm test', '&gt; app@1.0 test\nFAIL tests/pin.test.ts: Invalid &#96;prisma.user.create()&#96;'))}`);
    const session = (await readWith(specstoryReader, f)).sessions[0]!;
    expect(ofKind(session, 'tool_call')[0]!.input).toEqual({ path: 'c:\\app\\tests\\pin.test.ts' });
    // inside the HTML block, SpecStory escapes the command and its output; they are read unescaped
    expect(ofKind(session, 'tool_result').map((r) => r.output)).toEqual(['> app@1.0 test\nFAIL tests/pin.test.ts: Invalid `prisma.user.create()`']);
    // the sleep shows no output: the test run's output is the test run's, not the sleep's
    const steps = viewOf(session).steps.filter((st) => st.command !== undefined);
    expect(steps.map((st) => [st.command, st.output])).toEqual([
      ['Start-Sleep -Seconds 25', ''],
      ['cd app && npm test', '> app@1.0 test\nFAIL tests/pin.test.ts: Invalid `prisma.user.create()`'],
    ]);
  });

  it('markdown with no chat sections: a warning, an empty session', async () => {
    const f = put(tempDir(), 'notes.md', '<!-- Generated by SpecStory -->\n\n# Notes (2025-01-01 10:00:00)\n\nnothing here\n');
    const { sessions, warnings } = await readWith(specstoryReader, f);
    expectWarningAt(warnings, f);
    expect(sessions[0]!.events).toEqual([]);
  });
});
