/**
 * The shape every metric shares: a one-line definition, a headline value, 7- and 30-day trends
 * and the raw counts behind it. A "window" trend compares the last N days with the N days before;
 * a "snapshot" trend compares the value now with the value N days ago.
 */
import { round } from './stable-json.js';
import { DAY_MS, trailing, type Window } from './time.js';

export interface TrendPoint {
  current: number | null;
  previous: number | null;
  delta: number | null;
}

export interface Trend {
  kind: 'window' | 'snapshot';
  d7: TrendPoint;
  d30: TrendPoint;
}

export type Counts = Record<string, number | string | null>;

export interface Metric<D = undefined> {
  title: string;
  definition: string;
  value: number | null;
  /** The value as a person reads it, with its unit (or why there is none). */
  display: string;
  trend: Trend;
  counts: Counts;
  details: D;
}

export function point(current: number | null, previous: number | null, digits = 4): TrendPoint {
  const r = (x: number | null) => (x === null ? null : round(x, digits));
  return { current: r(current), previous: r(previous), delta: current === null || previous === null ? null : r(current - previous) };
}

const NO_TREND: Trend = { kind: 'window', d7: point(null, null), d30: point(null, null) };

/** Trend of a value computed over a window: last 7/30 days against the 7/30 days before. */
export function windowTrend(asOf: number | undefined, valueIn: (w: Window) => number | null): Trend {
  if (asOf === undefined) return NO_TREND;
  const w7 = trailing(asOf, 7);
  const w30 = trailing(asOf, 30);
  return {
    kind: 'window',
    d7: point(valueIn(w7.current), valueIn(w7.previous)),
    d30: point(valueIn(w30.current), valueIn(w30.previous)),
  };
}

/** Trend of a value computed at a moment: now against 7/30 days ago. */
export function snapshotTrend(asOf: number | undefined, valueAt: (t: number) => number | null): Trend {
  if (asOf === undefined) return { ...NO_TREND, kind: 'snapshot' };
  const now = valueAt(asOf);
  return {
    kind: 'snapshot',
    d7: point(now, valueAt(asOf - 7 * DAY_MS)),
    d30: point(now, valueAt(asOf - 30 * DAY_MS)),
  };
}

/** part / whole to 4 decimals (what files show), or null when there is no whole. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole);
}

export function pct(x: number | null, digits = 1): string {
  return x === null ? 'n/a' : `${(x * 100).toFixed(digits)}%`;
}

/** Counts by key, keys sorted, so the JSON and the tables read the same every run. */
export function tally(keys: Iterable<string>): Record<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  const out: Record<string, number> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}
