import { describe, expect, it } from 'vitest';
import { bootstrap, type BootstrapOptions } from '../../src/bootstrap/bootstrap.js';
import { tempDir } from '../helpers.js';
import { entry, writeIndex, type EntryInput } from './fixtures.js';

async function run(entries: EntryInput[], options: Partial<BootstrapOptions> = {}) {
  const root = tempDir('compound-rank-');
  writeIndex(root, entries.map(entry));
  return bootstrap({ root, budget: 2000, format: 'markdown', minConfidence: 0.3, encoding: 'o200k_base', repo: 'api', agent: 'claude-code', ...options });
}

const FILLER = [
  'The staging database is refreshed from production every Sunday night.',
  'Release notes live in docs/releases and are written by the release captain.',
  'The design system colours come from tokens in packages/ui/tokens.json.',
];

describe('ranking', () => {
  it('puts a pitfall about the task before an unrelated high-confidence fact', async () => {
    const pitfall = entry({ text: 'Running vitest with --watch inside the docker container hangs forever; use vitest run instead.', category: 'pitfall', confidence: 0.6 });
    const fact = entry({ text: 'The office wifi password rotates every month and is posted in the team channel.', category: 'fact', confidence: 0.99, evidence: 9 });
    const r = await run([fact, pitfall, ...FILLER.map((text) => ({ text, confidence: 0.95 }))], { task: 'vitest hangs in docker' });
    expect(r.ids[0]).toBe(pitfall.id);
    expect(r.ids.indexOf(pitfall.id)).toBeLessThan(r.ids.indexOf(fact.id));
  });

  it('ranks a repo item above a global one with the same text relevance', async () => {
    const text = 'Migrations must be generated with pnpm db:generate before pnpm db:migrate.';
    const global = entry({ text, scope: 'global' });
    const repo = entry({ text, scope: 'repo', repo: 'api' });
    const r = await run([global, repo], { task: 'run the database migrations' });
    expect(r.ids[0]).toBe(repo.id);
  });

  it('takes one of two near-duplicates only', async () => {
    const a = entry({ text: 'The e2e suite needs PLAYWRIGHT_BROWSERS_PATH set to the shared cache or it downloads browsers again.', category: 'pitfall' });
    const b = entry({ text: 'The e2e suite needs PLAYWRIGHT_BROWSERS_PATH set to the shared cache, or it downloads the browsers again.', category: 'pitfall', confidence: 0.6 });
    const c = entry({ text: 'Playwright traces are kept for failed tests only.', category: 'fact' });
    const r = await run([a, b, c], { task: 'playwright browsers', explain: true });
    expect(r.ids).toContain(a.id);
    expect(r.ids).not.toContain(b.id);
    expect(r.ids).toContain(c.id);
    expect(r.explain).toMatch(new RegExp(`${b.id}.*near-duplicate of ${a.id}`));
  });

  it('without a task, lets the priors decide: category, confidence, evidence, recency, scope', async () => {
    const question = entry({ text: 'Why does the nightly build take twice as long on Mondays?', category: 'question', confidence: 0.9 });
    const pitfall = entry({ text: 'Never run the seed script against the shared staging database.', category: 'pitfall', confidence: 0.9 });
    const older = entry({ text: 'The old deploy script still pushes to the legacy bucket.', category: 'pitfall', confidence: 0.9, last_seen: '2025-06-01T00:00:00Z' });
    const r = await run([question, older, pitfall]);
    expect(r.ids).toEqual([pitfall.id, older.id, question.id]);
  });

  it('leaves out other repos and agents, inactive items and items under the confidence floor', async () => {
    const mine = entry({ text: 'Our API uses port 4000 locally.', scope: 'repo', repo: 'api' });
    const other = entry({ text: 'The web app uses port 3000 locally.', scope: 'repo', repo: 'web' });
    const agent = entry({ text: 'Claude Code reads CLAUDE.md from the repo root.', scope: 'agent', agent: 'claude-code' });
    const otherAgent = entry({ text: 'Codex reads AGENTS.md from the repo root.', scope: 'agent', agent: 'codex' });
    const stale = entry({ text: 'The API used port 8080 before the move.', status: 'stale' });
    const unsure = entry({ text: 'Maybe the cache is shared between branches.', confidence: 0.1 });
    const r = await run([mine, other, agent, otherAgent, stale, unsure]);
    expect([...r.ids].sort()).toEqual([mine.id, agent.id].sort());
  });

  it('breaks ties by id and gives byte-identical output for the same input', async () => {
    const entries = ['alpha one', 'beta two', 'gamma three', 'delta four'].map((w) => ({ text: `Note ${w} about nothing in particular.` }));
    const a = await run(entries);
    const b = await run(entries);
    expect(a.output).toBe(b.output);
    expect(a.ids).toEqual([...a.ids].sort());
  });

  it('skips an item that does not fit and still takes a smaller one after it', async () => {
    const long = entry({ text: `The release checklist: ${'verify the changelog, bump the version, tag, build, sign, upload, announce; '.repeat(12)}done.`, category: 'pitfall', confidence: 0.95 });
    const short = entry({ text: 'Tags are signed.', category: 'fact', confidence: 0.5 });
    const r = await run([long, short], { budget: 120, explain: true });
    expect(r.ids).toEqual([short.id]);
    expect(r.tokens).toBeLessThanOrEqual(120);
    expect(r.explain).toMatch(new RegExp(`${long.id}.*no room`));
  });
});
