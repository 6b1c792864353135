/**
 * The same shell complaint after every command of a tool, whatever the command, is the tool's
 * wrapper, not the commands failing: one agent tool quirk, with how many commands printed it.
 */
import { describe, expect, it } from 'vitest';
import { shellWrapperNoiseDrafts } from '../../src/harvest/extract/rules/shell-wrapper-noise.js';
import { shellCwdDrafts } from '../../src/harvest/extract/rules/shell-cwd.js';
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
      "Commands run through `run_terminal_cmd` here also printed `zsh:1: command not found: dump_zsh_state` (3 of 4 commands): a line of the tool's shell wrapper, not of the commands. It is harmless (`npm run lint` succeeded with it): judge each command by its own exit code.",
    ]);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'agent' });
  });

  it("names the program a startup file runs that the machine lacks, and does not count a call the tool stopped before any shell ran", () => {
    const b = new SessionBuilder();
    const line = '/c/Users/dev/.bashrc: line 1: gh: command not found';
    for (const c of ['git clone https://github.com/acme/fw.git', 'pip install -e fw', 'python -m fw --help']) b.tool('Bash', { command: c }, `${line}\nok`, { exitCode: 0 });
    b.tool('Bash', { command: 'cd fw' }, "cd to 'D:\\fw' was blocked. For security, Claude Code may only change directories to child directories of the allowed working directories for this session (including 'D:\\').", { isError: true });
    const [item] = shellWrapperNoiseDrafts(viewOf(b.build()));
    expect(item!.title).toBe('.bashrc runs gh, which is not installed: every Bash command complains');
    expect(item!.text).toBe(
      `Every command run through \`Bash\` here also printed \`${line}\`: a line of the shell's startup files (\`.bashrc\` runs \`gh\`, which is not installed here), not of the commands. It is harmless (\`git clone https://github.com/…\` succeeded with it): judge each command by its own exit code.`,
    );
  });

  it('is no noise where every command that printed it failed with nothing else to say', () => {
    const b = new SessionBuilder({ format: 'codex', agent: 'codex' });
    const line = 'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted';
    for (const c of ['ls -la', 'ls /etc/apt/apt.conf.d', 'test -f ~/.zshrc']) b.tool('exec_command', { cmd: c }, `${line}\n`, { exitCode: 1 });
    b.tool('exec_command', { cmd: 'ls -la', sandbox_permissions: 'require_escalated' }, 'total 8\ndrwxr-x--- 2 core core 4096 .', { exitCode: 0 });
    expect(shellWrapperNoiseDrafts(viewOf(b.build()))).toEqual([]);
  });

  it("says a zsh command in a file bash reads is zsh's, not a program missing", () => {
    const b = new SessionBuilder();
    const line = '/Users/dev/.profile: line 6: compdef: command not found';
    for (const c of ['ls', 'ls -a', 'ls .specify']) b.tool('shell', { command: ['bash', '-lc', c] }, `${line}\nok`, { exitCode: 0 });
    const [item] = shellWrapperNoiseDrafts(viewOf(b.build()));
    expect(item!.title).toBe(".profile runs zsh's compdef in bash: every shell command complains");
    expect(item!.text).toContain("(`.profile` runs `compdef`, a zsh command, and bash, which runs the commands here, reads that file too)");
    expect(item!.text).not.toContain('not installed');
  });

  it("names the shell's startup files when the complaint comes from one (a profile running what the sandbox forbids), as this machine's", () => {
    const b = new SessionBuilder();
    const line = '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted';
    for (const c of ['ls', "sed -n '1,200p' src/a.ts", 'rg booking -n']) b.tool('shell_command', { command: c }, `${line}\nok`, { exitCode: 0 });
    expect(shellWrapperNoiseDrafts(viewOf(b.build())).map((d) => d.text)).toEqual([
      `Every command run through \`shell_command\` here also printed \`${line}\`: a line of the shell's startup files (\`shellenv.sh\` runs \`/bin/ps\`, which is not permitted here), not of the commands. It is harmless (\`ls\` succeeded with it): judge each command by its own exit code.`,
    ]);
    // the commands run outside the agent's sandbox did not print it: the sandbox forbids it, the agent's quirk
    b.tool('shell_command', { command: 'curl -sL https://example.org/README.md', sandbox_permissions: 'require_escalated' }, '# README', { exitCode: 0 });
    const [outside] = shellWrapperNoiseDrafts(viewOf(b.build()));
    expect(outside!.text).toContain('(`shellenv.sh` runs `/bin/ps`, which the sandbox forbids: commands run outside it did not print this)');
    expect(outside!.scope).toBe('agent');
    // titled by the startup file that complains: another machine's shell prints nothing
    expect(outside!.title).toBe('shellenv.sh runs /bin/ps, which the sandbox forbids: sandboxed shell_command commands complain');
    // (which commands ran inside the sandbox is what counts: no count, no "every", true of any session it merges with)
    expect(outside!.text.startsWith(`Commands run through \`shell_command\` inside the agent's sandbox here also printed \`${line}\`: `)).toBe(true);
    // every command printed it, and the transcript records that every one ran in the agent's sandbox
    const inside = new SessionBuilder({ sandboxed: true });
    for (const c of ['ls', 'rg booking -n', 'git status']) inside.tool('shell_command', { command: c }, `${line}\nok`, { exitCode: 0 });
    const [sandboxed] = shellWrapperNoiseDrafts(viewOf(inside.build()));
    expect(sandboxed!.text).toContain("(`shellenv.sh` runs `/bin/ps`, which the agent's sandbox forbids: every command here ran inside it)");
    expect(sandboxed!.scope).toBe('agent');
    expect(sandboxed!.text.startsWith("Commands run through `shell_command` inside the agent's sandbox here")).toBe(true);
  });

  it('is nothing for a complaint of one command run again, nor for what the machine was short of', () => {
    const retried = new SessionBuilder();
    for (let i = 0; i < 4; i++) retried.tool('run_terminal_cmd', { command: 'pnpm build' }, 'sh: 1: tsc: command not found', { exitCode: 127 });
    // the wrapper's complaint right after what the machine was short of is that state's effect
    const full = new SessionBuilder();
    for (const c of ['ls', 'git status', 'git log', 'cat a.txt']) full.tool('run_terminal_cmd', { command: c }, `(eval):8: can't create temp file for here document: no space left on device\n${NOISE}\nok`, { exitCode: 0 });
    for (const b of [retried, full]) expect(shellWrapperNoiseDrafts(viewOf(b.build()))).toEqual([]);
  });

  it("says what bash's own complaint says of the machine (no temp folder for a here-document), and no guess beyond it", () => {
    const b = new SessionBuilder();
    for (const c of ['nvidia-smi', 'ls ~/models', 'python3 -V']) b.tool('run_terminal_command_v2', { command: c }, `--: line 20: cannot create temp file for here-document: Permission denied\nok`, { exitCode: 0 });
    const [item] = shellWrapperNoiseDrafts(viewOf(b.build()));
    expect(item!.text).toContain('The wrapper cannot write a temp file on this machine.');
    // (what a here-document in a command would then do, nobody saw: two end reviewers asked for no guess)
    expect(item!.text).not.toContain('would fail');
    expect(item!.text).not.toContain('working directory');
    // nor is a machine with no writable temp folder called harmless
    expect(item!.text).not.toContain('harmless');
  });

  it('is told with the lost cd where the session shows one: one item, not two', () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'cd ~/src/chef' }, NOISE, { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'pwd' }, `/\n${NOISE}`, { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'npm test' }, `npm error enoent Could not read package.json\n${NOISE}`, { exitCode: 1 })
      .tool('run_terminal_cmd', { command: 'cd ~/src/chef && npm test' }, `12 passed\n${NOISE}`, { exitCode: 0 });
    const view = viewOf(b.build());
    expect(shellWrapperNoiseDrafts(view)).toEqual([]);
    const [lost] = shellCwdDrafts(view);
    expect(lost!.text).toContain('Its shell wrapper was failing here (every call printed `zsh:1: command not found: dump_zsh_state`).');
    // the title says the lost cd went with the failing wrapper (the tool keeps its folder where it works)
    expect(lost!.title).toBe('run_terminal_cmd loses a lone cd while its shell wrapper fails');
  });
});
