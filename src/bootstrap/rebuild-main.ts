/** `node rebuild-main.js <store root> <marker>`: writes the search structure, then drops the
 * marker (see rebuild.ts). Errors are silent: the next session start reads index.json again. */
import { rmSync } from 'node:fs';
import { writeSearchStructure } from './cache.js';

const [root, marker] = process.argv.slice(2);
try {
  if (root) await writeSearchStructure(root);
} catch {
  /* nothing to report to: detached */
} finally {
  if (marker) rmSync(marker, { force: true });
}
