/**
 * The search structure: everything ranking needs, derived from knowledge/index.json and laid
 * out so a session start reads only a few megabytes whatever the store's size.
 *
 * - numeric columns per active item (what the priors and BM25 need, token counts),
 * - a sorted term dictionary with postings (item, weighted term frequency),
 * - one small JSON record per item, read only for the items that are rendered.
 *
 * Building is pure (index entries in, bytes out) and deterministic: the same index gives the
 * same bytes. The token counts are those index.json carries (index-tokens.ts), when it carries
 * counts this build can use; the structure never loads a tokenizer.
 */
import { CATEGORIES, SCOPES, type Category, type Scope } from '../knowledge/item.js';
import { ID_PATTERN } from '../knowledge/ids.js';
import type { IndexTokens } from '../knowledge/index-file.js';
import type { RenderItem } from './render.js';
import { weightedTerms } from './doc-terms.js';
import { hookLineChars, isCounts } from './index-tokens.js';
import type { EncodingName } from './tokens.js';

/** Bump when the layout, the analyzer or a precomputed renderer changes: old files are rebuilt. */
export const STRUCTURE_VERSION = 4;
const MAGIC = 0x31534243; // "CBS1" little-endian
export const NO_OWNER = 0xffffffff;


/** f64 columns, in file order: confidence, time (last_seen in ms), evidence. */
const F64_COLUMNS = 3;
/** u32 columns, in file order. */
export const U32_COLUMNS = ['docLen', 'idRank', 'owner', 'recOff', 'recLen', 'mdTokens', 'ccTokens', 'ccChars', 'idFirstTokens', 'idRestTokens'] as const;
export type U32Column = (typeof U32_COLUMNS)[number];

export interface StructureHeader {
  version: number;
  /** Encoding of the precomputed token counts, or null when none were computed. */
  encoding: EncodingName | null;
  /** Index entries read, and how many were skipped as invalid. */
  entries: number;
  skipped: number;
  /** Active items (the rows). */
  docs: number;
  /** Repo and agent names, sorted; `owner` indexes this list. */
  names: string[];
  terms: number;
  /** Token counts of the fixed chunks of the precomputed formats. */
  constants: Record<string, number>;
  /** The fewest tokens any item adds (line and id), per precomputed format: packing stops below it. */
  minItemTokens: { md: number; cc: number };
  sections: Record<SectionName, [offset: number, length: number]>;
  /** Size and mtime of the index.json it was built from (the cache's validity check). */
  source: { size: number; mtimeMs: number } | null;
}

type SectionName = 'f64' | 'u32' | 'u8' | 'terms' | 'termStarts' | 'postIndex' | 'postings' | 'records';

export interface BuildOptions {
  /** The index head's token note, when its counts are usable (index-tokens.ts usableTokens):
   * the entries' counts are then kept. */
  tokens?: IndexTokens;
  source?: { size: number; mtimeMs: number };
  /** An earlier structure (a stale cache): items whose record is unchanged take their terms and
   * token counts from it instead of being analysed and counted again (see PreviousStructure). */
  previous?: PreviousStructure;
  /** activeRecords(entries), when the caller has them already. */
  records?: readonly string[];
}

/** What an earlier structure knows per item, keyed by the item's record (every field analysis,
 * ranking and rendering read): its terms with their weighted frequencies. */
export interface PreviousStructure {
  /** Record -> its row there. */
  byRecord: Map<string, number>;
  /** Row r's terms are termList[rowTerm[k]] with frequency rowFreq[k], rowStart[r] <= k < rowStart[r + 1]. */
  termList: string[];
  rowStart: Uint32Array;
  rowTerm: Uint32Array;
  rowFreq: Uint32Array;
}

/** An item's record: what the structure stores for rendering, and the key of its reuse. */
function recordOf(it: RenderItem): string {
  return JSON.stringify([it.id, it.category, it.scope, it.repo, it.agent, it.confidence, it.evidence, it.last_seen, it.title, it.text, it.tags]);
}

