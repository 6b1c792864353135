/**
 * Reads many files on worker threads (read-worker.js) as well as in this thread, so that parsing
 * uses more than one core. Results come back by file index and are handed out in file order, so
 * what the caller sees is what reading the files one by one here gives: workers run the same
 * readSessionFile, and their results arrive packed by core/plain-data-codec.ts (structured clone
 * cost this thread about as much as reading the files itself), unpacked when the caller reaches
 * them.
 *
 * Files are cut into jobs of consecutive files, never splitting a Claude Code session from the
 * subagent files that follow it (the subagent reader finds its type in the parent's reading,
 * cached per thread). Jobs are taken in file order: each worker keeps two queued, and this
 * thread takes the next one whenever the caller would otherwise wait for a worker, so neither
 * side idles while the other has work (this thread also pays for copying the workers' results
 * in, so a fixed share would leave one of them waiting). Jobs are taken only a bounded number of
 * files ahead of the one the caller is on, so memory stays bounded when the caller is slow. A
 * worker that fails leaves its files to be read here.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../core/worker-exec-argv.js';
import { decodePlain, type PackedData } from '../core/plain-data-codec.js';
import type { SessionFormat } from './model.js';
import type { FileReadResult } from './read.js';

/** What a worker needs of ReadSessionsOptions (the rest is walking, callbacks, or readers). */
export interface PoolOptions {
  format?: SessionFormat;
  maxLineBytes?: number;
}

/** Main → worker: read `files`, which are files `start`, `start + 1`, ... of the walk. */
export interface PoolJob {
  start: number;
  files: string[];
}

/** Worker → main: the results of the job that starts at `start` (undefined for one that could
 * not be sent: read it here), with every event's `source.file` that equals `result.file` sent
 * as '' (see packResult). */
export type PoolReply =
  | { start: number; results: (FileReadResult | undefined)[] }
  /** The same results, packed by plain-data-codec.ts (much cheaper to take in here). */
  | { start: number; packed: PackedData & { count: number } };

const WORKER_FILE = fileURLToPath(new URL('./read-worker.js', import.meta.url));
/** Below this many files, starting workers (~30 ms each) costs more than it saves. */
const MIN_FILES = 32;
const JOB_FILES = 8;
/** Files handed to workers beyond the one the caller is waiting for. */
const LOOKAHEAD = 64;
/** Jobs queued per worker, so it never waits for the next one. */
const JOBS_PER_WORKER = 2;

/**
 * How many worker threads to read `fileCount` files with, besides this thread: the number in
 * COMPOUND_READ_WORKERS ("auto": one per core beyond the first, at most 3), none when unset.
 * Opt-in because it costs much more CPU than it saves wall time on two cores: packing and
 * unpacking, and two threads parsing at once (each parses slower than one alone), took reading
 * the 1 GB corpus from 19-20 s of user CPU to 26.5-30 s and its peak memory from about 250 MB
 * to about 550 MB, for a wall time 6-10% shorter on an Intel Xeon; on an AMD EPYC from 8.8-9.0 s
 * to 11.5-11.9 s, for a wall time 3-5% longer (two alternating pairs of runs under
 * /usr/bin/time each; BENCHMARKS.md has the figures of one bench run).
 * Always 0 for fewer than MIN_FILES files, and when the worker script is absent (sources).
 */
export function readWorkerCount(fileCount: number): number {
  const env = process.env.COMPOUND_READ_WORKERS;
  if (env === undefined || env === '' || fileCount < MIN_FILES || !existsSync(WORKER_FILE)) return 0;
  const n = env === 'auto' ? Math.min(availableParallelism() - 1, 3) : Number(env);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 16) : 0;
}

/** Every event names its file: sending that path once per file rather than once per event
 * makes the copy between threads markedly cheaper. Undone by unpackResult. */
export function packResult(result: FileReadResult): void {
  for (const s of result.sessions) for (const e of s.events) if (e.source.file === result.file) e.source.file = '';
}

function unpackResult(result: FileReadResult): FileReadResult {
  for (const s of result.sessions) for (const e of s.events) if (e.source.file === '') e.source.file = result.file;
  return result;
}

/** Files that must go to the same worker share a key: a Claude Code session and its subagents. */
function familyKey(file: string): string {
  const dir = dirname(file);
  if (basename(dir) === 'subagents') return dirname(dir);
  return file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : file;
}

function jobsOf(files: readonly string[]): PoolJob[] {
  const jobs: PoolJob[] = [];
  let start = 0;
  for (let i = 1; i <= files.length; i++) {
    if (i === files.length || (i - start >= JOB_FILES && familyKey(files[i]!) !== familyKey(files[i - 1]!))) {
      jobs.push({ start, files: files.slice(start, i) });
      start = i;
    }
  }
  return jobs;
}

interface Slot {
  worker: Worker;
  alive: boolean;
  jobs: number;
  /** Indices sent to this worker and not answered yet. */
  pending: Set<number>;
}

interface Deferred {
  promise: Promise<FileReadResult>;
  resolve: (r: FileReadResult | Promise<FileReadResult>) => void;
  /** Resolved: get() can hand it out without waiting. */
  done: boolean;
  /** A worker's answer still packed (see answer): made into objects when get() hands it out. */
  unpack?: () => FileReadResult;
  /** get() is waiting on `promise` (so an answer must resolve it, not leave it packed). */
  awaited?: boolean;
}

/** A worker's packed answer for a job, unpacked once, when the caller reaches its first file. */
interface PackedJob {
  packed: PackedData;
  results?: FileReadResult[];
}

