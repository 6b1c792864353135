/**
 * Tool quirks that claim only what the session shows: the agent's own tool run through its shell
 * is no missing program, a retry of a failed search that found nothing fixed nothing, and a
 * virtualenv without pip is that venv's state, with uv as its maker only when the session shows it.
 */
import { describe, expect, it } from 'vitest';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

describe("the agent's own tool run as a shell command", () => {
  it('is an agent pitfall about calling the tool, not a program to install, when the agent did it more than once', () => {
    const once = () =>
      new SessionBuilder()
        .tool('search_replace', { command: 'search', file_path: '/home/dev/a.txt', pattern: 'Color' }, 'Color 0\nColor 1', {})
        .tool('execute_bash', { command: 'search_replace --command search --file_path a.txt' }, '/bin/bash: line 1: search_replace: command not found', { exitCode: 127 })
        .tool('execute_bash', { command: 'cat a.txt | wc -l' }, '16', { exitCode: 0 });
    // a single slip, the tool called as a tool around it: a one-off
    expect(toolQuirkDrafts(viewOf(once().build()))).toEqual([]);
    const b = once().tool('execute_bash', { command: 'search_replace --command replace --file_path a.txt' }, '/bin/bash: line 1: search_replace: command not found', { exitCode: 127 });
    const drafts = toolQuirkDrafts(viewOf(b.build()));
    expect(drafts.map((d) => d.text)).toEqual([
      "`search_replace` is one of the agent's own tools, not a program: run through `execute_bash` it fails (`/bin/bash: line 1: search_replace: command not found`). Call `search_replace` as a tool.",
    ]);
    expect(drafts[0]).toMatchObject({ category: 'pitfall', scope: 'agent' });
  });
});

describe('a retry of a failed search', () => {
  it('that found nothing is no success of it', () => {
    const failed = (then: string) =>
      new SessionBuilder()
        .tool('search_replace', { command: 'search', file_path: '/home/dev/a.txt', pattern: '\\[3[0-9' }, 'ERROR: fatal: rg error: regex parse error: unclosed character class', { isError: true })
        .tool('search_replace', { command: 'search', file_path: '/home/dev/a.txt', pattern: '30mColor' }, then, {});
    const texts = (then: string) => toolQuirkDrafts(viewOf(failed(then).build())).map((d) => d.text).join('\n');
    expect(texts("No matches found for '30mColor' in /home/dev/a.txt")).not.toContain('succeeded');
    expect(texts('3: \x1b[30mColor 0')).toContain('A retry with a plainer `pattern` succeeded.');
  });
});

describe('a virtualenv without pip', () => {
  it('is named by its folder, with uv as its maker when the session shows that, and the ways on', () => {
    const b = new SessionBuilder()
      .bash('cat /data/lab/ar1_venv/pyvenv.cfg', 'home = /home/lab/.local/share/uv/python/cpython-3.12/bin\nuv = 0.10.4\nversion_info = 3.12.12', 0)
      .bash('/data/lab/ar1_venv/bin/python -m pip list', '/data/lab/ar1_venv/bin/python: No module named pip', 1);
    const [item] = toolQuirkDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ title: 'ar1_venv has no pip', category: 'fact' });
    expect(item!.text).toBe(
      'The virtualenv `ar1_venv` has no pip (`No module named pip`): uv made it, and uv makes virtualenvs without pip. Manage its packages through uv (`uv pip install --python ar1_venv/bin/python <package>`), or add pip with `ar1_venv/bin/python -m ensurepip`.',
    );
    expect(item!.text).not.toContain('/data/lab');
    // a venv the session does not show uv made: only the way that holds for any
    const plain = new SessionBuilder().bash('venv/bin/python -m pip install requests', 'venv/bin/python: No module named pip', 1);
    expect(toolQuirkDrafts(viewOf(plain.build()))[0]!.text).toBe('The virtualenv `venv` has no pip (`No module named pip`). Add pip with `venv/bin/python -m ensurepip`.');
  });
});

