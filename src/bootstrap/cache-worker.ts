/**
 * A worker thread that writes the search structure (cache.ts) when asked, for a harvest: it
 * loads the default encoding's vocabulary as soon as it starts, while the harvest's workers read,
 * and builds the structure while the harvest's own thread writes the ledger and the caches (over
 * the 1 GB bench corpus this thread used 0.66 s of CPU in all). Started by cli/search-cache.ts
 * from the compiled dist/ file.
 * Each message is a store root; each answer `{ ok: true }`, or `{ ok: false, message }`.
 */
import { parentPort } from 'node:worker_threads';
import { writeSearchStructure } from './cache.js';
import { DEFAULT_ENCODING, loadCounter } from './tokens.js';

export interface BuildAnswer {
  ok: boolean;
  message?: string;
}

loadCounter(DEFAULT_ENCODING).catch(() => undefined); // a failure shows when the structure is built

parentPort!.on('message', (root: string) => {
  writeSearchStructure(root).then(
    () => parentPort!.postMessage({ ok: true } satisfies BuildAnswer),
    (err: unknown) => parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies BuildAnswer),
  );
});
