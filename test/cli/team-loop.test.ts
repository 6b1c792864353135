/**
 * The team loop end to end (issue 35), on one machine with no network: a bare repository as
 * origin, two developer clones and a fresh CI clone each night. Developers capture finished
 * sessions into the inbox branch (one from a Claude Code SessionEnd hook, one as cron would);
 * each night runs the `run:` steps of action.yml as written (its install step with this checkout as
 * the action's path, `npm ci` there stood in for by the build at hand) and `compound pr` talks
 * to a loopback GitHub; the second night updates the same pull
 * request, a maintainer merges it, the third night opens a new one; a developer pulls and
 * `bootstrap` gives the merged knowledge, and `review` counts it as kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { CLI, GIT_ENV, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';
import { writeClaudeSession, type Turn } from '../harvest/model/fake-model.js';
import { fakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = ['ghs_', 'teamLoopTokenForTheLoopbackServer9'].join('');
const gitEnv = { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv, stdio: 'pipe' }).toString();

let gh: FakeGitHub | undefined;
afterEach(async () => {
  await gh?.close();
  gh = undefined;
});

/** A session in which a command failed, the agent said why, and the retry worked. */
function session(command: string, error: string, cause: string, fix: string): Turn[] {
  return [
    { user: `run ${command}` },
    { bash: command, output: error, error: true },
    { assistant: cause },
    { bash: fix, output: 'ok' },
    { assistant: 'Done.' },
  ];
}

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

/** The action's install step runs `npm ci` in its own checkout (this one, built already). */
function npmShim(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\nif [ "$1" = ci ]; then exit 0; fi\necho "unexpected npm $*" >&2; exit 99\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  return bin;
}

/** bash with the runner's options; asynchronous, so that the loopback GitHub in this process answers. */
function bash(script: string, cwd: string, env: Record<string, string | undefined>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolveRun({ status, stdout, stderr }));
  });
}

/** One night of the nightly job: a fresh clone of origin, then action.yml's steps as written. */
async function nightly(base: string, origin: string, night: number, github: FakeGitHub): Promise<{ number?: string; log: string }> {
  const ci = join(base, `ci-${night}`);
  git(base, 'clone', '-q', origin, ci);
  const temp = tempDir('compound-runner-');
  const output = join(temp, 'github-output');
  writeFileSync(output, '');
  const inputs: Record<string, string> = { 'github-token': TOKEN, branch: 'knowledge/nightly', 'inbox-branch': 'compound/inbox', 'transcripts-dir': 'transcripts', extractor: 'rules', 'batch-in': '' };
  const expr = (v: string) =>
    v.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, k: string) => inputs[k] ?? '').replace(/\$\{\{\s*github\.event\.repository\.default_branch\s*\}\}/g, 'main');
  const action = YAML.parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } };
  const bin = npmShim(temp);
  const githubPath = join(temp, 'github-path');
  writeFileSync(githubPath, '');
  let log = '';
  for (const step of action.runs.steps) {
    if (!step.run) continue; // actions/setup-node
    // as the runner does: what a step appended to GITHUB_PATH comes first in later steps' PATH
    const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse();
    const env: Record<string, string | undefined> = {
      ...gitEnv,
      PATH: [...added, bin, process.env.PATH ?? ''].join(':'),
      RUNNER_TEMP: temp,
      GITHUB_ACTION_PATH: PROJECT_ROOT,
      GITHUB_PATH: githubPath,
      GITHUB_OUTPUT: output,
      GITHUB_REPOSITORY: 'acme/kb',
      GITHUB_API_URL: github.url,
      COMPOUND_LOCK_WAIT_MS: '60000',
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expr(String(v));
    const r = await bash(step.run, ci, env);
    log += `## ${step.name ?? ''}\n${r.stdout}${r.stderr}`;
    expect(r.status, `${step.name}: ${r.stderr}`).toBe(0);
  }
  const number = /^number=(\d+)$/m.exec(readFileSync(output, 'utf8'))?.[1];
  return { ...(number ? { number } : {}), log };
}

