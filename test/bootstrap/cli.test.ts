import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';
import { splitBootstrapBlocks } from '../../src/sessions/bootstrap-markers.js';
import { hasCurrentStructure, STRUCTURE_FILE } from '../../src/bootstrap/cache.js';
import { REBUILD_MARKER } from '../../src/bootstrap/rebuild.js';
import { GIT_ENV, makeItem, runCli, tempDir } from '../helpers.js';

/** No agent variables leak in from the machine running the tests. */
const ENV = { CLAUDECODE: undefined, CLAUDE_CODE_ENTRYPOINT: undefined, CODEX_SANDBOX: undefined, CODEX_SANDBOX_NETWORK_DISABLED: undefined, CODEX_THREAD_ID: undefined, CODEX_MANAGED_BY_NPM: undefined, GEMINI_CLI: undefined };
const EMPTY_MD = '<!-- compound:bootstrap ids= -->\n<!-- /compound:bootstrap -->\n';

function bootstrapCli(cwd: string, args: string[] = [], env: Record<string, string | undefined> = {}) {
  return runCli(['bootstrap', ...args], { cwd, env: { ...ENV, ...env } });
}

function addItem(root: string, text: string, meta: Parameters<typeof makeItem>[1] = {}): string {
  const item = makeItem(text, meta);
  const rel = itemPath(item.meta, text);
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem(item));
  return item.meta.id;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Test Bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid' }, stdio: 'pipe' });
}

/** A real repository with an origin remote and a store holding items of several scopes. */
function project(): { root: string; ids: Record<string, string> } {
  const root = join(tempDir('compound-boot-'), 'checkout');
  mkdirSync(root);
  git(root, 'init', '-q');
  git(root, 'remote', 'add', 'origin', 'git@github.com:acme/spotter.git');
  expect(runCli(['init', root]).code).toBe(0);
  const ids = {
    repoPitfall: addItem(root, 'Running vitest in watch mode inside docker hangs; use `vitest run`.', { scope: 'repo', repo: 'spotter', category: 'pitfall' }),
    otherRepo: addItem(root, 'The billing service needs STRIPE_KEY in .env.local.', { scope: 'repo', repo: 'billing' }),
    global: addItem(root, 'pnpm install --frozen-lockfile fails when the lockfile is stale.', { category: 'tool-quirk', confidence: 0.9 }),
    claude: addItem(root, 'Claude Code reads CLAUDE.md at session start.', { scope: 'agent', agent: 'claude-code' }),
  };
  expect(runCli(['reindex'], { cwd: root }).code).toBe(0);
  return { root, ids };
}

