#!/usr/bin/env node
// Where the readers allocate: the bytes every function allocates while one build reads a
// directory once, from V8's sampling heap profiler with collected objects counted too (so it is
// allocation, not what stays alive). Prints the total and the top 30 functions by bytes.
//   node scripts/read-alloc.mjs [dist] [dir]   (default: this checkout's dist/, the 1 GB corpus)
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = resolve(process.argv[2] ?? join(root, 'dist'));
const dir = resolve(process.argv[3] ?? join(root, 'bench/out/corpus-20000-1G'));
const { forEachSessionFile } = await import(join(dist, 'sessions/read.js'));

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
await forEachSessionFile([dir], {}, () => {});
const { profile } = await session.post('HeapProfiler.stopSampling');

const bytes = new Map();
const walk = (node) => {
  const f = node.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`;
  bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head);
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(`${dir}: ${(total / 1e6).toFixed(0)} MB allocated (sampled)`);
for (const [name, n] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, 30)) console.log(`${(n / 1e6).toFixed(1).padStart(8)} MB  ${name}`);
