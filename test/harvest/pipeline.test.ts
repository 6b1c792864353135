import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { harvest } from '../../src/harvest/harvest.js';
import { applyPlan, countPlan, planChanges } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { loadStore } from '../../src/knowledge/store.js';
import { renderPrBody } from '../../src/harvest/pr-body.js';
import type { Candidate } from '../../src/harvest/candidate.js';
import type { Session } from '../../src/sessions/model.js';
import { claudeSession, failedMigration, storeWithTranscripts } from './transcripts.js';
import { tempDir } from '../helpers.js';

/** A deliberately simple extractor: every failing Bash call becomes a pitfall quoting its error line. */
function testExtractor(session: Session): Candidate[] {
  const out: Candidate[] = [];
  for (const e of session.events) {
    if (e.kind !== 'tool_result' || !e.isError) continue;
    const call = session.events.find((c) => c.kind === 'tool_call' && c.callId === e.callId);
    const command = call && call.kind === 'tool_call' ? (call.command ?? call.name) : 'a command';
    const errorLine = e.output.split('\n').find((l) => /error/i.test(l))?.trim() ?? e.output.split('\n')[0]!;
    out.push({
      category: 'pitfall',
      scope: 'repo',
      title: `${command} fails`,
      text: `\`${command}\` fails with "${errorLine}".`,
      confidence: 0.7,
      tags: ['bash'],
      evidence: { event: e.index, line: e.source.line },
      quotes: [errorLine],
      rule: 'test',
    });
  }
  return out;
}

const FAIL = (id: string, start: string, extra = '') => failedMigration(id, start, { extra });


async function run(root: string, inputs: string[]) {
  return harvest({ root, inputs, extract: testExtractor });
}

