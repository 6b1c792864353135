/**
 * A POSIX shell's form that Windows PowerShell rejects (`&&`, `NAME=value cmd`, `rm -rf`, `grep`)
 * is one tool quirk of the machine, read from PowerShell's error record in whatever language it
 * printed its message, with what worked in the session.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSession } from '../../src/harvest/extract/index.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { powershellDrafts } from '../../src/harvest/extract/rules/powershell.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { readSessions } from '../../src/sessions/read.js';
import { looksFailed } from '../../src/sessions/readers/outcome.js';
import { SessionBuilder } from './extract-session.js';

const EXPORT = join(import.meta.dirname, '..', '..', 'test_sessions', 'specstory', 'ledger-win', '.specstory', 'history', '2025-08-14_09-30-start-the-dev-server.md');

/** PowerShell 5.1's error record for a command it could not find, as it prints it in English. */
function notFound(name: string, line: string): string {
  return [
    `PS C:\\work\\shop> ${line}`,
    `${name} : The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the`,
    'spelling of the name, or if a path was included, verify that the path is correct and try again.',
    'At line:1 char:1',
    `+ ${line}`,
    '+ ~~~~',
    `    + CategoryInfo          : ObjectNotFound: (${name}:String) [], CommandNotFoundException`,
    '    + FullyQualifiedErrorId : CommandNotFoundException',
  ].join('\n');
}

