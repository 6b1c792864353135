import { describe, expect, it } from 'vitest';
import { extractSession } from '../../src/harvest/extract/index.js';
import { sudoPasswordDrafts } from '../../src/harvest/extract/rules/sudo-password.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const ASKED = 'sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required';

describe('sudo that asks for a password', () => {
  it("is told once, of the machine: the agent's shell cannot answer it, the user runs such commands", () => {
    const b = new SessionBuilder()
      .user('install jq')
      .bash('sudo apt update && sudo apt install -y jq', ASKED, 1)
      .bash('sudo apt-get install -y jq', ASKED, 1)
      .assistant('I cannot run sudo here; please run `sudo apt install -y jq` yourself.');
    const drafts = sudoPasswordDrafts(viewOf(b.build()));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ scope: 'global', category: 'fact', quotes: ['sudo: a terminal is required to read the password'] });
    expect(drafts[0]!.text).toContain('`sudo apt update && sudo apt install -y jq` failed with `sudo: a terminal is required to read the password` before it ran');
    // and no "fails" item of the command beside it
    expect(extractSession(b.build()).map((c) => c.rule)).toEqual(['sudo-password']);
    // what the command was given is this task's (a proxy's address): shown up to its first quote
    const proxy = sudoPasswordDrafts(viewOf(new SessionBuilder().user('set the apt proxy').bash(`sudo sh -c 'printf "%s\\n" "Acquire::http::Proxy \\"http://7.246.186.111:7897\\";" > /etc/apt/apt.conf.d/95proxies'`, ASKED, 1).build()));
    expect(proxy[0]!.text).toContain("`sudo sh -c '…` failed with");
    expect(proxy[0]!.text).not.toContain('7.246');
    // asked to leave the sandbox, it still had no terminal: said, since the sandbox is not why
    const outside = sudoPasswordDrafts(viewOf(new SessionBuilder({ format: 'codex', agent: 'codex' }).user('install jq').tool('exec_command', { cmd: 'sudo apt install -y jq', sandbox_permissions: 'require_escalated' }, ASKED, { exitCode: 1 }).build()));
    expect(outside[0]!.text).toContain('before it ran, outside the sandbox too.');
  });

  it('is read where the transcript keeps no exit code (a SpecStory export)', () => {
    const b = new SessionBuilder({ format: 'specstory', agent: 'cursor' }).user('install jq').tool('run_terminal_cmd', { command: 'sudo apt install -y jq' }, ASKED).tool('run_terminal_cmd', { command: 'sudo apt-get install jq' }, ASKED);
    expect(sudoPasswordDrafts(viewOf(b.build()))).toHaveLength(1);
  });

  it('is shown by a program that runs sudo itself', () => {
    const b = new SessionBuilder().user('install syncthing').bash('yay -S syncthing --noconfirm', `Sync Explicit (1): syncthing-2.0.14-1\n${ASKED}\n -> error installing repo package`, 1);
    expect(sudoPasswordDrafts(viewOf(b.build()))[0]?.text).toContain('`yay -S syncthing --noconfirm` failed');
  });

  it('is nothing to tell when a later sudo got through (the user cached the password)', () => {
    const b = new SessionBuilder()
      .user('install jq')
      .bash('sudo apt install -y jq', ASKED, 1)
      .user('I ran sudo -v, try again')
      .bash('sudo apt install -y jq', 'Setting up jq (1.7.1-3) ...', 0);
    expect(sudoPasswordDrafts(viewOf(b.build()))).toEqual([]);
  });
});
