/**
 * Merging candidates with what is known. Pure: store items and candidates in, the items to
 * write and the reasons out. Duplicates reinforce, contradictions are linked and surfaced,
 * reviewer-edited bodies are never touched, rejected items never come back.
 */
import type { Item, ItemMeta, ItemSource, StoredItem } from '../knowledge/item.js';
import { MAX_SOURCES } from '../knowledge/item.js';
import { itemId } from '../knowledge/ids.js';
import type { Candidate } from './candidate.js';
import { NEAR_DUPLICATE, SAME_TITLE, SAME_TOPIC, contentTokens, differentThings, isNegative, jaccard, namedThings, tokens } from './similarity.js';

export interface CandidateOrigin {
  session: string;
  format: string;
  /** When the evidence was seen (event time, else session start): never the wall clock. */
  seen: string;
}

export interface OriginCandidate {
  candidate: Candidate;
  origin: CandidateOrigin;
}

export type MergeOutcome = 'added' | 'reinforced' | 'conflict' | 'rejected' | 'duplicate' | 'blocked';

export interface MergeRecord {
  outcome: MergeOutcome;
  id: string;
  candidate: Candidate;
  origin: CandidateOrigin;
  /** For conflicts: the id of the item it contradicts. */
  other?: string;
}

export interface MergeResult {
  /** Every item that is new or changed, by id. */
  items: Map<string, Item>;
  records: MergeRecord[];
  /** Ids created in this merge (for the ledger's `emitted`). */
  created: string[];
}

interface Entry {
  id: string;
  tokens: Set<string>;
  /** Tokens of the title alone (see SAME_TITLE). */
  title: Set<string>;
  /** What the title names (see differentThings). */
  things: Set<string>;
  content: Set<string>;
  negative: boolean;
  signature?: string;
}

/** Of one candidate text: its item ids by the other fields that make an id, its similarity
 * tokens by title, and whether it reads as a negative statement. */
interface TextFacts {
  ids: Map<string, string>;
  words: Map<string, Words>;
  negative: boolean;
}

interface Words {
  all: Set<string>;
  content: Set<string>;
}

const CONFIDENCE_STEP = 0.05;
const CONFIDENCE_CAP = 0.95;
const MAX_TAGS = 8;

function bucketKey(m: Pick<ItemMeta, 'category' | 'scope' | 'repo' | 'agent'>): string {
  return `${m.category}\u0000${m.scope}\u0000${m.repo ?? ''}\u0000${m.agent ?? ''}`;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function maxDate(a: string, b: string): string {
  return a >= b ? a : b;
}

function minDate(a: string, b: string): string {
  return a <= b ? a : b;
}

export function evidenceSection(c: Candidate, origin: CandidateOrigin): string {
  const where = `session \`${origin.session}\` (${origin.format}), event ${c.evidence.event}${c.evidence.line !== undefined ? `, line ${c.evidence.line}` : ''}`;
  const quotes = c.quotes
    .map((q) => q.replace(/\s+/g, ' ').trim())
    .filter((q) => q !== '')
    .slice(0, 3)
    .map((q) => (q.length > 200 ? `${q.slice(0, 199)}…` : q))
    .map((q) => (q.includes('`') ? `- ${q}` : `- \`${q}\``));
  return ['## Evidence', '', `- ${where}`, ...quotes].join('\n');
}

function newItem(c: Candidate, origin: CandidateOrigin, id: string): Item {
  const meta: ItemMeta = {
    id,
    title: c.title,
    category: c.category,
    scope: c.scope,
    ...(c.scope === 'repo' && c.repo ? { repo: c.repo } : {}),
    ...(c.scope === 'agent' && c.agent ? { agent: c.agent } : {}),
    confidence: round2(c.confidence),
    evidence: 1,
    first_seen: origin.seen,
    last_seen: origin.seen,
    // a planted instruction waits for a reviewer: never bootstrapped until one accepts it
    status: c.quarantine ? 'quarantined' : 'active',
    tags: [...new Set(c.tags)].sort().slice(0, MAX_TAGS),
    sources: [sourceOf(c, origin)],
  };
  return { meta, body: `${c.text.trim()}\n\n${evidenceSection(c, origin)}\n` };
}

function sourceOf(c: Candidate, origin: CandidateOrigin): ItemSource {
  return { session: origin.session, format: origin.format, event: c.evidence.event, ...(c.evidence.line !== undefined ? { line: c.evidence.line } : {}), ...(c.extractor !== undefined ? { extractor: c.extractor } : {}) };
}

/** The item's tags with the candidate's: sorted, unique, at most MAX_TAGS. */
function mergedTags(tags: readonly string[], more: readonly string[]): string[] {
  // Most sightings bring no new tag to an item whose tags are already in that form: keep them.
  if (tags.length <= MAX_TAGS && isSortedUnique(tags) && more.every((t) => tags.includes(t))) return tags as string[];
  return [...new Set([...tags, ...more])].sort().slice(0, MAX_TAGS);
}

/** Whether `list` is strictly increasing (as `sort()` orders strings): sorted, no repeats. */
function isSortedUnique(list: readonly string[]): boolean {
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]! < list[i]!)) return false;
  return true;
}

