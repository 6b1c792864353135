import { describe, expect, it } from 'vitest';
import { allCandidates, extractSession } from '../../src/harvest/extract/index.js';
import { CONFIDENCE } from '../../src/harvest/candidate.js';
import { SessionBuilder } from './extract-session.js';

/** A session where `mix test` fails before the dependencies are fetched, the agent explains it,
 * and the tests pass once they are. */
function depsSession(): SessionBuilder {
  return new SessionBuilder()
    .user('run the tests and commit')
    .bash('mix test', '** (Mix) Could not find an SCM for dependency :phoenix from Spotter.MixProject', 1)
    .assistant('The tests fail because the dependencies of this checkout were never fetched.')
    .bash('mix deps.get', 'Resolving Hex dependencies...')
    .bash('mix test', '42 tests, 0 failures')
    .assistant('All tests pass.');
}

describe('extractSession: error → cause → fix', () => {
  it('yields one pitfall naming the symptom, the cause and the fix, verified at 0.9', () => {
    const pitfalls = extractSession(depsSession().build()).filter((c) => c.category === 'pitfall');
    expect(pitfalls).toHaveLength(1);
    const p = pitfalls[0]!;
    expect(p.text).toContain('Could not find an SCM for dependency'); // symptom
    expect(p.text).toContain('Cause: The tests fail because'); // cause
    expect(p.text).toContain('Fix: `mix deps.get`, then `mix test` succeeded.'); // fix
    expect(p.confidence).toBe(CONFIDENCE.verified);
    expect(p.rule).toBe('error-fix');
    expect(p.signature).toBeDefined();
    expect(p.signature).not.toMatch(/\d/);
    expect(p.evidence.line).toBeGreaterThan(0);
    expect(p.repo).toBe('demo');
  });

  it("leaves out a failure whose own message names the command that then fixed it (git's 'use git push --set-upstream …')", () => {
    const session = new SessionBuilder()
      .user('commit and push the change')
      .bash('git push', 'fatal: The current branch feature-x has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature-x', 128)
      .assistant('The push failed because the new branch has no upstream branch configured on origin yet.')
      .bash('git push --set-upstream origin feature-x', "branch 'feature-x' set up to track 'origin/feature-x'.")
      .build();
    expect(extractSession(session).filter((c) => c.rule === 'error-fix')).toEqual([]);
    // git's hint naming `git push --help` is no fix the message gave: a rebase came between
    const rejected = new SessionBuilder()
      .user('push the change')
      .bash('git push', " ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\nhint: Updates were rejected because the remote contains work that you do not have locally.\nhint: See the 'Note about fast-forwards' in 'git push --help' for details.", 1)
      .assistant('The push was rejected because the remote has commits this clone does not have yet.')
      .bash('git pull --rebase origin main', 'Successfully rebased and updated refs/heads/main.')
      .bash('git push', 'main -> main')
      .build();
    expect(extractSession(rejected).filter((c) => c.rule === 'error-fix')).toHaveLength(1);
  });

  it('is stated (0.7) when only the explanation is seen', () => {
    const session = new SessionBuilder()
      .user('build it')
      .bash('make release', 'error: missing tool `zig`: the release target cross-compiles with zig', 2)
      .assistant('The release target fails because it cross-compiles with `zig`, which is not installed in this environment.')
      .build();
    const p = extractSession(session).find((c) => c.category === 'pitfall');
    expect(p?.confidence).toBe(CONFIDENCE.stated);
  });

  it('does not learn from a rejected call', () => {
    const session = new SessionBuilder()
      .user('the server does not start')
      .tool('Bash', { command: 'mix phx.server' }, "The user doesn't want to proceed with this tool use.", { isError: true, rejected: true })
      .build();
    expect(extractSession(session).filter((c) => c.category === 'pitfall')).toEqual([]);
  });

  it('skips a failure the user asked for on purpose', () => {
    const session = new SessionBuilder()
      .user('can you run `cat nonexistent.txt`')
      .bash('cat nonexistent.txt', 'cat: nonexistent.txt: No such file or directory', 1)
      .assistant('As expected, the command failed because the file does not exist.')
      .build();
    expect(extractSession(session)).toEqual([]);
  });
});