/** The active items of index entries, as buildStructure takes them (for a reuse check first). */
export function activeRecords(entries: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const raw of entries) {
    const doc = entryToDoc(raw);
    if (doc && doc.status === 'active') out.push(recordOf(doc.item));
  }
  return out;
}

interface Doc {
  item: RenderItem;
  status: string;
  time: number;
  /** The entry's token counts, as index.json carries them (unchecked). */
  tokens: unknown;
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

/** An index entry as a renderable item, or undefined when it is malformed. */
export function entryToDoc(raw: unknown): Doc | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as Record<string, unknown>;
  const { id, category, scope, confidence, evidence, last_seen, status, text } = e;
  if (!isString(id) || !ID_PATTERN.test(id)) return undefined;
  if (!(CATEGORIES as readonly unknown[]).includes(category) || !(SCOPES as readonly unknown[]).includes(scope)) return undefined;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || typeof evidence !== 'number' || !Number.isFinite(evidence)) return undefined;
  if (!isString(last_seen) || !isString(status) || !isString(text)) return undefined;
  const tags = Array.isArray(e.tags) ? e.tags.filter(isString) : [];
  const item: RenderItem = {
    id,
    category: category as Category,
    scope: scope as Scope,
    repo: isString(e.repo) ? e.repo : null,
    agent: isString(e.agent) ? e.agent : null,
    confidence,
    evidence,
    last_seen,
    title: isString(e.title) ? e.title : '',
    text,
    tags,
  };
  return { item, status, time: Date.parse(last_seen), tokens: e.tokens };
}

/** Growable parallel columns of (term id, row, frequency). */
class Triples {
  term: Uint32Array;
  row: Uint32Array;
  freq: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.term = new Uint32Array(capacity);
    this.row = new Uint32Array(capacity);
    this.freq = new Uint32Array(capacity);
  }

  push(term: number, row: number, freq: number): void {
    if (this.length === this.term.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.term = grow(this.term);
      this.row = grow(this.row);
      this.freq = grow(this.freq);
    }
    this.term[this.length] = term;
    this.row[this.length] = row;
    this.freq[this.length++] = freq;
  }
}

function align8(n: number): number {
  return (n + 7) & ~7;
}


