/**
 * A command that stopped at a question in the agent's shell and was killed at the tool's timeout
 * is told once, of the agent; a command killed for time that asked nothing, or a question that
 * was answered, is not.
 */
import { describe, expect, it } from 'vitest';
import { waitsForInputDrafts } from '../../src/harvest/extract/rules/waits-for-input.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const GEMINI_CANCELLED = 'Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. Below is the output before it was cancelled:';

describe('a command that waits for input until the timeout', () => {
  it("is told with the question it asked and the way round, in the agent's words for its tool", () => {
    const b = new SessionBuilder({ agent: 'gemini-cli', format: 'gemini-cli' }).tool(
      'run_shell_command',
      { command: 'gcloud auth application-default login --no-launch-browser' },
      `${GEMINI_CANCELLED}\nGo to the following link in your browser:\n    https://accounts.google.com/o/oauth2/auth?x=1\n\nOnce finished, enter the verification code provided in your browser: `,
    );
    const [item] = waitsForInputDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ category: 'tool-quirk', scope: 'agent', title: 'A command that asks for input hangs in run_shell_command until its timeout' });
    expect(item!.text).toBe(
      "In `run_shell_command` the agent cannot answer a command's question: `gcloud auth application-default login…` asked `Once finished, enter the verification code provided in your browser:` and waited until the tool's timeout for a command that prints nothing killed it. Pass the answer on the command line (`--yes`, `--quiet`); leave a sign-in or a password to the user.",
    );
    // (the 5.0 of the timeout is part of the quote, not its end)
    expect(item!.quotes).toContain('automatically cancelled because it exceeded the timeout of 5.0 minutes without output');
  });

  it("reads Claude Code's timeout and a yes/no question, and writes no error item beside it", () => {
    const b = new SessionBuilder().bash('npx create-next-app web', 'Need to install the following packages:\ncreate-next-app@15.0.0\nOk to proceed? (y)', 1);
    expect(waitsForInputDrafts(viewOf(b.build()))).toEqual([]);
    // (the tool's own words on the kill are no question, first or last: the question is the line before)
    const asked = new SessionBuilder().user('scaffold the app').bash('npm init', 'Command timed out after 2m 0.0s\npackage name: (web) \nAre you sure you want to continue? [y/N]', 143).assistant('It waits for an answer; using -y.').bash('npm init -y', 'Wrote to package.json');
    const [item] = waitsForInputDrafts(viewOf(asked.build()));
    expect(item!.text).toContain('asked `Are you sure you want to continue? [y/N]`');
    const last = new SessionBuilder().bash('npm init', 'package name: (web) \nAre you sure you want to continue? [y/N]\nCommand timed out after 2m 0.0s', 143);
    expect(waitsForInputDrafts(viewOf(last.build()))[0]!.text).toContain('asked `Are you sure you want to continue? [y/N]`');
    expect(errorFixDrafts(viewOf(asked.build()))).toEqual([]);
  });

  it('says nothing of a command killed for time that asked nothing', () => {
    const b = new SessionBuilder().bash('npm run dev', 'ready on http://localhost:3000\nCommand timed out after 2m 0.0s', 143);
    expect(waitsForInputDrafts(viewOf(b.build()))).toEqual([]);
  });
});
