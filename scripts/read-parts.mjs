#!/usr/bin/env node
// Where the readers' time goes, per format: for each subdirectory of a corpus (the generator
// writes one per format), the fastest of N in-process passes of forEachSessionFile against the
// fastest of N passes of the raw baseline (read, split lines, JSON.parse each JSON line; a .json
// file parsed whole), as in bench/corpus.mjs. Builds on dist/ (npm run build first).
//   node scripts/read-parts.mjs [corpus dir] [passes]   (default: bench/out/corpus-20000-1G, 3)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const { forEachSessionFile } = await import(join(root, 'dist/sessions/read.js'));
const corpus = process.argv[2] ?? join(root, 'bench/out/corpus-20000-1G');
const passes = Number(process.argv[3] ?? 3);

function baseline(dir) {
  let parsed = 0;
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!d.isFile() || !/\.(jsonl|json|md|markdown)$/i.test(d.name)) continue;
    const text = readFileSync(join(d.parentPath, d.name), 'utf8');
    if (d.name.endsWith('.json')) {
      JSON.parse(text);
      parsed++;
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        JSON.parse(line);
        parsed++;
      } catch {}
    }
  }
  return parsed;
}

async function fastest(fn) {
  let best = Infinity;
  for (let i = 0; i < passes; i++) {
    const t = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

console.log('| part | readers | baseline | ratio |\n| --- | --- | --- | --- |');
for (const d of readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
  const dir = join(corpus, d);
  const ours = await fastest(() => forEachSessionFile([dir], {}, () => {}));
  const base = await fastest(() => baseline(dir));
  console.log(`| ${d} | ${(ours / 1000).toFixed(2)} s | ${(base / 1000).toFixed(2)} s | ${(base / ours).toFixed(2)}x |`);
}
