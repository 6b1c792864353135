// Wall time of `compound harvest <dir>` into an empty store, two builds in alternating fresh
// processes (the order flips each round), so a machine whose speed drifts slows both alike.
// Usage: node scripts/harvest-ab.mjs <distA> <distB> <dir> [--runs 3] [--flags-a "..."] [--flags-b "..."]
// --flags-a/-b: node flags for that side's runs (space-separated), e.g. the same build twice,
// B with `--flags-b "--maglev"`, to measure a V8 flag.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const runs = Number(option('--runs', '3'));
const flagsOf = (text) => text.split(' ').filter(Boolean);
const flags = { a: flagsOf(option('--flags-a', '')), b: flagsOf(option('--flags-b', '')) };
const [distA, distB, dir] = args.map((a) => resolve(a));
// Stores are removed only at the end: deleting one just before the next run slows that run's
// file creation on ext4 without a journal (see bench/harvest.bench.mjs).
const stores = [];
process.on('exit', () => {
  for (const store of stores) rmSync(store, { recursive: true, force: true });
});
const once = (dist, nodeFlags) => {
  const store = mkdtempSync(join(tmpdir(), 'harvest-ab-'));
  stores.push(store);
  spawnSync(process.execPath, [join(dist, 'cli/main.js'), 'init', store], { stdio: 'ignore' });
  const t = performance.now();
  const r = spawnSync(process.execPath, [...nodeFlags, join(dist, 'cli/main.js'), '-C', store, 'harvest', dir, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${dist}: harvest failed: ${r.stderr.slice(-500)}`);
  const { stats, counts } = JSON.parse(r.stdout);
  return { ms, result: `${stats.sessions} sessions, ${stats.candidates} candidates, ${counts.add} added` };
};
const a = [];
const b = [];
const ratios = [];
for (let i = 0; i < runs; i++) {
  const [x, y] = i % 2 ? [once(distB, flags.b), once(distA, flags.a)] : [once(distA, flags.a), once(distB, flags.b)];
  const [ra, rb] = i % 2 ? [y, x] : [x, y];
  if (ra.result !== rb.result) console.log(`different results: A ${ra.result}; B ${rb.result}`);
  a.push(ra.ms);
  b.push(rb.ms);
  ratios.push(ra.ms / rb.ms);
  console.log(`round ${i + 1}: A ${(ra.ms / 1000).toFixed(2)} s, B ${(rb.ms / 1000).toFixed(2)} s (${rb.result})`);
}
const med = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
console.log(`A ${(med(a) / 1000).toFixed(2)} s, B ${(med(b) / 1000).toFixed(2)} s (medians), A/B median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}]`);
