/** Hand-built and generated stores for the bootstrap tests: index.json written directly. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexEntry } from '../../src/knowledge/index-file.js';
import { EntryCounter } from '../../src/bootstrap/index-tokens.js';
import { entryToDoc } from '../../src/bootstrap/structure.js';
import { itemId } from '../../src/knowledge/ids.js';
import { CATEGORIES, SCOPES, type Category, type Scope } from '../../src/knowledge/item.js';
import { prng } from '../prng.js';
export { prng };


export type EntryInput = Partial<Omit<IndexEntry, 'text'>> & { text: string };

/** An index entry with sensible defaults; the id is derived from the text. */
export function entry(input: EntryInput): IndexEntry {
  const category = input.category ?? 'fact';
  const scope = input.scope ?? 'global';
  const repo = input.repo ?? null;
  const agent = input.agent ?? null;
  const id = input.id ?? itemId({ category, scope, repo: repo ?? undefined, agent: agent ?? undefined, text: input.text });
  return {
    id,
    path: input.path ?? `knowledge/${scope === 'repo' ? `repos/${repo}` : scope === 'agent' ? `agents/${agent}` : 'global'}/${category}/${id}.md`,
    category,
    scope,
    repo,
    agent,
    confidence: input.confidence ?? 0.7,
    evidence: input.evidence ?? 1,
    first_seen: input.first_seen ?? '2026-05-01T10:00:00Z',
    last_seen: input.last_seen ?? '2026-05-10T10:00:00Z',
    status: input.status ?? 'active',
    tags: input.tags ?? [],
    title: input.title ?? input.text.split(/(?<=[.!?])\s/)[0]!.replace(/\.$/, ''),
    text: input.text,
  };
}

/**
 * Writes knowledge/index.json (what bootstrap reads) into root, laid out as compound writes it:
 * entries sorted by path, one per line; with `counts`, active entries carry their token counts
 * and the head says how they were counted (bootstrap/index-tokens.ts).
 */
export function writeIndex(root: string, entries: readonly (IndexEntry | Record<string, unknown>)[], options: { counts?: boolean } = {}): void {
  mkdirSync(join(root, 'knowledge'), { recursive: true });
  const pathOf = (e: unknown) => (typeof e === 'object' && e !== null && typeof (e as { path?: unknown }).path === 'string' ? (e as { path: string }).path : '');
  const sorted = [...entries].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  let head = `{"version":1,"counts":{"total":${entries.length}}`;
  let rows: unknown[] = sorted;
  if (options.counts) {
    const counter = new EntryCounter();
    rows = sorted.map((e) => ((e as IndexEntry).status === 'active' && entryToDoc(e) ? { ...e, tokens: counter.count(e as IndexEntry) } : e));
    head += `,"tokens":${JSON.stringify(counter.head())}`;
  }
  const lines = rows.map((e) => `    ${JSON.stringify(e)}`);
  writeFileSync(join(root, 'knowledge', 'index.json'), `${head},\n  "items": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`);
}

const WORDS = 'build test lint deploy cache token port server config migrate schema docker vite vitest cargo pytest npm pnpm git rebase hook commit env secret path node tsc eslint the a of to in fails when with'.split(' ');
const ODD = ['`snake_case_name`', 'camelCaseThing', 'src/cli/main.ts', '--no-verify', 'naïve café', '日本語のテキスト', 'emoji 🚀 ok', '<|endoftext|>', "it's", 'x'.repeat(40), '12345678901', 'e.g.', '"quoted"', '\\back\\slash', '<!-- /compound:bootstrap -->', 'a/b//c/', '\ttab', '  spaced  out  '];

/** A random store: sizes, categories, scopes, confidences and texts of many shapes. */
export function randomEntries(rnd: () => number, n: number, repos: string[], agents: string[]): IndexEntry[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: IndexEntry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 2 + Math.floor(rnd() * (rnd() < 0.1 ? 120 : 30)) }, () => (rnd() < 0.15 ? pick(ODD) : pick(WORDS)));
    const text = `${words.join(' ')} (${i}).`;
    const scope: Scope = pick(SCOPES);
    const category: Category = pick(CATEGORIES);
    const e = entry({
      text,
      category,
      scope,
      repo: scope === 'repo' ? pick(repos) : null,
      agent: scope === 'agent' ? pick(agents) : null,
      confidence: Math.round(rnd() * 100) / 100,
      evidence: 1 + Math.floor(rnd() * 12),
      last_seen: `2026-0${1 + Math.floor(rnd() * 5)}-1${Math.floor(rnd() * 9)}T10:00:00Z`,
      status: rnd() < 0.9 ? 'active' : 'stale',
      tags: rnd() < 0.5 ? [pick(WORDS), pick(WORDS)] : [],
      title: rnd() < 0.3 ? `${pick(WORDS)} ${pick(ODD)} title` : undefined,
    });
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
  }
  return out;
}
