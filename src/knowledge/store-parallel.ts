/**
 * Loading a very large store on more than one core. Two kinds of work are shared out over chunks
 * of the item files: parsing (read, decode, parse, validate: what every command needs) and, for
 * `check`, the secret scan. The main thread parses first; worker threads scan first; whoever
 * runs out of its own kind helps with the other.
 *
 * Why only from 40,000 files: a load of 10,000 items is mostly cold code, and V8 compiles hot
 * code on background threads. On the 2-core machine of BENCHMARKS.md a worker took the core
 * those compiles ran on, and both threads then ran slower code for longer: `check` at 10,000
 * items took 0.83 s with a scanning worker and 0.82 s without, `reindex` 0.75 s with a parsing
 * worker and 0.68 s without. A worker pays only once the warm phase dominates.
 *
 * The result is `loadStore`'s, byte for byte: each chunk of each kind is done by exactly one
 * thread, and the results are joined in file order before the problems are sorted. Chunks are
 * claimed through shared counters, so a worker that starts late (a fresh V8 isolate takes tens
 * of milliseconds) simply takes fewer chunks and the main thread is never idle. */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startWorker } from '../core/worker-exec-argv.js';
import { sortProblems, type Problem } from './problem.js';
import { assembleStore, listStoreFiles, loadItemFile, loadListed, remember, scanItemFile, type FileLoad, type LoadedStore, type LoadOptions, type TextScan } from './store.js';
import { LoadCache } from './load-cache.js';

/** Files per chunk: small enough to balance the threads, large enough that messages are few. */
export const CHUNK_FILES = 250;
/** Below this many files a scanning worker costs more than it saves (see PARSE_MIN_FILES). */
const SCAN_MIN_FILES = 40_000;
/** Below this many files parsing on a worker loses more to copying and warming up than it gains. */
const PARSE_MIN_FILES = 40_000;

/** Index of each kind's counter in the shared Int32Array. */
export const PARSE = 0;
export const SCAN = 1;

export interface WorkerInput {
  files: [rel: string, full: string][];
  /** Whether the worker may take parse chunks (after the scan chunks, if any). */
  parse: boolean;
  /** Whether there are scan chunks to do. */
  scan: boolean;
  /** Two Int32s on a SharedArrayBuffer: the next parse chunk and the next scan chunk to claim. */
  next: Int32Array;
}

export type WorkerMessage =
  | { kind: 'parse'; chunk: number; loads: FileLoad[] }
  | { kind: 'scan'; chunk: number; problems: Problem[] }
  | { done: true }
  | { error: string };

/** Claims chunks of one kind until none is left; `work` handles one chunk's files. */
export function claimChunks(next: Int32Array, kind: number, files: number, work: (chunk: number, from: number, to: number) => void): void {
  for (;;) {
    const chunk = Atomics.add(next, kind, 1);
    const from = chunk * CHUNK_FILES;
    if (from >= files) return;
    work(chunk, from, Math.min(files, from + CHUNK_FILES));
  }
}

/** Parses files `from`..`to` without the secret scan. */
export function parseChunk(files: WorkerInput['files'], from: number, to: number): FileLoad[] {
  const loads: FileLoad[] = [];
  for (let i = from; i < to; i++) loads.push(loadItemFile(files[i]![0], files[i]![1]));
  return loads;
}

/** Scans files `from`..`to` with `scan`. */
export function scanChunk(files: WorkerInput['files'], from: number, to: number, scan: TextScan): Problem[] {
  const problems: Problem[] = [];
  for (let i = from; i < to; i++) for (const p of scanItemFile(files[i]![0], files[i]![1], scan)) problems.push(p);
  return problems;
}

/** Threads to use in all, this one included: `COMPOUND_THREADS` (1 = no workers) or the cores, at most 4. */
function threadLimit(): number {
  const env = Number(process.env.COMPOUND_THREADS);
  return Number.isInteger(env) && env >= 1 ? env : Math.min(availableParallelism(), 4);
}

