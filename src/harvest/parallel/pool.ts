/**
 * A small worker_threads pool for the harvest: cuts the file tasks into one contiguous block per
 * worker (of about equal bytes), hands each worker its own block front to back in chunks, two
 * chunks at a time so none waits for its next message, and gives each outcome to the caller as a
 * promise by task index. A worker done with its block takes chunks from the back of the block
 * with the most left, smaller and smaller, so the workers finish together. Which worker did a
 * file never shows in the result: the caller consumes outcomes in file order.
 *
 * Why blocks: files next to each other are alike (one agent's folder, one format), and each
 * worker is its own V8 isolate that compiles the readers and the extractor for what it meets.
 * Handed out in file order, both workers met every format in turn, and each new one threw away
 * optimized code that the last one had shaped. Over the 1 GB bench corpus, in blocks: TurboFan
 * compiles 1212 -> 1129, compile time 8.1 -> 7.0 s, deopts 240 -> 198 (--trace-opt
 * --trace-deopt, all threads), and the harvest 1.061x as fast (1.010x-1.197x, 6 alternating
 * rounds of scripts/harvest-ab.mjs). The outcomes of the second block wait for the first (the
 * caller merges in file order), so merging them ends about 0.2 s after the workers' last answer
 * over that corpus. Blocks taken in turn (worker 0 owning blocks 0, 2, 4, 6 of eight) cut that
 * to about 0.05 s but made the harvest slower: 0.986x (6 rounds, all slower), and with four
 * blocks 0.998x (2026-11-26).
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
  /** Hands out `tasks` (once); `onDone` gets the number of files answered so far, `onArrive`
   * each outcome as it comes (in the order the workers answer, before the caller asks for it). */
  run(tasks: readonly FileTask[], onDone?: (done: number) => void, weights?: readonly number[], onArrive?: (o: FileOutcome) => void): RunningPool;
  /** Stops every worker (idempotent; call it when done or on error). */
  close(): Promise<void>;
}

export function spawnPool(size: number, setup: WorkerSetup): SpawnedPool {
  const workers = Array.from({ length: Math.max(1, size) }, () => startWorker(workerScript(), { workerData: setup }));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= Promise.all(workers.map((w) => w.terminate())).then(() => undefined));
  return { size: workers.length, run: (tasks, onDone, weights, onArrive) => runTasks(workers, tasks, onDone, weights, onArrive), close };
}

/** A contiguous run of tasks, taken from the front by its owner and from the back by others. */
export interface Block {
  front: number;
  back: number;
  /** Weight of the tasks in [front, back). */
  weight: number;
}

/** Cuts tasks 0..n into `count` contiguous blocks of about equal weight (each task goes to the
 * block its middle falls in; the last block takes the rest). */
export function blocksOf(n: number, count: number, weightOf: (i: number) => number): Block[] {
  let total = 0;
  for (let i = 0; i < n; i++) total += weightOf(i);
  const blocks: Block[] = [];
  let start = 0;
  let acc = 0;
  for (let b = 0; b < count; b++) {
    const goal = (total * (b + 1)) / count;
    let end = start;
    let weight = 0;
    while (end < n && (b === count - 1 || acc + weightOf(end) / 2 <= goal)) {
      acc += weightOf(end);
      weight += weightOf(end);
      end++;
    }
    blocks.push({ front: start, back: end, weight });
    start = end;
  }
  return blocks;
}

export function runTasks(
  workers: readonly Worker[],
  tasks: readonly FileTask[],
  onDone?: (done: number) => void,
  weights?: readonly number[],
  onArrive?: (o: FileOutcome) => void,
): RunningPool {
  const results = tasks.map(() => deferred());
  const count = workers.length;
  const weightOf = (i: number): number => Math.max(1, weights?.[i] ?? 1);
  const blocks = blocksOf(tasks.length, count, weightOf);
  let done = 0;
  let failed = false;
  const fail = (err: Error): void => {
    if (failed) return;
    failed = true;
    for (const r of results) r.reject(err);
  };
  const feed = (w: Worker, own: number): void => {
    if (failed) return;
    let block = blocks[own]!;
    const mine = block.front < block.back;
    if (!mine) {
      block = blocks.reduce((a, b) => (b.back - b.front > 0 && (a.back - a.front === 0 || b.weight > a.weight) ? b : a));
      if (block.front >= block.back) return;
    }
    // Smaller chunks towards a block's end, so the workers finish together.
    const left = block.back - block.front;
    const size = Math.max(1, Math.min(MAX_CHUNK, Math.floor(left / 4)));
    let from: number;
    let to: number;
    if (mine) {
      from = block.front;
      to = from + size;
      block.front = to;
    } else {
      to = block.back;
      from = to - size;
      block.back = from;
    }
    for (let i = from; i < to; i++) block.weight -= weightOf(i);
    w.postMessage(tasks.slice(from, to));
  };
  workers.forEach((w, own) => {
    w.on('message', (outcomes: FileOutcome[]) => {
      for (const o of outcomes) {
        if (o.kind === 'failed') {
          fail(new Error(`harvest worker failed on file ${o.index + 1}: ${o.error}`));
          return;
        }
        try {
          onArrive?.(o);
        } catch {
          // only work done ahead: the caller meets the same problem when it takes the outcome
        }
        results[o.index]!.resolve(o);
      }
      done += outcomes.length;
      onDone?.(done);
      feed(w, own);
    });
    w.on('error', fail);
    w.on('exit', (code) => {
      if (done < tasks.length) fail(new Error(`harvest worker exited (code ${code}) before finishing`));
    });
    for (let i = 0; i < DEPTH; i++) feed(w, own);
  });
  return { outcome: (index) => results[index]!.promise };
}
