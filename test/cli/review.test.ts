/**
 * `compound review` (issue 35): what reviewers did with harvested items, read from the harvest
 * commits in git history: kept as written, edited, deleted, and, for a pull request not merged
 * yet, items only on the harvest branch; the same table on the dashboard.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';
import type { ReviewRow } from '../../src/measure/metrics/review.js';

const env = { ...GIT_ENV, GIT_COMMITTER_NAME: 'Test Bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });

type Row = ReviewRow;
const reviewOf = (root: string) => {
  const r = runCli(['review', '--json'], { cwd: root, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { history: string; harvested: number; rows: Row[]; total: Row };
};
const itemFiles = (root: string) => git(root, 'ls-files', 'knowledge/global', 'knowledge/repos', 'knowledge/agents').trim().split('\n').filter(Boolean).sort();

function harvestedStore(): string {
  const root = tempDir('compound-review-');
  git(root, 'init', '-q', '-b', 'main');
  expect(runCli(['init'], { cwd: root, env }).code).toBe(0);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  // outside the store, so the harvest does not see its own inbox as part of the repository
  const sessions = tempDir('compound-review-sessions-');
  cpSync(join(PROJECT_ROOT, 'test_sessions'), sessions, { recursive: true });
  return root + '\u0000' + sessions;
}

describe('compound review', () => {
  it('counts kept, edited and deleted items per category and extractor after a review on the branch', () => {
    const [root, sessions] = harvestedStore().split('\u0000') as [string, string];
    const h = runCli(['harvest', sessions, '--commit'], { cwd: root, env });
    expect(h.code, h.stderr).toBe(0);
    const files = itemFiles(root);
    expect(files.length).toBeGreaterThanOrEqual(4);
    const before = reviewOf(root);
    expect(before.total).toMatchObject({ kept: files.length, edited: 0, deleted: 0, pending: 0 });

    // a reviewer rewrites one body, retitles another, deletes two, touches only front matter of a fifth
    const [a, b, c, d] = files as [string, string, string, string];
    const body = (f: string) => readFileSync(join(root, f), 'utf8');
    writeFileSync(join(root, a), body(a).replace(/\n---\n([^\n]+)/, '\n---\nRewritten by the reviewer: $1'));
    writeFileSync(join(root, b), body(b).replace(/^title: .*$/m, 'title: A better title'));
    rmSync(join(root, c));
    rmSync(join(root, d));
    const e = files[4];
    if (e) writeFileSync(join(root, e), body(e).replace(/^confidence: .*$/m, 'confidence: 0.95'));
    expect(runCli(['reindex', '--commit'], { cwd: root, env }).code).toBe(0);

    const after = reviewOf(root);
    expect(after.total).toMatchObject({ kept: files.length - 4, edited: 2, deleted: 2, pending: 0 });
    expect(after.rows.every((r) => r.extractor === 'rules')).toBe(true);
    expect(after.rows.reduce((n, r) => n + r.kept + r.edited + r.deleted, 0)).toBe(files.length);

    const text = runCli(['review'], { cwd: root, env });
    expect(text.stdout).toMatch(/category\s+extractor\s+kept\s+edited\s+deleted\s+kept as written\s+not merged yet/);
    expect(text.stdout).toMatch(new RegExp(`total\\s+${files.length - 4}\\s+2\\s+2\\s+${Math.round((100 * (files.length - 4)) / files.length)}%\\s+0`));

    // the dashboard shows the same table
    expect(runCli(['measure'], { cwd: root, env }).code).toBe(0);
    const dashboard = readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
    expect(dashboard).toContain('| Category | Extractor | Kept | Edited | Deleted | Not merged yet |');
    expect(dashboard).toContain(`of ${files.length} reviewed, ${files.length - 4} kept as written, 2 edited, 2 deleted`);
  });

  it('reads what the harvester wrote from the harvest branch after a squash merge, and counts an open pull request as not merged', () => {
    const [root, sessions] = harvestedStore().split('\u0000') as [string, string];
    const h = runCli(['harvest', sessions, '--commit', '--branch', 'knowledge/nightly'], { cwd: root, env });
    expect(h.code, h.stderr).toBe(0);
    expect(git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main'); // nothing checked out
    expect(git(root, 'status', '--porcelain').trim()).toBe(''); // and the working tree as it was
    const open = reviewOf(root);
    expect(open.harvested).toBeGreaterThanOrEqual(4);
    expect(open.total).toMatchObject({ kept: 0, edited: 0, deleted: 0, pending: open.harvested });

    // squash merge with the reviewer's changes: one item deleted, one edited, the rest as written
    git(root, 'checkout', '-q', 'knowledge/nightly', '--', 'knowledge');
    const files = itemFiles(root);
    rmSync(join(root, files[0]!));
    writeFileSync(join(root, files[1]!), readFileSync(join(root, files[1]!), 'utf8').replace(/\n---\n([^\n]+)/, '\n---\nEdited: $1'));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'Knowledge from the nightly harvest (#1)');
    const merged = reviewOf(root);
    expect(merged.total).toMatchObject({ kept: open.harvested - 2, edited: 1, deleted: 1, pending: 0 });
  });

  it('outside a store is a usage error; without commits it says so', () => {
    expect(runCli(['review'], { cwd: tempDir() }).code).toBe(2);
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    expect(reviewOf(root).history).not.toBe('yes');
  });
});
