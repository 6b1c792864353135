/**
 * A harvest worker (worker_threads): runs chunks of file tasks one file at a time, in the order
 * they arrive, with the built-in extractor, and answers each chunk with one message.
 * Started by pool.ts from the compiled dist/ file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { extractSession } from '../extract/index.js';
import { redact } from '../../redact/index.js';
import type { SessionContext } from '../file-sessions.js';
import { runFileTask } from './file-task.js';
import { legacyAlgorithms } from '../file-hash.js';
import type { FileOutcome, FileTask, WorkerSetup } from './protocol.js';

const setup = workerData as WorkerSetup;
const known = new Set(setup.knownHashes);
const legacy = legacyAlgorithms(setup.knownHashes);
const ctx: SessionContext = {
  eventsSeen: new Map(setup.eventsSeen),
  repoAliases: setup.repoAliases,
  ...(setup.repo ? { repo: setup.repo } : {}),
  redactUsers: setup.redactUsers,
  ...(setup.maxLineBytes ? { maxLineBytes: setup.maxLineBytes } : {}),
};
const extract = async () => extractSession;

let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (chunk: FileTask[]) => {
  queue = queue.then(async () => {
    const outcomes: FileOutcome[] = [];
    for (const task of chunk) {
      try {
        outcomes.push(await runFileTask(task, known, legacy, ctx, setup.format, extract));
      } catch (err) {
        // the message only (no stack), redacted: it is printed, and it may quote transcript text
        const message = err instanceof Error ? err.message : String(err);
        outcomes.push({ index: task.index, kind: 'failed', error: redact(message, { users: setup.redactUsers }).text });
        break;
      }
    }
    parentPort!.postMessage(outcomes);
  });
});
