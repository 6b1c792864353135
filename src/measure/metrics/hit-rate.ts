/**
 * Hit rate: of the sessions given a bootstrap block, the share that used at least one given item.
 * "Used" is decided when the session is measured (session-measure.ts): one of the item's key terms
 * appears in a tool call or the assistant's own text after the block.
 */
import { sessionsIn, type MeasureData, type MeasuredItem, type MeasuredSession } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { MISSING_FP } from '../session-measure.js';
import type { Window } from '../time.js';

export interface GivenItemStats {
  id: string;
  title: string;
  given: number;
  used: number;
}

export interface HitRateDetails {
  /** Items given at least once, most often given first. */
  items: GivenItemStats[];
}

interface Tally {
  given: number;
  judged: number;
  hits: number;
  pairs: number;
  usedPairs: number;
  missingPairs: number;
  pitfallPairs: number;
  pitfallPairsClean: number;
}

function tallySessions(sessions: readonly MeasuredSession[], items: ReadonlyMap<string, MeasuredItem>): Tally {
  const t: Tally = { given: 0, judged: 0, hits: 0, pairs: 0, usedPairs: 0, missingPairs: 0, pitfallPairs: 0, pitfallPairsClean: 0 };
  for (const s of sessions) {
    if (!s.given) continue;
    t.given++;
    const present = s.given.filter((g) => g.fp !== MISSING_FP && items.has(g.id));
    t.missingPairs += s.given.length - present.length;
    if (present.length === 0) continue; // nothing left to judge it by
    t.judged++;
    if (present.some((g) => g.used)) t.hits++;
    t.pairs += present.length;
    t.usedPairs += present.filter((g) => g.used).length;
    for (const g of present) {
      const sig = items.get(g.id)!.sigHash;
      if (!sig) continue;
      t.pitfallPairs++;
      if (!s.sigsAfter?.[sig]) t.pitfallPairsClean++;
    }
  }
  return t;
}

export function hitRate(data: MeasureData): Metric<HitRateDetails> {
  const items = new Map(data.items.map((i) => [i.id, i]));
  const all = tallySessions(data.sessions, items);
  const value = ratio(all.hits, all.judged);
  const perItem = new Map<string, GivenItemStats>();
  for (const s of data.sessions) {
    for (const g of s.given ?? []) {
      const item = items.get(g.id);
      if (!item || g.fp === MISSING_FP) continue;
      const row = perItem.get(g.id) ?? { id: g.id, title: item.title, given: 0, used: 0 };
      row.given++;
      if (g.used) row.used++;
      perItem.set(g.id, row);
    }
  }
  const inW = (w: Window) => tallySessions(sessionsIn(data, w), items);
  return {
    title: 'Hit rate',
    definition:
      'Of the sessions given a bootstrap block (its marker names the item ids), the share in which at least one given item was used: one of its key terms (code spans, commands, paths, file names, identifiers, flags, quoted errors from its title and text) appears in a later tool call or in the assistant\'s own text.',
    value,
    display:
      value === null
        ? all.given === 0
          ? 'n/a (no session was given a bootstrap block)'
          : 'n/a (the given items are not in the store)'
        : `${pct(value)} of ${all.judged} sessions; ${pct(ratio(all.usedPairs, all.pairs))} of given items used`,
    trend: windowTrend(data.asOf, (w) => {
      const t = inW(w);
      return ratio(t.hits, t.judged);
    }),
    counts: {
      sessions: data.sessions.length,
      sessions_given: all.given,
      sessions_judged: all.judged,
      sessions_used: all.hits,
      items_given: all.pairs,
      items_used: all.usedPairs,
      item_use_rate: ratio(all.usedPairs, all.pairs),
      items_given_not_in_store: all.missingPairs,
      pitfalls_given: all.pitfallPairs,
      pitfalls_given_error_not_recurred: all.pitfallPairsClean,
    },
    details: {
      items: [...perItem.values()].sort((a, b) => b.given - a.given || b.used - a.used || (a.id < b.id ? -1 : 1)),
    },
  };
}
