/** Coverage: repos seen in sessions that have at least one repo-scoped item, over all repos seen. */
import type { MeasureData } from '../data.js';
import { pct, ratio, snapshotTrend, type Metric } from '../metric.js';

export interface RepoCoverage {
  repo: string;
  sessions: number;
  items: number;
}

export interface CoverageDetails {
  /** Every repo seen, most sessions first. */
  repos: RepoCoverage[];
}

export function coverage(data: MeasureData): Metric<CoverageDetails> {
  const at = (t: number | undefined) => {
    const seen = new Map<string, number>();
    for (const s of data.sessions) {
      // undated sessions count now, but cannot be placed in the past
      const included = t === undefined || (s.time === undefined ? t === data.asOf : s.time <= t);
      if (!s.repoName || !included) continue;
      seen.set(s.repoName, (seen.get(s.repoName) ?? 0) + 1);
    }
    const items = new Map<string, number>();
    for (const i of data.items) if (i.scope === 'repo' && i.repo && (t === undefined || i.firstSeen <= t)) items.set(i.repo, (items.get(i.repo) ?? 0) + 1);
    return { seen, items };
  };
  const now = at(data.asOf);
  const repos: RepoCoverage[] = [...now.seen.entries()]
    .map(([repo, sessions]) => ({ repo, sessions, items: now.items.get(repo) ?? 0 }))
    .sort((a, b) => b.sessions - a.sessions || (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
  const covered = repos.filter((r) => r.items > 0).length;
  const value = ratio(covered, repos.length);
  const valueAt = (t: number) => {
    const s = at(t);
    return ratio([...s.seen.keys()].filter((r) => (s.items.get(r) ?? 0) > 0).length, s.seen.size);
  };
  return {
    title: 'Coverage',
    definition: 'Repos seen in the measured sessions that have at least one repo-scoped item, over all repos seen.',
    value,
    display: value === null ? 'n/a (no session names a repo)' : `${pct(value)} (${covered} of ${repos.length} repos)`,
    trend: snapshotTrend(data.asOf, valueAt),
    counts: {
      repos_seen: repos.length,
      repos_covered: covered,
      sessions: data.sessions.length,
      sessions_without_repo: data.sessions.filter((s) => !s.repoName).length,
    },
    details: { repos },
  };
}
