#!/usr/bin/env node
// Which extraction rule finds which gold items, and how many items each writes (for deciding
// what a rule change costs in recall). Direct extractSession over the shared transcripts, the
// gold files' matching rule; prints a table per rule. Usage: node scripts/rule-stats.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(ROOT, '..', 'shared');
const TRANSCRIPTS = join(SHARED, 'transcripts');
const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith('.md') && /^[A-Z]+\.md$/.test(n) ? [] : [join(d, n)]));
const lower = (s) => String(s ?? '').toLowerCase();
const holds = (t, e) => String(e).split('|').some((a) => t.includes(lower(a)));
const matches = (item, g) => [g.category, ...(g.also ?? [])].includes(item.category) && g.match.every((m) => holds(lower(`${item.title}\n${item.text}`), m));
const W = { high: 3, medium: 2, low: 1 };

const { readSessions } = await import(join(ROOT, 'dist', 'sessions', 'read.js'));
const { extractSession } = await import(join(ROOT, 'dist', 'harvest', 'extract', 'index.js'));
const read = await readSessions(walk(TRANSCRIPTS));
const golds = readdirSync(join(SHARED, 'eval', 'gold')).filter((f) => f.endsWith('.yaml')).map((f) => YAML.parse(readFileSync(join(SHARED, 'eval', 'gold', f), 'utf8')));
const byRule = new Map();
let totalWeight = 0;
const foundBy = new Map(); // gold key -> Set(rule)
for (const g of golds) {
  const file = resolve(TRANSCRIPTS, g.transcript);
  const items = read.sessions.filter((s) => resolve(s.file) === file).flatMap((s) => extractSession(s));
  for (const it of items) {
    const r = byRule.get(it.rule) ?? { items: 0, matched: 0 };
    r.items++;
    if ((g.items ?? []).some((gi) => matches(it, gi))) r.matched++;
    byRule.set(it.rule, r);
  }
  for (const gi of g.items ?? []) {
    totalWeight += W[gi.importance] ?? 2;
    const rules = new Set(items.filter((it) => matches(it, gi)).map((it) => it.rule));
    if (rules.size) foundBy.set(`${g.transcript}#${gi.id}`, { rules, w: W[gi.importance] ?? 2 });
  }
}
console.log('| rule | items | items matching gold | gold weight found only by it | weight found with it |');
console.log('|---|---:|---:|---:|---:|');
for (const [rule, r] of [...byRule].sort((a, b) => b[1].items - a[1].items)) {
  let only = 0, any = 0;
  for (const f of foundBy.values()) if (f.rules.has(rule)) { any += f.w; if (f.rules.size === 1) only += f.w; }
  console.log(`| ${rule} | ${r.items} | ${r.matched} | ${only} | ${any} |`);
}
const found = [...foundBy.values()].reduce((n, f) => n + f.w, 0);
console.log(`\nweighted recall (direct, no merge or repo filter): ${(found / totalWeight).toFixed(2)} of weight ${totalWeight}`);
