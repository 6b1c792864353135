/**
 * Claude Code's Bash refuses a whole command line whose `cd` leaves the session's working
 * directories: one agent quirk, with the way past it the session showed, or the tool's own.
 */
import { describe, expect, it } from 'vitest';
import { cdBlockedDrafts } from '../../src/harvest/extract/rules/cd-blocked.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const blocked = (folder: string, allowed: string) =>
  `cd to '${folder}' was blocked. For security, Claude Code may only change directories to child directories of the allowed working directories for this session (including '${allowed}').`;

describe("a cd outside the session's working directories", () => {
  it('is told once, with the command that then named the folder as an argument', () => {
    const b = new SessionBuilder({ cwd: '/srv' })
      .user('install the framework')
      .bash('git clone https://github.com/acme/fw.git', "Cloning into 'fw'...")
      .tool('Bash', { command: 'cd /opt/fw && python -m pip install -e .' }, blocked('/opt/fw', '/srv'), { isError: true })
      .bash('python -m pip install -e /opt/fw', 'Successfully installed fw-3.0.0')
      .tool('Bash', { command: 'cd /opt/fw && ls' }, blocked('/opt/fw', '/srv'), { isError: true });
    const drafts = cdBlockedDrafts(viewOf(b.build()));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'agent', title: "Bash refuses a cd outside the session's working directories" });
    expect(drafts[0]!.text).toBe(
      "Claude Code's `Bash` ran none of `cd /opt/fw && python -m pip install -e .` (`cd to '/opt/fw' was blocked`): it changes only into the session's starting folders and their subfolders. Pass the folder as an argument (`python -m pip install -e /opt/fw` worked) or add it with `/add-dir`.",
    );
  });

  it('says so where a subfolder of the allowed folder was refused, without the way of adding it', () => {
    const b = new SessionBuilder({ cwd: 'D:\\' })
      .user('set it up')
      .tool('Bash', { command: 'cd SuperClaude_Framework && make' }, blocked('D:\\SuperClaude_Framework', 'D:\\'), { isError: true })
      .bash('ls', 'SuperClaude_Framework');
    const [item] = extractSession(b.build()).filter((c) => c.rule === 'cd-blocked');
    expect(item!.title).toBe('Bash refused a cd into a subfolder of the allowed D:\\');
    expect(item!.text).toBe(
      "Claude Code's `Bash` ran none of `cd SuperClaude_Framework && make` (`cd to 'D:\\SuperClaude_Framework' was blocked`): it changes only into the session's starting folders and their subfolders. Here it refused a folder inside `D:\\`, which it named as allowed. Name the folder as an argument instead of changing into it.",
    );
  });

  it("names the tool's ways where the session showed no way past it", () => {
    const b = new SessionBuilder({ cwd: '/root' }).user('deploy').tool('Bash', { command: 'cd /var/www/app && ls' }, blocked('/var/www/app', '/root'), { isError: true });
    expect(cdBlockedDrafts(viewOf(b.build()))[0]!.text).toBe(
      "Claude Code's `Bash` ran none of `cd /var/www/app && ls` (`cd to '/var/www/app' was blocked`): it changes only into the session's starting folders and their subfolders. Add the folder to the session (`/add-dir`, or `--add-dir` at start), or name it as an argument instead of changing into it.",
    );
  });

  it('is nothing where no such refusal is shown', () => {
    const b = new SessionBuilder().user('build').bash('cd web && npm run build', 'built in 3s');
    expect(cdBlockedDrafts(viewOf(b.build()))).toEqual([]);
  });
});