/** Whether `origin`'s session is among the item's sources already (a second sighting in one
 * session adds nothing). */
function seenInSession(item: Item, origin: CandidateOrigin): boolean {
  return item.meta.sources.some((s) => s.session === origin.session);
}

/**
 * Reinforces `meta` with one more sighting, in place (the merger's own copy, see
 * CandidateMerger.own); the body is left exactly as it is. The keys keep their order.
 */
function reinforceInPlace(m: ItemMeta, c: Candidate, origin: CandidateOrigin): void {
  m.evidence = m.evidence + 1;
  m.confidence = round2(Math.min(CONFIDENCE_CAP, Math.max(m.confidence, c.confidence) + CONFIDENCE_STEP));
  m.first_seen = minDate(m.first_seen, origin.seen);
  m.last_seen = maxDate(m.last_seen, origin.seen);
  m.tags = mergedTags(m.tags, c.tags);
  m.sources.push(sourceOf(c, origin));
  // past the cap the second-oldest goes: the first is the one the body's evidence section cites
  if (m.sources.length > MAX_SOURCES) m.sources.splice(1, m.sources.length - MAX_SOURCES);
}

function linkConflict(item: Item, otherId: string): Item {
  const list = [...new Set([...(item.meta.conflicts_with ?? []), otherId])].sort();
  return { meta: { ...item.meta, conflicts_with: list }, body: item.body };
}

export function mergeCandidates(store: readonly StoredItem[], candidates: readonly OriginCandidate[], rejected: ReadonlySet<string>): MergeResult {
  const merger = new CandidateMerger(store, rejected);
  for (const oc of candidates) merger.add(oc);
  return merger.result();
}

/**
 * mergeCandidates one candidate at a time, so the harvest can merge each file's candidates as
 * they come (in file order) instead of all at the end. Same candidates in, same result out.
 */
export class CandidateMerger {
  private readonly working: Map<string, Item>;
  /** Store items by bucket, built at the first candidate (a rerun that finds nothing new has none). */
  private buckets: Map<string, Entry[]> | undefined;
  private readonly changed = new Map<string, Item>();
  private readonly records: MergeRecord[] = [];
  private readonly created: string[] = [];

  constructor(
    store: readonly StoredItem[],
    private readonly rejected: ReadonlySet<string>,
    /** Ids of item files that are in the store but invalid (a reviewer's broken edit): their new
     * sightings wait until the file is fixed, instead of writing a second item or over it. */
    private readonly blocked: ReadonlySet<string> = new Set(),
  ) {
    this.working = new Map<string, Item>(store.map((i) => [i.meta.id, { meta: i.meta, body: i.body }]));
  }

  /** What is worked out from a candidate's text, kept per text: candidates repeat the same text
   * across sessions (the 1 GB bench corpus's 26,325 candidates hold 5,960 texts). */
  private readonly byText = new Map<string, TextFacts>();

  private factsOf(c: Candidate): TextFacts {
    let facts = this.byText.get(c.text);
    if (facts === undefined) {
      facts = { ids: new Map(), words: new Map(), negative: isNegative(c.text) };
      this.byText.set(c.text, facts);
    }
    return facts;
  }

  /** The item id (a SHA-256 of the normalised text and the fields) of a candidate. */
  private idOf(c: Candidate, facts: TextFacts): string {
    const key = `${c.category}\u0000${c.scope}\u0000${c.repo ?? ''}\u0000${c.agent ?? ''}`;
    let id = facts.ids.get(key);
    if (id === undefined) {
      id = itemId({ category: c.category, scope: c.scope, repo: c.repo, agent: c.agent, text: c.text });
      facts.ids.set(key, id);
    }
    return id;
  }

  /** The candidate's similarity tokens (of its title and text). */
  private wordsOf(c: Candidate, facts: TextFacts): Words {
    let words = facts.words.get(c.title);
    if (words === undefined) {
      const all = tokens(`${c.title} ${c.text}`);
      words = { all, content: contentTokens(all) };
      facts.words.set(c.title, words);
    }
    return words;
  }

  private bucketsOfStore(): Map<string, Entry[]> {
    if (!this.buckets) {
      this.buckets = new Map();
      for (const item of this.working.values()) this.addEntry(item);
    }
    return this.buckets;
  }

  private addEntry(item: Item, signature?: string): void {
    const key = bucketKey(item.meta);
    const text = `${item.meta.title ?? ''} ${item.body.split(/\n#{1,6}\s+evidence/i)[0] ?? ''}`;
    const t = tokens(text);
    const title = tokens(item.meta.title ?? '');
    const entry: Entry = { id: item.meta.id, tokens: t, title, things: namedThings(title), content: contentTokens(t), negative: isNegative(text), ...(signature ? { signature } : {}) };
    const list = this.buckets!.get(key);
    if (list) list.push(entry);
    else this.buckets!.set(key, [entry]);
  }

