import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Node flags for a worker thread: the parent's, without the ones that describe the parent's own
 * entry point. A Worker inherits `process.execArgv` unless told otherwise, and under
 * `node --input-type=module -e CODE` (how the benches and one-off scripts run the readers) the
 * inherited `--input-type` makes every worker fail at start-up with ERR_INPUT_TYPE_NOT_ALLOWED:
 * a pool that falls back to its own thread then quietly reads everything on one thread.
 * Every other flag is kept (`--cpu-prof`, `--enable-source-maps`, ...); startWorker drops them
 * too when Node refuses one of them in an explicit list.
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

/**
 * A Worker that does not inherit the parent's entry-point flags (see workerExecArgv). When there
 * are none, it inherits the parent's flags as Node does by default: Node accepts process-wide
 * flags (`--max-semi-space-size`, `--single-threaded-gc`) when inherited, but refuses them given
 * explicitly (ERR_WORKER_INVALID_EXEC_ARGV); with both kinds, the worker gets no flags (the
 * process-wide ones apply to it anyway).
 */
export function startWorker(script: string | URL, options: WorkerOptions): Worker {
  const argv = workerExecArgv();
  if (argv.length === process.execArgv.length) return new Worker(script, options);
  try {
    return new Worker(script, { ...options, execArgv: argv });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Worker(script, { ...options, execArgv: [] });
  }
}
