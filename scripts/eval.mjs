#!/usr/bin/env node
// Knowledge-quality eval (issue 4): harvest every transcript under ../shared/transcripts into a
// temporary store, score the items against ../shared/eval/gold/*.yaml with the matching rule of
// ../shared/eval/README.md, and write docs/EVAL.md (figures) and docs/EVAL-unmatched.md (items to read by
// eye). Uses `compound harvest` when the CLI has it, else calls the extractor directly.
// Skips cleanly (exit 0) when ../shared is absent. Run after `npm run build`.
// `npm run eval -- --direct` scores the extractor alone (no redaction, merge or repo filter).
// `npm run eval -- --extractor model --responses <dir>` scores recorded model answers instead:
// <dir>/<request id>.json holds the answer to the request with that id (the custom_id that
// `compound harvest --extractor model --batch-out` writes); they are fed back as a batch results
// file (`--batch-in`), so the same grounding, redaction and merge apply. Nothing is sent anywhere.
// Results go to docs/EVAL-model.md and docs/EVAL-model-unmatched.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '..', 'shared');
const TRANSCRIPTS = join(SHARED, 'transcripts');
const GOLD_DIR = join(SHARED, 'eval', 'gold');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const WEIGHT = { high: 3, medium: 2, low: 1 };
const DOC_FILES = new Set(['FORMATS.md', 'MANIFEST.md', 'README.md']);

if (!existsSync(TRANSCRIPTS) || !existsSync(GOLD_DIR)) {
  console.log(`eval: ${relative(ROOT, SHARED)} not found; nothing to evaluate (skipped).`);
  process.exit(0);
}
if (!existsSync(CLI)) {
  console.error('eval: dist/ is missing; run `npm run build` first.');
  process.exit(2);
}

// ---------- inputs ----------
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (!DOC_FILES.has(name)) out.push(p);
  }
  return out;
}
const transcriptFiles = walk(TRANSCRIPTS);
const golds = readdirSync(GOLD_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ name: f, ...YAML.parse(readFileSync(join(GOLD_DIR, f), 'utf8')) }));

// ---------- matching rule (shared/eval/README.md) ----------
const lower = (s) => String(s ?? '').toLowerCase();
const entryHolds = (text, entry) => String(entry).split('|').some((alt) => text.includes(lower(alt)));
const containsAll = (text, match) => match.every((m) => entryHolds(text, m));
const itemText = (item) => lower(`${item.title}\n${item.text}`);
const matchesGold = (item, g) => [g.category, ...(g.also ?? [])].includes(item.category) && containsAll(itemText(item), g.match);

// ---------- the CLI, when it has the commands ----------
function cli(args, options = {}) {
  return execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'], ...options });
}
let help = '';
try {
  help = cli(['--help']);
} catch (err) {
  help = String(err.stdout ?? '');
}
const hasCommand = (name) => new RegExp(`^\\s+${name}\\b`, 'm').test(help);

const { readSessions } = await import(join(ROOT, 'dist', 'sessions', 'read.js'));
const started = Date.now();
const read = await readSessions(transcriptFiles);
const sessions = [];
const seenSessions = new Set();
for (const s of read.sessions) {
  const key = `${s.id}\u0000${s.file}`;
  if (seenSessions.has(key)) continue;
  seenSessions.add(key);
  sessions.push(s);
}
const fileOfSession = new Map(sessions.map((s) => [s.id, resolve(s.file)]));

