/**
 * `compound sessions` and `compound measure`, which read every transcript they are given, run in
 * a Node process with a bigger young generation.
 *
 * Reading makes many short-lived objects (each parsed line) next to the events of the file being
 * read, which live until the file is done. With V8's default 16 MiB semi-space a scavenge comes
 * every few files and copies those events each time: garbage collection was 11% of a CPU profile
 * of reading the 1 GB bench corpus. With 64 MiB, reading it in a fresh process was faster in 8
 * of 12 alternating pairs of runs (median ratios 1.13 and 1.06 in two batches of six; the machine
 * was busy during the second), and the raw-parse baseline took the same time either way. V8 sizes
 * the heap when the process starts (the flag set at run time changes nothing), so the command
 * starts Node again with the flag: one more start-up, about 0.13 s here, and 100 to 150 MB more
 * peak memory over that corpus. Not for `compound harvest` (its worker threads would inherit the
 * flag: no faster in two pairs of runs, peak memory 730 to 830 MB instead of about 510 MB) nor
 * `compound sample` (no faster), and never for `compound bootstrap`, which starts every agent
 * session.
 */
import { spawn } from 'node:child_process';

export const SEMI_SPACE_MB = 64;
const FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** Commands that read transcripts (see the module comment). */
export const READING_COMMANDS: ReadonlySet<string> = new Set(['sessions', 'measure']);

/** Set in the child, so it never starts another; set it to 1 to keep the first process. */
export const NO_RELAUNCH_ENV = 'COMPOUND_NO_RELAUNCH';

/** Whether `command` should run in a new process with FLAG: not when the young generation is
 * sized already (by the user's flags or NODE_OPTIONS) or relaunching is turned off. */
export function shouldRelaunch(
  command: string | undefined,
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (command === undefined || !READING_COMMANDS.has(command)) return false;
  if (env[NO_RELAUNCH_ENV]) return false;
  const sized = (s: string): boolean => s.includes('--max-semi-space-size') || s.includes('--semi-space-size');
  return !execArgv.some(sized) && !sized(env.NODE_OPTIONS ?? '');
}

/** The child's Node arguments: the same flags and script and arguments, plus FLAG. */
export function relaunchArgs(execArgv: readonly string[], argv: readonly string[]): string[] {
  return [...execArgv, FLAG, ...argv.slice(1)];
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs this command again in a child Node with FLAG (same stdin, stdout and stderr) and ends
 * this process with the child's exit code, or its signal: the promise then never settles. It
 * resolves (to false) only when Node cannot be started, and the caller runs the command itself.
 */
export function relaunch(): Promise<false> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, relaunchArgs(process.execArgv, process.argv), {
      stdio: 'inherit',
      env: { ...process.env, [NO_RELAUNCH_ENV]: '1' },
    });
    // A terminal's Ctrl-C reaches both processes; a `kill` of this one is passed on.
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    for (const s of FORWARDED) process.on(s, forward);
    child.on('error', () => {
      for (const s of FORWARDED) process.off(s, forward);
      resolve(false);
    });
    child.on('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      if (signal) process.kill(process.pid, signal);
      else process.exit(code ?? 1);
    });
  });
}