describe('compound bootstrap (built CLI)', () => {
  it('detects the repo from the origin remote and the agent from the environment', () => {
    const { root, ids } = project();
    const r = bootstrapCli(root, ['--task', 'vitest hangs', '--explain'], { CLAUDECODE: '1' });
    expect(r.code).toBe(0);
    const [block] = splitBootstrapBlocks(r.stdout).blocks;
    expect(block!.itemIds[0]).toBe(ids.repoPitfall);
    expect([...block!.itemIds].sort()).toEqual([ids.repoPitfall, ids.global, ids.claude].sort());
    expect(r.stderr).toContain('repo: spotter (git remote origin); agent: claude-code (CLAUDECODE)');
    expect(r.stderr).toMatch(/score = \(1 \+ bm25\)/);
    expect(r.stdout).not.toContain('score =');
  });

  it('prints the SessionStart hook JSON, under 10,000 characters, and within the budget', () => {
    const { root } = project();
    for (let i = 0; i < 150; i++) addItem(root, `Generated pitfall number ${i}: the ${i % 7 ? 'cache' : 'docker'} step needs a warm cache directory before tests run, or it times out.`, { category: 'pitfall', scope: 'repo', repo: 'spotter' });
    expect(runCli(['reindex'], { cwd: root }).code).toBe(0);
    const r = bootstrapCli(root, ['--format', 'claude-code', '--budget', '8000']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
    const out = parsed.hookSpecificOutput as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['additionalContext', 'hookEventName']);
    expect(out.hookEventName).toBe('SessionStart');
    expect(typeof out.additionalContext).toBe('string');
    expect(r.stdout.length).toBeLessThanOrEqual(10_000);
    expect(countTokens(r.stdout)).toBeLessThanOrEqual(8000);
    expect(splitBootstrapBlocks(out.additionalContext as string).blocks).toHaveLength(1);
  });

  it('never fails a session start: no store, no git repository', () => {
    const dir = tempDir('compound-boot-empty-');
    const md = bootstrapCli(dir);
    expect(md.code).toBe(0);
    expect(md.stdout).toBe(EMPTY_MD);
    expect(md.stderr).toMatch(/no knowledge\/index\.json/);
    const cc = bootstrapCli(dir, ['--format', 'claude-code']);
    expect(cc.code).toBe(0);
    expect(JSON.parse(cc.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: EMPTY_MD } });
    const json = bootstrapCli(dir, ['--format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ items: [], open: '<!-- compound:bootstrap ids= -->', close: '<!-- /compound:bootstrap -->' });
  });

  it('never fails a session start: a broken index.json or cache, a broken config', () => {
    const dir = tempDir('compound-boot-broken-');
    mkdirSync(join(dir, 'knowledge'));
    writeFileSync(join(dir, 'knowledge', 'index.json'), '{"version":1,"items":[{"id":');
    writeFileSync(join(dir, 'compound.config.yaml'), 'bootstrap_budget: [oops\n');
    const r = bootstrapCli(dir, ['--format', 'claude-code']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe(EMPTY_MD);
    expect(r.stderr).toMatch(/not a valid index/);
    expect(r.stderr).toMatch(/compound\.config\.yaml ignored/);

    const { root, ids } = project();
    expect(bootstrapCli(root).code).toBe(0);
    writeFileSync(join(root, STRUCTURE_FILE), 'garbage');
    const again = bootstrapCli(root);
    expect(again.code).toBe(0);
    expect(splitBootstrapBlocks(again.stdout).blocks[0]!.itemIds).toContain(ids.repoPitfall);
  });

  it('never fails a session start: invalid items are left out, the rest is given', () => {
    const { root, ids } = project();
    const bad = join(root, 'knowledge/global/fact/broken-0123456789.md');
    mkdirSync(join(bad, '..'), { recursive: true });
    writeFileSync(bad, '---\nid: [unclosed\n---\nBroken.\n');
    runCli(['reindex'], { cwd: root }); // reports the invalid file (exit 1) and indexes the rest
    const index = JSON.parse(readFileSync(join(root, 'knowledge/index.json'), 'utf8'));
    index.items.push({ id: 'not-an-id', category: 'nonsense' });
    writeFileSync(join(root, 'knowledge/index.json'), JSON.stringify(index));
    const r = bootstrapCli(root, ['--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1 invalid entry in knowledge\/index\.json skipped/);
    expect(JSON.parse(r.stdout).items.map((i: { id: string }) => i.id)).toContain(ids.repoPitfall);
  });

  it('keeps the search structure in knowledge/.cache: reindex builds it; when index.json changed behind its back, bootstrap reads index.json and has it rebuilt in the background', async () => {
    const { root } = project();
    const structure = join(root, STRUCTURE_FILE);
    const first = bootstrapCli(root);
    expect(first.stderr).not.toMatch(/rebuilt in the background/); // reindex already built it
    expect(readFileSync(join(root, 'knowledge/.cache/.gitignore'), 'utf8')).toContain('*');
    const second = bootstrapCli(root);
    expect(second.stdout).toBe(first.stdout);
    const id = addItem(root, 'A new pitfall: the dev server port 4000 clashes with the docs server.', { category: 'pitfall', scope: 'repo', repo: 'spotter', confidence: 0.95 });
    runCli(['reindex'], { cwd: root });
    const third = bootstrapCli(root, [], { COMPOUND_BACKGROUND_REBUILD: '1' });
    expect(third.stderr).not.toMatch(/rebuilt in the background/);
    expect(third.stdout).toContain(id);
    const built = readFileSync(structure);
    // an index.json written by something else (a pull, a hand edit) is noticed: the same
    // answer from index.json itself, and the structure rebuilt by a detached process
    const indexFile = join(root, 'knowledge/index.json');
    writeFileSync(indexFile, `${readFileSync(indexFile, 'utf8')}`);
    const fourth = bootstrapCli(root, [], { COMPOUND_BACKGROUND_REBUILD: '1' });
    expect(fourth.stderr).toMatch(/rebuilt in the background/);
    expect(fourth.stdout).toBe(third.stdout);
    const deadline = Date.now() + 20_000;
    while (existsSync(join(root, REBUILD_MARKER)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hasCurrentStructure(root)).toBe(true);
    expect(readFileSync(structure).equals(built)).toBe(false); // built from the new mtime
    const fifth = bootstrapCli(root, [], { COMPOUND_BACKGROUND_REBUILD: '1' });
    expect(fifth.stderr).not.toMatch(/rebuilt in the background/);
    expect(fifth.stdout).toBe(third.stdout);
    // no structure at all (a fresh clone), background rebuilds off: the same answer again
    rmSync(join(root, 'knowledge/.cache'), { recursive: true });
    expect(bootstrapCli(root).stdout).toBe(third.stdout);
    expect(existsSync(structure)).toBe(false);
    // check is not disturbed by the cache folder
    expect(runCli(['check'], { cwd: root }).code).toBe(0);
    // reindex builds a missing structure even when the index is unchanged
    runCli(['reindex'], { cwd: root });
    expect(readFileSync(structure).length).toBeGreaterThan(0);
  });

  it('maintains a marked section of AGENTS.md idempotently, keeping everything else byte for byte', () => {
    const { root, ids } = project();
    const agents = join(root, 'AGENTS.md');
    const mine = '# Agent notes\r\n\r\nAlways run `pnpm lint`.\r\n';
    writeFileSync(agents, mine);
    const first = bootstrapCli(join(root, 'knowledge'), ['--format', 'codex']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/AGENTS\.md: bootstrap section appended/);
    const after = readFileSync(agents, 'utf8');
    expect(after.startsWith(mine)).toBe(true);
    expect(splitBootstrapBlocks(after).blocks[0]!.itemIds).toContain(ids.repoPitfall);
    const second = bootstrapCli(root, ['--write', 'AGENTS.md']);
    expect(second.stderr).toMatch(/section unchanged/);
    expect(readFileSync(agents, 'utf8')).toBe(after);

    const fresh = join(root, 'docs', 'AGENTS.md');
    mkdirSync(join(root, 'docs'));
    expect(bootstrapCli(root, ['--write', fresh]).code).toBe(0);
    expect(existsSync(fresh)).toBe(true);
    expect(readFileSync(fresh, 'utf8')).toMatch(/^<!-- compound:bootstrap ids=/);
  });

  it('rejects bad flags with a usage error (exit 2)', () => {
    const dir = tempDir('compound-boot-flags-');
    expect(bootstrapCli(dir, ['--budget', 'lots']).code).toBe(2);
    expect(bootstrapCli(dir, ['--format', 'yaml']).code).toBe(2);
    expect(bootstrapCli(dir, ['--min-confidence', '2']).code).toBe(2);
    expect(bootstrapCli(dir, ['--tokenizer', 'gpt9']).code).toBe(2);
    expect(bootstrapCli(dir, ['--task', 'a', '--task-file', 'b']).code).toBe(2);
    expect(bootstrapCli(dir, ['--format', 'claude-code', '--write', 'AGENTS.md']).code).toBe(2);
  });
});
