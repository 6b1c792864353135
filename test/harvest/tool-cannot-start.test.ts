/**
 * A command tool that fails every command before it runs: three or more different commands that
 * printed nothing but one and the same error, which names none of their arguments.
 */
import { describe, expect, it } from 'vitest';
import { toolCannotStartDrafts } from '../../src/harvest/extract/rules/tool-cannot-start.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const TMP = "EACCES: permission denied, mkdir '/tmp/claude-10603'";

describe('a tool that fails every command before it runs', () => {
  it('is told once, with the error, the kind of machine where the folder says it, and to ask the user', () => {
    const run = (cwd: string) => {
      const b = new SessionBuilder({ cwd }).user('make a test folder');
      for (const c of ['mkdir -p test_folder && ls -la test_folder', 'pwd && mkdir test_folder && ls -d test_folder', 'mkdir test_folder && ls -d test_folder']) b.bash(c, TMP, 1);
      return toolCannotStartDrafts(viewOf(b.build()));
    };
    const drafts = run('/data/data/com.termux/files/home');
    expect(drafts.map((d) => [d.category, d.scope, d.title])).toEqual([['tool-quirk', 'agent', 'Bash fails every command on this machine before it runs']]);
    expect(drafts[0]!.text).toBe(
      `Every command run through \`Bash\` on this machine (Termux) printed nothing but \`${TMP}\` (3 different commands): the tool cannot make its temp folder in \`/tmp\` (Termux's is \`$PREFIX/tmp\`), so it starts nothing. Stop after the first such failure and ask the user to repair this outside the session.`,
    );
    expect(run('D:\\app\\proj')[0]!.text).toContain('on this machine (Windows) printed nothing but');
    expect(run('/c/Users/dev/proj')[0]!.text).toContain('on this machine (Windows) printed nothing but');
    // (elsewhere without Termux's folder; another error without the reason)
    expect(run('/home/dev/proj')[0]!.text).toContain('the tool cannot make its temp folder in `/tmp`, so it starts nothing.');
    // and no error item for one of those commands, whatever the agent said of it
    const said = new SessionBuilder().user('make a test folder');
    for (const c of ['mkdir -p a', 'mkdir -p b', 'mkdir -p c']) said.bash(c, TMP, 1).assistant('The mkdir fails because the current directory is not writable for this user.');
    expect(errorFixDrafts(viewOf(said.build()))).toEqual([]);
    expect(run('/home/dev/proj')[0]!.text).toContain('on this machine printed nothing but');
  });

  it("names the agent's other tools that failed with the same error", () => {
    const nul = "Command execution failed: FileNotFoundError: [Errno 2] No such file or directory: 'nul'";
    const b = new SessionBuilder().user('check the hermes install');
    for (const c of ['which hermes', 'ls -la /dev/null', 'python3 -c "import os"']) b.tool('terminal', { command: c }, nul, { isError: true });
    b.tool('read_file', { path: 'config.yaml' }, `{"error": "[Errno 2] No such file or directory: 'nul'"}`, { isError: true });
    const text = toolCannotStartDrafts(viewOf(b.build()))[0]!.text;
    expect(text).toContain('; `read_file` failed with it too)');
    // `nul` is Windows' null device: the error says the machine where the folder does not
    expect(text).toContain('on this machine (Windows) printed nothing but');
  });

  it("is nothing for the command's own failure (an error naming its argument, output besides the error, a success in between, one command retried) or once a command got through", () => {
    const session = (steps: [string, string, number][]) => {
      const b = new SessionBuilder().user('run the tests');
      for (const [c, out, code] of steps) b.bash(c, out, code);
      return toolCannotStartDrafts(viewOf(b.build()));
    };
    const missing = "Error: Cannot find module 'vitest'";
    expect(session([['npx vitest run', missing, 1], ['npx vitest run src', missing, 1], ['npx vitest --run', missing, 1]])).toEqual([]);
    expect(session([['ls a', "ls: a: No such file or directory", 1], ['ls b', "ls: b: No such file or directory", 1], ['ls c', "ls: c: No such file or directory", 1]])).toEqual([]);
    expect(session([['make', `building\n${TMP}`, 1], ['make all', `building\n${TMP}`, 1], ['make test', `building\n${TMP}`, 1]])).toEqual([]);
    expect(session([['mkdir a', TMP, 1], ['echo hi', 'hi', 0], ['mkdir b', TMP, 1], ['mkdir c', TMP, 1]])).toEqual([]);
    expect(session([['mkdir a', TMP, 1], ['mkdir a', TMP, 1], ['mkdir a', TMP, 1]])).toEqual([]);
    // a command of the tool that got through afterwards: the state passed
    expect(session([['mkdir a', TMP, 1], ['mkdir b', TMP, 1], ['mkdir c', TMP, 1], ['echo hi', 'hi', 0]])).toEqual([]);
    // one that ran before it: every command from then on
    expect(session([['echo hi', 'hi', 0], ['mkdir a', TMP, 1], ['mkdir b', TMP, 1], ['mkdir c', TMP, 1]])[0]!.text).toContain('on this machine from then on printed nothing but');
  });
});
