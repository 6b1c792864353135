/**
 * Failure heuristics for formats that render tool output as text without an error flag
 * (SpecStory, terminal copies, Aider notes, generic tool messages). Deliberately conservative:
 * a false "error" makes the harvester learn from a success, which is worse than missing one.
 */

/** Lines that only appear when a command failed. Matched line by line (multiline mode). */
const FAILURE_LINE = new RegExp(
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
    String.raw`No such file or directory`,
    String.raw`npm ERR!`,
    String.raw`^\s*Exit (?:code|status):? *[1-9]`,
    String.raw`exited with (?:code|status) [1-9]`,
  ].join('|'),
  'm',
);

const EXIT_CODE = /(?:^\s*Exit (?:Code|code|status|Status):? *|exited with (?:code|status) )(\d+)/m;

/** Every alternative of FAILURE_LINE contains one of these literals (case as written): "rror"
 * for error/Error, "RROR" for ERROR, "fail" for failed/failing, "Exit " and "exited with " for
 * the exit codes, the rest as they stand. */
const FAILURE_LITERALS = [
  'rror',
  'RROR',
  'fatal',
  'panic',
  'Exception',
  'Traceback',
  'FAIL',
  'fail',
  'command not found',
  'No such file or directory',
  'npm ERR!',
  'Exit ',
  'exited with ',
];

/** True when command output text shows a failure. */
export function looksFailed(output: string): boolean {
  // the literal checks rule out most outputs faster than the multiline regex can
  for (const lit of FAILURE_LITERALS) if (output.includes(lit)) return FAILURE_LINE.test(output);
  return false;
}

/** The exit code a text states ("Exit Code: 1", "exited with code 2"), if any. */
export function statedExitCode(output: string): number | undefined {
  // the regex needs one of these literals; checking for them first is much cheaper on long output
  if (!output.includes('Exit ') && !output.includes('exited with ')) return undefined;
  const m = EXIT_CODE.exec(output);
  return m ? Number(m[1]) : undefined;
}
