/**
 * A harvest is one transaction (issue 32): killed at any point (a crash hook, as `kill -9`),
 * the next run converges to exactly the store and the commit of an uninterrupted run; two or
 * three harvests and a reindex at once give what running them one after the other gives; a lock
 * nobody holds any more is taken over; reindex --commit commits a reviewer's deletions.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { GIT_ENV, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';
import { acquireLock } from '../../src/knowledge/lock.js';
import { runCliAsync, writeClaudeSession } from '../harvest/model/fake-model.js';

const ENV = { ...GIT_ENV, GIT_COMMITTER_NAME: 'Test Bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid' };

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env: { ...process.env, ...ENV }, stdio: 'pipe' }).toString();
}

/** A store in a git repository with its init committed. */
function store(): string {
  const root = tempDir('compound-txn-');
  expect(runCli(['init'], { cwd: root }).code).toBe(0);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

/** Every file of the store (caches aside) and the tree HEAD holds. */
function snapshot(root: string): { files: Record<string, string>; tree: string; commits: number } {
  const files: Record<string, string> = {};
  for (const d of readdirSync(join(root, 'knowledge'), { recursive: true, withFileTypes: true })) {
    const full = join(d.parentPath, d.name);
    if (!d.isFile() || full.includes(`${join('knowledge', '.cache')}`)) continue;
    files[relative(root, full)] = readFileSync(full, 'utf8');
  }
  return { files, tree: git(root, 'ls-tree', '-r', 'HEAD'), commits: Number(git(root, 'rev-list', '--count', 'HEAD').trim()) };
}

function transcripts(...formats: string[]): string {
  const dir = tempDir('compound-txn-t-');
  for (const f of formats) cpSync(join(PROJECT_ROOT, 'test_sessions', f), join(dir, f), { recursive: true });
  return dir;
}

describe('a harvest killed at any point', () => {
  it('is finished by the next run: the same files, the same commit', () => {
    const input = transcripts('claude-code', 'codex');
    const reference = store();
    expect(runCli(['harvest', input, '--commit'], { cwd: reference, env: ENV }).code).toBe(0);
    const want = snapshot(reference);
    expect(Object.keys(want.files).filter((f) => f.endsWith('.md')).length).toBeGreaterThan(5);
    expect(want.commits).toBe(2);

    for (const point of ['after-journal', 'mid-items', 'before-index', 'before-ledger', 'before-commit']) {
      const root = store();
      const killed = runCli(['harvest', input, '--commit'], { cwd: root, env: { ...ENV, COMPOUND_CRASH_AT: point } });
      expect(killed.code, point).not.toBe(0);
      const again = runCli(['harvest', input, '--commit'], { cwd: root, env: ENV });
      expect(again.code, `${point}: ${again.stderr}`).toBe(0);
      expect(again.stderr, point).toContain('finished an interrupted run first');
      const got = snapshot(root);
      expect(got.files, point).toEqual(want.files);
      expect(got.tree, point).toBe(want.tree);
      expect(got.commits, point).toBe(2);
      // nothing left behind: no journal, no temp file
      expect(readdirSync(join(root, 'knowledge'), { recursive: true }).filter((f) => /\.tmp-|\.journal/.test(String(f)))).toEqual([]);
    }
  }, 120_000);
});

describe('writers at once', () => {
  it('three harvests and a reindex at once give what one after the other gives', async () => {
    const inputs = [transcripts('claude-code'), transcripts('codex'), transcripts('gemini-cli', 'hermes')];
    const sequential = store();
    for (const input of inputs) expect(runCli(['harvest', input, '--commit'], { cwd: sequential, env: ENV }).code).toBe(0);
    const concurrent = store();
    const runs = await Promise.all([...inputs.map((input) => runCliAsync(['harvest', input, '--commit'], { cwd: concurrent, env: ENV })), runCliAsync(['reindex'], { cwd: concurrent, env: ENV })]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const a = snapshot(sequential);
    const b = snapshot(concurrent);
    expect(b.files['knowledge/ledger.json']).toBe(a.files['knowledge/ledger.json']);
    expect(Object.keys(b.files).sort()).toEqual(Object.keys(a.files).sort());
    expect(b.tree).toBe(a.tree);
    expect(runCli(['check'], { cwd: concurrent }).code).toBe(0);
  }, 120_000);
});

describe('the lock', () => {
  it('is taken over when empty (a kill between create and write) or from another host long unrefreshed', () => {
    const dir = tempDir();
    const file = join(dir, '.lock');
    const old = new Date(Date.now() - 60 * 60_000);
    writeFileSync(file, '');
    utimesSync(file, old, old);
    acquireLock(file, { waitMs: 100 })();
    writeFileSync(file, JSON.stringify({ pid: 1, host: `not-${hostname()}` }));
    utimesSync(file, old, old);
    acquireLock(file, { waitMs: 100 })();
    // a fresh lock of another host is respected
    writeFileSync(file, JSON.stringify({ pid: 1, host: `not-${hostname()}` }));
    expect(() => acquireLock(file, { waitMs: 100 })).toThrow(/locked by another compound process/);
    rmSync(file);
  });

  it('nests within one process and is gone when the outermost holder releases it', () => {
    const dir = tempDir();
    const file = join(dir, '.lock');
    const outer = acquireLock(file);
    const inner = acquireLock(file, { waitMs: 0 });
    inner();
    expect(readdirSync(dir)).toEqual(['.lock']);
    outer();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('reindex --commit', () => {
  it('commits the item files a reviewer deleted with the index', () => {
    const root = store();
    expect(runCli(['harvest', transcripts('claude-code'), '--commit'], { cwd: root, env: ENV }).code).toBe(0);
    const item = git(root, 'ls-files', 'knowledge/repos').trim().split('\n')[0]!;
    rmSync(join(root, item));
    const r = runCli(['reindex', '--commit'], { cwd: root, env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(git(root, 'status', '--porcelain', 'knowledge').trim()).toBe('');
    expect(git(root, 'show', '--name-status', '--format=', 'HEAD')).toContain(`D\t${item}`);
  });

  it('--commit outside a git repository fails before writing anything', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const before = readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8');
    mkdirSync(join(root, 't'));
    const r = runCli(['harvest', join(PROJECT_ROOT, 'test_sessions', 'claude-code'), '--commit'], { cwd: root, env: ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not inside a git repository');
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).toBe(before);
  });
});

describe('an item file that does not load', () => {
  it('is left alone, and its new sighting waits until the file is fixed', () => {
    const root = store();
    const turns = (id: string) => [
      { user: 'run the migration' },
      { bash: 'npm run migrate', output: 'error: column "due_date" of relation "invoices" already exists', error: true },
      { assistant: 'The column exists already; making the migration idempotent with ADD COLUMN IF NOT EXISTS.' },
      { bash: 'npm run migrate', output: 'migrations applied' },
      { assistant: `Done (${id}).` },
    ];
    const first = tempDir();
    writeClaudeSession(join(first, 'a.jsonl'), 'dddddddd-1111-4c3d-9e8f-000000000001', '/srv/src/invoices', turns('a'));
    expect(runCli(['harvest', first], { cwd: root }).code).toBe(0);
    const files = readdirSync(join(root, 'knowledge', 'repos'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
    expect(files.length).toBeGreaterThan(0);
    const broken = files[0]!;
    const good = readFileSync(broken, 'utf8');
    writeFileSync(broken, good.replace(/^confidence: .*$/m, 'confidence: [oops'));
    const second = tempDir();
    writeClaudeSession(join(second, 'b.jsonl'), 'dddddddd-2222-4c3d-9e8f-000000000002', '/srv/src/invoices', turns('b'));
    const r = runCli(['harvest', second, '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('waits until the file is fixed');
    expect(readFileSync(broken, 'utf8')).toContain('confidence: [oops');
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).not.toContain('dddddddd-2222');
    // fixed by the reviewer: the next run takes the sighting
    writeFileSync(broken, good);
    expect(runCli(['harvest', second], { cwd: root }).code).toBe(0);
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).toContain('dddddddd-2222');
    expect(readFileSync(broken, 'utf8')).toMatch(/^evidence: 2$/m);
  });
});
