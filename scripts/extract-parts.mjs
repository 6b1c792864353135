// Times the extractor alone, in process, over sessions read once and kept in memory: the view,
// each rule's drafts, makeCandidate, select, and the whole per-file harvest (redaction and all).
// Usage: node scripts/extract-parts.mjs <dir> [passes] [distDir]
// The digest is of every candidate extractSession made in the first pass: a change that only
// makes the extractor faster leaves it as it was.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
const [dir, passesArg = '3', distArg = 'dist'] = process.argv.slice(2);
const dist = resolve(distArg);
const { readSessions } = await import(`${dist}/sessions/read.js`);
const { EXTRACTORS } = await import(`${dist}/harvest/extract/index.js`);
const { viewOf } = await import(`${dist}/harvest/extract/view.js`);
const { makeCandidate } = await import(`${dist}/harvest/extract/build.js`);
const { select } = await import(`${dist}/harvest/extract/select.js`);
const { extractSession } = await import(`${dist}/harvest/extract/index.js`);
const { harvestFileSessions } = await import(`${dist}/harvest/file-sessions.js`);
const { sessions } = await readSessions([dir], {});
const passes = Number(passesArg);
const best = new Map();
const note = (k, t) => best.set(k, Math.min(best.get(k) ?? Infinity, t));
let count = 0;
let digest = '';
for (let p = 0; p < passes; p++) {
  const times = new Map();
  const add = (k, t) => times.set(k, (times.get(k) ?? 0) + t);
  for (const s of sessions) {
    let t = performance.now();
    const view = viewOf(s);
    add('view', performance.now() - t);
    const drafts = [];
    for (const rule of EXTRACTORS) {
      t = performance.now();
      const d = rule.drafts(view);
      add(`rule ${rule.name}`, performance.now() - t);
      drafts.push(...d);
    }
    t = performance.now();
    const cands = drafts.map((d) => makeCandidate(s, d));
    add('makeCandidate', performance.now() - t);
    t = performance.now();
    select(view, cands);
    add('select', performance.now() - t);
  }
  let t = performance.now();
  const all = [];
  for (const s of sessions) {
    const c = extractSession(s);
    count += c.length;
    if (p === 0) all.push(c);
  }
  add('extractSession (all)', performance.now() - t);
  const ctx = { eventsSeen: new Map(), repoAliases: {}, redactUsers: [] };
  t = performance.now();
  for (const s of sessions) harvestFileSessions(s.source?.file ?? 'x.jsonl', [s], '', ctx, extractSession);
  add('harvestFileSessions (all)', performance.now() - t);
  for (const [k, v] of times) note(k, v);
  if (p === 0) digest = createHash('sha1').update(JSON.stringify(all)).digest('hex').slice(0, 16);
}
const rows = [...best].sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows) console.log(v.toFixed(0).padStart(7), 'ms', k);
console.log(sessions.length, 'sessions', count / passes, 'candidates per pass, digest', digest);
