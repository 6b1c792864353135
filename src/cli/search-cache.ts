/** After index.json changes, rebuild the bootstrap search structure so the next session start
 * does not pay for it. A failure here never fails the command: bootstrap rebuilds lazily. */
import { note } from './io.js';

let preloading: Promise<unknown> | undefined;

/**
 * Starts loading what refreshSearchCache needs: its modules and the default encoding's token
 * vocabulary, about 0.25 s of one thread (ad hoc, from a profile of the 1 GB bench harvest). A
 * harvest with many files calls it while its worker threads parse and this thread mostly waits,
 * instead of paying for it after the last file. Failures are left to refreshSearchCache to report.
 */
export function preloadSearchCache(): void {
  preloading ??= Promise.all([import('../bootstrap/cache.js'), import('../bootstrap/tokens.js').then((t) => t.loadCounter(t.DEFAULT_ENCODING))]).catch(() => undefined);
}

export async function refreshSearchCache(root: string): Promise<void> {
  try {
    const { writeSearchStructure } = await import('../bootstrap/cache.js');
    await writeSearchStructure(root);
  } catch (err) {
    note(`note: the bootstrap search cache was not rebuilt (${(err as Error).message}); bootstrap will rebuild it`);
  }
}
