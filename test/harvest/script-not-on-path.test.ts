/**
 * pip's warning that it installed a script into a folder not on PATH is the machine's fact where
 * the session then ran the program another way, or found it missing by name.
 */
import { describe, expect, it } from 'vitest';
import { scriptNotOnPathDrafts } from '../../src/harvest/extract/rules/script-not-on-path.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const warning = (script: string, folder: string) =>
  `Successfully installed ${script}-3.0\n  WARNING: The script ${script} is installed in '${folder}' which is not on PATH.\n  Consider adding this directory to PATH or, if you prefer to suppress this warning, use --no-warn-script-location.`;

describe("pip's scripts folder not on PATH", () => {
  it('is told of the machine where the session ran the program as a module', () => {
    const b = new SessionBuilder()
      .user('make a virtualenv')
      .bash('python3 -m pip install --user virtualenv -q', warning('virtualenv', '/voc/work/.local/bin'))
      .bash('python3 -m virtualenv .venv', 'created virtual environment CPython3.10.14');
    const [item] = scriptNotOnPathDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ category: 'tool-quirk', scope: 'global', title: "pip installs scripts into a folder not on this machine's PATH" });
    expect(item!.text).toBe(
      "pip installs scripts into `/voc/work/.local/bin`, which is not on this machine's PATH (`The script virtualenv is installed in '…' which is not on PATH`). Run `virtualenv` as `python3 -m virtualenv`, as this session then did (a package that runs as a module), or by its full path, or add that folder to PATH.",
    );
    // a module run in the very command of the install, before the warning was read: it cost nothing
    const same = new SessionBuilder().bash('python3 -m pip install --user virtualenv -q && python3 -m virtualenv .venv', `${warning('virtualenv', '/voc/work/.local/bin')}\ncreated virtual environment`);
    expect(scriptNotOnPathDrafts(viewOf(same.build()))).toEqual([]);
    // pip's reason for the folder, where it gave one
    const user = new SessionBuilder()
      .bash('python -m pip install -e fw', `Defaulting to user installation because normal site-packages is not writeable\n${warning('fw', '/home/dev/.local/bin')}`)
      .bash('python -m fw --help', 'usage: fw');
    const [own] = scriptNotOnPathDrafts(viewOf(user.build()));
    expect(own!.text).toMatch(/^pip installs for the user \(site-packages is not writeable here\), into `\/home\/dev\/\.local\/bin`/);
    expect(own!.text).toContain('Run `fw` as `python -m fw`, as this session then did');
  });

  it('says so where the bare name was then not found, and nothing where the warning did not matter', () => {
    const missing = new SessionBuilder().bash('pip install --user black', warning('black', '/home/dev/.local/bin')).bash('black .', 'bash: black: command not found', 127);
    expect(scriptNotOnPathDrafts(viewOf(missing.build()))[0]!.text).toContain('Here `black` was then not found by name: run it by its full path');
    // (a Windows script runs as its module, without `.exe`)
    const windows = new SessionBuilder().bash('python -m pip install -e fw', warning('SuperClaude.exe', 'C:\\Users\\dev\\AppData\\Roaming\\Python\\Python313\\Scripts')).bash('python -m SuperClaude install', 'Installing…');
    expect(scriptNotOnPathDrafts(viewOf(windows.build()))[0]!.text).toContain('Run `SuperClaude` as `python -m SuperClaude`, as this session then did');
    // the warning alone: nothing shows it mattered
    expect(scriptNotOnPathDrafts(viewOf(new SessionBuilder().bash('pip install --user black', warning('black', '/home/dev/.local/bin')).bash('pytest', '3 passed').build()))).toEqual([]);
  });
});
