#!/usr/bin/env node
// Where the extractor's time goes: reads every session of a directory with the built readers
// (dist/), then times, per session, the view, each rule's drafts, making candidates and the
// selection, and then the whole extractor and the whole per-file harvest (redaction and all),
// over N passes; prints the last pass (JIT warm), in ms, slowest first. The digest is of every
// candidate the extractor made in the first pass: a change that only makes the extractor
// faster leaves it as it was.
//   node scripts/extract-rules.mjs [dir] [passes]   (default: bench/out/corpus-2000-100M, 3)
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = (p) => import(join(root, 'dist', p));
const { forEachSessionFile } = await dist('sessions/read.js');
const { EXTRACTORS, extractSession } = await dist('harvest/extract/index.js');
const { viewOf } = await dist('harvest/extract/view.js');
const { select } = await dist('harvest/extract/select.js');
const { makeCandidate } = await dist('harvest/extract/build.js');
const { harvestFileSessions } = await dist('harvest/file-sessions.js');

const dir = process.argv[2] ?? join(root, 'bench/out/corpus-2000-100M');
const passes = Number(process.argv[3] ?? 3);
const sessions = [];
await forEachSessionFile([dir], {}, (f) => sessions.push(...f.sessions));

let times = new Map();
let digest = '';
let candidates = 0;
for (let pass = 0; pass < passes; pass++) {
  times = new Map();
  const add = (k, ms) => times.set(k, (times.get(k) ?? 0) + ms);
  for (const s of sessions) {
    let t = performance.now();
    const view = viewOf(s);
    add('(view)', performance.now() - t);
    const drafts = [];
    for (const rule of EXTRACTORS) {
      t = performance.now();
      drafts.push(...rule.drafts(view));
      add(rule.name, performance.now() - t);
    }
    t = performance.now();
    const made = drafts.map((d) => makeCandidate(s, d));
    add('(make candidates)', performance.now() - t);
    t = performance.now();
    select(view, made);
    add('(select)', performance.now() - t);
  }
  let t = performance.now();
  const all = sessions.map((s) => extractSession(s));
  add('[the whole extractor]', performance.now() - t);
  if (pass === 0) {
    digest = createHash('sha1').update(JSON.stringify(all)).digest('hex').slice(0, 16);
    candidates = all.reduce((n, c) => n + c.length, 0);
  }
  const ctx = { eventsSeen: new Map(), repoAliases: {}, redactUsers: [] };
  t = performance.now();
  for (const s of sessions) harvestFileSessions(s.file, [s], '', ctx, extractSession);
  add('[the whole per-file harvest]', performance.now() - t);
}
const parts = [...times].filter(([k]) => !k.startsWith('['));
const total = parts.reduce((a, [, b]) => a + b, 0);
console.log(`${sessions.length} sessions, ${candidates} candidates (digest ${digest}), ${total.toFixed(0)} ms in the parts (pass ${passes} of ${passes})`);
for (const [k, ms] of [...times].sort((a, b) => b[1] - a[1])) console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