describe('the team loop', () => {
  it('capture → nightly action → pull request → merge → next night → a developer bootstraps the merged knowledge', async () => {
    gh = await fakeGitHub();
    const base = tempDir('compound-team-');
    const origin = join(base, 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);

    // the maintainer sets the store up
    const maint = join(base, 'maintainer');
    git(base, 'clone', '-q', origin, maint);
    git(maint, 'checkout', '-q', '-b', 'main');
    expect(runCli(['init'], { cwd: maint }).code).toBe(0);
    git(maint, 'add', '-A');
    git(maint, 'commit', '-q', '-m', 'compound init');
    git(maint, 'push', '-q', 'origin', 'main');

    const devs = ['alice', 'bob'].map((name) => {
      const dir = join(base, name);
      git(base, 'clone', '-q', origin, dir);
      return { dir, sessions: tempDir(`compound-${name}-sessions-`), cache: tempDir(`compound-${name}-cache-`) };
    });
    const [alice, bob] = devs as [(typeof devs)[0], (typeof devs)[0]];
    const inboxFiles = () => {
      try {
        return git(origin, 'ls-tree', '-r', '--name-only', 'compound/inbox').trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };

    // alice's Claude Code session ends: the SessionEnd hook captures it in the background
    const t1 = writeClaudeSession(join(alice.sessions, 's1.jsonl'), 'a1a1a1a1-1111-4c3d-9e8f-000000000001', '/srv/src/invoices', session('npm run migrate', 'error: column "due_date" of relation "invoices" already exists', 'The migration fails because it is not idempotent: the column exists already. Adding IF NOT EXISTS to the ALTER TABLE.', 'npm run migrate'), '2026-03-02T09:00:00.000Z');
    const hook = spawnSync(process.execPath, [CLI, 'capture', '--hook', '--to-branch', 'compound/inbox', '--push'], { cwd: alice.dir, input: JSON.stringify({ session_id: 'a1', transcript_path: t1, hook_event_name: 'SessionEnd' }), env: { ...gitEnv, COMPOUND_CACHE_DIR: alice.cache }, encoding: 'utf8' });
    expect(hook.status).toBe(0);
    for (let i = 0; i < 150 && inboxFiles().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    // bob's cron capture pushes to the same inbox branch (his clone has never seen alice's commit)
    writeClaudeSession(join(bob.sessions, 's2.jsonl'), 'b2b2b2b2-1111-4c3d-9e8f-000000000002', '/srv/src/invoices', session('python app.py', "ModuleNotFoundError: No module named 'requests'", "The app fails because requests is missing from the system python; the project's virtualenv has it.", '.venv/bin/python app.py'), '2026-03-02T10:00:00.000Z');
    const cron = runCli(['capture', bob.sessions, '--to-branch', 'compound/inbox', '--push'], { cwd: bob.dir, env: { ...GIT_ENV, COMPOUND_CACHE_DIR: bob.cache } });
    expect(cron.code, cron.stderr).toBe(0);
    expect(inboxFiles()).toHaveLength(2);
    for (const d of devs) expect(git(d.dir, 'status', '--porcelain').trim()).toBe('');

    // night 1: one pull request
    const n1 = await nightly(base, origin, 1, gh);
    expect(n1.number).toBe('1');
    expect(gh.pulls).toHaveLength(1);
    expect(gh.pulls[0]).toMatchObject({ head: 'knowledge/nightly', base: 'main', state: 'open' });
    const night1Items = git(origin, 'ls-tree', '-r', '--name-only', 'knowledge/nightly', 'knowledge/repos').trim().split('\n').filter(Boolean);
    expect(night1Items.length).toBeGreaterThan(0);
    expect(git(origin, 'ls-tree', '-r', '--name-only', 'knowledge/nightly')).toContain('metrics/dashboard.md');
    expect(git(origin, 'ls-tree', '-r', '--name-only', 'knowledge/nightly')).not.toContain('metrics/cache.json');

    // night 2: a new session; the same pull request is updated
    writeClaudeSession(join(bob.sessions, 's3.jsonl'), 'b3b3b3b3-1111-4c3d-9e8f-000000000003', '/srv/src/invoices', session('npm run build', "error TS2307: Cannot find module './config.js'", 'The build fails because src/config.ts was renamed to settings.ts; updating the import.', 'npm run build'), '2026-03-03T10:00:00.000Z');
    expect(runCli(['capture', bob.sessions, '--to-branch', 'compound/inbox', '--push'], { cwd: bob.dir, env: { ...GIT_ENV, COMPOUND_CACHE_DIR: bob.cache } }).code).toBe(0);
    expect(inboxFiles()).toHaveLength(3);
    const n2 = await nightly(base, origin, 2, gh);
    expect(n2.number).toBe('1');
    expect(gh.pulls).toHaveLength(1);

    // the maintainer merges it (a merge commit, GitHub's default)
    git(maint, 'fetch', '-q', 'origin');
    git(maint, 'merge', '-q', '--no-ff', 'origin/knowledge/nightly', '-m', 'Merge pull request #1 from acme/knowledge/nightly');
    git(maint, 'push', '-q', 'origin', 'main');
    Object.assign(gh.pulls[0]!, { state: 'closed', merged: true });

    // night 3: a new session; a new pull request
    const t4 = writeClaudeSession(join(alice.sessions, 's4.jsonl'), 'a4a4a4a4-1111-4c3d-9e8f-000000000004', '/srv/src/invoices', session('python3 -m pytest', "E   TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'", 'The tests fail on Python 3.9: the code uses `X | None` annotations. Running them with Python 3.11.', 'python3.11 -m pytest'), '2026-03-04T09:00:00.000Z');
    expect(runCli(['capture', t4, '--to-branch', 'compound/inbox', '--push'], { cwd: alice.dir, env: { ...GIT_ENV, COMPOUND_CACHE_DIR: alice.cache } }).code).toBe(0);
    const n3 = await nightly(base, origin, 3, gh);
    expect(n3.number).toBe('2');
    expect(gh.pulls.map((p) => [p.number, p.state])).toEqual([
      [1, 'closed'],
      [2, 'open'],
    ]);
    // the new PR holds only what is new: the first two nights are on main already
    const onMain = new Set(git(origin, 'ls-tree', '-r', '--name-only', 'main', 'knowledge/repos').trim().split('\n'));
    const onBranch = git(origin, 'ls-tree', '-r', '--name-only', 'knowledge/nightly', 'knowledge/repos').trim().split('\n');
    expect(onBranch.filter((f) => !onMain.has(f)).length).toBeGreaterThan(0);
    for (const f of night1Items) expect(onMain.has(f)).toBe(true);

    // a developer pulls and starts a session: the merged knowledge is there
    git(alice.dir, 'pull', '-q', 'origin', 'main');
    const boot = runCli(['bootstrap', '--repo', 'invoices', '--task', 'run the tests'], { cwd: alice.dir });
    expect(boot.code, boot.stderr).toBe(0);
    expect(boot.stdout).toContain('requests'); // bob's session, merged with the first pull request
    expect(boot.stdout).not.toContain('Python 3.10+'); // the third night's, not merged yet
    const review = JSON.parse(runCli(['review', '--json'], { cwd: alice.dir }).stdout) as { total: { kept: number; edited: number; deleted: number } };
    expect(review.total).toMatchObject({ kept: onMain.size, edited: 0, deleted: 0 });
    for (const r of [n1, n2, n3]) expect(r.log).not.toContain(TOKEN);
    expect(existsSync(join(alice.dir, 'knowledge', 'index.json'))).toBe(true);
  }, 180_000);
});
