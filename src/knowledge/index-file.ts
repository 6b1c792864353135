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
}

export interface KnowledgeIndex {
  version: number;
  counts: {
    total: number;
    category: Record<string, number>;
    scope: Record<string, number>;
    status: Record<string, number>;
  };
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

export function buildIndex(items: readonly StoredItem[]): KnowledgeIndex {
  const entries = items.map(indexEntry).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts = { total: entries.length, category: zeroCounts(CATEGORIES), scope: zeroCounts(SCOPES), status: zeroCounts(STATUSES) };
  for (const e of entries) {
    counts.category[e.category] = (counts.category[e.category] ?? 0) + 1;
    counts.scope[e.scope] = (counts.scope[e.scope] ?? 0) + 1;
    counts.status[e.status] = (counts.status[e.status] ?? 0) + 1;
  }
  return { version: INDEX_VERSION, counts, items: entries };
}

/** One entry per line keeps a PR diff of index.json readable and the file quick to write. */
export function renderIndex(index: KnowledgeIndex): string {
  const head = JSON.stringify({ version: index.version, counts: index.counts });
  const lines = index.items.map((e) => `    ${JSON.stringify(e)}`);
  return `${head.slice(0, -1)},\n  "items": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

export function parseIndex(text: string): KnowledgeIndex {
  const value = JSON.parse(text) as KnowledgeIndex;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.items)) throw new Error('index.json has no items list');
  return value;
}
