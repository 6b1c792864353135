/** Composition: items by category, scope, repo, agent and status; a confidence histogram. */
import { CATEGORIES, SCOPES, STATUSES } from '../../knowledge/item.js';
import type { MeasureData, MeasuredItem } from '../data.js';
import { snapshotTrend, tally, type Metric } from '../metric.js';

export interface CompositionDetails {
  by_category: Record<string, number>;
  by_scope: Record<string, number>;
  by_repo: Record<string, number>;
  by_agent: Record<string, number>;
  by_status: Record<string, number>;
  /** Confidence buckets [0,0.2) [0.2,0.4) [0.4,0.6) [0.6,0.8) [0.8,1]. */
  confidence: Record<string, number>;
}

const BUCKETS = ['0.0-0.2', '0.2-0.4', '0.4-0.6', '0.6-0.8', '0.8-1.0'] as const;

function withZeros(keys: readonly string[], counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = counts[k] ?? 0;
  for (const k of Object.keys(counts).sort()) if (!(k in out)) out[k] = counts[k]!;
  return out;
}

function bucket(c: number): string {
  return BUCKETS[Math.min(4, Math.max(0, Math.floor(c * 5 + 1e-9)))]!;
}

export function composition(data: MeasureData): Metric<CompositionDetails> {
  const items = data.items;
  const repoItems = items.filter((i): i is MeasuredItem & { repo: string } => i.scope === 'repo' && i.repo !== undefined);
  const details: CompositionDetails = {
    by_category: withZeros(CATEGORIES, tally(items.map((i) => i.category))),
    by_scope: withZeros(SCOPES, tally(items.map((i) => i.scope))),
    by_repo: tally(repoItems.map((i) => i.repo)),
    by_agent: tally(items.map((i) => i.sourceAgent)),
    by_status: withZeros(STATUSES, tally(items.map((i) => i.status))),
    confidence: withZeros(BUCKETS, tally(items.map((i) => bucket(i.confidence)))),
  };
  return {
    title: 'Composition',
    definition:
      'Items in the store by category, scope, repo (repo-scoped items), agent (agent-scoped items by their agent, others by the format of their first evidence session) and status; confidence in five buckets.',
    value: items.length,
    display: items.length === 0 ? 'no items yet' : `${items.length} items`,
    trend: snapshotTrend(data.asOf, (t) => items.filter((i) => i.firstSeen <= t).length),
    counts: { items: items.length, repos: Object.keys(details.by_repo).length, agents: Object.keys(details.by_agent).length },
    details,
  };
}
