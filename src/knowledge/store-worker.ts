/** Worker thread of store-parallel.ts: scans first, then parses, the chunks it claims. */
import { parentPort, workerData } from 'node:worker_threads';
import { claimChunks, PARSE, parseChunk, SCAN, scanChunk, type WorkerInput, type WorkerMessage } from './store-parallel.js';
import { secretProblems } from './secret-problems.js';

const { files, parse, scan, next } = workerData as WorkerInput;
const post = (msg: WorkerMessage) => parentPort!.postMessage(msg);
try {
  if (scan) claimChunks(next, SCAN, files.length, (chunk, from, to) => post({ kind: 'scan', chunk, problems: scanChunk(files, from, to, secretProblems) }));
  if (parse) claimChunks(next, PARSE, files.length, (chunk, from, to) => post({ kind: 'parse', chunk, loads: parseChunk(files, from, to) }));
  post({ done: true });
} catch (err) {
  post({ error: err instanceof Error ? err.message : String(err) });
}
