#!/usr/bin/env node
// Two builds of the readers side by side, as the readers bench runs them: each run is a fresh
// process reading a directory once (cold JIT included, page cache warm), and the runs of the two
// builds alternate so that both see the same minutes of a shared machine. Prints every run (wall and CPU seconds,
// GC threads included) and the median of each build per directory.
//   node scripts/read-ab.mjs <dist A> <dist B> <dir>... [--runs N]   (default 3 runs each)
// A build is a directory holding sessions/read.js, e.g. this checkout's dist/ and one built from
// another commit (`git worktree add /tmp/old <commit> && cd /tmp/old && npx tsc --outDir /tmp/dist-old`).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const { warmCache } = await import(join(fileURLToPath(new URL('.', import.meta.url)), '..', 'bench', 'corpus.mjs'));

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 3 : Number(args.splice(runsAt, 2)[1]);
const [a, b, ...dirs] = args;
if (!a || !b || dirs.length === 0 || !(runs > 0)) {
  console.error('usage: node scripts/read-ab.mjs <dist A> <dist B> <dir>... [--runs N]');
  process.exit(2);
}

// one pass over a directory; prints wall seconds, CPU seconds and the number of events
const ONE_PASS = `
const { forEachSessionFile } = await import(process.argv[1]);
const t = performance.now();
let events = 0;
await forEachSessionFile([process.argv[2]], {}, (f) => { for (const s of f.sessions) events += s.events.length; });
const cpu = process.cpuUsage();
console.log(((performance.now() - t) / 1000).toFixed(3), ((cpu.user + cpu.system) / 1e6).toFixed(3), events);`;

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

for (const dir of dirs) {
  const times = { [a]: [], [b]: [] };
  const events = new Set();
  for (let r = 0; r < runs; r++) {
    for (const build of r % 2 ? [b, a] : [a, b]) {
      warmCache(dir); // every pass finds the files in the page cache (see bench/corpus.mjs)
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', ONE_PASS, resolve(build, 'sessions/read.js'), resolve(dir)], {
        env: { ...process.env, COMPOUND_READ_WORKERS: '' },
        encoding: 'utf8',
      });
      const [wall, cpu, n] = out.trim().split(' ');
      times[build].push([Number(wall), Number(cpu)]);
      events.add(n);
      console.log(`${dir}  ${build}  ${wall} s wall  ${cpu} s cpu`);
    }
  }
  if (events.size !== 1) console.log(`${dir}: the builds read different numbers of events: ${[...events].join(', ')}`);
  for (const build of [a, b]) {
    const t = times[build];
    console.log(`${dir}  ${build}  median ${median(t.map((x) => x[0])).toFixed(2)} s wall, ${median(t.map((x) => x[1])).toFixed(2)} s cpu`);
  }
}
