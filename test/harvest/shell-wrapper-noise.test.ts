/**
 * The same shell complaint after every command of a tool, whatever the command, is the tool's
 * wrapper, not the commands failing: one agent tool quirk, with how many commands printed it.
 */
import { describe, expect, it } from 'vitest';
import { shellWrapperNoiseDrafts } from '../../src/harvest/extract/rules/shell-wrapper-noise.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const NOISE = 'zsh:1: command not found: dump_zsh_state';

describe("a shell wrapper's complaint after every command", () => {
  it('is told once per tool, with the share of commands that printed it', () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'npm run lint' }, `> eslint .\n${NOISE}`, { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'npm run build' }, `Compiled successfully\n${NOISE}`, { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'git status' }, `On branch main\n${NOISE}`, { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'git log -1' }, 'commit 3f2a1b0', { exitCode: 0 });
    const drafts = shellWrapperNoiseDrafts(viewOf(b.build()));
    expect(drafts.map((d) => d.text)).toEqual([
      "Commands run through `run_terminal_cmd` here also printed `zsh:1: command not found: dump_zsh_state` (3 of 4 commands, whatever they were): the tool's shell wrapper failing, not the commands. A wrapper that cannot save the shell's state may not carry the working directory over either: start each command with `cd <absolute path> &&`.",
    ]);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'agent' });
  });

  it('is nothing for a complaint of one command run again, nor for what the machine was short of', () => {
    const retried = new SessionBuilder();
    for (let i = 0; i < 4; i++) retried.tool('run_terminal_cmd', { command: 'pnpm build' }, 'sh: 1: tsc: command not found', { exitCode: 127 });
    // the wrapper's complaint right after what the machine was short of is that state's effect
    const full = new SessionBuilder();
    for (const c of ['ls', 'git status', 'git log', 'cat a.txt']) full.tool('run_terminal_cmd', { command: c }, `(eval):8: can't create temp file for here document: no space left on device\n${NOISE}\nok`, { exitCode: 0 });
    for (const b of [retried, full]) expect(shellWrapperNoiseDrafts(viewOf(b.build()))).toEqual([]);
  });
});
