/**
 * A small worker_threads pool for the harvest: hands out file tasks in file order, in chunks,
 * two chunks per worker at a time so none waits for its next message, and gives each outcome
 * to the caller as a promise by task index. Which worker did a file never shows in the result:
 * the caller consumes outcomes in file order.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../core/worker-exec-argv.js';
import type { FileOutcome, FileTask, WorkerSetup } from './protocol.js';

/** Chunks queued per worker: one running and one waiting, so a worker never idles on a round trip. */
const DEPTH = 2;
/** Files per message at most: fewer messages (each wakes this thread), still balanced at the end. */
const MAX_CHUNK = 64;

/** The compiled worker. Under vitest this module is the .ts source, and workers still run the
 * JavaScript in dist/ (build first). */
export function workerScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../../dist/harvest/parallel/worker.js', here) : new URL('./worker.js', here);
}

export interface RunningPool {
  /** The outcome of task `index`; rejects when the pool fails. */
  outcome(index: number): Promise<FileOutcome>;
}

interface Deferred {
  promise: Promise<FileOutcome>;
  resolve: (o: FileOutcome) => void;
  reject: (e: Error) => void;
}

function deferred(): Deferred {
  let resolve!: (o: FileOutcome) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<FileOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // a failure is reported once, through the outcome the caller awaits
  return { promise, resolve, reject };
}

/** Workers started ahead of their tasks: they load the readers and the extractor meanwhile. */
export interface SpawnedPool {
  size: number;
  /** Hands out `tasks` (once); `onDone` gets the number of files answered so far. */
  run(tasks: readonly FileTask[], onDone?: (done: number) => void): RunningPool;
  /** Stops every worker (idempotent; call it when done or on error). */
  close(): Promise<void>;
}

export function spawnPool(size: number, setup: WorkerSetup): SpawnedPool {
  const workers = Array.from({ length: Math.max(1, size) }, () => startWorker(workerScript(), { workerData: setup }));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= Promise.all(workers.map((w) => w.terminate())).then(() => undefined));
  return { size: workers.length, run: (tasks, onDone) => runTasks(workers, tasks, onDone), close };
}

function runTasks(workers: readonly Worker[], tasks: readonly FileTask[], onDone?: (done: number) => void): RunningPool {
  const results = tasks.map(() => deferred());
  const count = workers.length;
  let next = 0;
  let done = 0;
  let failed = false;
  const fail = (err: Error): void => {
    if (failed) return;
    failed = true;
    for (const r of results) r.reject(err);
  };
  const feed = (w: Worker): void => {
    if (next >= tasks.length || failed) return;
    // Smaller chunks towards the end, so the workers finish together.
    const size = Math.max(1, Math.min(MAX_CHUNK, Math.floor((tasks.length - next) / (count * 4))));
    w.postMessage(tasks.slice(next, next + size));
    next += size;
  };
  for (const w of workers) {
    w.on('message', (outcomes: FileOutcome[]) => {
      for (const o of outcomes) {
        if (o.kind === 'failed') {
          fail(new Error(`harvest worker failed on file ${o.index + 1}: ${o.error}`));
          return;
        }
        results[o.index]!.resolve(o);
      }
      done += outcomes.length;
      onDone?.(done);
      feed(w);
    });
    w.on('error', fail);
    w.on('exit', (code) => {
      if (done < tasks.length) fail(new Error(`harvest worker exited (code ${code}) before finishing`));
    });
    for (let i = 0; i < DEPTH; i++) feed(w);
  }
  return { outcome: (index) => results[index]!.promise };
}
