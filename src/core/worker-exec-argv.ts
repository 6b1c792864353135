/**
 * Node flags for a worker thread: the parent's, without the ones that describe the parent's own
 * entry point. A Worker inherits `process.execArgv` unless told otherwise, and under
 * `node --input-type=module -e CODE` (how the benches and one-off scripts run the readers) the
 * inherited `--input-type` makes every worker fail at start-up with ERR_INPUT_TYPE_NOT_ALLOWED:
 * a pool that falls back to its own thread then quietly reads everything on one thread.
 * Flags that matter to a worker (`--max-old-space-size`, `--cpu-prof`, ...) are kept.
 */

/** Flags followed by a value in the next argument when not written as `--flag=value`. */
const ENTRY_FLAGS_WITH_VALUE = new Set(['--input-type', '-e', '--eval', '-p', '--print']);

export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const name = arg.startsWith('--') ? arg.split('=', 1)[0]! : arg;
    if (!ENTRY_FLAGS_WITH_VALUE.has(name) && arg !== '-pe') {
      out.push(arg);
      continue;
    }
    if (name === arg) i++; // its value is the next argument
  }
  return out;
}
