/** After index.json changes, rebuild the bootstrap search structure so the next session start
 * does not pay for it. A failure here never fails the command: bootstrap rebuilds lazily. */
import type { Worker } from 'node:worker_threads';
import type { BuildAnswer } from '../bootstrap/cache-worker.js';
import { startWorker } from '../core/worker-exec-argv.js';
import { note } from './io.js';

function notRebuilt(message: string): void {
  note(`note: the bootstrap search cache was not rebuilt (${message}); bootstrap will rebuild it`);
}

export async function refreshSearchCache(root: string): Promise<void> {
  try {
    const { writeSearchStructure } = await import('../bootstrap/cache.js');
    await writeSearchStructure(root);
  } catch (err) {
    notRebuilt((err as Error).message);
  }
}

/**
 * The search structure built on a worker thread (bootstrap/cache-worker.ts), for a harvest of
 * many files: started while the harvest reads, it loads the token vocabulary on its own thread,
 * and `start` has it build the structure as soon as index.json is written, while this thread
 * writes the ledger and the caches (applyPlan's indexWritten); `finish` waits for it. Over the
 * 1 GB bench corpus that took the structure (about 0.3 s) off the end of the harvest, where it
 * ran on one thread with the other core idle. Whatever goes wrong with the worker, `finish`
 * builds the structure on this thread instead, as refreshSearchCache does.
 */
/** What became of a build asked of the worker: its answer, or nothing (the worker was lost). */
type Outcome = BuildAnswer | undefined;

export class SearchCacheBuilder {
  private readonly worker: Worker | undefined;
  private building: Promise<Outcome> | undefined;

  constructor() {
    let worker: Worker | undefined;
    try {
      worker = startWorker(builderScript(), {});
      worker.unref(); // never keeps the process alive by itself
      worker.on('error', () => undefined); // reported through `finish`
    } catch {
      worker = undefined;
    }
    this.worker = worker;
  }

  /** Has the worker build the structure of `root` now (once). */
  start(root: string): void {
    const worker = this.worker;
    if (!worker || this.building) return;
    this.building = new Promise<Outcome>((resolve) => {
      worker.once('message', (answer: BuildAnswer) => resolve(answer));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
      worker.postMessage(root);
    });
  }

  /** Waits for the structure of `root`; builds it here when the worker did not. */
  async finish(root: string): Promise<void> {
    this.start(root);
    const answer = this.building ? await this.building : undefined;
    if (answer === undefined) await refreshSearchCache(root);
    else if (!answer.ok) notRebuilt(answer.message ?? 'unknown error');
  }

  /** Stops the worker (idempotent). */
  close(): void {
    void this.worker?.terminate();
  }
}

/** The compiled worker. Under vitest this module is the .ts source, and the worker still runs the
 * JavaScript in dist/ (build first). */
function builderScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/bootstrap/cache-worker.js', here) : new URL('../bootstrap/cache-worker.js', here);
}
