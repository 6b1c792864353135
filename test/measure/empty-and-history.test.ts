import { describe, expect, it } from 'vitest';
import fs, { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { measure } from '../../src/measure/measure.js';
import { readHistory, idFromItemPath } from '../../src/measure/history.js';
import { initStore } from '../../src/knowledge/init.js';
import { loadStore } from '../../src/knowledge/store.js';
import { tempDir } from '../helpers.js';
import { ID, writeFixture } from './fixture.js';

const author = (iso: string) => ({ name: 'Test Bot', email: 'bot@example.invalid', timestamp: Date.parse(iso) / 1000, timezoneOffset: 0 });

async function commitAll(dir: string, message: string, iso: string): Promise<string> {
  const status = await git.statusMatrix({ fs, dir });
  for (const [filepath, head, work] of status) {
    if (work === 0) await git.remove({ fs, dir, filepath });
    else if (head !== work || work === 2) await git.add({ fs, dir, filepath });
  }
  return git.commit({ fs, dir, message, author: author(iso), committer: author(iso) });
}

describe('measure: an empty store and no sessions', () => {
  it('writes a valid dashboard that says there is nothing yet', async () => {
    const root = tempDir('compound-measure-empty-');
    const r = await measure({ root, inputs: [] });
    const md = readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
    expect(md).toContain('No knowledge items yet');
    expect(md).toContain('No sessions measured');
    expect(md).toContain('As of no dated data.');
    const json = JSON.parse(readFileSync(join(root, 'metrics', 'metrics.json'), 'utf8')) as { as_of: null; metrics: Record<string, { value: unknown; display: string }> };
    expect(json.as_of).toBeNull();
    expect(json.metrics.hit_rate!.value).toBeNull();
    expect(json.metrics.hit_rate!.display).toBe('n/a (no session was given a bootstrap block)');
    expect(json.metrics.composition!.value).toBe(0);
    expect(json.metrics.cost!.display).toMatch(/^not recorded/);
    expect(Object.keys(json.metrics)).toHaveLength(9);
    expect(r.written).toEqual(['metrics/metrics.json', 'metrics/dashboard.md']); // no cache without sessions
    expect(md).not.toContain('```mermaid'); // no chart of nothing
  });

  it('an initialised store with an empty transcript directory is the same story', async () => {
    const root = tempDir('compound-measure-empty-');
    initStore(root);
    mkdirSync(join(root, 't'));
    const r = await measure({ root, inputs: [join(root, 't')] });
    expect(r.counters.files).toBe(0);
    expect(r.report.inputs.sessions).toBe(0);
    expect(r.dashboard).toContain('No sessions measured');
  });

  it('sessions without a store still give first-try success and coverage', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    rmSync(join(root, 'knowledge'), { recursive: true });
    const r = await measure({ root, inputs: [transcripts] });
    expect(r.report.metrics.coverage.value).toBe(0);
    expect(r.report.metrics.first_try_success.counts.tool_calls).toBe(12);
    expect(r.report.metrics.hit_rate.display).toBe('n/a (the given items are not in the store)');
    expect(r.report.metrics.hit_rate.counts.items_given_not_in_store).toBe(4);
  });
});

describe('measure: git history of knowledge/', () => {
  it('dates deleted item files and does not count a move as a deletion', async () => {
    const root = tempDir('compound-measure-git-');
    await git.init({ fs, dir: root, defaultBranch: 'main' });
    const { transcripts } = writeFixture(root);
    rmSync(transcripts, { recursive: true });
    await commitAll(root, 'harvest', '2026-03-11T12:00:00Z');
    const items = loadStore(root).items;
    const q1 = items.find((i) => i.meta.id === ID.Q1)!;
    const f1 = items.find((i) => i.meta.id === ID.F1)!;
    rmSync(join(root, q1.path));
    await commitAll(root, 'review: reject the seed question', '2026-03-12T12:00:00Z');
    // a reviewer retitles F1: same id, new file name
    renameSync(join(root, f1.path), join(root, f1.path.replace(/[^/]+$/, `integration-tests-env-${ID.F1}.md`)));
    await commitAll(root, 'review: retitle', '2026-03-13T12:00:00Z');

    const history = await readHistory(root);
    expect(history).toEqual({ available: true, commits: 3, deletions: [{ id: ID.Q1, path: q1.path, time: Date.parse('2026-03-12T12:00:00Z'), commit: expect.stringMatching(/^[0-9a-f]{10}$/) }], written: [] }); // (no harvest commit)

    const r = await measure({ root, inputs: [] });
    const review = r.report.metrics.review_outcome;
    expect(review.value).toBe(2); // Q1 and the id that never had a file
    expect(review.details.rejected).toEqual([ID.Q1, ID.rejected]);
    expect(review.counts).toMatchObject({ git_history: 'yes', git_commits: 3, git_deletions: 1 });
    expect(review.details.deletions).toEqual([{ id: ID.Q1, path: q1.path, date: '2026-03-12T12:00:00Z', commit: history.deletions[0]!.commit }]);
    // the deletion is the newest date in the data, so the as-of date comes from it
    expect(r.report.as_of).toBe('2026-03-12T12:00:00Z');
    expect(review.trend.d7).toEqual({ current: 1, previous: 0, delta: 1 });
    expect(r.dashboard).toContain(`| \`${ID.Q1}\` | ${q1.path} | 2026-03-12 |`);
  });

  it('a directory outside git and a repository without commits have no history, and say why', async () => {
    const plain = tempDir('compound-measure-nogit-');
    expect(await readHistory(plain)).toEqual({ available: false, reason: 'not a git repository', commits: 0, deletions: [] });
    const empty = tempDir('compound-measure-nocommit-');
    await git.init({ fs, dir: empty });
    writeFileSync(join(empty, 'x'), 'x');
    expect(await readHistory(empty)).toMatchObject({ available: false, reason: 'no commits yet' });
  });

  it('reads item ids from file names', () => {
    expect(idFromItemPath('knowledge/global/fact/port-4000-phoenix-0123456789.md')).toBe('0123456789');
    expect(idFromItemPath('knowledge/global/fact/0123456789.md')).toBe('0123456789');
    expect(idFromItemPath('knowledge/README.md')).toBeUndefined();
  });
});
