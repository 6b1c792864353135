/**
 * Worker-thread side of read-pool.ts: reads the files of each job it is sent, one file at a time
 * and jobs in the order they arrive, and posts the job's results back in one message (a message
 * per file costs measurably more).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readSessionFile, type FileReadResult } from './read.js';
import { encodePlain, transferablesOf } from '../core/plain-data-codec.js';
import { packResult, type PoolJob, type PoolOptions, type PoolReply } from './read-pool.js';

const port = parentPort;
if (!port) throw new Error('read-worker.js runs as a worker thread of read-pool.js');
const options = workerData as PoolOptions;
const queue: PoolJob[] = [];
let running = false;

// One job at a time: the Claude Code reader keeps a per-thread cache of parent files, and a
// file read while another is half done would see it in a different state.
async function drain(out: NonNullable<typeof parentPort>): Promise<void> {
  running = true;
  for (let job = queue.shift(); job; job = queue.shift()) {
    const results: (FileReadResult | undefined)[] = [];
    for (const file of job.files) {
      const result = await readSessionFile(file, options);
      packResult(result);
      results.push(result);
    }
    let packed;
    try {
      packed = encodePlain(results);
    } catch {
      packed = undefined; // not plain data after all: structured clone copies what it can
    }
    if (packed) {
      out.postMessage({ start: job.start, packed: { ...packed, count: results.length } } satisfies PoolReply, transferablesOf(packed));
      continue;
    }
    try {
      out.postMessage({ start: job.start, results } satisfies PoolReply);
    } catch {
      // some result cannot be cloned: send the others, the main thread reads that one itself
      const one = results.map((r) => {
        try {
          return structuredClone(r);
        } catch {
          return undefined;
        }
      });
      out.postMessage({ start: job.start, results: one } satisfies PoolReply);
    }
  }
  running = false;
}

port.on('message', (job: PoolJob) => {
  queue.push(job);
  if (!running) void drain(port);
});
