#!/usr/bin/env node
// How fast the harvest's content hash (file-hash.ts) runs against the older ones, over a
// directory's transcripts held in memory: the fastest of N passes per algorithm, in MB/s. Builds
// on dist/ (npm run build first).
//   node scripts/hash-speed.mjs [dir] [passes]   (default: bench/out/corpus-20000-1G, 3)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const { hashBytes, CONTENT_HASH } = await import(join(root, 'dist/harvest/file-hash.js'));
const dir = process.argv[2] ?? join(root, 'bench/out/corpus-20000-1G');
const passes = Number(process.argv[3] ?? 3);

const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && /\.(jsonl|json|md|markdown)$/i.test(d.name))
  .map((d) => readFileSync(join(d.parentPath, d.name)));
const bytes = files.reduce((n, b) => n + b.length, 0);
console.log(`${files.length} files, ${(bytes / 1e6).toFixed(0)} MB`);
for (const algorithm of [CONTENT_HASH, 'sha1', 'sha256']) {
  await hashBytes(files[0], algorithm); // loads the WebAssembly module before timing
  let best = Infinity;
  for (let i = 0; i < passes; i++) {
    const t = performance.now();
    for (const b of files) await hashBytes(b, algorithm);
    best = Math.min(best, performance.now() - t);
  }
  console.log(`${algorithm.padEnd(7)} ${(best / 1000).toFixed(2)} s, ${(bytes / 1e6 / (best / 1000)).toFixed(0)} MB/s`);
}
