/**
 * A worker thread that writes the search structure (cache.ts) when asked, for a harvest: it
 * builds the structure while the harvest's own thread writes the ledger and the caches.
 * Started by cli/search-cache.ts from the compiled dist/ file.
 * Each message is a store root; each answer `{ ok: true }`, or `{ ok: false, message }`.
 */
import { parentPort } from 'node:worker_threads';
import { writeSearchStructure } from './cache.js';

export interface BuildAnswer {
  ok: boolean;
  message?: string;
}

parentPort!.on('message', (root: string) => {
  writeSearchStructure(root).then(
    () => parentPort!.postMessage({ ok: true } satisfies BuildAnswer),
    (err: unknown) => parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies BuildAnswer),
  );
});