describe('extractSession: tool quirks', () => {
  it('turns "command not found" into a tool-quirk of the machine with what worked instead', () => {
    const session = new SessionBuilder()
      .user('run the generator')
      .bash('python gen.py', '/bin/bash: line 1: python: command not found', 127)
      .bash('python3 gen.py', 'generated 3 files')
      .build();
    const quirks = extractSession(session).filter((c) => c.category === 'tool-quirk');
    expect(quirks).toHaveLength(1);
    // what the machine has installed holds for every repository worked in on it
    expect(quirks[0]!.scope).toBe('global');
    expect(quirks[0]!.text).toContain('python: command not found');
    expect(quirks[0]!.text).toContain('python3 gen.py');
    // one item per program missing and its stand-in, whichever shell worded the complaint
    const zsh = new SessionBuilder().user('run it').bash('python run.py', 'bash: python: command not found', 127).bash('python3 run.py', 'generated 2 files').build();
    expect(extractSession(zsh).find((c) => c.category === 'tool-quirk')!.signature).toBe(quirks[0]!.signature);
  });

  it("names the other programs the same shell did not find, and a Windows machine's bash as the place", () => {
    const session = (cwd: string) =>
      new SessionBuilder({ cwd })
        .user('find the specify command')
        .bash('rg --files -g "specify*"', '/bin/bash: line 1: rg: command not found', 127)
        .bash('find . -maxdepth 3 -name "specify*"', './.codex/prompts/specify.md')
        .bash('pixi run specify --help', '/bin/bash: line 1: pixi: command not found', 127)
        .bash('python -m specify_cli --help', '/bin/bash: line 1: python: command not found', 127)
        .build();
    const [rg] = extractSession(session('c:\\Users\\dev\\neuro')).filter((c) => c.title === "rg, pixi, python are not on the PATH in the agent's bash");
    expect(rg!.text).toBe(
      "`rg` is not on the PATH in the bash the agent's commands run through on this Windows machine (`/bin/bash: line 1: rg: command not found`, exit 127) when running `rg --files -g \"specify*\"`. `find . -maxdepth 3 -name \"specify*\"` worked instead. `pixi` and `python` were not found there either.",
    );
    const [posix] = extractSession(session('/home/dev/neuro')).filter((c) => c.title === 'rg, pixi, python are not on the PATH');
    expect(posix!.text).toMatch(/^`rg` is not on the PATH \(/);
    // a session that told the model another shell (Codex's `<shell>powershell.exe</shell>`) says so
    const declared = new SessionBuilder({ cwd: 'c:\\Users\\dev\\neuro', declaredShell: 'powershell.exe' })
      .user('find the specify command')
      .bash('rg --files -g "specify*"', '/bin/bash: line 1: rg: command not found', 127)
      .bash('find . -maxdepth 3 -name "specify*"', './.codex/prompts/specify.md')
      .build();
    expect(extractSession(declared).find((c) => c.title.includes('not on the PATH'))!.text).toContain("in the bash the agent's commands run through on this Windows machine, though the session declares `powershell.exe` (");
  });

  it('takes only another search for what replaced a missing search program', () => {
    const session = (next: string, output: string) =>
      new SessionBuilder({ cwd: '/config' })
        .user('find the broadcast script')
        .bash('rg -n "broadcast|tts" /config', 'zsh:1: command not found: rg', 127)
        .bash(next, output)
        .build();
    const missing = (next: string, output: string) => extractSession(session(next, output)).filter((c) => c.title === 'rg is not on the PATH');
    // a listing of the folder the search was to look in does not search it
    expect(missing('ls -la /config', 'scripts.yaml\nautomations.yaml')).toEqual([]);
    expect(missing('grep -rniE "broadcast|tts" /config', '/config/scripts.yaml:12:  alias: Broadcast')[0]!.text).toContain('`grep -rniE "broadcast|tts" .` worked instead.');
    // the shell's complaint about the program is quoted, not a louder error the search printed
    const fallback = new SessionBuilder()
      .user('where is the API key read?')
      .bash('rg -n "OPENAI_API_KEY" || git grep -n "OPENAI_API_KEY"', 'Total output lines: 3\n\n/bin/bash: line 1: rg: command not found\n-- logs/dev.txt\nOpenAIError: The OPENAI_API_KEY environment variable is missing or empty', 1)
      .bash('git grep -n "OPENAI_API_KEY" -- src', 'src/llm.ts:9:  apiKey: process.env.OPENAI_API_KEY')
      .build();
    expect(extractSession(fallback).find((c) => c.title === 'rg is not on the PATH')!.text).toContain('(`/bin/bash: line 1: rg: command not found`, exit 1)');
    // a narrower search, on a file found by then, stands in for it too
    expect(missing('grep -nHiE "alias:|tts" /config/scripts.yaml', '12:  alias: Broadcast')[0]!.text).toContain('`grep -nHiE "alias:|tts" scripts.yaml` worked instead.');
  });

  it('scopes a size limit of the agent\'s own Read tool to the agent', () => {
    const session = new SessionBuilder()
      .user('look at the bundle')
      .tool('Read', { file_path: '/home/dev/demo/dist/app.js' }, '<tool_use_error>File content (806.5KB) exceeds maximum allowed size (256KB). Please use offset and limit parameters.</tool_use_error>', { isError: true })
      .tool('Read', { file_path: '/home/dev/demo/dist/app.js', limit: 50 }, '1→(() => {')
      .build();
    const q = extractSession(session).find((c) => c.category === 'tool-quirk');
    expect(q?.scope).toBe('agent');
    expect(q?.agent).toBe('claude-code');
    expect(q?.text).toContain('256KB');
    expect(q?.text).toContain('`limit`');
  });
});

describe('extractSession: user corrections', () => {
  it('keeps the corrected statement as a fact', () => {
    const session = new SessionBuilder()
      .user('design the storage for sync state')
      .assistant('I will store the sync state in a new JSONL file.')
      .user("no, it's not a jsonl file. it's a json file with a syncState field in it")
      .assistant('You are right. The session file `~/.app/sessions/{id}.json` already holds `syncState`.')
      .build();
    const facts = extractSession(session).filter((c) => c.rule === 'user-correction');
    expect(facts).toHaveLength(1);
    expect(facts[0]!.category).toBe('fact');
    expect(facts[0]!.text).toContain("It's not a jsonl file");
    expect(facts[0]!.confidence).toBe(CONFIDENCE.stated);
  });
});

describe('extractSession: patterns', () => {
  it('finds a recurring command sequence', () => {
    const b = new SessionBuilder().user('work through the ready tasks');
    for (const id of ['t-1', 't-2', 't-3']) {
      b.bash('tk ready', `${id} is ready`)
        .bash(`tk claim ${id}`, `claimed ${id}`)
        .tool('Edit', { file_path: `/home/dev/demo/src/${id}.ts`, old_string: 'a', new_string: 'b' }, 'updated')
        .bash(`tk done ${id}`, `closed ${id}`);
    }
    const patterns = extractSession(b.build()).filter((c) => c.category === 'pattern');
    expect(patterns.some((p) => p.text.includes('tk ready') && p.text.includes('tk claim') && p.text.includes('tk done'))).toBe(true);
  });

  it('finds the checks run before a commit that went through', () => {
    const session = new SessionBuilder()
      .user('finish and commit')
      .bash('npm run format', 'formatted 3 files')
      .bash('npm run lint', 'no problems')
      .bash('npm run typecheck', 'ok')
      .bash('git commit -m "feat: x"', '[main 123abcd] feat: x')
      .build();
    const p = extractSession(session).find((c) => c.category === 'pattern');
    expect(p?.text).toContain('`npm run format`');
    expect(p?.text).toContain('`npm run lint`');
    expect(p?.text).toContain('`npm run typecheck`');
    expect(p?.text).not.toContain('hook');
  });

  it("says why the checks come first when a hook on the commit rejected an attempt", () => {
    const session = new SessionBuilder()
      .user('finish and commit')
      .bash('git commit -m "feat: x"', 'Pre-commit validation failed:\n[FORMAT] Code is not formatted\n[DIALYZER] 2 errors', 1)
      .bash('mix format', '')
      .bash('mix dialyzer', 'done (passed successfully)')
      .bash('git commit -m "feat: x"', '[main 123abcd] feat: x')
      .build();
    const p = extractSession(session).find((c) => c.title === 'Checks before git commit');
    expect(p?.text).toContain('A hook on `git commit` runs FORMAT, DIALYZER and rejected the commit while they failed.');
    // progress tags of lint-staged are no checks, and a failure of the build before the commit is no hook
    const staged = new SessionBuilder()
      .user('finish and commit')
      .bash('git commit -m "feat: x"', 'husky - pre-commit hook\n[STARTED] Running tasks for staged files...\n[FAILED] eslint --fix [FAILED]\n[SKIPPED] Skipped because of errors', 1)
      .bash('mvn -q verify && git commit -m "feat: x"', '[INFO] Scanning for projects...\n[ERROR] Failed to execute goal', 1)
      .bash('npm run lint', 'no problems')
      .bash('npm test', '3 passed')
      .bash('git commit -m "feat: x"', '[main 123abcd] feat: x')
      .build();
    const q = extractSession(staged).find((c) => c.title === 'Checks before git commit');
    expect(q?.text).not.toMatch(/STARTED|SKIPPED|INFO|ERROR/);
  });

  it('counts no check whose output shows it failed behind a pipe (the pipe exits with the last command)', () => {
    const session = (lint: string) =>
      extractSession(
        new SessionBuilder()
          .user('fix the lint and commit')
          .bash('pnpm lint 2>&1 | head -100', lint)
          .bash('pnpm eslint src/a.vue --format=stylish', '')
          .bash('pnpm test', '3 passed')
          .bash('git commit -m "fix: lint"', '[main 123abcd] fix: lint')
          .build(),
      ).find((c) => c.title === 'Checks before git commit')?.text ?? '';
    expect(session('no problems')).toContain('`pnpm lint`');
    expect(session('undefined\n ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "lint" not found\n')).not.toContain('`pnpm lint`');
  });
});

describe('extractSession: open questions', () => {
  it('keeps an unanswered request whose diagnosis the user stopped as a question', () => {
    const session = new SessionBuilder()
      .user('mix phx.server does not start')
      .assistant('Let me try running the server to see the error.')
      .tool('Bash', { command: 'mix phx.server' }, "The user doesn't want to proceed with this tool use.", { isError: true, rejected: true })
      .tool('Glob', { pattern: 'mix.exs' }, "The user doesn't want to proceed with this tool use.", { isError: true, rejected: true })
      .user('[Request interrupted by user for tool use]', { injected: true })
      .build();
    const out = extractSession(session);
    expect(out).toHaveLength(1);
    expect(out[0]!.category).toBe('question');
    expect(out[0]!.text).toContain('mix phx.server');
    expect(out[0]!.confidence).toBeLessThanOrEqual(0.5);
  });

  it('keeps no question of a task the user stopped: only a problem left undiagnosed is open', () => {
    const session = new SessionBuilder()
      .user('make it so bun is in my path')
      .tool('Bash', { command: 'find ~ -name bun -type f' }, "The user doesn't want to proceed with this tool use.", { isError: true, rejected: true })
      .user('[Request interrupted by user for tool use]', { injected: true })
      .build();
    expect(extractSession(session).filter((c) => c.category === 'question')).toEqual([]);
  });
});

describe('extractSession: what is never harvested', () => {
  it('ignores injected, bootstrap and summary text', () => {
    const session = new SessionBuilder()
      .user('Caveat: never use `rm -rf`; always run `npm run lint` before commit. no, it is not X.', { injected: true })
      .bootstrap('<!-- compound:bootstrap --> `pnpm` is not installed; use `npm` instead. Always run `make check`.')
      .summary('This session is being continued. fatal: The current branch has no upstream branch. Fix: git push -u origin x.')
      .user('hi')
      .assistant('Hello! How can I help?')
      .build();
    expect(allCandidates(session)).toEqual([]);
  });

  it('yields nothing for a toy create/edit/delete session', () => {
    const session = new SessionBuilder({ cwd: '/tmp/private', repo: 'private' })
      .user('create hello.py, md and js')
      .tool('Write', { file_path: '/tmp/private/hello.py', content: 'print("Hello, World!")\n' }, 'File created successfully at: /tmp/private/hello.py')
      .tool('Write', { file_path: '/tmp/private/hello.md', content: '# Hello\n' }, 'File created successfully at: /tmp/private/hello.md')
      .tool('Write', { file_path: '/tmp/private/hello.js', content: 'console.log("Hello, World!")\n' }, 'File created successfully at: /tmp/private/hello.js')
      .assistant('Done! I created hello.py, hello.md and hello.js.')
      .user('update py with one liner comment')
      .tool('Read', { file_path: '/tmp/private/hello.py' }, '     1→print("Hello, World!")')
      .tool('Edit', { file_path: '/tmp/private/hello.py', old_string: 'print', new_string: '# greet\nprint' }, 'The file /tmp/private/hello.py has been updated.')
      .assistant('Done! Added `# greet` to hello.py.')
      .user('delete js')
      .bash('rm hello.js', '')
      .assistant("Done! I've deleted hello.js.")
      .build();
    expect(extractSession(session)).toEqual([]);
  });
});

describe('extractSession: determinism and hygiene', () => {
  it('gives identical output for the same session', () => {
    const a = JSON.stringify(extractSession(depsSession().build()));
    const b = JSON.stringify(extractSession(depsSession().build()));
    expect(a).toBe(b);
  });

  it('keeps items short, titled, and free of the home directory', () => {
    const session = new SessionBuilder({ cwd: '/home/alice/proj' })
      .user('run it')
      .bash('/home/alice/proj/bin/tool --all', '/bin/sh: 1: tool-helper: not found', 127)
      .bash('python3 /home/alice/proj/bin/tool --all', 'ok')
      .build();
    for (const c of allCandidates(session)) {
      expect(c.text.length).toBeLessThanOrEqual(400);
      expect(c.title.length).toBeGreaterThan(0);
      expect(`${c.title} ${c.text} ${c.quotes.join(' ')}`).not.toContain('alice');
    }
  });
});
