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

/** An entry line's counts, last in the line as renderIndex writes them (a string value cannot
 * hold the unescaped quotes of `"tokens":`). */
const COUNTS_AT_LINE_END = /,"tokens":\[(\d+(?:,\d+)*)\]\}(,?)$/gm;
const ACTIVE = /"status":"active"/g;

/**
 * The text renderIndex writes for the same index without token counts, when `text` has them all
 * (a head, and counts of one width on every active entry and on nothing else); undefined when it
 * has not. A text search, not a parse: `compound check` runs it on every store.
 */
export function textWithoutCounts(text: string): string | undefined {
  const nl = text.indexOf('\n');
  if (nl < 0 || !text.startsWith('{') || text.charCodeAt(nl - 1) !== 44 /* , */) return undefined;
  let head: Record<string, unknown>;
  try {
    head = JSON.parse(`${text.slice(0, nl - 1)}}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof head.tokens !== 'object' || head.tokens === null) return undefined;
  const { tokens: _tokens, ...rest } = head;
  let width = -1;
  let counted = 0;
  let uneven = false;
  const body = text.slice(nl).replace(COUNTS_AT_LINE_END, (_m, numbers: string, comma: string) => {
    const n = numbers.split(',').length;
    if (width >= 0 && n !== width) uneven = true;
    width = n;
    counted++;
    return `}${comma}`;
  });
  if (uneven || counted !== (text.match(ACTIVE) ?? []).length) return undefined;
  return `${JSON.stringify(rest).slice(0, -1)},${body}`;
}

export function parseIndex(text: string): KnowledgeIndex {
  const value = JSON.parse(text) as KnowledgeIndex;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.items)) throw new Error('index.json has no items list');
  return value;
}
