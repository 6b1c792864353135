/** The nightly pull request's body fits GitHub's limit at any size (issue 35). */
import { describe, expect, it } from 'vitest';
import { renderPrBody, PR_BODY_MAX_CHARS } from '../../src/harvest/pr-body.js';
import type { MergeRecord } from '../../src/harvest/merge.js';
import type { Plan } from '../../src/knowledge/plan.js';
import type { HarvestStats } from '../../src/harvest/harvest.js';

const stats: HarvestStats = { files: 3000, filesSkipped: 0, filesFailed: 0, sessions: 3000, sessionsSkipped: 0, sessionsPending: 0, candidates: 3000, redactions: 0, warnings: 0 };

function record(i: number, extra: Partial<MergeRecord['candidate']> = {}, outcome: MergeRecord['outcome'] = 'added'): MergeRecord {
  const id = i.toString(16).padStart(10, '0');
  return {
    outcome,
    id,
    origin: { session: `session-${i}`, format: 'claude-code', seen: '2026-03-01T00:00:00Z' },
    candidate: { category: i % 2 ? 'pitfall' : 'fact', scope: 'repo', repo: 'shop', title: `Item number ${i} with a title long enough to take some room in the body`, text: 'x', confidence: 0.7, tags: [], evidence: { event: i, line: i + 1 }, quotes: [`quoted evidence for item ${i} that is not short either`], rule: 'test', ...extra },
  };
}

describe('the PR body', () => {
  it('stays under the limit with thousands of items, quarantined ones first, and links the whole report', () => {
    const records = [record(0, { quarantine: 'its text tells the agent to run downloaded code' }), ...Array.from({ length: 3000 }, (_, i) => record(i + 1))];
    const plan: Plan = { entries: records.map((r) => ({ action: 'add' as const, id: r.id, category: r.candidate.category, scope: 'repo' as const, title: r.candidate.title, path: `knowledge/repos/shop/${r.candidate.category}/item-${r.id}.md` })) };
    const body = renderPrBody(plan, records, stats, { fullReport: 'metrics/harvest-report.md', linkBase: 'https://github.com/o/r/blob/knowledge/nightly/' });
    expect(body.length).toBeLessThanOrEqual(PR_BODY_MAX_CHARS);
    expect(body.indexOf('### Quarantined')).toBeLessThan(body.indexOf('### Added'));
    expect(body).toMatch(/more item line\(s\) are not shown/);
    expect(body).toContain('[metrics/harvest-report.md](https://github.com/o/r/blob/knowledge/nightly/metrics/harvest-report.md)');
    const whole = renderPrBody(plan, records, stats, { maxChars: Number.MAX_SAFE_INTEGER });
    expect(whole.length).toBeGreaterThan(PR_BODY_MAX_CHARS);
    expect(whole).toContain('Item number 3000 ');
    // a small body is not cut
    const small = renderPrBody(plan, records.slice(0, 3), stats);
    expect(small).not.toContain('not shown');
  });
});