/** items: { session, file, category, title, text, rule? } */
let items = [];
let harvestPath;
let store;
const direct = process.argv.includes('--direct');
const argAfter = (flag) => {
  const i = process.argv.indexOf(flag);
  return i === -1 ? undefined : process.argv[i + 1];
};
const modelRun = argAfter('--extractor') === 'model';
const responsesDir = argAfter('--responses');
if (modelRun && !responsesDir) {
  console.error('eval: --extractor model needs --responses <dir> (recorded answers by request id)');
  process.exit(2);
}
const OUT = modelRun ? { eval: 'docs/EVAL-model.md', unmatched: 'docs/EVAL-model-unmatched.md' } : { eval: 'docs/EVAL.md', unmatched: 'docs/EVAL-unmatched.md' };
let modelNote = '';
if (hasCommand('harvest') && !direct) {
  harvestPath = '`compound harvest` (real CLI run into a temporary store)';
  store = mkdtempSync(join(tmpdir(), 'compound-eval-'));
  cli(['init', store]);
  // No repo_aliases: the harvest decides each session's repo from the transcript (issue 33); the
  // "Repo identity" table below compares that with the gold files' repo.
  writeFileSync(join(store, 'compound.config.yaml'), YAML.stringify({ repo_aliases: {}, redact_users: [], bootstrap_budget: 2000 }));
  try {
    if (modelRun) {
      // recorded answers as an Anthropic batch results file; the base URL goes nowhere, so a
      // follow-up request (a repair, a cut-off answer) fails and leaves its session pending
      const results = readdirSync(resolve(responsesDir)).filter((f) => /^[0-9a-f]{32}\.json$/.test(f)).sort().map((f) => JSON.stringify({ custom_id: f.slice(0, 32), result: { type: 'succeeded', message: { type: 'message', role: 'assistant', content: [{ type: 'text', text: readFileSync(join(resolve(responsesDir), f), 'utf8') }], stop_reason: 'end_turn' } } }));
      writeFileSync(join(store, 'results.jsonl'), `${results.join('\n')}\n`);
      const env = { ...process.env, ANTHROPIC_API_KEY: 'eval-no-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
      const run = execFileSync(process.execPath, [CLI, '-C', store, 'harvest', '--extractor', 'model', '--model-provider', 'anthropic', '--batch-in', join(store, 'results.jsonl'), '--json', ...transcriptFiles], { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
      const m = JSON.parse(run).model;
      modelNote = `Model answers: ${results.length} recorded in ${relative(ROOT, resolve(responsesDir)) || responsesDir}; ${m.requests} request(s), ${m.requests - m.batchPending} answered, ${m.batchPending} without a recorded answer; ${m.kept} item(s) kept, ${m.ungrounded} dropped as ungrounded, ${m.dropped} dropped (confidence below 0.5, unknown id, no repo).`;
    } else cli(['-C', store, 'harvest', ...transcriptFiles]);
  } catch (err) {
    // Exit 1 can mean "some files had problems"; the items written still count.
    if (err.status !== 1) throw err;
  }
  items = readStoreItems(store);
} else {
  harvestPath = direct
    ? '`extractSession` over `readSessions` output (`--direct`: no redaction, merge or repo filter)'
    : '`extractSession` over `readSessions` output (the `compound harvest` command is not available yet)';
  const { extractSession } = await import(join(ROOT, 'dist', 'harvest', 'extract', 'index.js'));
  for (const s of sessions) {
    for (const c of extractSession(s)) items.push({ session: s.id, file: resolve(s.file), category: c.category, title: c.title, text: c.text, rule: c.rule });
  }
}
const harvestSeconds = (Date.now() - started) / 1000;

/** Item files of a store: front matter (category, title, sources) and the body without its evidence section. */
function readStoreItems(root) {
  const out = [];
  const files = existsSync(join(root, 'knowledge')) ? walk(join(root, 'knowledge')).filter((f) => f.endsWith('.md') && !f.endsWith(`${sep}README.md`)) : [];
  for (const f of files) {
    const raw = readFileSync(f, 'utf8');
    const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(raw);
    if (!m) continue;
    const meta = YAML.parse(m[1]) ?? {};
    const body = m[2].split(/\n## Evidence\b/)[0].trim();
    const title = meta.title ?? (/^#\s+(.+)$/m.exec(body)?.[1] ?? '');
    // once per transcript it came from: an aider history holds many launches, and an item seen in
    // nine of them is still one item of that transcript
    const seen = new Set();
    for (const src of meta.sources ?? [{}]) {
      const file = fileOfSession.get(src.session);
      if (seen.has(file)) continue;
      seen.add(file);
      out.push({ session: src.session, file, category: meta.category, title, text: body, rule: meta.rule ?? '' });
    }
  }
  return out;
}

// ---------- scoring ----------
const rows = [];
const unmatchedReport = [];
const accountedSessions = new Set();
for (const g of golds) {
  const file = resolve(TRANSCRIPTS, g.transcript);
  const mine = items.filter((i) => i.file === file);
  for (const s of sessions) if (resolve(s.file) === file) accountedSessions.add(s.id);
  const found = g.items.filter((gi) => mine.some((i) => matchesGold(i, gi)));
  const weight = (list) => list.reduce((n, gi) => n + (WEIGHT[gi.importance] ?? 1), 0);
  const violations = (g.not_knowledge ?? []).filter((nk) => mine.some((i) => containsAll(itemText(i), nk.match)));
  const unmatched = mine.filter((i) => !g.items.some((gi) => matchesGold(i, gi)));
  rows.push({
    name: g.name.replace(/\.yaml$/, ''),
    gold: g.items.length,
    found: found.length,
    weight: weight(g.items),
    weightFound: weight(found),
    violations,
    emitted: mine.length,
    unmatched: unmatched.length,
  });
  unmatchedReport.push({ g, mine, found, unmatched, violations });
}

const pct = (a, b) => (b === 0 ? '–' : (a / b).toFixed(2));
const total = rows.reduce(
  (t, r) => ({ gold: t.gold + r.gold, found: t.found + r.found, weight: t.weight + r.weight, weightFound: t.weightFound + r.weightFound, violations: t.violations + r.violations.length, emitted: t.emitted + r.emitted, unmatched: t.unmatched + r.unmatched, over: t.over + (r.unmatched > r.gold ? 1 : 0) }),
  { gold: 0, found: 0, weight: 0, weightFound: 0, violations: 0, emitted: 0, unmatched: 0, over: 0 },
);

// ---------- bootstrap recall ----------
const bootstrapLines = [];
/** Expected gold items a bootstrap did not give, and whether the harvest had them at all. */
const bootstrapMisses = [];
if (hasCommand('bootstrap') && store) {
  bootstrapLines.push('| gold file | task | expected | found (markdown, per item) | found (json) | found (markdown, text) |', '|---|---|---:|---:|---:|---:|');
  let exp = 0;
  let foundJson = 0;
  let foundMd = 0;
  let foundMdItems = 0;
  const storeIndex = JSON.parse(readFileSync(join(store, 'knowledge', 'index.json'), 'utf8'));
  const byId = new Map(storeIndex.items.map((e) => [e.id, e]));
  for (const g of golds) {
    for (const t of g.bootstrap_tasks ?? []) {
      const expected = t.expect.map((id) => g.items.find((gi) => gi.id === id)).filter(Boolean);
      const run = (format) => {
        try {
          return cli(['-C', store, 'bootstrap', '--repo', t.repo, '--agent', t.agent, '--task', t.task, '--budget', '2000', '--format', format]);
        } catch (err) {
          return String(err.stdout ?? '');
        }
      };
      const json = run('json');
      const mdRaw = run('markdown');
      const md = lower(mdRaw);
      // the ids in the marker are exactly the items the agent was given
      const givenIds = (/compound:bootstrap ids=([^\s>]*)/.exec(mdRaw)?.[1] ?? '').split(',').filter(Boolean);
      const mdItems = givenIds.map((id) => byId.get(id)).filter(Boolean).map((e) => ({ category: e.category, title: e.title, text: e.text }));
      const jsonItems = [];
      try {
        const collect = (v) => {
          if (Array.isArray(v)) v.forEach(collect);
          else if (v && typeof v === 'object') {
            if (typeof v.category === 'string' && (typeof v.text === 'string' || typeof v.body === 'string')) jsonItems.push({ category: v.category, title: v.title ?? '', text: v.text ?? v.body });
            Object.values(v).forEach(collect);
          }
        };
        collect(JSON.parse(json));
      } catch {
        /* not JSON: counts as nothing found */
      }
      const inJson = expected.filter((gi) => jsonItems.some((i) => matchesGold(i, gi))).length;
      const inMd = expected.filter((gi) => containsAll(md, gi.match)).length;
      const inMdItems = expected.filter((gi) => mdItems.some((i) => matchesGold(i, gi))).length;
      for (const gi of expected) {
        if (mdItems.some((i) => matchesGold(i, gi))) continue;
        const stored = storeIndex.items.find((e) => matchesGold(e, gi));
        bootstrapMisses.push(`- ${g.name.replace(/\.yaml$/, '')} ${gi.id} (${gi.category}, ${gi.importance}) for "${t.task}": ${stored ? `harvested as ${stored.id} (${stored.category}, ${stored.scope}, confidence ${stored.confidence}) but not given` : 'not harvested'}`);
      }
      foundMdItems += inMdItems;
      exp += expected.length;
      foundJson += inJson;
      foundMd += inMd;
      bootstrapLines.push(`| ${g.name.replace(/\.yaml$/, '')} | ${t.task.replace(/\|/g, '\\|')} | ${expected.length} | ${inMdItems} | ${inJson} | ${inMd} |`);
    }
  }
  bootstrapLines.push(`| **total** | | **${exp}** | **${foundMdItems}** (${pct(foundMdItems, exp)}) | **${foundJson}** (${pct(foundJson, exp)}) | **${foundMd}** (${pct(foundMd, exp)}) |`);
  bootstrapLines.push('', 'markdown, per item (the headline figure): the default output an agent reads; an expected gold item is found when one of the items named in its `compound:bootstrap ids=` marker satisfies the full matching rule (title + text, category included). json: the same rule on the items of `--format json`, whose per-item overhead fits fewer items in 2,000 tokens. markdown, text: the rendered text contains all `match` terms (no category check; terms may come from different items), so it reads higher.');
} else {
  bootstrapLines.push(hasCommand('bootstrap') ? 'not available (needs the `compound harvest` store)' : 'not available (`compound bootstrap` is not in the CLI yet)');
}

// ---------- EVAL.md ----------
const lines = [];
lines.push('# Harvest quality eval', '');
lines.push(`Generated by \`npm run eval\` (scripts/eval.mjs). Harvest path: ${harvestPath}.`);
if (modelNote) lines.push(modelNote);
lines.push(`Transcripts: ${transcriptFiles.length} files, ${sessions.length} sessions; gold files: ${golds.length}; items scored: ${items.length}.`);
lines.push('Store config: no repo_aliases; each session\'s repo is what `compound repos` says (table "Repo identity"); the repo-scoped items of a session with no repo are not written.');
lines.push('Matching rule: ../shared/eval/README.md (all `match` entries in title + text, `|` alternatives, category or `also`).', '');
lines.push('| transcript (gold file) | gold | found | recall | weighted recall | not_knowledge violations | items | unmatched | unmatched ≤ gold |');
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|:---:|');
for (const r of rows) {
  lines.push(`| ${r.name} | ${r.gold} | ${r.found} | ${pct(r.found, r.gold)} | ${pct(r.weightFound, r.weight)} | ${r.violations.length} | ${r.emitted} | ${r.unmatched} | ${r.unmatched <= r.gold ? 'yes' : '**no**'} |`);
}
lines.push(`| **total** | **${total.gold}** | **${total.found}** | **${pct(total.found, total.gold)}** | **${pct(total.weightFound, total.weight)}** | **${total.violations}** | **${total.emitted}** | **${total.unmatched}** | ${total.over === 0 ? 'yes' : `**no** (${total.over})`} |`);
{
  const wr = total.weight ? total.weightFound / total.weight : 0;
  const met = (ok) => (ok ? 'met' : '**not met**');
  lines.push('', `Targets: weighted recall ≥ 0.5 in total (${pct(total.weightFound, total.weight)}: ${met(wr >= 0.5)}), 0 not_knowledge violations (${total.violations}: ${met(total.violations === 0)}), unmatched items at most half the gold items in total (${total.unmatched} of ${total.gold}: ${met(total.unmatched * 2 <= total.gold)}).`, '');
}
// The model prompt and view were changed after reading the misses of these gold files only; the
// others are the check set (EVAL.md says how the split was used).
const TUNE_SET = new Set(['aider__Monochromatic__aider-chat-history', 'codex__ai-trading-bot__rollout-2025-10-17', 'claude-code__codemie-code__session-9eda1058', 'claude-code__spotter__short']);
lines.push('| split | gold files | gold | found | weighted recall | violations | items | unmatched |', '|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [label, inSet] of [['tune set', true], ['check set', false]]) {
  const rs = rows.filter((r) => TUNE_SET.has(r.name) === inSet);
  const sum = (f) => rs.reduce((n, r) => n + f(r), 0);
  lines.push(`| ${label} | ${rs.length} | ${sum((r) => r.gold)} | ${sum((r) => r.found)} | ${pct(sum((r) => r.weightFound), sum((r) => r.weight))} | ${sum((r) => r.violations.length)} | ${sum((r) => r.emitted)} | ${sum((r) => r.unmatched)} |`);
}
lines.push('');
const violated = rows.filter((r) => r.violations.length > 0);
if (violated.length > 0) {
  lines.push('## Violations', '');
  for (const r of violated) for (const v of r.violations) lines.push(`- ${r.name}: [${v.match.join(', ')}] (${v.why})`);
  lines.push('');
}
const extra = sessions.filter((s) => !accountedSessions.has(s.id));
if (extra.length > 0) {
  lines.push('## Sessions without gold labels', '');
  lines.push('| session file | items |', '|---|---:|');
  for (const s of extra) lines.push(`| ${relative(TRANSCRIPTS, s.file)} (${s.id}) | ${items.filter((i) => i.session === s.id).length} |`);
  lines.push('');
}
// ---------- repo identity (issue 33): what the harvest files each labelled session under ----------
const repoRows = [];
for (const g of golds) {
  let listed = [];
  try {
    listed = JSON.parse(cli(['repos', resolve(TRANSCRIPTS, g.transcript), '--json'])).sessions;
  } catch (err) {
    listed = JSON.parse(String(err.stdout ?? '{"sessions":[]}')).sessions ?? [];
  }
  const main = listed.find((r) => !r.session.includes('/agent-')) ?? listed[0];
  const ok = main?.repo !== undefined && main.repo === String(g.repo).toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  repoRows.push(`| ${g.name.replace(/\.yaml$/, '')} | ${g.repo} | ${main?.repo ?? '(none)'} | ${ok ? 'yes' : 'no'} | ${main ? `${main.source}: ${main.evidence}` : 'not read'} |`);
}
lines.push('## Repo identity', '', 'Each labelled session\'s repo as `compound repos` decides it with no `repo_aliases`, against its gold file\'s `repo`. Where they differ the transcript does not name the repository: a scratch, temp or generic working directory and no remote, manifest or edited project folder in it (the gold file knows the fixture\'s origin, the transcript does not).', '');
lines.push('| gold file | gold repo | resolved | same | evidence |', '|---|---|---|:---:|---|', ...repoRows, '');
lines.push('## Bootstrap recall', '', ...bootstrapLines, '');
lines.push(`Harvest + scoring took ${harvestSeconds.toFixed(1)} s (not a benchmark).`, '');
// The reviews recorded by hand (from a line `## Reviews` on) are kept when the figures are rewritten.
const REVIEWS = '\n## Reviews';
const before = existsSync(join(ROOT, OUT.eval)) ? readFileSync(join(ROOT, OUT.eval), 'utf8') : '';
const kept = before.includes(REVIEWS) ? before.slice(before.indexOf(REVIEWS)) : '';
writeFileSync(join(ROOT, OUT.eval), `${lines.join('\n').replace(/Harvest \+ scoring took [\d.]+ s/, 'Harvest + scoring time is printed on stderr').trimEnd()}\n${kept}`);
console.error(`eval: harvest + scoring took ${harvestSeconds.toFixed(1)} s`);

// ---------- EVAL-unmatched.md ----------
const un = ['# Unmatched items and missed gold items', '', 'For reading by eye: what the harvester wrote that no gold item matches, and which gold items it missed.', ''];
for (const { g, mine, found, unmatched, violations } of unmatchedReport) {
  un.push(`## ${g.name.replace(/\.yaml$/, '')} (gold ${g.items.length}, items ${mine.length}, unmatched ${unmatched.length})`, '');
  if (violations.length > 0) un.push(...violations.map((v) => `- VIOLATION [${v.match.join(', ')}]: ${v.why}`), '');
  un.push(`Found: ${found.map((gi) => gi.id).join(', ') || '–'}`, '', 'Unmatched:', '');
  for (const i of unmatched) un.push(`- [${i.category}${i.rule ? ` · ${i.rule}` : ''}] **${i.title}** — ${i.text.replace(/\n+/g, ' ')}`);
  const missed = g.items.filter((gi) => !found.includes(gi));
  un.push('', 'Missed gold:', '');
  for (const gi of missed) un.push(`- ${gi.id} (${gi.category}, ${gi.importance}) match [${gi.match.join(', ')}]: ${gi.knowledge}`);
  un.push('');
}
if (bootstrapMisses.length > 0) un.push('## Bootstrap misses', '', 'Expected gold items missing from a 2,000-token markdown bootstrap: not harvested at all, or harvested but ranked out.', '', ...bootstrapMisses, '');
writeFileSync(join(ROOT, OUT.unmatched), un.join('\n'));
// COMPOUND_EVAL_KEEP=1 keeps the harvested store for a look at what bootstrap was given
if (store && process.env.COMPOUND_EVAL_KEEP === '1') console.error(`eval: store kept at ${store}`);
else if (store) rmSync(store, { recursive: true, force: true });
console.log(lines.slice(0, 9 + rows.length + 2).join('\n'));
