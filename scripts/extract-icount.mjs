#!/usr/bin/env node
// Instructions the extractor executes over a directory's sessions, per build: wall time on this
// shared VM moves by 5-30% between identical runs, instruction counts by about 1%. Each build runs
// under valgrind's cachegrind with `node --single-threaded --predictable` (see read-icount.mjs):
// the sessions are read by the first build given, then extracted `passes` times by the build
// measured; a run with no pass is subtracted, so the figure is the extraction's own count.
// Needs valgrind (a Debian package).
//   node scripts/extract-icount.mjs <dist A> [<dist B> ...] --dir <dir> [--passes 2]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const builds = [];
let dir = '';
let passes = 2;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir') dir = resolve(args[++i] ?? '');
  else if (args[i] === '--passes') passes = Number(args[++i]);
  else builds.push(resolve(args[i]));
}
if (!dir || builds.length === 0 || !(passes > 0)) {
  console.error('usage: node scripts/extract-icount.mjs <dist A> [<dist B> ...] --dir <dir> [--passes 2]');
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'extract-icount-'));
const script = join(tmp, 'run.mjs');
writeFileSync(
  script,
  `const [reader, extractor, dir, passes] = process.argv.slice(2);
const { readSessions } = await import(reader + '/sessions/read.js');
const { extractSession } = await import(extractor + '/harvest/extract/index.js');
const { sessions } = await readSessions([dir], {});
let n = 0;
for (let p = 0; p < Number(passes); p++) for (const s of sessions) n += extractSession(s).length;
console.log(sessions.length, n);
`,
);
function count(extractor, k) {
  const out = join(tmp, 'cg.out');
  const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${out}`, process.execPath, '--single-threaded', '--predictable', script, builds[0], extractor, dir, String(k)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`valgrind failed: ${r.stderr.slice(-2000)}`);
  return { refs: Number(m[1].replaceAll(',', '')), result: r.stdout.trim() };
}
try {
  const base = count(builds[0], 0);
  for (const b of builds) {
    const c = count(b, passes);
    console.log(`${b}: ${((c.refs - base.refs) / 1e9).toFixed(3)} billion instructions for ${passes} pass(es) (sessions, candidates: ${c.result})`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
