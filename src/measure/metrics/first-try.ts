/** First-try success: the tool-call error rate per session, over time. */
import { sessionsIn, type MeasureData, type MeasuredSession } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { round } from '../stable-json.js';
import { DAY_MS, dayKey, lastDays, type Window } from '../time.js';

export interface ErrorRateDay {
  day: string;
  sessions: number;
  calls: number;
  errors: number;
  /** Mean of the per-session error rates of that day's sessions (null when none made a call). */
  rate: number | null;
}

export interface FirstTryDetails {
  /** The last 30 days, oldest first. */
  days: ErrorRateDay[];
}

function meanRate(sessions: readonly MeasuredSession[]): number | null {
  const withCalls = sessions.filter((s) => s.calls > 0);
  if (withCalls.length === 0) return null;
  return withCalls.reduce((n, s) => n + Math.min(1, s.errors / s.calls), 0) / withCalls.length;
}

export function firstTry(data: MeasureData): Metric<FirstTryDetails> {
  const withCalls = data.sessions.filter((s) => s.calls > 0);
  const calls = withCalls.reduce((n, s) => n + s.calls, 0);
  const errors = withCalls.reduce((n, s) => n + s.errors, 0);
  const value = meanRate(withCalls);
  const inW = (w: Window) => sessionsIn(data, w);
  const days: ErrorRateDay[] =
    data.asOf === undefined
      ? []
      : lastDays(data.asOf, 30).map((start) => {
          const day = inW({ start: start - 1, end: start + DAY_MS - 1 });
          const rate = meanRate(day);
          return {
            day: dayKey(start),
            sessions: day.length,
            calls: day.reduce((n, s) => n + s.calls, 0),
            errors: day.reduce((n, s) => n + s.errors, 0),
            rate: rate === null ? null : round(rate),
          };
        });
  return {
    title: 'First-try success',
    definition:
      'Tool-call error rate per session (failing tool results, not cascades or calls the user rejected, over tool calls), averaged over sessions that made a call; first-try success is one minus it.',
    value: value === null ? null : round(value),
    display: value === null ? 'n/a (no session made a tool call)' : `${pct(value)} of tool calls fail per session (first-try success ${pct(1 - value)})`,
    trend: windowTrend(data.asOf, (w) => meanRate(inW(w))),
    counts: {
      sessions: data.sessions.length,
      sessions_with_calls: withCalls.length,
      sessions_without_errors: withCalls.filter((s) => s.errors === 0).length,
      tool_calls: calls,
      tool_errors: errors,
      pooled_error_rate: ratio(errors, calls) === null ? null : round(errors / calls),
    },
    details: { days },
  };
}
