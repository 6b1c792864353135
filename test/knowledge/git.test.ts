import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initStore } from '../../src/knowledge/init.js';
import { applyPlan, makePlan } from '../../src/knowledge/plan.js';
import { loadStore } from '../../src/knowledge/store.js';
import { commitChanges } from '../../src/knowledge/git.js';
import { commitMessage } from '../../src/knowledge/commit-message.js';
import { isCompoundError } from '../../src/core/errors.js';
import { GIT_ENV, makeItem, tempDir } from '../helpers.js';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

function repoWithStore(): string {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  git(dir, 'add', 'README.md');
  git(dir, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.invalid', 'commit', '-q', '-m', 'seed');
  initStore(dir);
  return dir;
}

async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('committing with isomorphic-git', () => {
  it('commits only the plan\'s paths, readable by git log and clean under git fsck, with a reproducible SHA', async () => {
    const shas: string[] = [];
    for (let run = 0; run < 2; run++) {
      const dir = repoWithStore();
      writeFileSync(join(dir, 'untracked.txt'), 'not part of the plan\n');
      const plan = makePlan(loadStore(dir).items, [makeItem('Use `git push -u origin <branch>` for a new branch.', { category: 'pitfall' }), makeItem('Node 20 is the minimum.', { scope: 'repo', repo: 'demo' })]);
      const applied = applyPlan(dir, plan);
      const result = await withEnv(GIT_ENV, () => commitChanges({ root: dir, changed: [...applied.changed, 'knowledge/README.md', 'knowledge/ledger.json'], removed: [], message: commitMessage('compound: harvest', plan) }));
      expect(result?.branch).toBe('main');
      git(dir, 'fsck', '--strict');
      const log = git(dir, 'log', '--format=%an <%ae>%n%B', '-1');
      expect(log).toContain('Test Bot <bot@example.invalid>');
      expect(log).toContain('+2 added');
      expect(log).toContain('By category: fact 1, pitfall 1');
      const files = git(dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n');
      expect(files).not.toContain('untracked.txt');
      expect(files).toContain('knowledge/index.json');
      expect(git(dir, 'status', '--porcelain', 'knowledge')).toContain('?? knowledge/.git');
      shas.push(result!.sha);
    }
    expect(shas[0]).toBe(shas[1]);
  });

  it('commits removals to a named branch without checking it out: HEAD, the index and the working tree stay', async () => {
    const dir = repoWithStore();
    const item = makeItem('Temporary.');
    const a = applyPlan(dir, makePlan([], [item]));
    await withEnv(GIT_ENV, () => commitChanges({ root: dir, changed: a.changed, removed: [], message: 'add\n' }));
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const b = applyPlan(dir, makePlan(loadStore(dir).items, [], [item.meta.id]));
    const r = await withEnv(GIT_ENV, () => commitChanges({ root: dir, changed: b.changed, removed: b.removed, message: 'remove\n', branch: 'knowledge/nightly' }));
    expect(r?.branch).toBe('knowledge/nightly');
    expect(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'rev-parse', 'knowledge/nightly~1').trim()).toBe(head);
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'knowledge/nightly', 'knowledge/global')).toBe('');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'knowledge/global')).not.toBe('');
    // the branch holds the working tree's knowledge/ (tracked or not)
    expect(git(dir, 'show', 'knowledge/nightly:knowledge/index.json')).toBe(readFileSync(join(dir, 'knowledge', 'index.json'), 'utf8'));
    // a second run on top: the branch is HEAD plus everything knowledge/ changed since
    const c = applyPlan(dir, makePlan(loadStore(dir).items, [makeItem('Another one.')]));
    await withEnv(GIT_ENV, () => commitChanges({ root: dir, changed: c.changed, removed: c.removed, message: 'again\n', branch: 'knowledge/nightly' }));
    expect(git(dir, 'rev-parse', 'knowledge/nightly~1').trim()).toBe(head);
    expect(git(dir, 'show', 'knowledge/nightly:knowledge/index.json')).toBe(readFileSync(join(dir, 'knowledge', 'index.json'), 'utf8'));
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'knowledge/nightly', 'knowledge/global')).toContain('another-one');
    expect(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    git(dir, 'fsck', '--strict');
  });

  it('fails with a clear error when no author is set', async () => {
    const dir = repoWithStore();
    const a = applyPlan(dir, makePlan([], [makeItem('x.')]));
    let err: unknown;
    await withEnv({ GIT_CONFIG_GLOBAL: '/dev/null', HOME: '/nonexistent-home' }, async () => {
      const saved = [process.env.GIT_AUTHOR_NAME, process.env.GIT_AUTHOR_EMAIL];
      delete process.env.GIT_AUTHOR_NAME;
      delete process.env.GIT_AUTHOR_EMAIL;
      try {
        await commitChanges({ root: dir, changed: a.changed, removed: [], message: 'x\n' });
      } catch (e) {
        err = e;
      } finally {
        if (saved[0] !== undefined) process.env.GIT_AUTHOR_NAME = saved[0];
        if (saved[1] !== undefined) process.env.GIT_AUTHOR_EMAIL = saved[1];
      }
    });
    expect(isCompoundError(err) && err.code).toBe('E_USAGE');
  });

  it('fails with E_GIT_NO_REPO outside a repository', async () => {
    const dir = tempDir();
    initStore(dir);
    await expect(commitChanges({ root: dir, changed: ['knowledge/index.json'], removed: [], message: 'x\n' })).rejects.toMatchObject({ code: 'E_GIT_NO_REPO' });
  });
});
