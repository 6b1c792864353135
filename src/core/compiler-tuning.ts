import { setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler inlines callees into a hot function up to 920 bytes of their bytecode
 * in all (`--max-inlined-bytecode-size-cumulative`). The harvest's rules are many mid-sized
 * functions calling shared helpers, and its compiles run on background threads that take the
 * cores the harvest workers need: over a 1 GB harvest on 2 cores they used about 6 of the
 * process's 25 s of CPU (per-thread times from /proc; 1.4 s with concurrent compilation off).
 * Half that budget compiles smaller code that runs as fast: 1 GB harvest A/B in alternating
 * fresh processes, the flag on the command line 1.07x (1.05x-1.07x, 4 rounds) and 1.10x
 * (1.01x-1.20x, 6 rounds), set by the CLI as here 1.04x (0.96x-1.08x, 6 rounds); the readers
 * alone showed no difference either way.
 */
export const HARVEST_INLINING_BUDGET = 460;

const FLAG = '--max-inlined-bytecode-size-cumulative';

/** V8 majors known to have the flag (Node 20 to 24: V8 11.3 to 13.6). V8 prints "unrecognized
 * flag" to stderr for a flag it lacks, so a later V8 is left as it is until checked. */
const KNOWN_V8_MAJORS = [11, 12, 13];

/** Whether the user set the flag on the command line or in NODE_OPTIONS (then it stays theirs). */
function userSetsInlining(): boolean {
  return process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);
}

/**
 * Applies the harvest's inlining budget to every isolate of the process: V8's flags are
 * process-wide and read at each compile, so the worker threads started afterwards and the code
 * compiled from now on use it. For long batch commands only, before their workers start.
 */
export function tuneCompilerForBatchWork(): void {
  if (userSetsInlining() || !KNOWN_V8_MAJORS.includes(Number(process.versions.v8.split('.')[0]))) return;
  setFlagsFromString(`${FLAG}=${HARVEST_INLINING_BUDGET}`);
}
