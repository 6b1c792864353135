import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../../src/measure/measure.js';
import { parseDateFlag } from '../../src/measure/time.js';
import { tempDir } from '../helpers.js';
import { ID, writeFixture } from './fixture.js';

const AS_OF = parseDateFlag('2026-03-12', '--as-of'); // 2026-03-12T23:59:59.999Z

async function fixtureRun() {
  const root = tempDir('compound-measure-');
  const { transcripts } = writeFixture(root);
  const result = await measure({ root, inputs: [transcripts], asOf: AS_OF });
  return { root, transcripts, result, m: result.report.metrics };
}

describe('measure: every metric has its exact value on the fixture', () => {
  it('reads the inputs and the as-of date', async () => {
    const { result } = await fixtureRun();
    expect(result.report.as_of).toBe('2026-03-12T23:59:59Z');
    expect(result.report.as_of_source).toBe('flag');
    expect(result.report.inputs).toEqual({ items: 5, sessions: 7, sessions_dated: 7, subagent_sessions: 0, first_session: '2026-03-01T09:00:01Z', last_session: '2026-03-12T09:00:01Z' });
  });

  it('velocity: added by first_seen, reinforced by later source sessions', async () => {
    const { m } = await fixtureRun();
    expect(m.velocity.counts).toEqual({ items: 5, added_7d: 2, added_30d: 3, reinforced_7d: 1, reinforced_30d: 1, reinforcements_total: 1, reinforcements_dated: 1 });
    expect(m.velocity.value).toBe(0.1);
    expect(m.velocity.trend.d7).toEqual({ current: 0.2857, previous: 0.1429, delta: 0.1429 }); // 2/7 vs 1/7 (P1 on 03-05)
    const days = m.velocity.details.days;
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.day).toBe('2026-03-12');
    expect(days.find((d) => d.day === '2026-03-06')).toEqual({ day: '2026-03-06', added: 2, reinforced: 0 });
    expect(days.find((d) => d.day === '2026-03-10')).toEqual({ day: '2026-03-10', added: 0, reinforced: 1 });
  });

  it('composition by category, scope, repo, agent, status and confidence', async () => {
    const { m } = await fixtureRun();
    expect(m.composition.value).toBe(5);
    expect(m.composition.details).toEqual({
      by_category: { fact: 1, pitfall: 1, pattern: 1, 'tool-quirk': 1, question: 1 },
      by_scope: { global: 2, repo: 2, agent: 1 },
      by_repo: { shop: 2 },
      by_agent: { 'claude-code': 4, codex: 1 },
      by_status: { active: 4, stale: 1, superseded: 0, quarantined: 0 },
      confidence: { '0.0-0.2': 0, '0.2-0.4': 1, '0.4-0.6': 1, '0.6-0.8': 2, '0.8-1.0': 1 },
    });
    expect(m.composition.trend).toEqual({ kind: 'snapshot', d7: { current: 5, previous: 3, delta: 2 }, d30: { current: 5, previous: 2, delta: 3 } });
  });

  it('coverage: shop has items, blog has none', async () => {
    const { m } = await fixtureRun();
    expect(m.coverage.value).toBe(0.5);
    expect(m.coverage.details.repos).toEqual([
      { repo: 'shop', sessions: 6, items: 2 },
      { repo: 'blog', sessions: 1, items: 0 },
    ]);
    // 7 days ago blog had not been seen yet: 1 of 1
    expect(m.coverage.trend.d7).toEqual({ current: 0.5, previous: 1, delta: -0.5 });
  });

  it('hit rate: two of three bootstrapped sessions used a given item; half the given items were used', async () => {
    const { m } = await fixtureRun();
    expect(m.hit_rate.value).toBe(0.6667);
    expect(m.hit_rate.counts).toEqual({
      sessions: 7,
      sessions_given: 3,
      sessions_judged: 3,
      sessions_used: 2,
      items_given: 4,
      items_used: 2,
      item_use_rate: 0.5,
      items_given_not_in_store: 0,
      pitfalls_given: 2,
      pitfalls_given_error_not_recurred: 1,
    });
    expect(m.hit_rate.details.items).toEqual([
      { id: ID.P1, title: 'npm run migrate fails: relation already exists', given: 2, used: 2 },
      { id: ID.F1, title: 'Integration tests read DATABASE_URL', given: 2, used: 0 },
    ]);
  });

  it('error recurrence: before and after first_seen, given and not given', async () => {
    const { m } = await fixtureRun();
    const [p1] = m.error_recurrence.details.pitfalls;
    expect(m.error_recurrence.details.pitfalls).toHaveLength(1);
    expect(p1).toEqual({
      id: ID.P1,
      title: 'npm run migrate fails: relation already exists',
      signature: 'error: relation <s> already exists',
      first_seen: '2026-03-05T10:00:00Z',
      before: { sessions: 2, with_error: 1, occurrences: 1, rate: 0.5 },
      after: { sessions: 4, with_error: 2, occurrences: 3, rate: 0.5 },
      given: { sessions: 2, with_error: 1, occurrences: 1, rate: 0.5 },
      not_given: { sessions: 2, with_error: 1, occurrences: 2, rate: 0.5 },
    });
    expect(m.error_recurrence.value).toBe(0.5);
    expect(m.error_recurrence.counts.pitfalls).toBe(1);
  });

  it('first-try success: mean per-session tool-call error rate', async () => {
    const { m } = await fixtureRun();
    // per session: 1/2, 0/1, 0/2, 0/1, 2/3, 1/1, 0/2
    expect(m.first_try_success.value).toBe(Math.round(((0.5 + 2 / 3 + 1) / 7) * 1e4) / 1e4);
    expect(m.first_try_success.counts).toEqual({ sessions: 7, sessions_with_calls: 7, sessions_without_errors: 4, tool_calls: 12, tool_errors: 4, pooled_error_rate: 0.3333 });
    const d = m.first_try_success.details.days;
    expect(d.find((x) => x.day === '2026-03-10')).toEqual({ day: '2026-03-10', sessions: 1, calls: 3, errors: 2, rate: 0.6667 });
    expect(d.find((x) => x.day === '2026-03-04')).toEqual({ day: '2026-03-04', sessions: 0, calls: 0, errors: 0, rate: null });
  });

  it('age and staleness: the agent quirk from February is stale; the stale-status item is not counted', async () => {
    const { m } = await fixtureRun();
    expect(m.age_staleness.counts).toEqual({ active: 4, stale_30d: 1, stale_90d: 0, median_age_days: 7.3 });
    expect(m.age_staleness.details.oldest.map((o) => [o.id, o.age_days, o.last_seen])).toEqual([
      [ID.A1, 39, '2026-02-01T00:00:00Z'],
      [ID.P1, 7, '2026-03-10T12:00:03Z'],
      [ID.F1, 6, '2026-03-06T00:00:00Z'],
      [ID.Q1, 6, '2026-03-06T00:00:00Z'],
    ]);
  });

  it('cost: not recorded when the ledger has no cost fields', async () => {
    const { m } = await fixtureRun();
    expect(m.cost.value).toBeNull();
    expect(m.cost.display).toMatch(/^not recorded/);
    expect(m.cost.counts.harvested_items).toBe(6);
  });

  it('review outcome: an emitted id with no file was rejected', async () => {
    const { m } = await fixtureRun();
    expect(m.review_outcome.value).toBe(1);
    expect(m.review_outcome.details.rejected).toEqual([ID.rejected]);
    expect(m.review_outcome.counts).toMatchObject({ emitted: 6, rejected: 1, git_history: 'not a git repository', git_deletions: 0 });
  });

  it('the dashboard shows each metric with definition, value, both trends, counts and the charts', async () => {
    const { root, result } = await fixtureRun();
    const md = readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
    expect(md).toBe(result.dashboard);
    for (const title of ['Velocity', 'Composition', 'Coverage', 'Hit rate', 'Error recurrence', 'First-try success', 'Age and staleness', 'Cost', 'Review outcome']) {
      const section = md.split(`\n## ${title}\n`)[1]!.split('\n## ')[0]!;
      expect(section).toMatch(/^\n_.+_\n/); // one-line definition
      // a metric with no value on either side of either window says so once, in its value
      const trend = result.report.metrics[Object.keys(result.report.metrics).find((k) => result.report.metrics[k as keyof typeof result.report.metrics].title === title) as keyof typeof result.report.metrics].trend;
      const hasTrend = [trend.d7, trend.d30].some((p) => p.current !== null || p.previous !== null);
      if (hasTrend) {
        expect(section).toContain('| Trend |');
        expect(section).toMatch(/\| (last 7 days vs the 7 before|now vs 7 days ago) \|/);
        expect(section).toMatch(/\| (last 30 days vs the 30 before|now vs 30 days ago) \|/);
      } else expect(section).not.toContain('| Trend |');
      expect(section).toContain('Counts: ');
      expect(section).not.toMatch(/Counts: .*n\/a/);
    }
    expect(md).toContain('| Trend |');
    expect(md.match(/```mermaid\nxychart-beta/g)).toHaveLength(2);
    expect(md).toContain('"Used", concretely');
    expect(md).toContain('| npm run migrate fails: relation already exists (`aaaaaaaaa1`) | `error: relation <s> already exists` | 2026-03-05 | 1/2 (50.0%) | 2/4 (50.0%) | 1/2 (50.0%) | 1/2 (50.0%) |');
  });
});
