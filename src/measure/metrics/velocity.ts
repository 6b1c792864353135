/** Velocity: items added (by first_seen) and reinforced per day. */
import type { MeasureData } from '../data.js';
import { windowTrend, type Metric, type Trend } from '../metric.js';
import { round } from '../stable-json.js';
import { DAY_MS, dayKey, inWindow, lastDays, trailing, type Window } from '../time.js';

export interface VelocityDay {
  day: string;
  added: number;
  reinforced: number;
}

export interface VelocityDetails {
  /** The last 30 days, oldest first. */
  days: VelocityDay[];
  reinforced_trend: Trend;
}

export function velocity(data: MeasureData): Metric<VelocityDetails> {
  const added = (w: Window) => data.items.filter((i) => inWindow(i.firstSeen, w)).length;
  const reinforced = (w: Window) => data.items.reduce((n, i) => n + i.reinforcements.filter((t) => inWindow(t, w)).length, 0);
  const perDay = (count: (w: Window) => number) => (w: Window) => count(w) / ((w.end - w.start) / DAY_MS);
  const asOf = data.asOf;
  const w7 = asOf === undefined ? undefined : trailing(asOf, 7).current;
  const w30 = asOf === undefined ? undefined : trailing(asOf, 30).current;
  const days: VelocityDay[] =
    asOf === undefined
      ? []
      : lastDays(asOf, 30).map((start) => {
          const w = { start: start - 1, end: start + DAY_MS - 1 };
          return { day: dayKey(start), added: added(w), reinforced: reinforced(w) };
        });
  const value = w30 ? round(added(w30) / 30) : null;
  const rValue = w30 ? round(reinforced(w30) / 30) : null;
  const total = data.items.reduce((n, i) => n + i.evidence - 1, 0);
  const dated = data.items.reduce((n, i) => n + i.reinforcements.length, 0);
  return {
    title: 'Velocity',
    definition:
      'Items added per day (by first_seen) and reinforced per day (each later source session of an item, dated by that session; else its last_seen), over the last 30 days.',
    value,
    display: value === null ? 'n/a (no dated data)' : `${value.toFixed(2)} added/day, ${rValue!.toFixed(2)} reinforced/day`,
    trend: windowTrend(asOf, perDay(added)),
    counts: {
      items: data.items.length,
      added_7d: w7 ? added(w7) : null,
      added_30d: w30 ? added(w30) : null,
      reinforced_7d: w7 ? reinforced(w7) : null,
      reinforced_30d: w30 ? reinforced(w30) : null,
      reinforcements_total: total,
      reinforcements_dated: dated,
    },
    details: { days, reinforced_trend: windowTrend(asOf, perDay(reinforced)) },
  };
}
