/**
 * Dates for the measurer. Every date comes from the data or a flag, never the clock, so the same
 * inputs give the same files. Days are UTC days; windows are half-open (start, end].
 */
import { UsageError } from '../core/errors.js';

export const DAY_MS = 86_400_000;

/** Milliseconds of an ISO date or timestamp, or undefined when it is missing or unparsable. */
export function toMs(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `YYYY-MM-DD` of a time (UTC). */
export function dayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Start of the UTC day holding `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** ISO form used in files: second precision, UTC. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Parses `--as-of` / `--since`. A bare date means the end of that day for `--as-of` (so "as of
 * May 11" includes May 11) and its start for `--since`.
 */
export function parseDateFlag(value: string, flag: '--as-of' | '--since'): number {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const ms = toMs(bare ? `${value.trim()}T00:00:00Z` : value.trim());
  if (ms === undefined || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) {
    throw new UsageError(`${flag} "${value}" is not a date`, { fix: `use a date like 2026-05-11 or 2026-05-11T12:00:00Z` });
  }
  return bare && flag === '--as-of' ? ms + DAY_MS - 1 : ms;
}

/** A half-open time window (start, end]. */
export interface Window {
  start: number;
  end: number;
}

export function inWindow(ms: number | undefined, w: Window): boolean {
  return ms !== undefined && ms > w.start && ms <= w.end;
}

/** The window of `days` days ending at `end`, and the one just before it. */
export function trailing(end: number, days: number): { current: Window; previous: Window } {
  const span = days * DAY_MS;
  return { current: { start: end - span, end }, previous: { start: end - 2 * span, end: end - span } };
}

/** The last `n` UTC days ending with the day of `asOf`, oldest first. */
export function lastDays(asOf: number, n: number): number[] {
  const last = dayStart(asOf);
  return Array.from({ length: n }, (_, i) => last - (n - 1 - i) * DAY_MS);
}

/** Index of the first value greater than `t` in an ascending list. */
export function upperBound(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
