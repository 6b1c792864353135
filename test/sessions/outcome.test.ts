import { describe, expect, it } from 'vitest';
import { FAILURE_LINE, looksFailed, statedExitCode, statesFailedCount } from '../../src/sessions/readers/outcome.js';

/** Pieces that sit near the edges of the " fail" rule. */
const EDGES = [' fail', 'failed', 'failing', 'failings', ' ', '0', '1', '9', '10', '07', 'x', '_', '-', '\n', 'é', 'ok', 'ed', 'ing', '3 failed', '0 failed', 'a1 failed'];

/** Deterministic pseudo-random texts made of `pieces`. */
function* texts(count: number, pieces = EDGES): Generator<string> {
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 8;
  };
  for (let n = 0; n < count; n++) {
    let text = '';
    const parts = next() % 8;
    for (let k = 0; k < parts; k++) text += pieces[next() % pieces.length];
    yield text;
  }
}

describe('failure heuristics', () => {
  it('looksFailed answers as the whole regex does, whichever literals a text holds', () => {
    const pieces = [...EDGES, 'error: x', 'Error', 'ERROR', 'rror', 'fatal: no', 'panic', 'TypeError: y', 'Exception', 'Traceback (most recent call last)', 'FAIL', 'FAILED', 'command not found', 'No such file or directory', ": can't open file '", 'npm ERR!', ' ERR_PNPM_X', 'Exit code: 2', 'Exit 0', 'exited with code 3', '2 errors', '  ', 'failed with exit code 1', 'Failed to compile.', '> Build failed', 'Build failed'];
    let failed = 0;
    for (const text of texts(20000, pieces)) {
      expect(looksFailed(text), JSON.stringify(text)).toBe(FAILURE_LINE.test(text));
      if (looksFailed(text)) failed++;
    }
    expect(failed).toBeGreaterThan(1000);
  });

  it("does not count a missing program the command never ran (a harness's shell wrapper), and reads npm 10's errors", () => {
    const stray = 'zsh:1: command not found: dump_zsh_state\n';
    expect(looksFailed(`/home/dev/app\n${stray}`, 'pwd')).toBe(false);
    expect(looksFailed(`src\n${stray}`, 'cd ~/app && ls src')).toBe(false);
    expect(looksFailed('zsh:1: command not found: tree\n', 'tree src -L 2')).toBe(true);
    expect(looksFailed(`ls: package.json: No such file or directory\n${stray}`, 'ls package.json')).toBe(true);
    expect(looksFailed(stray)).toBe(true); // without the command line nothing can be told apart
    expect(looksFailed('npm error code ENOENT\nnpm error path /package.json', 'npm run')).toBe(true);
    // Python given a script that is not there, its message broken by a terminal copy's width
    expect(looksFailed("C:\\Program Files\\Python39\\python.exe: can't open file 'C:\\app\\src\\run.py': [Errno 2] N\no such file or directory\nPS C:\\app\\src>", 'cd src; python run.py')).toBe(true);
    // pnpm's error codes
    expect(looksFailed('undefined\n ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "lint" not found\n', 'pnpm lint 2>&1 | head')).toBe(true);
  });

  it("reads what a command that only prints files prints as the files' text: only its own complaint about a file fails it", () => {
    const code = "      log('error', 'http.request.failed', { error: error.message });\n      throw new Error('Failed to load config');\n";
    for (const command of ["sed -n '260,520p' apps/companion/src/index.js", 'cat src/index.js', "nl -ba src/index.js | sed -n '1,80p'", 'head -40 src/index.js', 'Get-Content src/index.js']) {
      expect(looksFailed(code, command), command).toBe(false);
    }
    expect(looksFailed("sed: can't read src/missing.js: No such file or directory\n", "sed -n '1,80p' src/missing.js")).toBe(true);
    expect(looksFailed('cat: src/missing.js: No such file or directory\n', 'cat src/missing.js')).toBe(true);
    // a line of the file that reads like an error is the file's; a command that does more than print is read as before
    const crash = "Error: Cannot find module 'express'\n";
    expect(looksFailed(crash, 'cat src/notes.txt')).toBe(false);
    expect(looksFailed(crash, 'node src/index.js')).toBe(true);
    expect(looksFailed(crash, 'cat src/index.js && node src/index.js')).toBe(true);
  });

  it('statesFailedCount is the regex it replaces, on edge-case texts', () => {
    const regex = /\b[1-9]\d* (?:failed|failing)\b/;
    let matched = 0;
    for (const text of texts(20000)) {
      expect(statesFailedCount(text), JSON.stringify(text)).toBe(regex.test(text));
      if (regex.test(text)) matched++;
    }
    expect(matched).toBeGreaterThan(200); // the texts reach both answers
  });

  it('statedExitCode is its regex alone, whichever literals a text holds', () => {
    const regex = /(?:^\s*Exit (?:Code|code|status|Status):? *|exited with (?:code|status) )(\d+)/m;
    const pieces = ['Exit ', 'Exit code: 2', 'Exit Status 0', 'exited with code 3', 'exited with status 1', 'xit', 'exit', 'E', 'x', '\n', ' ', '7', 'code'];
    let stated = 0;
    for (const text of texts(20000, pieces)) {
      const m = regex.exec(text);
      expect(statedExitCode(text), JSON.stringify(text)).toBe(m ? Number(m[1]) : undefined);
      if (m) stated++;
    }
    expect(stated).toBeGreaterThan(1000);
  });

  it('reads test-runner summaries and error lines', () => {
    expect(looksFailed('53 tests, 0 failures')).toBe(false);
    expect(looksFailed('12 passed, 0 failed')).toBe(false);
    expect(looksFailed('12 passed, 2 failed')).toBe(true);
    expect(looksFailed('  2 failing')).toBe(true);
    expect(looksFailed('x2 failed')).toBe(false);
    expect(looksFailed('TypeError: x is undefined')).toBe(true);
    expect(looksFailed('all good')).toBe(false);
    // a script runner's and a bundler's own failure lines, with no "error:" line of their own
    expect(looksFailed('> Build error occurred\n[Error: Failed to collect page data]\n ELIFECYCLE  Command failed with exit code 1.')).toBe(true);
    expect(looksFailed('Creating an optimized production build ...\nFailed to compile.\n\n./src/a.tsx:78:54')).toBe(true);
    expect(looksFailed('> Build failed because of webpack errors')).toBe(true);
    expect(looksFailed('Command failed with exit code 0')).toBe(false);
    expect(looksFailed('No build failed today')).toBe(false);
    expect(statedExitCode('Process exited with code 2')).toBe(2);
    expect(statedExitCode('Exit code: 0')).toBe(0);
    expect(statedExitCode('fine')).toBeUndefined();
  });

  it("reads a diff's hunks as the files' text: a removed \"Traceback …\" line of code is no failure", () => {
    const diff = ['diff --git a/src/run.py b/src/run.py', 'index bf5f8b4..5b6aca3 100644', '--- a/src/run.py', '+++ b/src/run.py', '@@ -1260,4 +1262,2 @@ def run(', '     error = None', '-    # Check for failure', '-    has_error = "Traceback (most recent call last):" in stderr', '+    has_error = False'].join('\n');
    expect(looksFailed(diff, 'git diff')).toBe(false);
    // the program's own error after the diff still counts
    expect(looksFailed(`${diff}\ndiff --git a/b.py b/b.py\nerror: could not read b.py`, 'git diff')).toBe(true);
    expect(looksFailed('fatal: bad revision HEAD~9', 'git diff HEAD~9')).toBe(true);
  });
});