export class ReadPool {
  private readonly jobs: PoolJob[];
  private readonly slots: Slot[] = [];
  private readonly results = new Map<number, Deferred>();
  /** Jobs are taken in order, by a worker or by this thread: every job before this one is. */
  private nextJob = 0;
  /** The caller has taken every result before this index. */
  private taken = 0;
  /** Files whose results came from a worker (the rest were read here). */
  filesFromWorkers = 0;

  constructor(
    private readonly files: readonly string[],
    options: PoolOptions,
    workers: number,
    /** Reads one file in this thread. */
    private readonly readHere: (file: string) => Promise<FileReadResult>,
  ) {
    this.jobs = jobsOf(files);
    for (let w = 0; w < workers; w++) {
      const worker = startWorker(WORKER_FILE, { workerData: options });
      const slot: Slot = { worker, alive: true, jobs: 0, pending: new Set() };
      worker.on('message', (reply: PoolReply) => this.answer(slot, reply));
      worker.on('error', () => this.lose(slot));
      worker.on('exit', () => this.lose(slot));
      this.slots.push(slot);
    }
    this.pump();
  }

  /**
   * The result for file `index`; call with 0, 1, 2, ... in order. While a worker still owes it,
   * this thread reads the next job nobody has taken rather than wait idle: a fixed share would
   * leave one side waiting for the other, since this thread also pays for copying the workers'
   * results in.
   */
  async get(index: number): Promise<FileReadResult> {
    this.taken = index;
    this.results.delete(index - 1); // kept until now: its answer may have come after its get
    this.pump();
    for (;;) {
      const d = this.results.get(index);
      if (d?.done) return d.unpack ? d.unpack() : d.promise;
      if (!d) {
        // nobody has taken its job yet (every job before it is taken): read it here
        const job = this.jobs[this.nextJob];
        if (!job || index < job.start || index >= job.start + job.files.length) return this.readHere(this.files[index]!);
        await this.readJobHere();
        continue;
      }
      const ahead = this.jobs[this.nextJob];
      if (!ahead || ahead.start > index + LOOKAHEAD) {
        d.awaited = true;
        return d.promise;
      }
      await this.readJobHere();
      // files are read synchronously (see loadFile): let the answers that came meanwhile in,
      // both to see whether ours is among them and to hand their workers new jobs
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    const live = this.slots.filter((s) => s.alive);
    for (const s of this.slots) s.alive = false;
    await Promise.all(live.map((s) => s.worker.terminate()));
  }

  /** Takes the next job and reads its files here, one after another (see read-worker.ts). */
  private async readJobHere(): Promise<void> {
    const job = this.jobs[this.nextJob++]!;
    const owed = job.files.map((_, k) => this.deferred(job.start + k));
    for (let k = 0; k < job.files.length; k++) {
      const result = await this.readHere(job.files[k]!);
      owed[k]!.resolve(result);
      owed[k]!.done = true;
    }
  }

  private deferred(index: number): Deferred {
    let d = this.results.get(index);
    if (!d) {
      let resolve!: Deferred['resolve'];
      const promise = new Promise<FileReadResult>((r) => (resolve = r));
      d = { promise, resolve, done: false };
      this.results.set(index, d);
    }
    return d;
  }

  /** Keeps every live worker JOBS_PER_WORKER jobs deep, within LOOKAHEAD files of the caller. */
  private pump(): void {
    while (this.nextJob < this.jobs.length) {
      const job = this.jobs[this.nextJob]!;
      if (job.start > this.taken + LOOKAHEAD) return;
      let best: Slot | undefined;
      for (const s of this.slots) if (s.alive && s.jobs < JOBS_PER_WORKER && (!best || s.jobs < best.jobs)) best = s;
      if (!best) return;
      this.nextJob++;
      best.jobs++;
      for (let k = 0; k < job.files.length; k++) {
        this.deferred(job.start + k);
        best.pending.add(job.start + k);
      }
      best.worker.postMessage(job);
    }
  }

  private answer(slot: Slot, reply: PoolReply): void {
    if (!slot.alive) return;
    slot.jobs--;
    if ('packed' in reply) {
      // Unpacked when the caller gets to it, not now: objects made just before they are used
      // die young, where made now they would outlive a collection or two (this thread reads its
      // own jobs meanwhile) and be copied to the old generation for nothing.
      const job: PackedJob = { packed: reply.packed };
      const count = reply.packed.count;
      for (let k = 0; k < count; k++) {
        const index = reply.start + k;
        slot.pending.delete(index);
        this.filesFromWorkers++;
        const d = this.deferred(index);
        const unpack = (): FileReadResult => unpackResult((job.results ??= decodePlain(job.packed) as FileReadResult[])[k]!);
        if (d.awaited) d.resolve(unpack());
        else d.unpack = unpack;
        d.done = true;
      }
    } else {
      reply.results.forEach((result, k) => {
        const index = reply.start + k;
        slot.pending.delete(index);
        if (result) this.filesFromWorkers++;
        const d = this.deferred(index);
        d.resolve(result ? unpackResult(result) : this.readHere(this.files[index]!));
        d.done = true;
      });
    }
    this.pump();
  }

  /** A worker that died: what it still owed is read here, what is left goes to the others. */
  private lose(slot: Slot): void {
    if (!slot.alive) return;
    slot.alive = false;
    for (const index of slot.pending) {
      const d = this.deferred(index);
      d.resolve(this.readHere(this.files[index]!));
      d.done = true;
    }
    slot.pending.clear();
    this.pump();
  }
}