/** Builds the structure's bytes from the `items` array of index.json. */
export function buildStructure(entries: readonly unknown[], options: BuildOptions = {}): Uint8Array {
  const docsAll: Doc[] = [];
  let skipped = 0;
  for (const raw of entries) {
    const doc = entryToDoc(raw);
    if (doc) docsAll.push(doc);
    else skipped++;
  }
  const docs = docsAll.filter((d) => d.status === 'active');
  const n = docs.length;

  const names = [...new Set(docs.flatMap((d) => [d.item.repo, d.item.agent]).filter(isString))].sort();
  const nameIndex = new Map(names.map((name, i) => [name, i]));
  const byId = docs.map((d, i) => [d.item.id, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));

  const f64 = new Float64Array(F64_COLUMNS * n);
  const u32 = new Uint32Array(U32_COLUMNS.length * n);
  const u8 = new Uint8Array(2 * n);
  const col = (name: U32Column) => U32_COLUMNS.indexOf(name) * n;
  byId.forEach(([, doc], rank) => (u32[col('idRank') + doc] = rank));

  // (term, row, frequency) triples in row order, in flat arrays (a 100k-item store has millions:
  // per-term JS arrays made the garbage collector the biggest cost of a build)
  const termIds = new Map<string, number>();
  const triples = new Triples(Math.max(1024, Math.ceil((options.previous?.rowTerm.length ?? 0) * 1.1)));
  const encoder = new TextEncoder();
  let recBytes = 0;
  const previous = options.previous;
  const recs = options.records ?? docs.map((d) => recordOf(d.item));
  // counts are kept only when every active entry has them: a structure either has them all or none
  const tokens = options.tokens;
  const counts = tokens && docs.every((d) => isCounts(d.tokens)) ? docs.map((d) => d.tokens as number[]) : undefined;

  docs.forEach((d, i) => {
    const it = d.item;
    f64[i] = it.confidence;
    f64[n + i] = d.time;
    f64[2 * n + i] = it.evidence;
    u8[i] = CATEGORIES.indexOf(it.category);
    u8[n + i] = SCOPES.indexOf(it.scope);
    const owner = it.scope === 'repo' ? it.repo : it.scope === 'agent' ? it.agent : null;
    u32[col('owner') + i] = owner === null ? NO_OWNER : nameIndex.get(owner)!;

    const recText = recs[i]!;
    const before = previous?.byRecord.get(recText);
    let len = 0;
    const post = (t: string, f: number) => {
      len += f;
      let id = termIds.get(t);
      if (id === undefined) termIds.set(t, (id = termIds.size));
      triples.push(id, i, f);
    };
    if (before !== undefined) {
      const p = previous!;
      for (let k = p.rowStart[before]!; k < p.rowStart[before + 1]!; k++) post(p.termList[p.rowTerm[k]!]!, p.rowFreq[k]!);
    } else {
      for (const [t, f] of weightedTerms(it)) post(t, f);
    }
    u32[col('docLen') + i] = len;

    const recLen = Buffer.byteLength(recText, 'utf8');
    u32[col('recOff') + i] = recBytes;
    u32[col('recLen') + i] = recLen;
    recBytes += recLen;

    if (counts) {
      const [line, hookLine, firstId, laterId] = counts[i]!;
      u32[col('mdTokens') + i] = line!;
      u32[col('ccTokens') + i] = hookLine!;
      u32[col('ccChars') + i] = hookLineChars(it);
      u32[col('idFirstTokens') + i] = firstId!;
      u32[col('idRestTokens') + i] = laterId!;
    }
  });

  const minItemTokens = { md: 0, cc: 0 };
  if (counts && n > 0) {
    const first = col('idFirstTokens');
    const rest = col('idRestTokens');
    const least = (line: number) => {
      let min = Infinity;
      for (let i = 0; i < n; i++) min = Math.min(min, u32[line + i]! + Math.min(u32[first + i]!, u32[rest + i]!));
      return min;
    };
    minItemTokens.md = least(col('mdTokens'));
    minItemTokens.cc = least(col('ccTokens'));
  }

  // terms sorted; each term's postings in row order (a stable counting sort of the triples)
  const termList = [...termIds.keys()].sort();
  const rankOf = new Uint32Array(termIds.size);
  termList.forEach((t, k) => (rankOf[termIds.get(t)!] = k));
  const postIndex = new Uint32Array(termList.length + 1);
  const pairs = triples.length;
  for (let k = 0; k < pairs; k++) postIndex[rankOf[triples.term[k]!]! + 1]!++;
  for (let k = 0; k < termList.length; k++) postIndex[k + 1]! += postIndex[k]!;
  const post = new Uint32Array(2 * pairs);
  const next = postIndex.slice(0, termList.length);
  for (let k = 0; k < pairs; k++) {
    const at = next[rankOf[triples.term[k]!]!]!++;
    post[2 * at] = triples.row[k]!;
    post[2 * at + 1] = triples.freq[k]!;
  }
  const termBytes = encoder.encode(termList.join('\n'));
  // where each term starts in the decoded text (UTF-16 units), so lookups never split it all
  const termStarts = new Uint32Array(termList.length + 1);
  termList.forEach((t, k) => (termStarts[k + 1] = termStarts[k]! + t.length + 1));

  const recordBytes = encoder.encode(recs.join(''));

  const bodies: [SectionName, Uint8Array][] = [
    ['f64', new Uint8Array(f64.buffer)],
    ['u32', new Uint8Array(u32.buffer)],
    ['u8', u8],
    ['terms', termBytes],
    ['termStarts', new Uint8Array(termStarts.buffer)],
    ['postIndex', new Uint8Array(postIndex.buffer)],
    ['postings', new Uint8Array(post.buffer)],
    ['records', recordBytes],
  ];
  const header: StructureHeader = {
    version: STRUCTURE_VERSION,
    encoding: counts ? (tokens!.encoding as EncodingName) : null,
    entries: entries.length,
    skipped,
    docs: n,
    names,
    terms: termList.length,
    constants: counts ? tokens!.chunks : {},
    minItemTokens,
    sections: {} as StructureHeader['sections'],
    source: options.source ?? null,
  };
  // section offsets depend on the header's length, which depends on the offsets: lay out
  // twice, the second time with offsets of a fixed width
  const layout = (headerLen: number) => {
    let pos = align8(8 + headerLen);
    for (const [name, body] of bodies) {
      header.sections[name] = [pos, body.length];
      pos = align8(pos + body.length);
    }
    return pos;
  };
  layout(0);
  let headerBytes = encoder.encode(JSON.stringify(header));
  for (;;) {
    const total = layout(headerBytes.length);
    const next = encoder.encode(JSON.stringify(header));
    if (next.length === headerBytes.length) {
      headerBytes = next;
      const out = new Uint8Array(total);
      const view = new DataView(out.buffer);
      view.setUint32(0, MAGIC, true);
      view.setUint32(4, headerBytes.length, true);
      out.set(headerBytes, 8);
      for (const [name, body] of bodies) out.set(body, header.sections[name][0]);
      return out;
    }
    headerBytes = next;
  }
}

