/** Age and staleness: active items not reinforced in 30 and 90 days; the oldest items. */
import type { MeasureData, MeasuredItem } from '../data.js';
import { pct, ratio, snapshotTrend, type Metric } from '../metric.js';
import { round } from '../stable-json.js';
import { DAY_MS, isoSeconds } from '../time.js';

export interface OldItem {
  id: string;
  title: string;
  path: string;
  first_seen: string;
  last_seen: string;
  age_days: number;
}

export interface StalenessDetails {
  oldest: OldItem[];
}

/** When the item was last seen as of `t`: its newest dated sighting not after `t`. */
export function lastSeenAt(item: MeasuredItem, t: number): number {
  let last = item.firstSeen;
  for (const r of item.reinforcements) if (r <= t && r > last) last = r;
  if (item.lastSeen <= t && item.lastSeen > last) last = item.lastSeen;
  return last;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function staleness(data: MeasureData): Metric<StalenessDetails> {
  const activeAt = (t: number) => data.items.filter((i) => i.status === 'active' && i.firstSeen <= t);
  const staleAt = (t: number, days: number) => activeAt(t).filter((i) => lastSeenAt(i, t) < t - days * DAY_MS).length;
  const asOf = data.asOf;
  const active = asOf === undefined ? [] : activeAt(asOf);
  const s30 = asOf === undefined ? null : staleAt(asOf, 30);
  const s90 = asOf === undefined ? null : staleAt(asOf, 90);
  const oldest: OldItem[] =
    asOf === undefined
      ? []
      : [...active]
          .sort((a, b) => a.firstSeen - b.firstSeen || (a.id < b.id ? -1 : 1))
          .slice(0, 5)
          .map((i) => ({
            id: i.id,
            title: i.title,
            path: i.path,
            first_seen: isoSeconds(i.firstSeen),
            last_seen: isoSeconds(lastSeenAt(i, asOf)),
            age_days: Math.floor((asOf - i.firstSeen) / DAY_MS),
          }));
  const ages = asOf === undefined ? [] : active.map((i) => (asOf - i.firstSeen) / DAY_MS);
  const med = median(ages);
  return {
    title: 'Age and staleness',
    definition: 'Active items whose newest sighting (first_seen, a dated reinforcement or last_seen) is more than 30 (and 90) days before the as-of date; the oldest active items.',
    value: s30,
    display: s30 === null ? 'n/a (no dated data)' : active.length === 0 ? 'no active items' : `${s30} of ${active.length} active items (${pct(ratio(s30, active.length))}) not seen in 30 days, ${s90} in 90`,
    trend: snapshotTrend(asOf, (t) => staleAt(t, 30)),
    counts: {
      active: active.length,
      stale_30d: s30,
      stale_90d: s90,
      median_age_days: med === null ? null : round(med, 1),
    },
    details: { oldest },
  };
}
