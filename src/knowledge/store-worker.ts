/** Worker thread of store-parallel.ts: loads the chunks it claims and posts their results. */
import { parentPort, workerData } from 'node:worker_threads';
import { claimChunks, type WorkerInput, type WorkerMessage } from './store-parallel.js';
import { loadItemFile, type FileLoad } from './store.js';

const { files, options, next } = workerData as WorkerInput;
const post = (msg: WorkerMessage) => parentPort!.postMessage(msg);
try {
  claimChunks(next, files.length, (chunk, from, to) => {
    const loads: FileLoad[] = [];
    for (let i = from; i < to; i++) loads.push(loadItemFile(files[i]![0], files[i]![1], options));
    post({ chunk, loads });
  });
  post({ done: true });
} catch (err) {
  post({ error: err instanceof Error ? err.message : String(err) });
}
