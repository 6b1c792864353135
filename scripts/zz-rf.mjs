import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
const ROOT='/work/main', SHARED='/work/shared', TRANSCRIPTS=join(SHARED,'transcripts');
const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : /^[A-Z]+\.md$/.test(n) ? [] : [join(d, n)]));
const lower = (s) => String(s ?? '').toLowerCase();
const holds = (t, e) => String(e).split('|').some((a) => t.includes(lower(a)));
const matches = (item, g) => [g.category, ...(g.also ?? [])].includes(item.category) && g.match.every((m) => holds(lower(`${item.title}\n${item.text}`), m));
const { readSessions } = await import(join(ROOT, 'dist', 'sessions', 'read.js'));
const { extractSession } = await import(join(ROOT, 'dist', 'harvest', 'extract', 'index.js'));
const read = await readSessions(walk(TRANSCRIPTS));
const golds = readdirSync(join(SHARED, 'eval', 'gold')).filter((f) => f.endsWith('.yaml')).map((f) => YAML.parse(readFileSync(join(SHARED, 'eval', 'gold', f), 'utf8')));
const RULE = process.argv[2];
for (const s of read.sessions) {
  const g = golds.find((g) => resolve(TRANSCRIPTS, g.transcript) === resolve(s.file));
  for (const it of extractSession(s)) {
    if (it.rule !== RULE) continue;
    const m = g ? (g.items ?? []).filter((gi) => matches(it, gi)).map((gi) => gi.id) : ['nogold'];
    console.log(`\n[${m.join(',') || '-'}] ${s.file.split('/transcripts/')[1]} (${it.category}, ${it.confidence})\n  T: ${it.title}\n  X: ${it.text.slice(0, 400)}`);
  }
}
