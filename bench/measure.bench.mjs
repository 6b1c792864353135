// Issue 6 figures: `compound measure` over a synthetic corpus from bench/gen-corpus.mjs.
// (a) incremental: the corpus measured once, 100 new sessions added, the second run timed against
//     `node -e ""` (process start) in the same run; (b) a cold run (no cache) against a raw-parse
//     baseline process that walks the same files, splits them into lines and JSON.parses each.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE, fmtMs, mdTable, peakRss, ratio, timeCommand } from './lib.mjs';
import { generate } from './gen-corpus.mjs';

/** The baseline: every file read, split into lines, each JSON line parsed (a .json file whole). */
const RAW_PARSE = `
import { readdirSync, readFileSync } from 'node:fs';
let bytes = 0, lines = 0, parsed = 0;
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = d + '/' + e.name; if (e.isDirectory()) walk(p); else if (/\\.(jsonl|json|md)$/.test(e.name)) visit(p); } };
const visit = (p) => {
  const text = readFileSync(p, 'utf8'); bytes += text.length;
  if (p.endsWith('.json')) { try { JSON.parse(text); parsed++; } catch {} return; }
  for (const line of text.split('\\n')) { lines++; if (p.endsWith('.jsonl') && line !== '') { try { JSON.parse(line); parsed++; } catch {} } }
};
walk(process.argv[1]);
console.log(bytes, lines, parsed);`;

