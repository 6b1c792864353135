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

/** What became of a build asked of the worker: its answer, or nothing (the worker was lost). */
type Outcome = BuildAnswer | undefined;

/**
 * The search structure built on a worker thread (bootstrap/cache-worker.ts), for a harvest of
 * many files: started while the harvest reads, it loads the token vocabulary on its own thread,
 * and `start` has it build the structure as soon as index.json is written, while this thread
 * writes the ledger and the caches (applyPlan's indexWritten); `finish` waits for it. It ran on
 * this thread after everything else, with the other core idle: over the 1 GB bench corpus the
 * wait for it after the last write fell from 280-310 ms to 115-200 ms. Whatever goes wrong with
 * the worker, `finish` builds the structure on this thread instead, as refreshSearchCache does.
 */
export class SearchCacheBuilder {
  private readonly worker: Worker | undefined;
  /** The worker failed to start or is gone (an error, an exit): `finish` builds here. */
  private lost = false;
  private building: Promise<Outcome> | undefined;

  /** `script`: the worker to run (tests give a missing one). */
  constructor(script: URL = builderScript()) {
    let worker: Worker | undefined;
    try {
      worker = startWorker(script, {});
      // It keeps the process alive only while it builds (see start): a harvest that fails
      // or writes no index does not wait for it.
      worker.unref();
      worker.on('error', () => (this.lost = true));
      worker.on('exit', () => (this.lost = true));
    } catch {
      this.lost = true;
    }
    this.worker = worker;
  }

  /** Has the worker build the structure of `root` now (once). */
  start(root: string): void {
    const worker = this.worker;
    if (this.building) return;
    if (!worker || this.lost) {
      this.building = Promise.resolve(undefined);
      return;
    }
    worker.ref();
    this.building = new Promise<Outcome>((resolve) => {
      const done = (answer: Outcome): void => {
        worker.unref();
        resolve(answer);
      };
      worker.once('message', (answer: BuildAnswer) => done(answer));
      worker.once('error', () => done(undefined));
      worker.once('exit', () => done(undefined));
      worker.postMessage(root);
    });
  }

  /** Waits for the structure of `root`; builds it here when the worker did not. */
  async finish(root: string): Promise<void> {
    this.start(root);
    const answer = await this.building;
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
