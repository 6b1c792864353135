/**
 * knowledge/index.json: derived from the item files, never edited by hand. Entries are sorted by
 * path and keys written in a fixed order, so the same files give the same bytes whatever order
 * they were read in.
 */
import { CATEGORIES, SCOPES, STATUSES, type StoredItem } from './item.js';

export const INDEX_VERSION = 1;

export interface IndexEntry {
  id: string;
  path: string;
  category: string;
  scope: string;
  repo: string | null;
  agent: string | null;
  confidence: number;
  evidence: number;
  first_seen: string;
  last_seen: string;
  status: string;
  tags: string[];
  title: string;
  text: string;
  supersedes?: string[];
  conflicts_with?: string[];
  /** Token counts of the entry as bootstrap renders it (active entries; see bootstrap/index-tokens.ts). */
  tokens?: number[];
}

/** The head's note on the entries' token counts: how they were counted. */
export interface IndexTokens {
  encoding: string;
  /** Signature of the renderer the counts are of. */
  render: string;
  /** Counts of the fixed chunks of the rendered formats. */
  chunks: Record<string, number>;
}

/** Gives the token counts written with each active entry. The store knows nothing of how
 * bootstrap renders and counts: a writer is handed one (bootstrap/index-tokens.ts). */
export interface EntryCounts {
  head(): IndexTokens;
  count(entry: IndexEntry): number[];
}

/** Makes the EntryCounts for a new index, given the text of the index it replaces (if any). */
export type IndexCountsFor = (currentText: string | undefined) => EntryCounts;

export interface KnowledgeIndex {
  version: number;
  counts: {
    total: number;
    category: Record<string, number>;
    scope: Record<string, number>;
    status: Record<string, number>;
  };
  tokens?: IndexTokens;
  items: IndexEntry[];
}

function zeroCounts(keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((k) => [k, 0]));
}

export function indexEntry(item: StoredItem): IndexEntry {
  const m = item.meta;
  const entry: IndexEntry = {
    id: m.id,
    path: item.path,
    category: m.category,
    scope: m.scope,
    repo: m.repo ?? null,
    agent: m.agent ?? null,
    confidence: m.confidence,
    evidence: m.evidence,
    first_seen: m.first_seen,
    last_seen: m.last_seen,
    status: m.status,
    tags: [...m.tags],
    title: item.title,
    text: item.text,
  };
  if (m.supersedes?.length) entry.supersedes = [...m.supersedes];
  if (m.conflicts_with?.length) entry.conflicts_with = [...m.conflicts_with];
  return entry;
}

/** The index of these items; with `tokens`, active entries carry their token counts (and the
 * head says how they were counted, when there is any). */
export function buildIndex(items: readonly StoredItem[], tokens?: EntryCounts): KnowledgeIndex {
  const entries = items.map(indexEntry).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let counted = false;
  if (tokens) {
    for (const e of entries) {
      if (e.status !== 'active') continue;
      e.tokens = tokens.count(e);
      counted = true;
    }
  }
  const counts = { total: entries.length, category: zeroCounts(CATEGORIES), scope: zeroCounts(SCOPES), status: zeroCounts(STATUSES) };
  for (const e of entries) {
    counts.category[e.category] = (counts.category[e.category] ?? 0) + 1;
    counts.scope[e.scope] = (counts.scope[e.scope] ?? 0) + 1;
    counts.status[e.status] = (counts.status[e.status] ?? 0) + 1;
  }
  return { version: INDEX_VERSION, counts, ...(counted ? { tokens: tokens!.head() } : {}), items: entries };
}

/** One entry per line keeps a PR diff of index.json readable and the file quick to write. */
export function renderIndex(index: KnowledgeIndex): string {
  const head = JSON.stringify({ version: index.version, counts: index.counts, ...(index.tokens ? { tokens: index.tokens } : {}) });
  const lines = index.items.map((e) => `    ${JSON.stringify(e)}`);
  return `${head.slice(0, -1)},\n  "items": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

/** The index without token counts: what must match the item files (counts are derived from the
 * entries by the writer, and are not the files' content). */
export function withoutCounts(index: KnowledgeIndex): KnowledgeIndex {
  const { tokens: _head, ...rest } = index;
  return { ...rest, items: index.items.map(({ tokens: _tokens, ...e }) => e) };
}

/** Token counts all or nothing: a head, and the same number of non-negative integers on every
 * active entry. */
export function countsWellFormed(index: KnowledgeIndex): boolean {
  const width = index.items.find((e) => e.status === 'active')?.tokens?.length ?? 0;
  const counted = (e: IndexEntry) => Array.isArray(e.tokens) && e.tokens.length === width && width > 0 && e.tokens.every((n) => Number.isInteger(n) && n >= 0);
  const active = index.items.filter((e) => e.status === 'active');
  if (index.tokens === undefined) return index.items.every((e) => e.tokens === undefined);
  return typeof index.tokens.encoding === 'string' && typeof index.tokens.render === 'string' && active.every(counted) && index.items.every((e) => e.status === 'active' || e.tokens === undefined);
}

export function parseIndex(text: string): KnowledgeIndex {
  const value = JSON.parse(text) as KnowledgeIndex;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.items)) throw new Error('index.json has no items list');
  return value;
}
