/**
 * Windows cmd.exe as the agent's shell: a POSIX tool it has none of, and its `find` (Windows FIND)
 * given POSIX find's arguments, each one global tool quirk with cmd's counterpart.
 */
import { describe, expect, it } from 'vitest';
import { cmdShellDrafts } from '../../src/harvest/extract/rules/cmd-shell.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const NOT_RECOGNIZED = (name: string) => `'${name}' is not recognized as an internal or external command,\noperable program or batch file.`;
const LISTING = ' Volume in drive C has no label.\n\n Directory of C:\\work\\app\\src\n\n04/29/2026  10:32 PM    <DIR>          .\n04/29/2026  10:32 PM            24,576 database.js';

describe('cmd.exe as the shell', () => {
  it('says which POSIX tool it lacks, its counterpart and what worked, as the shell, not as a program to install', () => {
    const b = new SessionBuilder()
      .tool('run_command', { command: 'ls src -la' }, NOT_RECOGNIZED('ls'), { exitCode: 1 })
      .tool('run_command', { command: 'dir src' }, LISTING, { exitCode: 0 })
      .tool('run_command', { command: 'ls tests' }, NOT_RECOGNIZED('ls'), { exitCode: 1 });
    const view = viewOf(b.build());
    const drafts = cmdShellDrafts(view);
    expect(drafts.map((d) => d.text)).toEqual([
      "The shell here is Windows cmd.exe, not a POSIX shell: `ls src -la` failed (`'ls' is not recognized as an internal or external command`): cmd has no `ls`, its counterpart is `dir`. `dir src` worked instead.",
    ]);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'global', title: 'cmd.exe is the shell here: no POSIX ls', confidence: 0.9 });
    expect(toolQuirkDrafts(view).some((d) => d.title.includes('not installed'))).toBe(false);
  });

  it("says its find is Windows FIND when given POSIX find's arguments, in one item with what else it lacked", () => {
    const b = new SessionBuilder()
      .tool('run_command', { command: 'find src -name "*.test.js"' }, 'Access denied - SRC\nFile not found - -NAME\n', {})
      .tool('run_command', { command: 'cat package.json' }, NOT_RECOGNIZED('cat'), { exitCode: 1 });
    expect(cmdShellDrafts(viewOf(b.build())).map((d) => d.text)).toEqual([
      "The shell here is Windows cmd.exe, not a POSIX shell: `find src -name \"*.test.js\"` failed (`Access denied - SRC`): cmd's `find` is Windows FIND, a search for text in files; list files with `dir /s /b <pattern>`; `cat package.json` failed (`'cat' is not recognized as an internal or external command`): cmd has no `cat`, its counterpart is `type`.",
    ]);
  });

  it('is no cmd quirk for a program cmd has no counterpart of, nor for a POSIX shell’s own message', () => {
    const gh = new SessionBuilder().tool('run_command', { command: 'gh release list' }, NOT_RECOGNIZED('gh'), { exitCode: 1 });
    const bash = new SessionBuilder().bash('ls src', 'bash: ls: command not found', 127);
    const findText = new SessionBuilder().tool('run_command', { command: 'find "TODO" notes.txt' }, 'File not found - NOTES.TXT', {});
    for (const b of [gh, bash, findText]) expect(cmdShellDrafts(viewOf(b.build()))).toEqual([]);
    // (a missing program is the tool-quirk rule's, and an item only with what worked instead)
    const ghThenWeb = gh.tool('run_command', { command: 'start https://github.com/acme/app/releases' }, '', { exitCode: 0 });
    expect(toolQuirkDrafts(viewOf(gh.build())).map((d) => d.title)).toEqual([]);
    expect(cmdShellDrafts(viewOf(ghThenWeb.build()))).toEqual([]);
  });
});
