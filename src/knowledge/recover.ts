/**
 * What a writer does first, holding the lock: finish a run that was killed (see
 * transaction.ts). Its files are written again, its ledger and index, and the commit it meant
 * to make is made (unless it was, before the kill).
 */
import { abs } from './fsutil.js';
import { existsSync } from 'node:fs';
import { INDEX_FILE, LEDGER_FILE } from './paths.js';
import { replayJournalFiles } from './plan.js';
import type { IndexCountsFor } from './index-file.js';
import { endJournal, readJournal, sweepTempFiles } from './transaction.js';
import type { CommitResult } from './git.js';

export interface Recovery {
  /** An interrupted run was finished. */
  replayed: boolean;
  committed?: CommitResult;
  /** Temp files of killed writers removed. */
  swept: number;
}

/** `indexCounts`: token counts for the index written again (see ApplyHooks). */
export async function recoverStore(root: string, indexCounts?: IndexCountsFor): Promise<Recovery> {
  const swept = sweepTempFiles(root);
  const journal = readJournal(root);
  if (!journal) return { replayed: false, swept };
  const applied = replayJournalFiles(root, journal, indexCounts);
  let committed: CommitResult | undefined;
  if (journal.commit) {
    const { commitChanges } = await import('./git.js');
    committed = await commitChanges({
      root,
      changed: [...new Set([...applied.changed, INDEX_FILE, LEDGER_FILE])].filter((p) => existsSync(abs(root, p))),
      removed: applied.removed,
      message: journal.commit.message,
      ...(journal.commit.branch ? { branch: journal.commit.branch } : {}),
      ...(journal.commit.author ? { author: journal.commit.author } : {}),
      onlyIfChanged: true,
    });
  }
  endJournal(root);
  return { replayed: true, ...(committed ? { committed } : {}), swept };
}
