/**
 * The agent's shell keeps its working directory between calls: a `cd web` that fails because an
 * earlier call already went into `web/` is one agent tool quirk, with the command that then worked.
 */
import { describe, expect, it } from 'vitest';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { shellCwdDrafts } from '../../src/harvest/extract/rules/shell-cwd.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const NO_WEB = 'bash: cd: web: No such file or directory';

describe('a cd into the folder the shell is already in', () => {
  it('is told once, with the earlier cd and the command that worked without it', () => {
    const b = new SessionBuilder()
      .user('fix the build')
      .bash('cd "/home/dev/demo/web" && npm run build', "Type error: 'x' is possibly 'undefined'.", 1)
      .tool('Edit', { file_path: '/home/dev/demo/web/src/a.ts', old_string: 'x.y', new_string: 'x?.y' }, 'ok')
      .bash('cd web && npm run build', NO_WEB, 1)
      .bash('npm run build', 'Compiled successfully', 0)
      .bash('cd web && npm test', NO_WEB, 1);
    const view = viewOf(b.build());
    const drafts = shellCwdDrafts(view);
    expect(drafts.map((d) => d.text)).toEqual([
      'The `Bash` shell keeps its working directory from one call to the next: after `cd "/home/dev/demo/web"`, a later `cd web && npm run build` failed (`bash: cd: web: No such file or directory`) because the shell was still in `web`. Use absolute paths, or check `pwd` first. `npm run build` without the `cd` worked.',
    ]);
    expect(drafts[0]).toMatchObject({ category: 'tool-quirk', scope: 'agent', confidence: 0.9 });
    expect(errorFixDrafts(view).some((d) => d.text.includes('cd web'))).toBe(false);
  });

  it('shows a long cd by the end of its path, as the command it was', () => {
    const b = new SessionBuilder()
      .bash('cd "C:\\Users\\dev\\Downloads\\EasyNovelAssistant-main\\EasyNovelAssistant-main\\Style-Bert-VITS2"', '', 0)
      .bash('cd "Style-Bert-VITS2" ; .\\venv\\Scripts\\Activate.ps1', 'bash: cd: Style-Bert-VITS2: No such file or directory', 1);
    expect(shellCwdDrafts(viewOf(b.build()))[0]!.text).toContain('after `cd "…\\EasyNovelAssistant-main\\Style-Bert-VITS2"`, a later');
    // PowerShell's own record names the shell the lesson holds for
    const ps = new SessionBuilder()
      .tool('run_terminal_cmd', { command: 'cd "C:\\dev\\app\\Style-Bert-VITS2"' }, '', { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'cd "Style-Bert-VITS2" ; .\\venv\\Scripts\\Activate.ps1' }, "cd : Cannot find path 'C:\\dev\\app\\Style-Bert-VITS2\\Style-Bert-VITS2' because it does not exist.\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.SetLocationCommand", { exitCode: 1 });
    expect(shellCwdDrafts(viewOf(ps.build()))[0]!.text).toMatch(/^The `run_terminal_cmd` shell \(PowerShell here\) keeps its working directory/);
  });

  it('is no quirk when no earlier call went into a folder of that name', () => {
    const elsewhere = new SessionBuilder().bash('cd /home/dev/demo/api && npm test', 'ok', 0).bash('cd web && npm run build', NO_WEB, 1);
    const first = new SessionBuilder().bash('cd web && npm run build', NO_WEB, 1);
    const movedOn = new SessionBuilder().bash('cd /home/dev/demo/web', '', 0).bash('cd /home/dev/demo', '', 0).bash('cd web/pkg', 'bash: cd: web/pkg: No such file or directory', 1);
    for (const b of [elsewhere, first, movedOn]) expect(shellCwdDrafts(viewOf(b.build()))).toEqual([]);
  });
});

describe('a cd in a call of its own, where each call starts in the same folder', () => {
  it("is told once, with the next call's own word for where it ran", () => {
    const b = new SessionBuilder()
      .user('commit it')
      .bash('cd /home/dev/tutor', '', 0)
      .bash('git add .', 'fatal: not a git repository (or any of the parent directories): .git', 128)
      .bash('cd /home/dev/tutor', '', 0)
      .bash('git init', 'Initialized empty Git repository in /home/dev/.git/', 0);
    const drafts = shellCwdDrafts(viewOf(b.build()));
    expect(drafts.map((d) => d.title)).toEqual(['Bash starts every call in the same folder: a lone cd is lost']);
    expect(drafts[0]!.text).toContain('after `cd /home/dev/tutor`, `git init` ran in `/home/dev` again (`Initialized empty Git repository in /home/dev/.git/`), a stray repository to remove. Chain the command in the same call (`cd /home/dev/tutor && git init`).');
  });

  it('is nothing where the next call ran in the folder the cd went to, or a cd came between', () => {
    const kept = new SessionBuilder().bash('cd web', '', 0).bash('pwd', '/home/dev/demo/web', 0);
    expect(shellCwdDrafts(viewOf(kept.build()))).toEqual([]);
    const other = new SessionBuilder().bash('cd web', '', 0).bash('cd /srv && ls', 'a', 0).bash('pwd', '/srv', 0);
    expect(shellCwdDrafts(viewOf(other.build()))).toEqual([]);
  });
});
