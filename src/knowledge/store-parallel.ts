/**
 * Loading a large store on every core. Parsing and validating item files is CPU work that a
 * single thread does at a fraction of the disk's speed, so `check` and `reindex` share the files
 * with worker threads. The result is the same as `loadStore`'s, byte for byte: each chunk of
 * files is loaded by exactly one thread and the results are joined in file order.
 *
 * Chunks are claimed through a shared counter, so a worker that starts late (a fresh V8 isolate
 * takes tens of milliseconds) simply takes fewer chunks and the main thread is never idle.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { assembleStore, listStoreFiles, loadItemFile, type FileLoad, type LoadedStore, type LoadOptions } from './store.js';

/** Files per chunk: small enough to balance the threads, large enough that messages are few. */
export const CHUNK_FILES = 250;
/** Below this many files a worker's start-up costs more than it saves. */
const MIN_PARALLEL_FILES = 1500;

export interface WorkerInput {
  files: [rel: string, full: string][];
  options: LoadOptions;
  /** One Int32 on a SharedArrayBuffer: the next chunk to claim. */
  next: Int32Array;
}

export type WorkerMessage = { chunk: number; loads: FileLoad[] } | { done: true } | { error: string };

/** Claims chunks until none is left; `load` handles one chunk's files. */
export function claimChunks(next: Int32Array, files: number, load: (chunk: number, from: number, to: number) => void): void {
  for (;;) {
    const chunk = Atomics.add(next, 0, 1);
    const from = chunk * CHUNK_FILES;
    if (from >= files) return;
    load(chunk, from, Math.min(files, from + CHUNK_FILES));
  }
}

/** How many worker threads to start: `COMPOUND_THREADS` (total threads, 1 = none) or the cores. */
export function workerCount(files: number): number {
  const env = Number(process.env.COMPOUND_THREADS);
  const threads = Number.isInteger(env) && env >= 1 ? env : Math.min(availableParallelism(), 4);
  const minFiles = Number(process.env.COMPOUND_PARALLEL_MIN_FILES);
  if (files < (Number.isInteger(minFiles) && minFiles >= 0 ? minFiles : MIN_PARALLEL_FILES)) return 0;
  return Math.max(0, Math.min(threads - 1, Math.ceil(files / CHUNK_FILES) - 1));
}

/** The compiled worker script; absent when running from TypeScript sources (tests), then no workers. */
function workerScript(): string | undefined {
  const file = fileURLToPath(new URL('./store-worker.js', import.meta.url));
  return import.meta.url.endsWith('.js') && existsSync(file) ? file : undefined;
}

export async function loadStoreParallel(root: string, options: LoadOptions = {}): Promise<LoadedStore> {
  const { files, problems } = listStoreFiles(root);
  const script = workerScript();
  const workers = script ? workerCount(files.length) : 0;
  const chunks: FileLoad[][] = [];
  const next = new Int32Array(new SharedArrayBuffer(4));
  const finished = Array.from({ length: workers }, () => runWorker(script!, { files, options, next }, chunks));
  claimChunks(next, files.length, (chunk, from, to) => {
    const loads: FileLoad[] = [];
    for (let i = from; i < to; i++) loads.push(loadItemFile(files[i]![0], files[i]![1], options));
    chunks[chunk] = loads;
  });
  await Promise.all(finished);
  return assembleStore(root, chunks.flat(), problems);
}

function runWorker(script: string, input: WorkerInput, chunks: FileLoad[][]): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: input });
    let done = false;
    worker.on('message', (msg: WorkerMessage) => {
      if ('chunk' in msg) chunks[msg.chunk] = msg.loads;
      else if ('done' in msg) done = true;
      else reject(new Error(`loading the store in a worker failed: ${msg.error}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (done ? resolve() : reject(new Error(`a store worker stopped with exit code ${code} before it finished`))));
  });
}