function dirBytes(dir) {
  let bytes = 0;
  let files = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        bytes += statSync(p).size;
        files++;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

/** "measured N sessions from F files (P parsed, C from the cache...)" from stderr. */
function counters(stderr) {
  const m = /measured (\d+) sessions from (\d+) files \((\d+) parsed, (\d+) from the cache/.exec(stderr);
  return m ? { sessions: +m[1], files: +m[2], parsed: +m[3], cached: +m[4] } : undefined;
}

const mib = (b) => `${(b / 1024 ** 2).toFixed(0)} MiB`;

export async function run({ quick, root }) {
  const cli = join(root, 'dist/cli/main.js');
  const sessions = quick ? 2000 : 20000;
  const bytes = quick ? 100 * 1024 ** 2 : 1024 ** 3;
  const work = mkdtempSync(join(tmpdir(), 'compound-bench-measure-'));
  try {
    const input = join(work, 'transcripts');
    const base = join(input, 'base');
    const manifest = generate({ out: base, sessions, bytes, seed: 1, quiet: true });
    renameSync(join(base, 'manifest.json'), join(work, 'manifest.json')); // not a transcript
    const corpus = dirBytes(input);

    // A real store: harvest the sampler's best sessions of the corpus (pitfalls with error
    // signatures that recur in it). The corpus' bootstrap markers name ids no store has.
    const store = join(work, 'store');
    mkdirSync(store);
    timeCommand(NODE, [cli, 'init'], { cwd: store, runs: 1 });
    timeCommand(NODE, [cli, 'harvest', '--top', String(quick ? 500 : 2000), input], { cwd: store, runs: 1 });
    const items = JSON.parse(readFileSync(join(store, 'knowledge/index.json'), 'utf8')).items.length;
    const measureArgs = [cli, 'measure', '--sessions', input, '--no-history'];

    // (b) cold: no cache, every file parsed; against the raw-parse baseline over the same files
    const baseline = timeCommand(NODE, ['--input-type=module', '-e', RAW_PARSE, input], { runs: quick ? 3 : 1 });
    // timed under /usr/bin/time when it exists, so the one cold run also gives its peak RSS
    const hasTime = existsSync('/usr/bin/time');
    const cold = hasTime ? timeCommand('/usr/bin/time', ['-f', '%M', NODE, ...measureArgs], { cwd: store, runs: 1 }) : timeCommand(NODE, measureArgs, { cwd: store, runs: 1 });
    const coldCounts = counters(cold.result.stderr);
    const coldRss = hasTime ? Number(cold.result.stderr.trim().split('\n').at(-1)) : undefined;
    const rss = peakRss(measureArgs.slice(0), { cwd: store }); // a warm run: what a nightly job holds

    // (a) incremental: measured once (above), then 100 new sessions; each timed run starts from
    // the cache as it was before the new sessions arrived
    const saved = join(work, 'cache-before.json');
    cpSync(join(store, 'metrics/cache.json'), saved);
    const fresh = generate({ out: join(input, 'new'), sessions: 100, bytes: Math.round((corpus.bytes / sessions) * 100), seed: 2, quiet: true });
    rmSync(join(input, 'new', 'manifest.json'));
    const startup = timeCommand(NODE, ['-e', ''], { runs: 5 });
    const times = [];
    let incCounts;
    for (let i = 0; i < 3; i++) {
      cpSync(saved, join(store, 'metrics/cache.json'));
      const r = timeCommand(NODE, measureArgs, { cwd: store, runs: 1 });
      times.push(r.ms);
      incCounts = counters(r.result.stderr);
    }
    times.sort((a, b) => a - b);
    const incremental = times[1];
    const nothingNew = timeCommand(NODE, measureArgs, { cwd: store, runs: 3 });
    const nothingCounts = counters(nothingNew.result.stderr);

    const markdown = [
      `Corpus: \`bench/gen-corpus.mjs --sessions ${sessions.toLocaleString('en-US')} --bytes ${mib(bytes)} --seed 1\` (${corpus.files.toLocaleString('en-US')} files, ${mib(corpus.bytes)}; ${Object.entries(manifest.formats).map(([f, n]) => `${f} ${n.sessions}`).join(', ')} sessions). ` +
        `Store: \`compound harvest --top ${quick ? 500 : 2000}\` of that corpus (${items} items). Every command is a fresh process with \`--no-history\`; times are wall-clock.`,
      '',
      '**(a) Incremental: 100 new sessions on top of a measured corpus** (median of 3; each run starts from the cache as it was before the new sessions)',
      '',
      mdTable(
        ['run', 'time', 'work beyond process start', 'files parsed / from cache'],
        [
          ['`node -e ""` (process start)', fmtMs(startup.ms), '–', '–'],
          [`\`compound measure\`, ${fresh.sessions} new sessions (${fresh.files} files)`, fmtMs(incremental), fmtMs(incremental - startup.ms), incCounts ? `${incCounts.parsed} / ${incCounts.cached}` : '?'],
          ['`compound measure`, nothing new', fmtMs(nothingNew.ms), fmtMs(nothingNew.ms - startup.ms), nothingCounts ? `${nothingCounts.parsed} / ${nothingCounts.cached}` : '?'],
        ],
      ),
      '',
      `Aim: under 3 s of work beyond process start with ${sessions.toLocaleString('en-US')} sessions${quick ? ' (this quick run has 2,000; the aim is stated for 20,000)' : ''}.`,
      '',
      '**(b) Cold run (no cache) against the raw-parse baseline** (a node process that walks the same files, splits each into lines and `JSON.parse`s every JSONL line and every JSON file)',
      '',
      mdTable(
        ['run', 'time', 'throughput', 'measure / baseline', 'peak RSS'],
        [
          ['raw-parse baseline', fmtMs(baseline.ms), `${(corpus.bytes / 1024 ** 2 / (baseline.ms / 1000)).toFixed(0)} MiB/s`, '1.00x', '–'],
          [`\`compound measure\` cold (${coldCounts ? `${coldCounts.sessions.toLocaleString('en-US')} sessions, ${coldCounts.parsed.toLocaleString('en-US')} files parsed` : '?'})`, fmtMs(cold.ms), `${(corpus.bytes / 1024 ** 2 / (cold.ms / 1000)).toFixed(0)} MiB/s`, ratio(cold.ms, baseline.ms), coldRss ? mib(coldRss * 1024) : 'n/a'],
          ['`compound measure`, all cached', fmtMs(nothingNew.ms), '–', ratio(nothingNew.ms, baseline.ms), rss ? mib(rss * 1024) : 'n/a'],
        ],
      ),
      '',
      'The cold run reads every file twice (a SHA-256 of its bytes for the cache key, then the session reader) and parses them with the full readers (format detection, event normalisation, bootstrap markers) before measuring; the baseline only splits and parses JSON.',
    ].join('\n');
    return { title: 'Measurer: incremental and cold `compound measure`', markdown };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