describe('a virtualenv without pip that is no longer so', () => {
  const noPip = () => new SessionBuilder().bash('./music-agent/venv/bin/python3 -m pip list', '/home/dev/music-agent/venv/bin/python3: No module named pip', 1);

  it('gives no item when the session then removed the venv or made it anew', () => {
    expect(toolQuirkDrafts(viewOf(noPip().bash('rm -rf music-agent/venv', '', 0).build()))).toEqual([]);
    expect(toolQuirkDrafts(viewOf(noPip().bash('python3 -m venv --clear ./music-agent/venv', '', 0).build()))).toEqual([]);
    // another folder's removal leaves it as it was
    expect(toolQuirkDrafts(viewOf(noPip().bash('rm -rf music-agent/venv-old', '', 0).build()))).toHaveLength(1);
  });

  it("gives no item where this machine's Python has no ensurepip: the way on it would give is none", () => {
    const b = noPip().bash('python3 -m venv /tmp/probe', 'The virtual environment was not created successfully because ensurepip is not\navailable.  On Debian/Ubuntu systems, you need to install the python3-venv\npackage.', 1);
    expect(toolQuirkDrafts(viewOf(b.build())).filter((d) => d.title.includes('no pip'))).toEqual([]);
    // what the machine lacks is told: its python3 has no ensurepip (a venv's missing pip is that venv's)
    expect(toolQuirkDrafts(viewOf(b.build())).map((d) => d.title)).toEqual(['The system python3 here has no ensurepip']);
  });

  it("is the machine's Python lacking ensurepip where venv failed for it, whichever words it used, with what made a virtualenv without the package", () => {
    const venvFailed = "Error: Command '['/voc/work/ex/starter/.venv/bin/python3', '-m', 'ensurepip', '--upgrade', '--default-pip']' returned non-zero exit status 1.";
    const b = new SessionBuilder()
      .bash('python3 --version', 'Python 3.10.14')
      .bash('python3 -m venv .venv && .venv/bin/pip install pytest', venvFailed, 1)
      .bash('python3 -m virtualenv --version', '/usr/bin/python3: No module named virtualenv', 1)
      .bash('python3 -m pip install --user virtualenv -q && python3 -m virtualenv .venv', 'created virtual environment CPython3.10.14.final.0-64 in 312ms');
    const items = toolQuirkDrafts(viewOf(b.build())).filter((d) => d.title.includes('ensurepip'));
    expect(items.map((d) => d.scope)).toEqual(['global']);
    expect(items[0]!.text).toBe(
      "This machine's `python3` has no `ensurepip` (`Command '[…python3', '-m', 'ensurepip', …]' returned non-zero exit status 1`): Debian and Ubuntu ship it apart from Python. Install `python3.10-venv` with the system's package manager; until then `python3 -m venv` fails. Here `python3 -m pip install --user virtualenv -q && python3 -m virtualenv .venv` made one instead, without the package.",
    );
    // and a venv's python that lacks it lacks it from its base Python: the machine's too
    const inVenv = new SessionBuilder().bash('.venv/bin/python3 -m ensurepip --upgrade', '.venv/bin/python3: No module named ensurepip', 1);
    expect(toolQuirkDrafts(viewOf(inVenv.build()))[0]).toMatchObject({ title: 'The system python3 here has no ensurepip', scope: 'global' });
  });
});

describe('a probe for a program that is not there', () => {
  it('is the answer the agent asked for, an item only with what worked instead', () => {
    const probe = (cmd: string) => new SessionBuilder().bash(cmd, '/usr/bin/bash: line 1: pipx: command not found', 127);
    expect(toolQuirkDrafts(viewOf(probe('pipx --version').build()))).toEqual([]);
    expect(toolQuirkDrafts(viewOf(probe('which pipx').build()))).toEqual([]);
    // so is a use of it that failed, with no way around it the session found
    expect(toolQuirkDrafts(viewOf(probe('pipx install ruff').build()))).toEqual([]);
    expect(toolQuirkDrafts(viewOf(probe('pipx install ruff').bash('python3 -m pipx install ruff', 'installed package ruff 0.6.9', 0).build()))[0]!.title).toBe('pipx is not on the PATH');
    // and a probe followed by what worked in its place is worth the item
    const python = new SessionBuilder().bash('python --version', 'bash: python: command not found', 127).bash('python3 --version', 'Python 3.11.2', 0);
    expect(toolQuirkDrafts(viewOf(python.build()))[0]!.text).toContain('`python3 --version` worked instead.');
  });
});

describe('a refusal about one id of the session', () => {
  it('is no item: the id is gone with the session', () => {
    const b = new SessionBuilder().tool('TaskOutput', { task_id: 'ba2w6cftq', block: true }, '<tool_use_error>No task found with ID: ba2w6cftq</tool_use_error>', { isError: true });
    expect(toolQuirkDrafts(viewOf(b.build()))).toEqual([]);
    // a refusal that says what the tool will not do stays
    const size = new SessionBuilder().tool('Read', { file_path: '/home/dev/app/data.json' }, 'File content (312KB) exceeds maximum allowed size (256KB). Please use offset and limit parameters.', { isError: true });
    expect(toolQuirkDrafts(viewOf(size.build())).length).toBeGreaterThan(0);
  });
});

describe("a tool's error passed on through wrappers", () => {
  it('is titled by the error itself, not its wrappers', () => {
    const b = new SessionBuilder().tool('search_replace', { command: 'search', file_path: '/home/dev/a.txt', pattern: '\\[3[0-9' }, 'ERROR: fatal: rg error: rg: regex parse error: unclosed character class', { isError: true }).assistant('The regex parse error is because the `[` of the character class in `\\[3[0-9` is never closed: ripgrep needs it escaped.');
    // (a pattern that failed as a regular expression is titled by that lesson)
    expect(toolQuirkDrafts(viewOf(b.build())).map((d) => d.title)).toEqual(['search_replace reads its pattern as a regular expression']);
    const other = new SessionBuilder().tool('search_replace', { command: 'replace', file_path: '/home/dev/a.txt', pattern: 'x' }, 'ERROR: fatal: rg error: rg: file is locked by another process', { isError: true }).assistant('The file is locked because the editor still holds it open: close it first.');
    expect(toolQuirkDrafts(viewOf(other.build())).map((d) => d.title)).toEqual(['search_replace: file is locked by another process']);
  });
});
