#!/usr/bin/env node
// What the young-generation GC costs while the readers read a corpus, part by part: one child
// process reads each subdirectory of the corpus in turn (the generator writes one per format, in
// the order the walk meets them), under `node --trace-gc-nvp`, and this script sums the
// scavenges that fell into each part: their count, pause, and the bytes they promoted to the old
// generation. Promotion is the telling figure: a part whose objects die young promotes little;
// one whose objects outlive scavenges (or are kept alive by old objects pointing at them) pays
// for copying them, twice. Builds on dist/ (npm run build first).
//   node scripts/read-gc.mjs [corpus dir] [--alone] [-- node flags...]
// --alone reads each part in a process of its own (nothing read before it), to compare.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const nodeFlags = dashes >= 0 ? args.splice(dashes).slice(1) : [];
const alone = args.includes('--alone');
const corpus = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'bench/out/corpus-20000-1G'));
const parts = readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => join(corpus, e.name))
  .sort();

// the child prints a marker line after each part; scavenge lines before it belong to that part
const CHILD = `
const { forEachSessionFile } = await import(${JSON.stringify(join(root, 'dist/sessions/read.js'))});
for (const dir of process.argv.slice(1)) {
  const t = performance.now();
  await forEachSessionFile([dir], {}, () => {});
  console.log('@@part ' + dir + ' ' + (performance.now() - t).toFixed(0));
}`;

function field(line, name) {
  const m = new RegExp(` ${name}=([\\d.]+)`).exec(line);
  return m ? Number(m[1]) : 0;
}

function run(dirs) {
  const r = spawnSync(process.execPath, [...nodeFlags, '--trace-gc-nvp', '--input-type=module', '-e', CHILD, ...dirs], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(r.stderr.slice(-2000));
  const rows = [];
  let sum = { scavenges: 0, pause: 0, promoted: 0, allocated: 0 };
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('@@part ')) {
      const [, dir, ms] = line.split(' ');
      rows.push({ part: dir.slice(corpus.length + 1), ms: Number(ms), ...sum });
      sum = { scavenges: 0, pause: 0, promoted: 0, allocated: 0 };
    } else if (line.includes(' gc=s ')) {
      sum.scavenges++;
      sum.pause += field(line, 'pause');
      sum.promoted += field(line, 'promoted');
      sum.allocated += field(line, 'allocated');
    }
  }
  return rows;
}

const rows = alone ? parts.flatMap((p) => run([p])) : run(parts);
console.log(`${alone ? 'each part in a process of its own' : 'all parts in one process, in walk order'}${nodeFlags.length ? `, node ${nodeFlags.join(' ')}` : ''}`);
console.log('| part | read | scavenges | scavenge pause | allocated | promoted |\n| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.part} | ${r.ms} ms | ${r.scavenges} | ${r.pause.toFixed(0)} ms | ${(r.allocated / 1e6).toFixed(0)} MB | ${(r.promoted / 1e6).toFixed(0)} MB |`);
}
