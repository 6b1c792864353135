#!/usr/bin/env node
// Instructions executed by one fresh read of a directory, per build: a repeatable measure for
// changes of a few percent, which wall or CPU time on a shared VM cannot show (single runs of the
// same build moved by 20-70% here, with up to 38% steal time in `top`). Counts come from
// valgrind's cachegrind (`I refs`, every instruction of the process: start-up, JIT, GC) with
// `node --single-threaded --predictable`, which makes V8's compile and GC decisions the same from
// run to run (two runs of one build over the aider part: 10.03 and 9.99 billion, where without
// the flags they were 11.05 and 10.36). Instructions are not time (cache misses, syscalls and
// the GC threads of a normal run are not in them), so confirm a gain in the benches.
// Needs valgrind (a Debian package); about 80 s per run for 40 MB of transcripts.
//   node scripts/read-icount.mjs <dist A> [<dist B> ...] --dir <dir> [--dir <dir> ...] [--baseline]
// --baseline also counts the raw-parse baseline of the benches (bench/corpus.mjs) on each dir.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const { RAW_PARSE } = await import(join(fileURLToPath(new URL('.', import.meta.url)), '..', 'bench', 'corpus.mjs'));

const args = process.argv.slice(2);
const dirs = [];
const builds = [];
let baseline = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir') dirs.push(resolve(args[++i] ?? ''));
  else if (args[i] === '--baseline') baseline = true;
  else builds.push(resolve(args[i]));
}
if (dirs.length === 0 || (builds.length === 0 && !baseline)) {
  console.error('usage: node scripts/read-icount.mjs <dist A> [<dist B> ...] --dir <dir> [--dir <dir> ...] [--baseline]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'compound-icount-'));
const onePass = join(work, 'one-pass.mjs');
writeFileSync(onePass, `const { forEachSessionFile } = await import(process.argv[2] + '/sessions/read.js');\nawait forEachSessionFile([process.argv[3]], {}, () => {});\n`);

/** Instructions of `node --single-threaded --predictable <nodeArgs>`; throws when the run fails. */
function irefs(nodeArgs) {
  const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--single-threaded', '--predictable', ...nodeArgs], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.error) throw new Error(r.error.code === 'ENOENT' ? 'valgrind is not installed (apt-get install valgrind)' : r.error.message);
  if (r.status !== 0) throw new Error(`node ${nodeArgs.join(' ').slice(0, 200)} failed:\n${r.stderr.slice(-2000)}`);
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr); // cachegrind's summary is on stderr
  if (!m) throw new Error(`no instruction count in valgrind's output:\n${r.stderr.slice(-2000)}`);
  return Number(m[1].replaceAll(',', ''));
}

const giga = (n) => `${(n / 1e9).toFixed(3)} G`;
try {
  console.log('| dir | build | instructions |\n| --- | --- | --- |');
  for (const dir of dirs) {
    // RAW_PARSE takes its directory as process.argv[1], as under `node -e` in the benches
    if (baseline) console.log(`| ${dir} | baseline (raw parse) | ${giga(irefs(['--input-type=module', '-e', RAW_PARSE, dir]))} |`);
    for (const build of builds) console.log(`| ${dir} | ${build} | ${giga(irefs([onePass, build, dir]))} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
