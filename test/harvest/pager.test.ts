/**
 * git paging its output in an agent's terminal that is a real terminal: told once per tool, from
 * less's own prompt, with the way to turn the pager off.
 */
import { describe, expect, it } from 'vitest';
import { pagerDrafts } from '../../src/harvest/extract/rules/pager.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const PAGED = ['* main', '  remotes/origin/main', '~', '~', '~', '(END)...skipping...', '* main', '~', '(END)'].join('\n');

describe("git's pager in the agent's terminal", () => {
  it('is told from less’s prompt, with --no-pager, and with what worked when the session shows it', () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'git branch -a' }, PAGED, {})
      .tool('run_terminal_cmd', { command: 'git log --oneline' }, 'b76281e Initial commit\n~\n(END)', {})
      .tool('run_terminal_cmd', { command: 'git --no-pager branch -a' }, '* main\n  remotes/origin/main', { exitCode: 0 });
    const drafts = pagerDrafts(viewOf(b.build()));
    expect(drafts.map((d) => d.text)).toEqual([
      "The `run_terminal_cmd` terminal is a real terminal, so git sends its output to its pager: `git branch -a` ended at less's `(END)` and waited for a key instead of returning. Run git with `--no-pager` (`git --no-pager branch -a`), or set `git config core.pager cat` once. `git --no-pager branch -a` worked.",
    ]);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'agent', confidence: 0.9 });
  });

  it('is nothing without the pager’s prompt, or in output that is no git command’s', () => {
    const plain = new SessionBuilder().tool('run_terminal_cmd', { command: 'git branch -a' }, '* main\n  remotes/origin/main', { exitCode: 0 });
    const cat = new SessionBuilder().bash('cat notes.txt', 'the pager printed (END)\n(END)', 0);
    const piped = new SessionBuilder().tool('run_terminal_cmd', { command: 'git --no-pager log' }, 'b76281e x\n(END)', {});
    for (const b of [plain, cat, piped]) expect(pagerDrafts(viewOf(b.build()))).toEqual([]);
  });
});
