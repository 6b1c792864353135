/** After index.json changes, rebuild the bootstrap search structure so the next session start
 * does not pay for it. A failure here never fails the command: bootstrap rebuilds lazily. */
import { note } from './io.js';

export async function refreshSearchCache(root: string): Promise<void> {
  try {
    const { writeSearchStructure } = await import('../bootstrap/cache.js');
    await writeSearchStructure(root);
  } catch (err) {
    note(`note: the bootstrap search cache was not rebuilt (${(err as Error).message}); bootstrap will rebuild it`);
  }
}
