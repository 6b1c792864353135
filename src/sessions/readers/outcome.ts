/**
 * Failure heuristics for formats that render tool output as text without an error flag
 * (SpecStory, terminal copies, Aider notes, generic tool messages). Deliberately conservative:
 * a false "error" makes the harvester learn from a success, which is worse than missing one.
 */
import { escapeRegExp } from '../../core/regexp.js';

/** Lines that only appear when a command failed. Matched line by line (multiline mode). */
export const FAILURE_LINE = new RegExp(
  [
    // "error: ...", "fatal: ...", rustc "error[E0425]:", "build error:", "npm error:"
    String.raw`^\s*(?:[\w@/.-]+ )?(?:error|Error|ERROR|fatal|panic)(?:\[[^\]]*\])?:`,
    String.raw`^\s*Error\b`, // "Error starting session: ..."
    String.raw`^\s*(?:FATAL )?ERROR\b`, // "ERROR: ...", node "FATAL ERROR: Reached heap limit"
    String.raw`^\s*\w*(?:Error|Exception):\s`, // "TypeError: x", "AssertionError: ..."
    String.raw`Traceback \(most recent call last\)`,
    String.raw`^\s*(?:FAILED|FAIL)\b`, // pytest, jest/vitest
    String.raw`\b[1-9]\d* (?:failed|failing)\b`, // "1 failed, 12 passed", mocha "2 failing"
    String.raw`\b[1-9]\d* errors?\b`, // "3 errors", tsc "Found 1 error"
    String.raw`command not found`,
    // cmd.exe's and PowerShell 7's words for the same ('ls' is not recognized as an internal …)
    String.raw`is not recognized as (?:an internal or external command|(?:the|a) name of a cmdlet)`,
    String.raw`No such file or directory`,
    // Python given a script that is not there (`python.exe: can't open file '…\run.py': [Errno 2]
    // No such file…`, which a terminal copy may break anywhere)
    String.raw`: can't open file '`,
    String.raw`npm ERR!`,
    String.raw`^npm error\b`, // npm 10 and later: "npm error code ENOENT"
    String.raw`^\s*ERR_PNPM_[A-Z_]+\b`, // pnpm's error codes: "ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "lint" not found"
    String.raw`^\s*Exit (?:code|status):? *[1-9]`,
    String.raw`exited with (?:code|status) [1-9]`,
    // a package manager's script runner ("ELIFECYCLE  Command failed with exit code 1.")
    String.raw`failed with exit code [1-9]`,
    // bundlers and frameworks: "Failed to compile.", "> Build failed because of webpack errors"
    String.raw`^\s*(?:>\s*)?(?:Failed to compile|Build failed)\b`,
    // git's merge, pull, rebase or cherry-pick that stopped on a conflict
    String.raw`^CONFLICT \([\w/ -]+\): `,
    // Windows PowerShell's error record, whatever its language ("+ FullyQualifiedErrorId :
    // InvalidEndOfLine"); not a native program's stderr line it wraps as NativeCommandError,
    // which git and npm write on success too
    String.raw`^\s*\+\s*FullyQualifiedErrorId\s*:\s*(?!NativeCommandError\b)\w`,
  ].join('|'),
  'm',
);

const EXIT_CODE = /(?:^\s*Exit (?:Code|code|status|Status):? *|exited with (?:code|status) )(\d+)/m;

/** Every alternative of FAILURE_LINE contains one of these literals (case as written): "rror"
 * for error/Error, "RROR" for ERROR, "Exit ", "exited with " and "failed with exit code" for the
 * exit codes, the rest as they stand, and "fail" for the one alternative left out here (see
 * looksFailed). */
const FAILURE_LITERALS = [
  'rror',
  'RROR',
  'fatal',
  'panic',
  'Exception',
  'Traceback',
  'FAIL',
  'command not found',
  'is not recognized as',
  'No such file or directory',
  "can't open file",
  'npm ERR!',
  'ERR_PNPM_',
  'Exit ',
  'exited with ',
  'failed with exit code',
  'Failed to compile',
  'Build failed',
  'CONFLICT (',
];

