/**
 * Review outcome: items reviewers rejected. The ledger lists every id the harvester wrote; one
 * with no file now was deleted. Git history (when the store is in a repository) dates each
 * deletion of an item file that was not a move.
 */
import type { Deletion, MeasureData } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { inWindow, isoSeconds } from '../time.js';

export interface ReviewDetails {
  /** Ids in the ledger's emitted list with no item file. */
  rejected: string[];
  /** Item files deleted in git history, newest first. */
  deletions: { id: string; path: string; date: string; commit: string }[];
}

export function review(data: MeasureData): Metric<ReviewDetails> {
  const present = new Set(data.storeIds);
  const rejected = data.emitted.filter((id) => !present.has(id));
  const deletions: Deletion[] = [...data.history.deletions].sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : 1));
  const history = data.history.available;
  return {
    title: 'Review outcome',
    definition:
      'Items rejected by reviewers: ids in the ledger\'s `emitted` list with no item file, over all emitted ids; and item files deleted (not moved) in the git history of knowledge/.',
    value: rejected.length,
    display:
      data.emitted.length === 0 && !history
        ? 'n/a (nothing harvested yet)'
        : `${rejected.length} of ${data.emitted.length} harvested items rejected (${pct(ratio(rejected.length, data.emitted.length))})${history ? `; ${deletions.length} deletions in git history` : ''}`,
    trend: history ? windowTrend(data.asOf, (w) => deletions.filter((d) => inWindow(d.time, w)).length) : windowTrend(undefined, () => null),
    counts: {
      emitted: data.emitted.length,
      rejected: rejected.length,
      rejected_share: ratio(rejected.length, data.emitted.length),
      git_history: history ? 'yes' : (data.history.reason ?? 'no'),
      git_commits: data.history.commits,
      git_deletions: deletions.length,
    },
    details: {
      rejected,
      deletions: deletions.map((d) => ({ id: d.id, path: d.path, date: isoSeconds(d.time), commit: d.commit })),
    },
  };
}
