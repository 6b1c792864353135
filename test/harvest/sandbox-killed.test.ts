/**
 * A program the sandbox kills on every run is told once, of the agent, with the other way of
 * running it that then worked.
 */
import { describe, expect, it } from 'vitest';
import { sandboxKilledDrafts } from '../../src/harvest/extract/rules/sandbox-killed.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const KILLED = 'failed in sandbox: sandbox error: command was killed by a signal';
const codex = { agent: 'codex', format: 'codex' as const };

describe('a program the sandbox kills on every run', () => {
  it('is told with the way that then ran, not with an argument that names the program', () => {
    const b = new SessionBuilder(codex)
      .bash('pytest tests/unit', KILLED, 1)
      .bash('pytest --version', KILLED, 1)
      .bash('head -n 3 /opt/homebrew/bin/pytest', '#!/opt/homebrew/opt/python@3.11/bin/python3.11')
      .bash('python3 -m pytest --version', 'pytest 7.4.4');
    const [item] = sandboxKilledDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ category: 'tool-quirk', scope: 'agent', title: 'The sandbox kills every `pytest` run ("killed by a signal")' });
    expect(item!.text).toBe(
      "In Codex's sandbox `pytest` was killed before it did anything (2 of 2 runs, even `pytest --version`: `sandbox error: command was killed by a signal`); the message is the sandbox's, not `pytest`'s, and other arguments only repeat it. `python3 -m pytest --version` then ran: run it that way (its interpreter or runner may differ from the script's), or ask to run it outside the sandbox.",
    );
  });

  it('says nothing of one kill, or of a program that ran by its name too', () => {
    const once = new SessionBuilder(codex).bash('pytest', KILLED, 1).bash('python3 -m pytest', '3 passed');
    expect(sandboxKilledDrafts(viewOf(once.build()))).toEqual([]);
    const ranToo = new SessionBuilder(codex).bash('pytest', KILLED, 1).bash('pytest -x', KILLED, 1).bash('pytest -q', '3 passed');
    expect(sandboxKilledDrafts(viewOf(ranToo.build()))).toEqual([]);
  });
});