/** One search for every literal of FAILURE_LITERALS and " fail": over the Aider part's 120,000
 * tool outputs (most hold none) it took 41 ms where searching for them one by one took 115. */
const FAILURE_HINT = new RegExp([...FAILURE_LITERALS, ' fail'].map(escapeRegExp).join('|'));

/** A program's debug or trace log (`ssh -vvv`: "debug1: load_hostkeys: fopen …/known_hosts2: No
 * such file or directory"): what it tried on its way, not how the command ended. */
export const DEBUG_LINE = /^[ \t]*(?:\[?(?:debug\d?|DEBUG\d?|trace|TRACE)\]?:?\s|(?:debug\d?|DEBUG|trace|TRACE):)/;
const DEBUG_LINES = new RegExp(`${DEBUG_LINE.source}.*$`, 'gm');

/** `zsh:1: command not found: dump_zsh_state`: a shell reporting a missing program by name. */
const SHELL_MISSING = /^(?:\(eval\)|[\w/.-]*sh):\d+: command not found: (\S+)[ \t]*$/gm;

/** A command line that only prints files (`cat a.ts`, `sed -n '1,80p' a.ts`, `nl -ba a.ts | sed -n
 * '1,40p'`, `head -50 a.ts`, `Get-Content a.ts`): what it prints is the files' own text, where
 * "error" is a word of the code, as in a diff's hunks. */