  /**
   * Works out ahead of its turn what `add` needs of a candidate's text: its id, and its words
   * (needed only when no item has that id; made for every candidate here, where this thread
   * would otherwise wait). Pure memos, so the result of the merge is the same. The harvest calls it as each file's outcome
   * arrives from a worker, while this thread would wait: the files of the second worker's half
   * arrive before those of the first are all merged, and were merged after the last one came.
   */
  prepare(c: Candidate): void {
    const facts = this.factsOf(c);
    this.idOf(c, facts);
    this.wordsOf(c, facts);
  }

  add({ candidate: c, origin }: OriginCandidate): void {
    const { working, changed, records, created } = this;
    const buckets = this.bucketsOfStore();
    const facts = this.factsOf(c);
    const id = this.idOf(c, facts);
    if (this.rejected.has(id)) {
      records.push({ outcome: 'rejected', id, candidate: c, origin });
      return;
    }
    if (this.blocked.has(id) || (c.sameAs !== undefined && this.blocked.has(c.sameAs))) {
      records.push({ outcome: 'blocked', id, candidate: c, origin });
      return;
    }
    if (c.quarantine !== undefined && working.get(id)?.meta.status === 'active') {
      // text that tries to instruct agents never reinforces (nor rewrites) an accepted item
      records.push({ outcome: 'duplicate', id, candidate: c, origin });
      return;
    }
    let match: Pick<Entry, 'id'> | undefined;
    let conflict: Pick<Entry, 'id'> | undefined;
    // the model named the known item it reinforces or corrects (it saw the list in its request)
    if (c.sameAs !== undefined && c.quarantine === undefined && working.has(c.sameAs)) match = { id: c.sameAs };
    else if (working.has(id)) match = { id };
    else if (c.contradicts !== undefined && working.has(c.contradicts)) conflict = { id: c.contradicts };
    else if (c.quarantine === undefined) {
      // Only a candidate without an item of its own id is compared with the others by its words.
      const probe = { category: c.category, scope: c.scope, ...(c.repo ? { repo: c.repo } : {}), ...(c.agent ? { agent: c.agent } : {}) };
      const { all: ct, content: cc } = this.wordsOf(c, facts);
      const negative = facts.negative;
      // A model names one lesson by nearly the same title each time while its wording of the body
      // varies (paraphrases of one item across sessions: title overlap 0.62-0.75, bodies 0.24-0.51;
      // the closest distinct items 0.36), so for its candidates the title alone can tell too.
      const titleTokens = tokens(c.title);
      const title = c.extractor !== undefined ? titleTokens : undefined;
      const things = namedThings(titleTokens);
      for (const e of buckets.get(bucketKey(probe as ItemMeta)) ?? []) {
        if (c.signature && e.signature === c.signature) {
          match = e;
          break;
        }
        const sim = jaccard(ct, e.tokens);
        if (e.negative !== negative && jaccard(cc, e.content) >= SAME_TOPIC) {
          conflict ??= e;
        } else if ((sim >= NEAR_DUPLICATE || (title !== undefined && title.size >= 3 && jaccard(title, e.title) >= SAME_TITLE)) && !(c.signature && e.signature && c.signature !== e.signature) && !differentThings(things, e.things)) {
          // two signatures name two different claims (other error, other version), however alike
          // the words; so do two titles naming different things
          match = e;
          break;
        }
      }
    }
    if (match) {
      const before = working.get(match.id)!;
      if (seenInSession(before, origin)) {
        records.push({ outcome: 'duplicate', id: match.id, candidate: c, origin });
        return;
      }
      const after = this.own(before);
      reinforceInPlace(after.meta, c, origin);
      working.set(match.id, after);
      changed.set(match.id, after);
      records.push({ outcome: 'reinforced', id: match.id, candidate: c, origin });
      return;
    }
    let item = newItem(c, origin, id);
    if (conflict) {
      item = linkConflict(item, conflict.id);
      const other = linkConflict(working.get(conflict.id)!, id);
      working.set(conflict.id, other);
      changed.set(conflict.id, other);
      records.push({ outcome: 'conflict', id, candidate: c, origin, other: conflict.id });
    } else {
      records.push({ outcome: 'added', id, candidate: c, origin });
    }
    working.set(id, item);
    changed.set(id, item);
    this.owned.add(item); // made here: its meta and sources are reachable through it only
    created.push(id);
    this.addEntry(item, c.signature);
  }

  /**
   * Items this merger made (new items, and its copies of the store items it reinforced): a
   * reinforcement changes those in place. Over the 1 GB bench corpus, whose 26,325 candidates
   * make 1,271 items and reinforce or repeat them otherwise, a new meta and sources list per
   * reinforcement took 158 ms of the merge's 435 ms on this thread (CPU profile); in place, 35 ms.
   */
  private readonly owned = new WeakSet<Item>();

  /** `item` itself when this merger made it, else a copy it owns (the store's items stay as read). */
  private own(item: Item): Item {
    if (this.owned.has(item)) return item;
    const copy: Item = { meta: { ...item.meta, sources: [...item.meta.sources] }, body: item.body };
    this.owned.add(copy);
    return copy;
  }

  result(): MergeResult {
    return { items: this.changed, records: this.records, created: this.created };
  }
}
