/** The knowledge item: one markdown file, machine fields in front matter, knowledge in the body. */

export const CATEGORIES = ['fact', 'pitfall', 'pattern', 'tool-quirk', 'question'] as const;
export type Category = (typeof CATEGORIES)[number];

export const SCOPES = ['global', 'repo', 'agent'] as const;
export type Scope = (typeof SCOPES)[number];

export const STATUSES = ['active', 'stale', 'superseded', 'quarantined'] as const;
export type Status = (typeof STATUSES)[number];

/** Where the evidence for an item was seen. */
export interface ItemSource {
  session: string;
  format: string;
  /** Position of the evidence event in the normalized session. */
  event?: number;
  /** Line of the evidence in the transcript file, when known. */
  line?: number;
  /** The extractor when not the rules: `model:<name>@<prompt hash>`. */
  extractor?: string;
}

/** Front matter fields, in the order they are written. */
export interface ItemMeta {
  id: string;
  title?: string;
  category: Category;
  scope: Scope;
  repo?: string;
  agent?: string;
  confidence: number;
  evidence: number;
  first_seen: string;
  last_seen: string;
  status: Status;
  tags: string[];
  sources: ItemSource[];
  supersedes?: string[];
  conflicts_with?: string[];
}

export const META_KEYS: readonly (keyof ItemMeta)[] = [
  'id',
  'title',
  'category',
  'scope',
  'repo',
  'agent',
  'confidence',
  'evidence',
  'first_seen',
  'last_seen',
  'status',
  'tags',
  'sources',
  'supersedes',
  'conflicts_with',
];

/** At most this many sources are kept per item; `evidence` keeps the full count. */
export const MAX_SOURCES = 8;

/**
 * `sources` capped to MAX_SOURCES: the first one and the newest after it. The body's `## Evidence`
 * section cites the sighting that created the item, so that sighting stays listed (a reviewer
 * checks the quote against a source the front matter names).
 */
export function capSources<T>(sources: readonly T[]): T[] {
  if (sources.length <= MAX_SOURCES) return [...sources];
  return [sources[0]!, ...sources.slice(sources.length - (MAX_SOURCES - 1))];
}

export interface Item {
  meta: ItemMeta;
  /** The whole markdown body as written (knowledge + optional evidence section). */
  body: string;
}

/** A loaded item, with where it lives and the derived fields the index needs. */
export interface StoredItem extends Item {
  /** Path relative to the store root, always with forward slashes, e.g. knowledge/global/fact/x.md */
  path: string;
  /** The knowledge sentences: the body without its evidence section. */
  text: string;
  title: string;
  /** The file's bytes as read, so an unchanged item is written back byte for byte. */
  raw: string;
}
