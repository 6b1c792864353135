/**
 * The candidates of one session start, whichever way they were read: from the search structure
 * (a warm start) or straight from the lines of index.json (direct.ts, when the structure is
 * missing or stale). Both give the same candidates, features, term matches and token counts, so
 * the output does not depend on the cache.
 */
import { SCOPES } from '../knowledge/item.js';
import type { Candidates, Query, TermMatches } from './rank.js';
import type { RenderItem } from './render.js';
import { NO_OWNER, type SearchStructure } from './structure.js';
import type { EncodingName } from './tokens.js';

/** Token counts of the default encoding for the precomputed formats, as index.json carried them. */
export interface PoolCounts {
  encoding: EncodingName;
  /** Counts of the frames' fixed chunks. */
  chunks: Record<string, number>;
  /** [markdown line, hook line, id first, id later] of a candidate. */
  of(at: number): readonly number[];
  /** The hook line's length in characters (the hook output has a character cap). */
  hookChars(at: number): number;
  /** A lower bound on what any candidate adds (line and id), per format. */
  minItemTokens: { md: number; cc: number };
}

export interface CandidatePool {
  candidates: Candidates;
  /** Per task term of the query (in its order), the candidates it occurs in. */
  matches: TermMatches[];
  item(at: number): RenderItem;
  counts: PoolCounts | undefined;
  /** How the store was read, for --explain. */
  describe: string;
  /** Index entries that are not valid items (among those read). */
  skipped: number;
}

/** The candidates of a query, from the search structure. */
export function structurePool(s: SearchStructure, query: Query): CandidatePool {
  const rows = candidateRows(s, query);
  const n = rows.length;
  const docLen = s.column('docLen');
  const idRank = s.column('idRank');
  const candidates: Candidates = {
    n,
    category: Uint8Array.from(rows, (r) => s.category[r]!),
    scope: Uint8Array.from(rows, (r) => s.scope[r]!),
    confidence: Float64Array.from(rows, (r) => s.confidence[r]!),
    evidence: Float64Array.from(rows, (r) => s.evidence[r]!),
    time: Float64Array.from(rows, (r) => s.time[r]!),
    docLen: Uint32Array.from(rows, (r) => docLen[r]!),
    order: Uint32Array.from(rows, (r) => idRank[r]!),
  };
  const atOfRow = new Int32Array(s.n).fill(-1);
  rows.forEach((r, k) => (atOfRow[r] = k));
  const counts = s.header.encoding === null ? undefined : structureCounts(s, rows);
  return {
    candidates,
    matches: query.taskTerms.map((term) => {
      const m: TermMatches = { at: [], tf: [] };
      const post = s.postings(term);
      if (post) {
        for (let k = 0; k < post.length; k += 2) {
          const at = atOfRow[post[k]!]!;
          if (at < 0) continue;
          m.at.push(at);
          m.tf.push(post[k + 1]!);
        }
      }
      return m;
    }),
    item: (at) => s.record(rows[at]!),
    counts,
    describe: `${s.header.entries} index entries, ${s.header.docs} active (search structure)`,
    skipped: s.header.skipped,
  };
}

function structureCounts(s: SearchStructure, rows: number[]): PoolCounts {
  const line = s.column('mdTokens');
  const hook = s.column('ccTokens');
  const chars = s.column('ccChars');
  const first = s.column('idFirstTokens');
  const later = s.column('idRestTokens');
  return {
    encoding: s.header.encoding!,
    chunks: s.header.constants,
    of: (at) => {
      const r = rows[at]!;
      return [line[r]!, hook[r]!, first[r]!, later[r]!];
    },
    hookChars: (at) => chars[rows[at]!]!,
    minItemTokens: s.header.minItemTokens,
  };
}

/** Rows that may be given to this session: global, this repo's, this agent's; above the floor. */
export function candidateRows(s: SearchStructure, query: Query): number[] {
  const repo = s.nameIndex(query.repo);
  const agent = s.nameIndex(query.agent);
  const owner = s.column('owner');
  const [GLOBAL, REPO, AGENT] = [SCOPES.indexOf('global'), SCOPES.indexOf('repo'), SCOPES.indexOf('agent')];
  // locals, not property reads, in the loop: it runs cold (unoptimised) at every session start
  const confidence = s.confidence;
  const scopes = s.scope;
  const floor = query.minConfidence;
  const n = s.n;
  const rows: number[] = [];
  for (let i = 0; i < n; i++) {
    if (confidence[i]! < floor) continue;
    const scope = scopes[i]!;
    const o = owner[i]!;
    if (scope === GLOBAL || (o !== NO_OWNER && ((scope === REPO && o === repo) || (scope === AGENT && o === agent)))) rows.push(i);
  }
  return rows;
}
