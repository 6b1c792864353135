#!/usr/bin/env node
// `npm run demo`: the main job on the bundled example. Harvests test_sessions/ into a fresh
// demo knowledge base (.compound-demo/), checks it, prints a bootstrap and writes the dashboard.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli', 'main.js');
const demo = join(root, '.compound-demo');
const sessions = join(root, 'test_sessions');

function step(title, args, { allow = [0] } = {}) {
  process.stdout.write(`\n$ compound ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env: { ...process.env } });
  if (!allow.includes(r.status ?? -1)) {
    console.error(`demo step "${title}" failed with exit code ${r.status}`);
    process.exit(r.status ?? 3);
  }
}

if (!existsSync(cli)) {
  console.error('dist/ is missing: run npm ci (or npm run build) first');
  process.exit(2);
}
process.stdout.write(
  [
    'compound demo: the whole loop on the bundled example, test_sessions/ (small sessions of every',
    'supported agent format). It creates a knowledge base in .compound-demo/, harvests the sessions',
    'into reviewed-style item files (the PR body a nightly job would post goes to pr-body.md),',
    'checks the store, shows that a rerun changes nothing, lists the items of one repository, prints',
    'the bootstrap block an agent would get at session start, and writes the dashboard.',
    'Two sample transcripts are damaged on purpose (a line cut off mid-JSON, as a crash leaves it)',
    'and a terminal copy records no times: the warnings below name the file and line, and the rest',
    'of each session is still harvested.',
    '',
  ].join('\n'),
);
rmSync(demo, { recursive: true, force: true });
mkdirSync(demo);
// A transcript that records no time (the terminal copy in console-md/) is dated by its file's
// modification time; git keeps none, so the example's files get a fixed one (the day after its
// newest session) and the demo writes the same dates on every clone.
const FIXED = new Date('2026-03-15T00:00:00Z');
for (const d of readdirSync(sessions, { recursive: true, withFileTypes: true })) if (d.isFile()) utimesSync(join(d.parentPath, d.name), FIXED, FIXED);
step('init', ['init', demo]);
step('harvest', ['-C', demo, 'harvest', sessions, '--pr-body', join(demo, 'pr-body.md')]);
step('check', ['-C', demo, 'check']);
step('rerun is a no-op', ['-C', demo, 'harvest', sessions]);

// bootstrap for the repo that has the most items, as an agent would get it at session start
const index = JSON.parse(readFileSync(join(demo, 'knowledge', 'index.json'), 'utf8'));
const counts = new Map();
for (const e of index.items) if (e.repo) counts.set(e.repo, (counts.get(e.repo) ?? 0) + 1);
const repo = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'demo';
step('list', ['-C', demo, 'list', '--repo', repo]);
step('bootstrap', ['-C', demo, 'bootstrap', '--repo', repo, '--agent', 'claude-code', '--task', 'fix the failing build and tests', '--budget', '800']);
step('measure', ['-C', demo, 'measure', '--sessions', sessions]);
process.stdout.write(`\nDemo knowledge base: ${demo}\n  items: knowledge/, PR body: pr-body.md, dashboard: metrics/dashboard.md\n`);
