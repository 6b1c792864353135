/**
 * Worker-thread side of read-pool.ts: reads the files of each job it is sent, one file at a time
 * and jobs in the order they arrive, and posts each file's result back with its index.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readSessionFile } from './read.js';
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
    for (let k = 0; k < job.files.length; k++) {
      const index = job.start + k;
      const result = await readSessionFile(job.files[k]!, options);
      packResult(result);
      try {
        out.postMessage({ index, result } satisfies PoolReply);
      } catch {
        out.postMessage({ index } satisfies PoolReply); // not cloneable: the main thread reads it
      }
    }
  }
  running = false;
}

port.on('message', (job: PoolJob) => {
  queue.push(job);
  if (!running) void drain(port);
});