/** Random access to the structure's bytes: a file descriptor, or a buffer in memory. */
export interface ByteSource {
  read(offset: number, length: number): Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  // copies, so typed-array views are always aligned
  return { read: (offset, length) => bytes.slice(offset, offset + length) };
}

export class StructureError extends Error {}

/** The header alone (a few hundred bytes): enough to tell whether the structure is current. */
export function readHeader(source: ByteSource): StructureHeader {
  const start = new DataView(source.read(0, 8).buffer);
  if (start.byteLength < 8 || start.getUint32(0, true) !== MAGIC) throw new StructureError('not a search structure');
  const header = JSON.parse(new TextDecoder().decode(source.read(8, start.getUint32(4, true)))) as StructureHeader;
  if (header.version !== STRUCTURE_VERSION) throw new StructureError(`version ${header.version}, expected ${STRUCTURE_VERSION}`);
  return header;
}

/** A structure opened for queries. Columns are loaded eagerly (small); records on demand. */
export class SearchStructure {
  readonly header: StructureHeader;
  readonly n: number;
  readonly confidence: Float64Array;
  /** last_seen in ms since the epoch (NaN when unreadable). */
  readonly time: Float64Array;
  readonly evidence: Float64Array;
  readonly category: Uint8Array;
  readonly scope: Uint8Array;
  private readonly u32: Uint32Array;
  private readonly source: ByteSource;
  private readonly decoder = new TextDecoder();

  /** `header`: when the caller has read it already (readHeader). */
  constructor(source: ByteSource, header: StructureHeader = readHeader(source)) {
    this.source = source;
    this.header = header;
    this.n = header.docs;
    const f64 = new Float64Array(this.section('f64').buffer);
    this.confidence = f64.subarray(0, this.n);
    this.time = f64.subarray(this.n, 2 * this.n);
    this.evidence = f64.subarray(2 * this.n, 3 * this.n);
    const u8 = this.section('u8');
    this.category = u8.subarray(0, this.n);
    this.scope = u8.subarray(this.n, 2 * this.n);
    this.u32 = new Uint32Array(this.section('u32').buffer);
    if (this.u32.length !== U32_COLUMNS.length * this.n || f64.length !== F64_COLUMNS * this.n) throw new StructureError('columns do not match the header');
  }

  private section(name: SectionName): Uint8Array {
    const [offset, length] = this.header.sections[name];
    const bytes = this.source.read(offset, length);
    if (bytes.length !== length) throw new StructureError(`section ${name} is truncated`);
    return bytes;
  }

