/**
 * What `harvest --top N` chooses from: the transcripts the ledger has not harvested as they are
 * now. Ranking every file and then skipping the known ones filled the N slots with transcripts
 * harvested before: rerun over the same folder, `--top 50` took the same 50 every night and
 * never reached the 51st, and it scanned every file's head and tail to find that out.
 *
 * A file is known when its content hash is in the ledger. The hash comes from the hash cache
 * when the file's stat still matches its record (a stat, no read), else from hashing the file.
 * The records of every file seen are handed back, so that the next hash cache keeps them (the
 * files not chosen are not read by the harvest, which would otherwise forget them) and the
 * chosen ones are not hashed twice.
 */
import { statSync } from 'node:fs';
import { hashFile, pathKey, sameStat, type FileStat, type HashRecord } from './file-hash.js';

export interface HarvestedSplit {
  /** Files to rank: new, grown, unreadable (the sampler warns about those) or not plain files. */
  fresh: string[];
  /** Files the ledger has harvested as they are now. */
  known: string[];
  /** Hash records by path key: those of the cache that still hold, and new ones for files hashed
   * here whose stat is older than `trustBefore` (a file written since could change unseen). */
  records: Map<string, HashRecord>;
}

export async function splitHarvested(
  files: readonly string[],
  cache: ReadonlyMap<string, HashRecord>,
  ledgerHashes: ReadonlySet<string>,
  trustBefore: number,
): Promise<HarvestedSplit> {
  const out: HarvestedSplit = { fresh: [], known: [], records: new Map() };
  for (const file of files) {
    let hash: string;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) {
        out.fresh.push(file);
        continue;
      }
      const st: FileStat = { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
      const key = pathKey(file);
      const cached = cache.get(key);
      if (cached && sameStat(cached, st)) {
        hash = cached.hash;
        out.records.set(key, cached);
      } else {
        hash = await hashFile(file);
        if (st.mtimeMs < trustBefore && st.ctimeMs < trustBefore) out.records.set(key, { ...st, hash });
      }
    } catch {
      out.fresh.push(file); // reading it reports the problem with a proper warning
      continue;
    }
    // (a ledger of an older version may know the file by an older hash only: it is then ranked,
    // and the harvest skips it if chosen, teaching the ledger its new hash)
    if (ledgerHashes.has(hash)) out.known.push(file);
    else out.fresh.push(file);
  }
  return out;
}
