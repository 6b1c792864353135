/**
 * Candidates straight from knowledge/index.json, for a session start whose search structure is
 * missing or stale (every morning, after the nightly pull request is merged). index.json has one
 * entry per line, sorted by path, and the path starts with the scope's folder, so the global
 * items, this repo's and this agent's are three runs of lines: found by binary search with a few
 * small reads, then read and parsed alone. The rest of the store is never read, which is why
 * every ranking statistic is taken over the candidates (rank.ts).
 *
 * An index.json laid out any other way (not written by compound) is parsed whole instead.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CATEGORIES, SCOPES } from '../knowledge/item.js';
import { parseIndex, type IndexTokens } from '../knowledge/index-file.js';
import { INDEX_FILE, sanitizeName } from '../knowledge/paths.js';
import { NoIndexError } from './cache.js';
import { hookLineChars, indexHead, isCounts, sameRenderer, usableTokens } from './index-tokens.js';
import type { CandidatePool, PoolCounts } from './pool.js';
import { idOrder, type Candidates, type Query, type TermMatches } from './rank.js';
import type { RenderItem } from './render.js';
import { termFrequencies, weightedTerms } from './doc-terms.js';
import { entryToDoc } from './structure.js';
import type { EncodingName } from './tokens.js';

/** The file is not laid out as renderIndex writes it. */
class LayoutError extends Error {}

const BLOCK = 1 << 16;

/** Reads of a file by byte offset, in cached blocks (a binary search touches few of them). */
class BlockReader {
  private readonly blocks = new Map<number, Buffer>();
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  private block(b: number): Buffer {
    let buf = this.blocks.get(b);
    if (!buf) {
      buf = Buffer.allocUnsafe(Math.min(BLOCK, this.size - b * BLOCK));
      let done = 0;
      while (done < buf.length) {
        const got = readSync(this.fd, buf, done, buf.length - done, b * BLOCK + done);
        if (got === 0) throw new LayoutError('index.json changed while it was read');
        done += got;
      }
      this.blocks.set(b, buf);
    }
    return buf;
  }

  byte(at: number): number {
    return this.block(Math.floor(at / BLOCK))[at % BLOCK]!;
  }

  /** The offset of the first newline at or after `from`, or `size`. */
  newline(from: number): number {
    for (let at = from; at < this.size; ) {
      const b = Math.floor(at / BLOCK);
      const buf = this.block(b);
      const i = buf.indexOf(10, at - b * BLOCK);
      if (i >= 0) return b * BLOCK + i;
      at = (b + 1) * BLOCK;
    }
    return this.size;
  }

  bytes(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(to - from);
    let done = 0;
    while (done < out.length) {
      const got = readSync(this.fd, out, done, out.length - done, from + done);
      if (got === 0) throw new LayoutError('index.json changed while it was read');
      done += got;
    }
    return out;
  }
}

/** The path of the entry line starting at `at` (its first few hundred bytes are enough). */
const PATH_FIELD = /^ {4}\{"id":"(?:[^"\\]|\\.)*","path":("(?:[^"\\]|\\.)*")/;

function pathAt(r: BlockReader, at: number): string {
  const end = Math.min(r.newline(at), at + 2048);
  const m = PATH_FIELD.exec(r.bytes(at, end).toString('utf8'));
  if (!m) throw new LayoutError(`no entry line at byte ${at}`);
  return JSON.parse(m[1]!) as string;
}

/** The first line in [lo, hi) whose path is not below `key` (hi when none); lo and hi are line starts. */
function lowerBound(r: BlockReader, lo: number, hi: number, key: string): number {
  const lineAfter = (x: number) => r.newline(x) + 1;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    // the first line start at or after mid (lo itself when mid is lo)
    const ls = mid === lo || r.byte(mid - 1) === 10 ? mid : lineAfter(mid);
    if (ls >= hi) {
      // no line starts in [mid, hi): only the line at lo is left to test
      if (pathAt(r, lo) >= key) return lo;
      lo = lineAfter(lo);
      continue;
    }
    if (pathAt(r, ls) < key) lo = lineAfter(ls);
    else hi = ls;
  }
  return Math.min(lo, hi);
}

interface Group {
  prefix: string;
  accepts(item: RenderItem): boolean;
}

function groupsOf(query: Query): Group[] {
  const groups: Group[] = [{ prefix: 'knowledge/global/', accepts: (it) => it.scope === 'global' }];
  const repo = query.repo;
  const agent = query.agent;
  if (repo !== undefined) groups.push({ prefix: `knowledge/repos/${sanitizeName(repo)}/`, accepts: (it) => it.scope === 'repo' && it.repo === repo });
  if (agent !== undefined) groups.push({ prefix: `knowledge/agents/${sanitizeName(agent)}/`, accepts: (it) => it.scope === 'agent' && it.agent === agent });
  return groups;
}

/** The string just above every string that starts with `prefix`. */
function pastPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

interface Read {
  head: { tokens?: IndexTokens } | undefined;
  /** Entries of the groups (or of the whole index), in index order: the caller keeps those whose
   * fields put them in a group. */
  entries: unknown[];
  whole: boolean;
}