/** `COMPOUND_PARALLEL_MIN_FILES` lowers both thresholds (tests use 0 to take every path). */
function minFiles(normal: number): number {
  const env = Number(process.env.COMPOUND_PARALLEL_MIN_FILES);
  return Number.isInteger(env) && env >= 0 ? Math.min(env, normal) : normal;
}

/** The compiled worker script; absent when running from TypeScript sources (tests), then no workers. */
function workerScript(): string | undefined {
  const file = fileURLToPath(new URL('./store-worker.js', import.meta.url));
  return import.meta.url.endsWith('.js') && existsSync(file) ? file : undefined;
}

/**
 * loadStore, on more than one thread for a very large store. With `options.cache`, files whose
 * bytes it remembers are not parsed again, and what this load found clean is remembered in it
 * (the caller saves it): a store the cache knows is loaded in this thread (reading and hashing
 * is all that is left), an unknown one as usual.
 */
export async function loadStoreParallel(root: string, options: LoadOptions = {}): Promise<LoadedStore> {
  const listed = listStoreFiles(root);
  const { files, problems } = listed;
  const chunkCount = Math.ceil(files.length / CHUNK_FILES);
  const script = workerScript();
  // workers scan with the secret detector (store-worker.ts): the only scan there is
  const scan = options.scan !== undefined && files.length >= minFiles(SCAN_MIN_FILES);
  const parse = files.length >= minFiles(PARSE_MIN_FILES);
  const warm = options.cache !== undefined && options.cache.size > 0;
  const workers = script && (scan || parse) && !warm ? Math.max(0, Math.min(threadLimit() - 1, chunkCount - 1)) : 0;
  if (workers === 0) return loadListed(root, listed, options);
  const parsed: FileLoad[][] = [];
  const secrets: Problem[][] = [];
  const next = new Int32Array(new SharedArrayBuffer(8));
  const input: WorkerInput = { files, parse, scan, next };
  const finished = Array.from({ length: workers }, () => runWorker(script!, input, parsed, secrets));
  // this thread parses first, then helps with what is left of the scan
  claimChunks(next, PARSE, files.length, (chunk, from, to) => (parsed[chunk] = parseChunk(files, from, to)));
  if (scan) claimChunks(next, SCAN, files.length, (chunk, from, to) => (secrets[chunk] = scanChunk(files, from, to, options.scan!)));
  await Promise.all(finished);
  const loads = parsed.flat();
  const found = secrets.flat();
  if (options.cache) {
    options.cache.digestUnknown(); // the workers' files were not noted
    rememberClean(options.cache, loads, found, options.scan !== undefined);
  }
  // secret problems after all parse problems, sorted again (sortProblems is stable): by file,
  // line and code that is the order loadStore gives, since a secret never ties with a parse
  // problem (their codes differ)
  const store = assembleStore(root, loads, problems);
  return found.length === 0 ? store : { ...store, problems: sortProblems([...store.problems, ...found]) };
}

/** What loadItemFile would have remembered, for loads made on workers: the hash of a clean
 * file's text is that of its bytes (valid UTF-8, no BOM, or it would have a problem). */
function rememberClean(cache: LoadCache, loads: readonly FileLoad[], secrets: readonly Problem[], scanned: boolean): void {
  const withSecrets = new Set(secrets.map((p) => p.file));
  for (const load of loads) {
    const item = load.item;
    if (!item || load.problems.length > 0 || withSecrets.has(item.path)) continue;
    remember(cache, LoadCache.hashOf(Buffer.from(item.raw, 'utf8')), item, scanned);
  }
}

function runWorker(script: string, input: WorkerInput, parsed: FileLoad[][], secrets: Problem[][]): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(script, { workerData: input });
    let done = false;
    worker.on('message', (msg: WorkerMessage) => {
      if ('kind' in msg) {
        if (msg.kind === 'parse') parsed[msg.chunk] = msg.loads;
        else secrets[msg.chunk] = msg.problems;
      } else if ('done' in msg) done = true;
      else reject(new Error(`loading the store in a worker failed: ${msg.error}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (done ? resolve() : reject(new Error(`a store worker stopped with exit code ${code} before it finished`))));
  });
}
