/** All metrics from the measurer's data: pure, so the same data gives the same numbers. */
import type { MeasureData } from './data.js';
import { composition } from './metrics/composition.js';
import { cost } from './metrics/cost.js';
import { coverage } from './metrics/coverage.js';
import { firstTry } from './metrics/first-try.js';
import { hitRate } from './metrics/hit-rate.js';
import { errorRecurrence } from './metrics/recurrence.js';
import { review } from './metrics/review.js';
import { staleness } from './metrics/staleness.js';
import { velocity } from './metrics/velocity.js';
import { isoSeconds } from './time.js';

export const METRICS_VERSION = 1;

export function computeMetrics(data: MeasureData) {
  return {
    velocity: velocity(data),
    composition: composition(data),
    coverage: coverage(data),
    hit_rate: hitRate(data),
    error_recurrence: errorRecurrence(data),
    first_try_success: firstTry(data),
    age_staleness: staleness(data),
    cost: cost(data),
    review_outcome: review(data),
  };
}

export type Metrics = ReturnType<typeof computeMetrics>;
export type MetricName = keyof Metrics;

/** What metrics.json holds: the as-of date, what was measured, and every metric. */
export interface MetricsReport {
  version: number;
  as_of: string | null;
  as_of_source: MeasureData['asOfSource'];
  since: string | null;
  inputs: {
    items: number;
    sessions: number;
    sessions_dated: number;
    subagent_sessions: number;
    first_session: string | null;
    last_session: string | null;
  };
  metrics: Metrics;
}

export function buildReport(data: MeasureData): MetricsReport {
  const dated = data.sessions.filter((s) => s.time !== undefined);
  return {
    version: METRICS_VERSION,
    as_of: data.asOf === undefined ? null : isoSeconds(data.asOf),
    as_of_source: data.asOfSource,
    since: data.since === undefined ? null : isoSeconds(data.since),
    inputs: {
      items: data.items.length,
      sessions: data.sessions.length,
      sessions_dated: dated.length,
      subagent_sessions: data.sessions.filter((s) => s.subagent).length,
      first_session: dated.length ? isoSeconds(dated[0]!.time!) : null,
      last_session: dated.length ? isoSeconds(dated[dated.length - 1]!.time!) : null,
    },
    metrics: computeMetrics(data),
  };
}
