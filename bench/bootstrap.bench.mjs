// Issue 5 figures: a cold `compound bootstrap` process with a task, on generated stores of
// 10k and 100k items (quick: 1k and 10k), against `node -e ""` measured in the same run.
// Runs alternate between the baseline and the command so that load on the machine hits both.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { NODE, fmtMs, mdTable, median, ratio, timeCommand } from './lib.mjs';
import { generateStore } from './store.bench.mjs';

const TASK = 'vitest fails in docker: cache not found after rebase';
/** Items a nightly pull request typically brings. */
const PULLED = 20;
/** Runs of each cold case, each after a run of the baseline: their medians are shown. */
const COLD_RUNS = 5;
const AGENT_ENV = { CLAUDECODE: '', CLAUDE_CODE_ENTRYPOINT: '', CODEX_SANDBOX: '', GEMINI_CLI: '' };
/** No detached rebuild during the timings: it would load the machine for the runs after it. */
const NO_BACKGROUND = { COMPOUND_BACKGROUND_REBUILD: '0' };

/** Every item file under a knowledge folder, sorted. */
function itemFiles(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.md') && /^(global|repos|agents)\//.test(f)).map((f) => join(dir, f)).sort();
}

function once(args, cwd) {
  const t0 = performance.now();
  const r = spawnSync(NODE, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...AGENT_ENV, ...NO_BACKGROUND }, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return { ms, stdout: r.stdout, stderr: r.stderr };
}

/** Medians of alternating runs: baseline, then each command, `runs` times over. */
function alternate(commands, cwd, runs) {
  const times = commands.map(() => []);
  for (let i = 0; i < runs; i++) commands.forEach((args, k) => times[k].push(once(args, cwd).ms));
  return times.map(median);
}

export async function run({ quick, root }) {
  const dist = join(root, 'dist');
  const cli = join(dist, 'cli/main.js');
  const sizes = quick ? [1000, 10000] : [10000, 100000];
  const runs = quick ? 5 : 9;
  const rows = [];
  const firstRows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `compound-bench-bootstrap-${n}-`));
    try {
      const made = await generateStore(dir, n, dist);
      timeCommand(NODE, [cli, 'reindex'], { cwd: dir, runs: 1 });
      const boot = (format) => [cli, 'bootstrap', '--repo', 'repo-7', '--task', TASK, '--format', format];
      // the day before: index.json and its search structure, as reindex (like harvest) left them
      const cacheDir = join(dir, 'knowledge', '.cache');
      const structure = readdirSync(cacheDir).find((f) => f.endsWith('.bin'));
      const dayBefore = readFileSync(join(cacheDir, structure));
      // a merged pull request: 20 items changed (their text), index.json rewritten by compound
      for (const file of itemFiles(join(dir, 'knowledge')).slice(0, PULLED)) writeFileSync(file, readFileSync(file, 'utf8').replace('Running `', 'Updated after review. Running `'));
      timeCommand(NODE, [cli, 'reindex'], { cwd: dir, runs: 1 });
      const warmOutput = once(boot('markdown'), dir).stdout;
      const current = readFileSync(join(cacheDir, structure));
      const cold = (prepare) => {
        const ms = [];
        const baseline = [];
        for (let i = 0; i < COLD_RUNS; i++) {
          prepare();
          spawnSync('sync'); // the files just written or removed are not flushed during the run
          baseline.push(once(['-e', ''], dir).ms);
          const r = once(boot('markdown'), dir);
          if (r.stdout !== warmOutput) throw new Error('a start without a current structure gave another output than one with it');
          ms.push(r.ms);
        }
        return { ms: median(ms), base: median(baseline) };
      };
      // no structure on disk at all (a fresh clone)
      const first = cold(() => rmSync(cacheDir, { recursive: true, force: true }));
      // the structure of the day before still on disk, stale
      const pulled = cold(() => {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(join(cacheDir, structure), dayBefore);
      });
      // the rebuild a cold start leaves to a detached process
      rmSync(cacheDir, { recursive: true, force: true });
      const rebuild = median(Array.from({ length: 3 }, () => once([join(dist, 'bootstrap/rebuild-main.js'), dir], dir).ms));
      if (!readFileSync(join(cacheDir, structure)).equals(current)) throw new Error('the background rebuild wrote another structure than reindex');
      const out = once(boot('markdown'), dir);
      const taken = (out.stdout.match(/ids=([^\s]*)/)?.[1] ?? '').split(',').filter(Boolean).length;
      const [base, md, cc] = alternate([['-e', ''], boot('markdown'), boot('claude-code')], dir, runs);
      rows.push([made.toLocaleString('en-US'), fmtMs(base), fmtMs(md), ratio(md, base), fmtMs(cc), ratio(cc, base), String(taken)]);
      firstRows.push([made.toLocaleString('en-US'), fmtMs(first.ms), ratio(first.ms, first.base), fmtMs(pulled.ms), ratio(pulled.ms, pulled.base), fmtMs(rebuild)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const markdown = [
    `Stores generated by \`generateStore\` (bench/store.bench.mjs), then \`compound reindex\`. Each figure is the median of ${runs} fresh processes, alternating with the baseline \`node -e ""\` so that machine load hits both alike. Command: \`compound bootstrap --repo repo-7 --task "${TASK}"\` (2,000-token budget), once as markdown, once as the Claude Code hook JSON. Targets: at most 3x the baseline at 10k items, 8x at 100k.`,
    '',
    mdTable(['items', '`node -e ""`', 'bootstrap (markdown)', 'markdown / baseline', 'bootstrap (claude-code)', 'claude-code / baseline', 'items given'], rows),
    '',
    `\`compound harvest\` and \`compound reindex\` rebuild the search structure (knowledge/.cache/) whenever they change \`index.json\`. When \`index.json\` changed some other way (a pull that merged the nightly pull request, a fresh clone), bootstrap reads the candidates' lines of \`index.json\` itself (global, this repo's, this agent's: found by binary search over the sorted lines; token counts and BM25 lengths from the index, so only the task's terms are searched for) and leaves the rebuild to a detached process. Cold starts below: after ${PULLED} items changed and \`compound reindex\`, with no structure on disk and with the stale structure of the day before; each gave the same bytes as the warm start. Median of ${COLD_RUNS} runs each, each after a run of the baseline (whose median the ratio is against); the last column is the detached rebuild (median of 3), which no session start waits for. Targets: at most 3x the baseline at 10k items, 1 s at 100k.`,
    '',
    mdTable(['items', 'no structure', '/ baseline', `stale structure (${PULLED} changed)`, '/ baseline', 'background rebuild'], firstRows),
  ].join('\n');
  return { title: 'Bootstrap: cold session start', markdown };
}
