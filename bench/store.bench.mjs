// Issue 2 figures: `compound check` and `compound reindex` on generated stores, against a
// baseline process that only reads the same files; and committing 1,000 new items with
// isomorphic-git against `git add -A && git commit` on the same tree.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { NODE, fmtMs, mdTable, ratio, timeCommand } from './lib.mjs';

const CATEGORIES = ['fact', 'pitfall', 'pattern', 'tool-quirk', 'question'];
const WORDS = 'build test lint format deploy cache token port server config migrate schema docker compose webpack vite jest vitest mix phoenix elixir cargo rust python pytest poetry npm pnpm yarn git branch rebase hook commit push upstream env secret path assets node tsc eslint prettier'.split(' ');

/** Deterministic PRNG (mulberry32). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function generateStore(root, n, dist, seed = 7) {
  const { serializeItem } = await import(join(dist, 'knowledge/codec.js'));
  const { itemPath } = await import(join(dist, 'knowledge/paths.js'));
  const { itemId } = await import(join(dist, 'knowledge/ids.js'));
  const { initStore } = await import(join(dist, 'knowledge/init.js'));
  initStore(root);
  const rnd = prng(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const made = new Set();
  for (let i = 0; i < n; i++) {
    const category = pick(CATEGORIES);
    const r = rnd();
    const scope = r < 0.6 ? 'repo' : r < 0.8 ? 'agent' : 'global';
    const repo = scope === 'repo' ? `repo-${Math.floor(rnd() * 40)}` : undefined;
    const agent = scope === 'agent' ? pick(['claude-code', 'codex', 'gemini-cli', 'aider']) : undefined;
    const w = Array.from({ length: 14 }, () => pick(WORDS));
    const text = `Running \`${w[0]} ${w[1]}\` in ${w[2]}/ fails with "${w[3]} ${w[4]} not found" (item ${i}). The cause is ${w[5]} ${w[6]} ${w[7]}; run \`${w[8]} ${w[9]} --${w[10]}\` first, then ${w[11]} ${w[12]} ${w[13]}.`;
    const id = itemId({ category, scope, repo, agent, text });
    if (made.has(id)) continue;
    made.add(id);
    const day = String(1 + Math.floor(rnd() * 28)).padStart(2, '0');
    const meta = {
      id, category, scope, ...(repo ? { repo } : {}), ...(agent ? { agent } : {}),
      confidence: Math.round((0.3 + rnd() * 0.6) * 100) / 100, evidence: 1 + Math.floor(rnd() * 5),
      first_seen: `2026-04-${day}T10:00:00Z`, last_seen: `2026-05-${day}T10:00:00Z`, status: 'active',
      tags: [w[0], w[8]], sources: [{ session: `s-${i}`, format: 'claude-code', event: i % 300, line: 1 + (i % 900) }],
    };
    const title = `${w[0]} ${w[1]} fails in ${w[2]} without ${w[8]} ${w[9]}`;
    const rel = itemPath(meta, title);
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), serializeItem({ meta: { ...meta, title }, body: `${text}\n\n## Evidence\n- session s-${i}, event ${i % 300}\n` }));
  }
  return made.size;
}

const READ_ONLY = `
import { readdirSync, readFileSync } from 'node:fs';
let bytes = 0, files = 0;
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = d + '/' + e.name; if (e.isDirectory()) walk(p); else if (e.name.endsWith('.md')) { bytes += readFileSync(p).length; files++; } } };
walk(process.argv[1] + '/knowledge');
console.log(files, bytes);`;

export async function run({ quick, root }) {
  const dist = join(root, 'dist');
  const cli = join(dist, 'cli/main.js');
  const sizes = quick ? [1000, 10000] : [10000, 100000];
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `compound-bench-store-${n}-`));
    try {
      const made = await generateStore(dir, n, dist);
      // check's load cache in a directory of its own (it is per user, outside the store)
      const cacheEnv = { COMPOUND_CACHE_DIR: join(dir, 'user-cache') };
      timeCommand(NODE, [cli, 'reindex'], { cwd: dir, runs: 1, env: cacheEnv });
      const runs = n >= 100000 ? 1 : 3;
      const base = timeCommand(NODE, ['--input-type=module', '-e', READ_ONLY, dir], { runs });
      const label = made.toLocaleString('en-US');
      const row = (what, check, reindex) => rows.push([`${label}, ${what}`, fmtMs(base.ms), fmtMs(check.ms), ratio(check.ms, base.ms), fmtMs(reindex.ms), ratio(reindex.ms, base.ms)]);
      // from scratch: every file parsed, validated and (check) scanned, as on a fresh clone
      const check = timeCommand(NODE, [cli, 'check', '--no-cache'], { cwd: dir, runs });
      if (check.result.status !== 0) throw new Error(`check found problems in the generated store:\n${check.result.stdout.slice(0, 2000)}`);
      row('from scratch (`--no-cache`)', check, timeCommand(NODE, [cli, 'reindex', '--no-cache'], { cwd: dir, runs }));
      // the first run with the cache: everything parsed, then remembered (the cache is deleted
      // before each run; `sh -c` and `rm` add a few milliseconds)
      const fresh = (cmd) => timeCommand('sh', ['-c', `rm -rf user-cache && exec "${NODE}" "${cli}" ${cmd}`], { cwd: dir, runs, env: cacheEnv });
      row('first run, filling the cache', fresh('check'), fresh('reindex'));
      // nothing changed since the last run (a pre-commit hook, a second check)
      timeCommand(NODE, [cli, 'check'], { cwd: dir, runs: 1, env: cacheEnv });
      const warmCheck = timeCommand(NODE, [cli, 'check'], { cwd: dir, runs, env: cacheEnv });
      row('cache warm (no file changed)', warmCheck, timeCommand(NODE, [cli, 'reindex'], { cwd: dir, runs, env: cacheEnv }));
      if (n >= 40000) {
        // from scratch on one thread: what the worker threads of store-parallel.ts gain here
        const one = { COMPOUND_THREADS: '1' };
        const check1 = timeCommand(NODE, [cli, 'check', '--no-cache'], { cwd: dir, runs, env: one });
        const reindex1 = timeCommand(NODE, [cli, 'reindex', '--no-cache'], { cwd: dir, runs, env: one });
        row('from scratch, one thread (`COMPOUND_THREADS=1`)', check1, reindex1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // committing 1,000 new items: isomorphic-git vs the git CLI on copies of the same tree
  const base = mkdtempSync(join(tmpdir(), 'compound-bench-commit-'));
  const env = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid', GIT_COMMITTER_DATE: '1767225600', GIT_AUTHOR_DATE: '1767225600' };
  let commitRow;
  try {
    const existing = quick ? 2000 : 10000;
    const repo = join(base, 'repo');
    mkdirSync(repo);
    await generateStore(repo, existing, dist, 1);
    const git = (...a) => execFileSync('git', a, { cwd: repo, env: { ...process.env, ...env } });
    git('init', '-q', '-b', 'main');
    git('config', 'gc.auto', '0'); // a background gc would race the copies below
    git('add', '-A');
    git('commit', '-q', '-m', 'seed');
    const { applyPlan, makePlan } = await import(join(dist, 'knowledge/plan.js'));
    const { loadStore } = await import(join(dist, 'knowledge/store.js'));
    const { itemId } = await import(join(dist, 'knowledge/ids.js'));
    const items = Array.from({ length: 1000 }, (_, i) => {
      const text = `New fact ${i}: the service listens on port ${3000 + i}.`;
      return { meta: { id: itemId({ category: 'fact', scope: 'repo', repo: 'bench', text }), category: 'fact', scope: 'repo', repo: 'bench', confidence: 0.7, evidence: 1, first_seen: '2026-05-01', last_seen: '2026-05-01', status: 'active', tags: [], sources: [] }, body: `${text}\n` };
    });
    const applied = applyPlan(repo, makePlan(loadStore(repo).items, items));
    const isoRepo = join(base, 'iso');
    const cliRepo = join(base, 'cli');
    cpSync(repo, isoRepo, { recursive: true });
    cpSync(repo, cliRepo, { recursive: true });
    const changedFile = join(base, 'changed.json');
    writeFileSync(changedFile, JSON.stringify(applied));
    const script = `
      import { readFileSync } from 'node:fs';
      const { commitChanges } = await import(${JSON.stringify(join(dist, 'knowledge/git.js'))});
      const a = JSON.parse(readFileSync(${JSON.stringify(changedFile)}, 'utf8'));
      const r = await commitChanges({ root: process.argv[1], changed: a.changed, removed: a.removed, message: 'bench\\n' });
      console.log(r.sha);`;
    const iso = timeCommand(NODE, ['--input-type=module', '-e', script, isoRepo], { runs: 1, env });
    const gitCli = timeCommand('sh', ['-c', 'git add -A && git commit -q -m bench'], { cwd: cliRepo, runs: 1, env });
    execFileSync('git', ['fsck', '--strict'], { cwd: isoRepo });
    const isoFiles = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: isoRepo, encoding: 'utf8' }).trim().split('\n').length;
    commitRow = [existing.toLocaleString('en-US'), String(isoFiles), fmtMs(gitCli.ms), fmtMs(iso.ms), ratio(iso.ms, gitCli.ms)];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }

  const markdown = [
    'Stores generated by `bench/store.bench.mjs` (realistic item files over 40 repos, 4 agents, 5 categories). Each command runs as a fresh process; baseline = a node process that only walks `knowledge/` and reads every `.md` file. Median of 3 runs (1 at 100k). Check and reindex remember the files they found clean in a per-user cache outside the store (src/knowledge/load-cache.ts): a file whose bytes are unchanged is read and hashed but not parsed, validated or scanned again. \"From scratch\" is a fresh clone (a CI job) or `--no-cache`; \"first run\" has no cache yet and writes it; \"cache warm\" is a run after one that changed nothing. From scratch at 40,000 files or more, check and reindex share the work with a worker thread (src/knowledge/store-parallel.ts); the \"one thread\" row is the same store without it.',
    '',
    mdTable(['items', 'baseline (read files)', '`check`', 'check / baseline', '`reindex`', 'reindex / baseline'], rows),
    '',
    'Committing 1,000 new items (plus `index.json`) on top of a store already committed; both commit the same tree, `git fsck --strict` passes on the isomorphic-git result.',
    '',
    mdTable(['items already committed', 'files in commit', '`git add -A && git commit`', 'isomorphic-git (`commitChanges`)', 'isomorphic-git / git CLI'], [commitRow]),
  ].join('\n');
  return { title: 'Knowledge store: check, reindex, commit', markdown };
}