describe('PowerShell quirks', () => {
  it('come from a SpecStory export whose PowerShell printed its errors in Chinese, as one item with what then worked', async () => {
    const [session] = (await readSessions([EXPORT])).sessions;
    const items = extractSession(session!);
    const texts = items.map((i) => i.text);
    // two of PowerShell's differences in one session are one lesson: one item tells both, with what worked
    expect(items.map((i) => i.title)).toEqual(['Windows PowerShell here, not a POSIX shell: &&, rm -rf']);
    expect(texts).toEqual([
      'The shell here is Windows PowerShell, not a POSIX shell: `cd web && npm install` failed (no `&&` between commands: use `;` or `if ($?) { … }`); `rm -rf dist` failed (`rm` is `Remove-Item`, which has no `-rf`). Running `cd web` and then `npm install` separately worked. `Remove-Item -Recurse -Force dist` worked instead.',
    ]);
    expect(items.every((i) => i.category === 'tool-quirk' && i.scope === 'global' && i.confidence === 0.9)).toBe(true);
    // the same failures are no error → fix pitfalls, and git's progress on stderr is no failure
    expect(errorFixDrafts(viewOf(session!))).toEqual([]);
  });

  it('&& is told with the rewrite that held every part of the chain, and no later command that held one', () => {
    const chain = 'cd "C:\\work\\app" && dir out';
    const refused = "At line:1 char:20\n+ cd \"C:\\work\\app\" && dir out\n+                    ~~\nThe token '&&' is not a valid statement separator in this version.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : InvalidEndOfLine";
    const listing = '    Directory: C:\\work\\app\\out\n\nMode   LastWriteTime   Length Name\n-a----  6/4/2025  8:44  12 a.txt';
    const worked = (then: string) => powershellDrafts(viewOf(new SessionBuilder().tool('run_terminal_cmd', { command: chain }, refused, { exitCode: 1 }).tool('run_terminal_cmd', { command: then }, listing, { exitCode: 0 }).build()))[0]!.text;
    expect(worked('cd "C:\\work\\app"; dir out')).toContain('`cd "C:\\work\\app"; dir out` worked.');
    expect(worked('Start-Sleep 10; dir out -Recurse')).not.toContain('worked');
    // PowerShell 7 has `&&`: the title names the one that lacks it
    expect(powershellDrafts(viewOf(new SessionBuilder().tool('run_terminal_cmd', { command: chain }, refused, { exitCode: 1 }).build()))[0]!.title).toBe('Windows PowerShell (before 7) does not chain commands with &&');
    // cmd.exe's `cd /d` in the chain is said to be cmd's too, and PowerShell's Set-Location holds it
    const cmdCd = 'cd /d e:\\code\\rag && python -m py_compile app.py';
    const refusedCd = refused.replace('cd "C:\\work\\app" && dir out', cmdCd);
    const text = powershellDrafts(viewOf(new SessionBuilder().tool('run_terminal_cmd', { command: cmdCd }, refusedCd, { exitCode: 1 }).tool('run_terminal_cmd', { command: 'Set-Location e:\\code\\rag; python -m py_compile app.py' }, 'ok', { exitCode: 0 }).build()))[0]!.text;
    expect(text).toContain("Its `cd /d` is cmd.exe's too (PowerShell: `Set-Location <dir>`).");
    expect(text).toContain('`Set-Location e:\\code\\rag; python -m py_compile app.py` worked.');
  });

  it('a native program writing to stderr (NativeCommandError) is no failure; a refused command is', () => {
    const pushed = 'git : To github.com:example/ledger.git\n    + CategoryInfo          : NotSpecified: (To github.com:example/ledger.git:String) [], RemoteException\n    + FullyQualifiedErrorId : NativeCommandError\n   4c1d2e7..9a8b7c6  main -> main';
    expect(looksFailed(pushed, 'git push')).toBe(false);
    expect(looksFailed(notFound('grep', 'grep -r TODO src'), 'grep -r TODO src')).toBe(true);
  });

  it("curl is Invoke-WebRequest, told once, with what worked; a terminal replaying that record under a later command fails nothing", () => {
    const record = [
      'PS C:\\work\\site> curl -I https://example.org/index.json',
      "curl : Cannot find drive. A drive with the name 'https' does not exist.",
      'At line:1 char:1',
      '+ curl -I https://example.org/index.json',
      '+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
      '    + CategoryInfo          : ObjectNotFound: (https:String) [Invoke-WebRequest], DriveNotFoundException',
      '    + FullyQualifiedErrorId : DriveNotFound,Microsoft.PowerShell.Commands.InvokeWebRequestCommand',
    ].join('\n');
    const head = 'Invoke-WebRequest -Uri https://example.org/index.json -Method Head';
    const replayed = `${record}\nPS C:\\work\\site> ${head}\n\nStatusCode        : 200`;
    expect(looksFailed(record, 'curl -I https://example.org/index.json')).toBe(true);
    expect(looksFailed(replayed, head)).toBe(false);
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'curl -I https://example.org/index.json' }, record, { isError: true })
      .tool('run_terminal_cmd', { command: head }, replayed, { exitCode: 0 });
    expect(powershellDrafts(viewOf(b.build())).map((d) => d.text)).toEqual([
      "The shell here is Windows PowerShell, where `curl` is `Invoke-WebRequest`, which does not take curl's options: `curl -I https://example.org/index.json` failed (`DriveNotFound`, the URL read as a path). Use `curl.exe` with the same arguments, or `Invoke-WebRequest -Uri <url>`. `Invoke-WebRequest -Uri <url> -Method Head` worked instead.",
    ]);
  });

  it("says when curl first stopped at PowerShell's `Uri:` prompt, which hangs an agent's call", () => {
    const prompted = [
      'PS C:\\work\\site> curl -I https://example.org/index.json',
      '',
      'cmdlet Invoke-WebRequest at command pipeline position 1',
      'Supply values for the following parameters:',
      'Uri: ^C',
      "curl : Cannot find drive. A drive with the name 'https' does not exist.",
      '    + CategoryInfo          : ObjectNotFound: (https:String) [Invoke-WebRequest], DriveNotFoundException',
      '    + FullyQualifiedErrorId : DriveNotFound,Microsoft.PowerShell.Commands.InvokeWebRequestCommand',
    ].join('\n');
    const text = powershellDrafts(viewOf(new SessionBuilder().tool('run_terminal_cmd', { command: 'curl -I https://example.org/index.json' }, prompted, { isError: true }).build()))[0]!.text;
    expect(text).toContain("It first stopped at a `Uri:` prompt, which hangs an agent's call.");
  });

  it("a cmdlet's -ErrorAction given to a native program is told, with the program's complaint and the plain command that then worked", () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'cd app ; git add *.py *.md -ErrorAction SilentlyContinue' }, "error: unknown switch `E'\nusage: git add [<options>] [--] <pathspec>...", { exitCode: 129 })
      .tool('run_terminal_cmd', { command: 'git add *.py *.md' }, '', { exitCode: 0 });
    const view = viewOf(b.build());
    // the program's own command, where the parameter is, not the `cd` before it
    expect(powershellDrafts(view).map((d) => d.text)).toEqual([
      "The shell here is Windows PowerShell, where `-ErrorAction` is a common parameter of cmdlets only: a native program such as `git` takes it for an option of its own, and `git add *.py *.md -ErrorAction SilentlyContinue` failed (``error: unknown switch `E'``). Leave it off native programs; `2>$null` silences their errors. `git add *.py *.md` worked.",
    ]);
    expect(errorFixDrafts(view)).toEqual([]);
    // where the next plain run failed on something else (a lock), a later success says nothing of the parameter
    const locked = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'git add *.py *.md -ErrorAction SilentlyContinue' }, "error: unknown switch `E'", { exitCode: 129 })
      .tool('run_terminal_cmd', { command: 'git add *.py' }, "fatal: Unable to create 'C:/app/.git/index.lock': File exists.", { exitCode: 128 })
      .tool('run_terminal_cmd', { command: 'git add *.py' }, '', { exitCode: 0 });
    expect(powershellDrafts(viewOf(locked.build()))[0]!.text).not.toContain('worked');
    // on a cmdlet it is what it is for
    const cmdlet = new SessionBuilder().tool('run_terminal_cmd', { command: 'Remove-Item x.lock -ErrorAction SilentlyContinue; git add x' }, "error: unknown switch `q'", { exitCode: 129 });
    expect(powershellDrafts(viewOf(cmdlet.build()))).toEqual([]);
  });

  it('a path PowerShell could not find, in whatever language it said so, is a slip of the task, no pitfall', () => {
    const notThere = [
      "cd : パス 'C:\\work\\app\\Style-Bert-VITS2' が存在しないため検出できません。",
      '    + CategoryInfo          : ObjectNotFound: (C:\\work\\app\\Style-Bert-VITS2:String) [Set-Location], ItemNotFoundException',
      '    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.SetLocationCommand',
    ].join('\n');
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'cd Style-Bert-VITS2 ; .\\venv\\Scripts\\Activate.ps1' }, notThere, { isError: true })
      .assistant('We are already in that folder, because the earlier cd went through.')
      .tool('run_terminal_cmd', { command: '.\\venv\\Scripts\\Activate.ps1' }, '(venv) PS C:\\work\\app\\Style-Bert-VITS2>', { exitCode: 0 });
    expect(errorFixDrafts(viewOf(b.build()))).toEqual([]);
  });

  it('a NAME=value prefix is told as the $env: assignment that sets it', () => {
    const b = new SessionBuilder().tool('run_terminal_cmd', { command: 'NODE_ENV=test npm test' }, notFound('NODE_ENV=test', 'NODE_ENV=test npm test'), { exitCode: 1 });
    const [d] = powershellDrafts(viewOf(b.build()));
    expect(d?.text).toBe(
      "The shell here is Windows PowerShell, which reads `NODE_ENV=test` in `NODE_ENV=test npm test` as the name of a command (`CommandNotFoundException`), not as a variable for it. Set the variable first: `$env:NODE_ENV = 'test'; npm test`.",
    );
    expect(d?.confidence).toBe(0.7);
  });

  it('grep is told with its PowerShell counterpart and what replaced it, once, and not also as a missing program', () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'grep -rn TODO src/app.ts' }, notFound('grep', 'grep -rn TODO src/app.ts'), { exitCode: 1 })
      .tool('run_terminal_cmd', { command: 'Select-String -Pattern TODO -Path src/app.ts' }, 'src\\app.ts:12:// TODO: retry', { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'grep -n FIXME src/app.ts' }, notFound('grep', 'grep -n FIXME src/app.ts'), { exitCode: 1 });
    const view = viewOf(b.build());
    const drafts = powershellDrafts(view);
    expect(drafts.map((d) => d.text)).toEqual([
      'The shell here is Windows PowerShell, which has no `grep`: `grep -rn TODO src/app.ts` failed (`CommandNotFoundException`). Its PowerShell counterpart is `Select-String`. `Select-String -Pattern TODO -Path src/app.ts` worked instead.',
    ]);
    expect(toolQuirkDrafts(view)).toEqual([]);
    expect(errorFixDrafts(view)).toEqual([]);
  });

  it('pwsh that Windows PowerShell cannot find is PowerShell 7 missing, one more of the session\'s differences', () => {
    const line = "pwsh -NoLogo -NoProfile -Command Set-Location -LiteralPath 'C:\\shop'; rg -n TODO -S";
    const b = new SessionBuilder()
      .tool('shell', { command: line }, notFound('pwsh', line), { exitCode: 1 })
      .tool('shell', { command: "sed -n '1,50p' AGENTS.md" }, notFound('sed', "sed -n '1,50p' AGENTS.md"), { exitCode: 1 });
    const drafts = powershellDrafts(viewOf(b.build()));
    expect(drafts.map((d) => [d.title, d.text])).toEqual([
      [
        'Windows PowerShell here, not a POSIX shell: pwsh, sed',
        "The shell here is Windows PowerShell, not a POSIX shell: `pwsh` is not installed (PowerShell 7): run commands in this shell or through `powershell -NoProfile -Command`; `sed -n '1,50p' AGENTS.md` failed (no `sed`: use `Get-Content -Encoding UTF8 <file> -TotalCount 50`).",
      ],
    ]);
    // (after a `cd` into the project too)
    const cdFirst = `cd C:\\shop && ${line}`;
    expect(powershellDrafts(viewOf(new SessionBuilder().tool('shell', { command: cdFirst }, notFound('pwsh', cdFirst), { exitCode: 1 }).build()))[0]?.title).toBe('PowerShell 7 (pwsh) is not installed here');
    // alone, it is said as it is
    expect(powershellDrafts(viewOf(new SessionBuilder().tool('shell', { command: line }, notFound('pwsh', line), { exitCode: 1 }).build()))[0]!.title).toBe('PowerShell 7 (pwsh) is not installed here');
  });

  it("gives sed's counterpart for what this sed did: printing a range of lines is Get-Content's, not -replace", () => {
    const counterpart = (command: string) => powershellDrafts(viewOf(new SessionBuilder().tool('shell', { command }, notFound('sed', command), { exitCode: 1 }).build()))[0]!.text;
    expect(counterpart("sed -n '1,200p' AGENTS.md")).toContain('Its PowerShell counterpart is `Get-Content -Encoding UTF8 <file> -TotalCount 200`.');
    expect(counterpart("sed -n '40,60p' src/app.ts")).toContain('Its PowerShell counterpart is `Get-Content -Encoding UTF8 <file> | Select-Object -Skip 39 -First 21`.');
    expect(counterpart("sed -i 's/foo/bar/' src/app.ts")).toContain('Its PowerShell counterpart is `(Get-Content -Encoding UTF8 <file>) -replace`.');
  });

  it("gives ls's PowerShell form with -Force only for ls's -a (hidden files), not for -lh", () => {
    const record = (line: string, flag: string) =>
      [`ls : A parameter cannot be found that matches parameter name '${flag}'.`, 'At line:1 char:4', `+ ${line}`, `    + CategoryInfo          : InvalidArgument: (:) [Get-ChildItem], ParameterBindingException`, '    + FullyQualifiedErrorId : NamedParameterNotFound,Microsoft.PowerShell.Commands.GetChildItemCommand'].join('\n');
    const advice = (line: string, flag: string) => powershellDrafts(viewOf(new SessionBuilder().tool('run_terminal_cmd', { command: line }, record(line, flag), { exitCode: 1 }).build()))[0]?.text;
    expect(advice('ls -la src', 'la')).toContain('Use `Get-ChildItem -Force src`.');
    expect(advice('ls -lh docs/style.css', 'lh')).toContain('Use `Get-ChildItem docs/style.css`.');
  });

  it('says only of a command that did the rejected tool\'s job, with output, that it worked instead', () => {
    const after = (command: string, output: string) =>
      powershellDrafts(
        viewOf(
          new SessionBuilder()
            .tool('run_terminal_cmd', { command: 'grep -n faq-item docs/style.css' }, notFound('grep', 'grep -n faq-item docs/style.css'), { exitCode: 1 })
            .tool('run_terminal_cmd', { command }, output, { exitCode: 0 })
            .build(),
        ),
      )[0]!.text;
    expect(after('Select-String -Pattern faq-item -Path docs/style.css', 'docs\\style.css:40:.faq-item {')).toContain('worked instead');
    // another task on the same file, or the counterpart that found nothing
    expect(after('git log --oneline -5 -- docs/style.css', 'a1b2c3d Style the FAQ')).not.toContain('worked instead');
    expect(after('Select-String -Pattern faq-item -Path docs/style.css', '')).not.toContain('worked instead');
  });

  it('a program missing under PowerShell is a missing program, told by PowerShell’s words, not its prompt line', () => {
    const b = new SessionBuilder().tool('run_terminal_cmd', { command: 'go build ./...' }, notFound('go', 'go build ./...'), { exitCode: 1 });
    const view = viewOf(b.build());
    expect(powershellDrafts(view)).toEqual([]);
    // told by PowerShell's words, and only with what worked instead
    expect(toolQuirkDrafts(view)).toEqual([]);
    const then = viewOf(b.tool('run_terminal_cmd', { command: 'wsl go build ./...' }, '', { exitCode: 0 }).build());
    expect(toolQuirkDrafts(then).map((d) => d.text)).toEqual([
      "`go` is not on the PATH (`The term 'go' is not recognized as the name of a cmdlet`, exit 1) when running `go build ./...`. `wsl go build ./...` worked instead.",
    ]);
  });

  it('a record about a name the command line never ran, or && the line never held, gives nothing', () => {
    const b = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'npm test' }, notFound('dump_state', 'dump_state'), { exitCode: 1 })
      .tool('run_terminal_cmd', { command: 'npm run lint' }, 'At line:1 char:5\n    + FullyQualifiedErrorId : InvalidEndOfLine', { exitCode: 1 });
    expect(powershellDrafts(viewOf(b.build()))).toEqual([]);
  });
});