/** The entry lines of the candidate groups, by binary search over the sorted lines. */
function readGroups(fd: number, size: number, groups: Group[]): Read {
  const r = new BlockReader(fd, size);
  const headEnd = r.newline(0);
  const head = indexHead(r.bytes(0, Math.min(headEnd + 1, size)).toString('utf8'));
  const itemsLineEnd = r.newline(headEnd + 1);
  if (head === undefined || r.bytes(headEnd + 1, itemsLineEnd).toString('utf8') !== '  "items": [') throw new LayoutError('unexpected head');
  const first = itemsLineEnd + 1;
  // the last entry line ends where the closing `  ]` line starts
  const closing = Buffer.from('\n  ]\n}\n');
  if (size - closing.length < itemsLineEnd || !r.bytes(size - closing.length, size).equals(closing)) throw new LayoutError('unexpected end');
  const end = size - closing.length + 1;
  const ranges = groups
    .map((g) => [lowerBound(r, first, end, g.prefix), lowerBound(r, first, end, pastPrefix(g.prefix))] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const entries: unknown[] = [];
  for (const [a, b] of ranges) {
    let text = r.bytes(a, b).toString('utf8').trimEnd();
    if (text.endsWith(',')) text = text.slice(0, -1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${text}]`);
    } catch {
      throw new LayoutError('an entry line is not JSON');
    }
    entries.push(...(parsed as unknown[]));
  }
  return { head, entries, whole: false };
}

function readWhole(fd: number, size: number): Read {
  const text = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const got = readSync(fd, text, done, size - done, done);
    if (got === 0) break;
    done += got;
  }
  let index: ReturnType<typeof parseIndex>;
  try {
    index = parseIndex(text.subarray(0, done).toString('utf8'));
  } catch (err) {
    throw new NoIndexError(`${INDEX_FILE} is not a valid index (${(err as Error).message})`);
  }
  return { head: { ...(index.tokens ? { tokens: index.tokens } : {}) }, entries: index.items, whole: true };
}

/** Each item's BM25 length and the task terms' weighted frequencies, as the structure has them.
 * With the lengths index.json carries, only the task's terms are searched for (doc-terms.ts);
 * without, every item is analysed (and no item's terms are kept). */
function analyse(items: readonly RenderItem[], taskTerms: readonly string[], lengths: readonly number[] | undefined): { docLen: Uint32Array; matches: TermMatches[] } {
  const docLen = new Uint32Array(items.length);
  const matches: TermMatches[] = taskTerms.map(() => ({ at: [], tf: [] }));
  const add = (k: number, tf: readonly number[]) => {
    for (let i = 0; i < tf.length; i++) {
      if (tf[i] === 0) continue;
      matches[i]!.at.push(k);
      matches[i]!.tf.push(tf[i]!);
    }
  };
  if (lengths) {
    items.forEach((it, k) => {
      docLen[k] = lengths[k]!;
      if (taskTerms.length > 0) add(k, termFrequencies(it, taskTerms));
    });
    return { docLen, matches };
  }
  const wanted = new Map(taskTerms.map((t, i) => [t, i]));
  const tf = new Array<number>(taskTerms.length);
  items.forEach((it, k) => {
    tf.fill(0);
    for (const [t, f] of weightedTerms(it)) {
      docLen[k]! += f;
      const i = wanted.get(t);
      if (i !== undefined) tf[i] = f;
    }
    add(k, tf);
  });
  return { docLen, matches };
}

/** The candidates of a query, read from index.json at `path` (throws when it cannot be read or parsed). */
export function indexPool(path: string, query: Query, encoding: EncodingName): CandidatePool {
  const groups = groupsOf(query);
  const fd = openSync(path, 'r');
  let read: Read;
  try {
    const size = fstatSync(fd).size;
    try {
      read = readGroups(fd, size, groups);
    } catch (err) {
      if (!(err instanceof LayoutError)) throw err;
      read = readWhole(fd, size);
    }
  } finally {
    closeSync(fd);
  }

  const items: RenderItem[] = [];
  const times: number[] = [];
  const counts: unknown[] = [];
  let skipped = 0;
  for (const raw of read.entries) {
    const doc = entryToDoc(raw);
    if (!doc) {
      skipped++;
      continue;
    }
    if (doc.status !== 'active' || doc.item.confidence < query.minConfidence) continue;
    if (!groups.some((g) => g.accepts(doc.item))) continue;
    items.push(doc.item);
    times.push(doc.time);
    counts.push(doc.tokens);
  }

  const n = items.length;
  const tokens = usableTokens(read.head?.tokens, encoding);
  // counts of another encoding still carry this analyzer's lengths
  const lengthsUsable = sameRenderer(read.head?.tokens) && counts.every(isCounts);
  const { docLen, matches } = analyse(items, query.taskTerms, lengthsUsable ? counts.map((c) => (c as number[])[4]!) : undefined);
  const candidates: Candidates = {
    n,
    category: Uint8Array.from(items, (it) => CATEGORIES.indexOf(it.category)),
    scope: Uint8Array.from(items, (it) => SCOPES.indexOf(it.scope)),
    confidence: Float64Array.from(items, (it) => it.confidence),
    evidence: Float64Array.from(items, (it) => it.evidence),
    time: Float64Array.from(times),
    docLen,
    order: idOrder(items.map((it) => it.id)),
  };
  return {
    candidates,
    matches,
    item: (at) => items[at]!,
    counts: tokens && counts.every(isCounts) ? indexCounts(tokens, counts as number[][], items, encoding) : undefined,
    describe: read.whole ? `${read.entries.length} index entries (index.json read whole)` : `${read.entries.length} index entries read (global, this repo's, this agent's)`,
    skipped,
  };
}

function indexCounts(tokens: IndexTokens, counts: number[][], items: RenderItem[], encoding: EncodingName): PoolCounts {
  const least = (line: 0 | 1) => counts.reduce((min, c) => Math.min(min, c[line]! + Math.min(c[2]!, c[3]!)), Infinity);
  return {
    encoding,
    chunks: tokens.chunks,
    of: (at) => counts[at]!,
    hookChars: (at) => hookLineChars(items[at]!),
    minItemTokens: counts.length ? { md: least(0), cc: least(1) } : { md: 0, cc: 0 },
  };
}