const PRINTS_FILES = /^\s*(?:cat|nl|head|tail|bat|Get-Content|sed\s+-n)\s[^;&|<>]*(?:\|\s*(?:sed\s+-n|head|tail|nl)\b[^;&|<>]*)*$/i;
/** The program's own complaint about a file it could not print. */
const PRINT_REFUSED = /^(?:cat|nl|head|tail|bat|sed|Get-Content)\b[^\n]*(?:No such file|can't read|cannot open|Permission denied|Is a directory|does not exist|Cannot find path)/im;

/**
 * True when command output text shows a failure. With the command line, a missing program it
 * never ran does not count: Cursor's shell wrapper prints `command not found: dump_zsh_state`
 * after every command, failed or not.
 */
export function looksFailed(output: string, command?: string): boolean {
  // a command that only prints files prints their text: only its own complaint about a file is a failure
  if (command !== undefined && PRINTS_FILES.test(command)) return PRINT_REFUSED.test(output);
  if (command !== undefined && output.includes('command not found: ')) {
    const words = new Set(command.split(/[\s;&|()]+/).map((w) => w.replace(/^.*\//, '')));
    output = output.replace(SHELL_MISSING, (line, name: string) => (words.has(name) ? line : ''));
  }
  if (command !== undefined && output.includes('FullyQualifiedErrorId')) output = withoutOthersRecords(output, command);
  if (output.includes('debug') || output.includes('DEBUG') || output.includes('trace')) output = output.replace(DEBUG_LINES, '');
  if (!FAILURE_HINT.test(output)) return false;
  if (output.includes('\n@@ ') || output.startsWith('@@ ')) output = withoutDiffHunks(output);
  // the literal checks rule out most outputs faster than the multiline regex can
  for (const lit of FAILURE_LITERALS) if (output.includes(lit)) return FAILURE_LINE.test(output);
  // Only " fail" was found, so only `\b[1-9]\d* (?:failed|failing)\b` can match. Test runners
  // print "0 failed" when all pass, so many outputs get this far, and the whole regex (thirteen
  // alternatives tried at every character) was a seventh of reading the 1 GB corpus's Aider part.
  return statesFailedCount(output);
}

/** A unified diff's hunk lines (`+`, `-` or ` ` after an `@@` header, until the next file's
 * header) are the files' text, not the program's words: a removed `"Traceback (most recent call
 * last):" in stderr` line is code under change (`git diff`, `git show`), not a failure. */
function withoutDiffHunks(output: string): string {
  let inHunk = false;
  return output
    .split('\n')
    .filter((line) => {
      if (line.startsWith('@@ ')) return (inHunk = true), false;
      if (line.startsWith('diff --git ') || line.startsWith('Binary files ')) inHunk = false;
      return !(inHunk && (line === '' || line[0] === '+' || line[0] === '-' || line[0] === ' ' || line[0] === '\\'));
    })
    .join('\n');
}

/**
 * The output without the id lines of PowerShell error records about another command line. A
 * record echoes the line it failed on (`+ curl -I https://…`, then `+ ~~~~`) above its id line,
 * and Cursor's PowerShell terminal replays earlier output with a later command's: a record whose
 * echoed line starts with a program this command line does not run is an earlier command's.
 */
function withoutOthersRecords(output: string, command: string): string {
  const words = new Set(command.toLowerCase().split(/[\s;&|()]+/));
  let echoed: string | undefined;
  return output
    .split('\n')
    .filter((line) => {
      const echo = /^\+ (?![~\s])(\S+)/.exec(line);
      if (echo) echoed = echo[1]!.toLowerCase();
      return !(echoed !== undefined && !words.has(echoed) && /^\s*\+\s*FullyQualifiedErrorId\b/.test(line));
    })
    .join('\n');
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x5f;
}

/** `/\b[1-9]\d* (?:failed|failing)\b/.test(text)`, by a search for " fail". */
export function statesFailedCount(text: string): boolean {
  for (let i = text.indexOf(' fail'); i !== -1; i = text.indexOf(' fail', i + 1)) {
    // the word after: "failed" or "failing", then a word boundary
    const after = text.startsWith('ed', i + 5) ? i + 7 : text.startsWith('ing', i + 5) ? i + 8 : -1;
    if (after === -1 || (after < text.length && isWordChar(text.charCodeAt(after)))) continue;
    // the number before: all digits back to a word boundary, the first one not 0 (inside a run of
    // digits there is no boundary, so the match can only start where the run does)
    let j = i;
    while (j > 0 && text.charCodeAt(j - 1) >= 0x30 && text.charCodeAt(j - 1) <= 0x39) j--;
    if (j === i || text.charCodeAt(j) === 0x30 || (j > 0 && isWordChar(text.charCodeAt(j - 1)))) continue;
    return true;
  }
  return false;
}

/** The exit code a text states ("Exit Code: 1", "exited with code 2"), if any. */
export function statedExitCode(output: string): number | undefined {
  // The regex needs one of these literals; checking for them first is much cheaper on long
  // output, and for "xit", which both hold, cheaper still: over the 1 GB corpus's Gemini and
  // OpenAI-chat tool outputs (58 MB) 17 ms, where the two searches took 60 (ad hoc).
  if (!output.includes('xit') || (!output.includes('Exit ') && !output.includes('exited with '))) return undefined;
  const m = EXIT_CODE.exec(output);
  return m ? Number(m[1]) : undefined;
}

/** The envelope Codex's exec_command puts around a command's output: `Chunk ID: …`, `Wall time:
 * …`, `Process exited with code N` (or `Process running with session ID N`), `Original token
 * count: N`, then `Output:` and the output itself. */
const EXEC_ENVELOPE = /^Chunk ID: [^\n]*\n(?:[A-Z][\w ]*: [^\n]*\n|Process (?:exited with code -?\d+|running with session ID \d+)\n)*?Output:(?:\n|$)/;
/** Codex's line for a command's exit, in its exec envelope. */
export const EXEC_EXIT = /^Process exited with code (-?\d+)\s*$/m;

/** A command's output without Codex's exec envelope, and the exit code the envelope states;
 * undefined for text without the envelope. */
export function execEnvelope(text: string): { output: string; exitCode?: number } | undefined {
  const m = EXEC_ENVELOPE.exec(text);
  if (!m) return undefined;
  const exit = EXEC_EXIT.exec(m[0]);
  return { output: text.slice(m[0].length), ...(exit ? { exitCode: Number(exit[1]) } : {}) };
}