  private readonly columns = new Map<U32Column, Uint32Array>();

  column(name: U32Column): Uint32Array {
    let view = this.columns.get(name);
    if (!view) {
      const k = U32_COLUMNS.indexOf(name);
      view = this.u32.subarray(k * this.n, (k + 1) * this.n);
      this.columns.set(name, view);
    }
    return view;
  }

  private terms?: { text: string; starts: Uint32Array; postIndex: Uint32Array };

  /** Postings of a term: pairs of (item row, weighted frequency), or undefined when absent. */
  postings(term: string): Uint32Array | undefined {
    if (!this.terms) {
      this.terms = {
        text: this.decoder.decode(this.section('terms')),
        starts: new Uint32Array(this.section('termStarts').buffer),
        postIndex: new Uint32Array(this.section('postIndex').buffer),
      };
    }
    const { text, starts, postIndex } = this.terms;
    let lo = 0;
    let hi = this.header.terms - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = text.slice(starts[mid]!, starts[mid + 1]! - 1);
      if (t === term) {
        const from = postIndex[mid]!;
        const to = postIndex[mid + 1]!;
        const [offset] = this.header.sections.postings;
        return new Uint32Array(this.source.read(offset + from * 8, (to - from) * 8).buffer);
      }
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The renderable item of a row. */
  record(row: number): RenderItem {
    const [offset] = this.header.sections.records;
    const bytes = this.source.read(offset + this.column('recOff')[row]!, this.column('recLen')[row]!);
    const [id, category, scope, repo, agent, confidence, evidence, last_seen, title, text, tags] = JSON.parse(this.decoder.decode(bytes)) as [
      string, Category, Scope, string | null, string | null, number, number, string, string, string, string[],
    ];
    return { id, category, scope, repo, agent, confidence, evidence, last_seen, title, text, tags };
  }

  nameIndex(name: string | undefined): number {
    if (name === undefined) return NO_OWNER;
    const i = this.header.names.indexOf(name);
    return i === -1 ? NO_OWNER : i;
  }

  /** Per item record, its terms and token counts: what a rebuild after a change of index.json
   * can take over for the items that did not change. Reads every section once. */
  previous(): PreviousStructure {
    const termText = this.decoder.decode(this.section('terms'));
    const termList = this.header.terms ? termText.split('\n') : [];
    const postIndex = new Uint32Array(this.section('postIndex').buffer);
    const post = new Uint32Array(this.section('postings').buffer);
    // the postings turned around: per row, its terms (two passes, flat arrays)
    const pairs = post.length / 2;
    const rowStart = new Uint32Array(this.n + 1);
    for (let p = 0; p < pairs; p++) rowStart[post[2 * p]! + 1]!++;
    for (let r = 0; r < this.n; r++) rowStart[r + 1]! += rowStart[r]!;
    const fill = rowStart.slice(0, this.n);
    const rowTerm = new Uint32Array(pairs);
    const rowFreq = new Uint32Array(pairs);
    for (let k = 0; k < termList.length; k++) {
      for (let p = postIndex[k]!; p < postIndex[k + 1]!; p++) {
        const at = fill[post[2 * p]!]!++;
        rowTerm[at] = k;
        rowFreq[at] = post[2 * p + 1]!;
      }
    }
    const records = this.section('records');
    const recOff = this.column('recOff');
    const recLen = this.column('recLen');
    const byRecord = new Map<string, number>();
    // one decode for all: when every byte is ASCII, byte offsets are string offsets too
    const all = this.decoder.decode(records);
    const ascii = all.length === records.length;
    for (let row = 0; row < this.n; row++) {
      const rec = ascii ? all.slice(recOff[row]!, recOff[row]! + recLen[row]!) : this.decoder.decode(records.subarray(recOff[row]!, recOff[row]! + recLen[row]!));
      byRecord.set(rec, row);
    }
    return { byRecord, termList, rowStart, rowTerm, rowFreq };
  }

}
