/**
 * Review outcome: items reviewers rejected. The ledger lists every id the harvester wrote; one
 * with no file now was deleted. Git history (when the store is in a repository) dates each
 * deletion of an item file that was not a move, and keeps what each harvest commit wrote: an
 * item whose category, title and text are still as written was kept, otherwise edited.
 */
import type { Deletion, MeasureData, WrittenItem } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { inWindow, isoSeconds } from '../time.js';

/** What reviewers did with the items of one category and extractor. */
export interface ReviewRow {
  category: string;
  extractor: string;
  kept: number;
  edited: number;
  deleted: number;
  /** Written on the harvest branch, not merged yet. */
  pending: number;
}

export interface ReviewDetails {
  /** Ids in the ledger's emitted list with no item file. */
  rejected: string[];
  /** Per category and extractor, from the items harvest commits wrote (empty without history). */
  outcomes: ReviewRow[];
  /** Item files deleted in git history, newest first. */
  deletions: { id: string; path: string; date: string; commit: string }[];
}

/**
 * Each written item's fate on this branch: its file (found by id) as written → kept, changed →
 * edited; no file and the ledger here lists the id → deleted in review; else not merged yet.
 */
export function reviewOutcomes(written: readonly WrittenItem[], data: Pick<MeasureData, 'items' | 'emitted'>): ReviewRow[] {
  const now = new Map(data.items.map((i) => [i.id, i.reviewFp]));
  const emitted = new Set(data.emitted);
  const rows = new Map<string, ReviewRow>();
  for (const w of written) {
    const key = `${w.category}\u0000${w.extractor}`;
    const row = rows.get(key) ?? { category: w.category, extractor: w.extractor, kept: 0, edited: 0, deleted: 0, pending: 0 };
    const fp = now.get(w.id);
    if (fp !== undefined) row[fp === w.fp ? 'kept' : 'edited']++;
    else row[emitted.has(w.id) ? 'deleted' : 'pending']++;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : a.extractor < b.extractor ? -1 : 1));
}

export function review(data: MeasureData): Metric<ReviewDetails> {
  const present = new Set(data.storeIds);
  const rejected = data.emitted.filter((id) => !present.has(id));
  const deletions: Deletion[] = [...data.history.deletions].sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : 1));
  const history = data.history.available;
  const outcomes = reviewOutcomes(data.history.written ?? [], data);
  const sum = (k: 'kept' | 'edited' | 'deleted' | 'pending') => outcomes.reduce((n, r) => n + r[k], 0);
  const reviewed = sum('kept') + sum('edited') + sum('deleted');
  return {
    title: 'Review outcome',
    definition:
      'Items rejected by reviewers: ids in the ledger\'s `emitted` list with no item file, over all emitted ids; and item files deleted (not moved) in the git history of knowledge/.',
    value: rejected.length,
    display:
      data.emitted.length === 0 && !history
        ? 'n/a (nothing harvested yet)'
        : `${rejected.length} of ${data.emitted.length} harvested items rejected (${pct(ratio(rejected.length, data.emitted.length))})${history ? `; ${deletions.length} deletions in git history` : ''}${reviewed > 0 ? `; of ${reviewed} reviewed, ${sum('kept')} kept as written, ${sum('edited')} edited, ${sum('deleted')} deleted` : ''}`,
    trend: history ? windowTrend(data.asOf, (w) => deletions.filter((d) => inWindow(d.time, w)).length) : windowTrend(undefined, () => null),
    counts: {
      emitted: data.emitted.length,
      rejected: rejected.length,
      rejected_share: ratio(rejected.length, data.emitted.length),
      git_history: history ? 'yes' : (data.history.reason ?? 'no'),
      git_commits: data.history.commits,
      git_deletions: deletions.length,
      reviewed_kept: sum('kept'),
      reviewed_edited: sum('edited'),
      reviewed_deleted: sum('deleted'),
      not_merged: sum('pending'),
    },
    details: {
      rejected,
      outcomes,
      deletions: deletions.map((d) => ({ id: d.id, path: d.path, date: isoSeconds(d.time), commit: d.commit })),
    },
  };
}