describe('harvest pipeline', () => {
  it('adds, then reinforces from another session, and a rerun is a no-op', async () => {
    const { root, t } = storeWithTranscripts();
    writeFileSync(join(t, 'a.jsonl'), FAIL('aaaaaaaa-1111-4000-8000-000000000001', '2026-03-01T10:00:00Z'));
    const first = await run(root, [t]);
    expect(countPlan(first.plan)).toMatchObject({ add: 1 });
    applyPlan(root, first.plan);
    const [item] = loadStore(root).items;
    expect(item!.path).toMatch(/^knowledge\/repos\/shop\/pitfall\/npm-run-migrate-fails-[0-9a-f]{10}\.md$/);
    expect(item!.meta).toMatchObject({ evidence: 1, confidence: 0.7, first_seen: '2026-03-01T10:00:03.000Z' });
    expect(item!.body).toContain('## Evidence');

    writeFileSync(join(t, 'b.jsonl'), FAIL('bbbbbbbb-2222-4000-8000-000000000002', '2026-03-05T10:00:00Z'));
    const second = await run(root, [t]);
    expect(second.stats.filesSkipped).toBe(1);
    expect(countPlan(second.plan)).toMatchObject({ add: 0, update: 1 });
    applyPlan(root, second.plan);
    const [again] = loadStore(root).items;
    expect(again!.meta).toMatchObject({ evidence: 2, confidence: 0.75, last_seen: '2026-03-05T10:00:03.000Z' });
    expect(again!.meta.sources.map((s) => s.session)).toEqual(['aaaaaaaa-1111-4000-8000-000000000001', 'bbbbbbbb-2222-4000-8000-000000000002']);

    const snapshot = readFileSync(join(root, again!.path), 'utf8') + readFileSync(join(root, 'knowledge/ledger.json'), 'utf8');
    const third = await run(root, [t]);
    expect(third.stats.filesSkipped).toBe(2);
    expect(planChanges(third.plan)).toEqual([]);
    const applied = applyPlan(root, third.plan);
    expect(applied.changed).toEqual([]);
    expect(readFileSync(join(root, again!.path), 'utf8') + readFileSync(join(root, 'knowledge/ledger.json'), 'utf8')).toBe(snapshot);
  });

  it('warns about a path that does not exist and a pattern that matches nothing, and harvests the rest', async () => {
    const { root, t } = storeWithTranscripts();
    writeFileSync(join(t, 'a.jsonl'), FAIL('aaaaaaaa-1111-4000-8000-000000000001', '2026-03-01T10:00:00Z'));
    const warnings: string[] = [];
    const missing = join(root, 'gone.jsonl');
    const pattern = join(root, '*.nomatch');
    for (const top of [undefined, 5]) {
      warnings.length = 0;
      const res = await harvest({ root, inputs: [missing, pattern, t], extract: testExtractor, ...(top ? { top } : {}), onWarning: (w) => warnings.push(`${w.file}: ${w.message}`) });
      expect(warnings).toEqual([`${missing}: no such file or directory`, `${pattern}: the pattern matched no files`]);
      expect(res.stats.warnings).toBe(2);
      expect(countPlan(res.plan)).toMatchObject({ add: 1 });
    }
  });

  it('keeps a reviewer-edited body and never re-adds a deleted item', async () => {
    const { root, t } = storeWithTranscripts();
    writeFileSync(join(t, 'a.jsonl'), FAIL('aaaaaaaa-1111-4000-8000-000000000001', '2026-03-01T10:00:00Z'));
    applyPlan(root, (await run(root, [t])).plan);
    const [item] = loadStore(root).items;
    const file = join(root, item!.path);
    const edited = readFileSync(file, 'utf8').replace(/^`npm run migrate` fails with .*$/m, 'Migrations must be idempotent: use `CREATE TABLE IF NOT EXISTS`.');
    writeFileSync(file, edited);
    writeFileSync(join(t, 'b.jsonl'), FAIL('bbbbbbbb-2222-4000-8000-000000000002', '2026-03-05T10:00:00Z'));
    applyPlan(root, (await run(root, [t])).plan);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('Migrations must be idempotent');
    expect(after).toContain('evidence: 2');

    // the reviewer rejects it: delete the file; a new session with the same lesson does not bring it back
    rmSync(file);
    writeFileSync(join(t, 'c.jsonl'), FAIL('cccccccc-3333-4000-8000-000000000003', '2026-03-09T10:00:00Z'));
    const result = await run(root, [t]);
    expect(result.records.map((r) => r.outcome)).toEqual(['rejected']);
    applyPlan(root, result.plan);
    expect(loadStore(root).items).toEqual([]);
  });

  it('harvests only the new events of a session that grew', async () => {
    const { root, t } = storeWithTranscripts();
    const id = 'dddddddd-4444-4000-8000-000000000004';
    writeFileSync(join(t, 's.jsonl'), FAIL(id, '2026-03-01T10:00:00Z'));
    applyPlan(root, (await run(root, [t])).plan);
    const grown = claudeSession({
      id,
      cwd: '/home/alice/src/shop',
      start: '2026-03-01T10:00:00Z',
      turns: [
        { user: 'run the migrations' },
        { bash: { command: 'npm run migrate', output: 'Exit code 1\nerror: relation "orders" already exists', error: true } },
        { say: 'The migration is not idempotent.' },
        { bash: { command: 'npm run seed', output: 'Exit code 2\nerror: seed file missing', error: true } },
      ],
    });
    writeFileSync(join(t, 's.jsonl'), grown);
    const result = await run(root, [t]);
    expect(result.records.map((r) => [r.outcome, r.candidate.title])).toEqual([['added', 'npm run seed fails']]);
  });

  it('redacts secrets and the user name before anything is planned, and the PR body links each item', async () => {
    const { root, t } = storeWithTranscripts();
    const token = `ghp_${'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2'}`;
    writeFileSync(join(t, 'a.jsonl'), FAIL('aaaaaaaa-1111-4000-8000-000000000001', '2026-03-01T10:00:00Z', ` while reading /home/alice/.npmrc with token ${token} for alice@example.com`));
    const result = await run(root, [t]);
    const body = renderPrBody(result.plan, result.records, result.stats);
    applyPlan(root, result.plan);
    const everything = [body, JSON.stringify(result.plan), ...readdirSync(join(root, 'knowledge'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => readFileSync(join(d.parentPath, d.name), 'utf8'))].join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain('alice');
    expect(body).toMatch(/\[npm run migrate fails\]\(knowledge\/repos\/shop\/pitfall\/[^)]+\.md\)/);
    expect(body).toContain('### Added (1)');
  });

  it('redacts the accounts a session shows to be its user\'s wherever its items name them', async () => {
    const { root, t } = storeWithTranscripts();
    // GitHub greets the login, git is told the name: an item quoting the remote names neither
    writeFileSync(join(t, 'a.jsonl'), claudeSession({
      id: 'aaaaaaaa-1111-4000-8000-000000000003',
      cwd: '/home/dev/src/shop',
      start: '2026-03-01T10:00:00Z',
      turns: [
        { user: 'push it' },
        { bash: { command: 'ssh -T git@github.com', output: "Hi octo-dev42! You've successfully authenticated, but GitHub does not provide shell access.", error: true } },
        { bash: { command: 'git config --global user.name "Matt Eyre"', output: '' } },
        { bash: { command: 'git push git@github.com:octo-dev42/shop.git main', output: 'error: Matt Eyre cannot push to octo-dev42/shop', error: true } },
      ],
    }));
    const result = await run(root, [t]);
    const everything = JSON.stringify(result.plan);
    expect(result.records.length).toBe(2);
    expect(everything).not.toContain('octo-dev42');
    expect(everything).not.toContain('Matt Eyre');
  });

  it('a commit of the harvest is readable by git and leaves no secret in the object store', async () => {
    const root = tempDir();
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    initStore(root);
    const t = join(root, '..', `${root.split('/').pop()}-t`);
    mkdirSync(t);
    const token = `sk-ant-api03-${'x7Yq2Lm9Pz4Rt6Wv8Nb1Kc3Jd5Hf0Gs'}${'A1b2C3d4E5f6G7h8'}`;
    writeFileSync(join(t, 'a.jsonl'), FAIL('aaaaaaaa-1111-4000-8000-000000000001', '2026-03-01T10:00:00Z', ` ANTHROPIC_API_KEY=${token}`));
    appendFileSync(join(t, 'a.jsonl'), '');
    const { commitChanges } = await import('../../src/knowledge/git.js');
    const result = await run(root, [t]);
    const applied = applyPlan(root, result.plan);
    process.env.GIT_AUTHOR_NAME = 'Test Bot';
    process.env.GIT_AUTHOR_EMAIL = 'bot@example.invalid';
    await commitChanges({ root, changed: applied.changed, removed: applied.removed, message: 'harvest\n' });
    execFileSync('git', ['fsck', '--strict'], { cwd: root });
    const objects = execFileSync('sh', ['-c', 'git cat-file --batch-all-objects --batch'], { cwd: root, maxBuffer: 1 << 28 }).toString('latin1');
    expect(objects).not.toContain(token.slice(0, 20));
    rmSync(t, { recursive: true, force: true });
  });
});
