/**
 * Ranking a user can follow:
 *
 *   score = (1 + BM25(task, item)) × category × confidence × evidence × recency × scope
 *
 * - BM25 (k1 = 1.2, b = 0.75) over the item's title and tags (weight 2) and text (weight 1),
 *   with the analyzer of terms.ts; idf = ln(1 + (N − df + 0.5) / (df + 0.5)).
 *   Without a task it is 0 and the priors alone decide.
 * - category: pitfall 1, tool-quirk 0.9, pattern 0.75, fact 0.65, question 0.35.
 * - confidence: the item's own, 0..1.
 * - evidence: 1 + ¼·log2(sessions), capped at 16 sessions (1 → 1, 4 → 1.5, 16 → 2).
 * - recency: 0.5 + 0.5·2^(−age/90 days), age counted from the newest last_seen among the
 *   candidates (never the wall clock, so the same store ranks the same way tomorrow).
 * - scope: repo 1, agent 0.85, global 0.7.
 *
 * Every statistic (N, df, average length, newest) is taken over the candidates: the items this
 * session may be given (global, this repo's, this agent's, above the confidence floor). A session
 * start then needs nothing of the rest of the store, so it can rank straight from the lines of
 * index.json it reads (direct.ts) and get the same order as from the search structure.
 *
 * Equal scores are ordered by id, so the order is total and the output deterministic.
 */
import { CATEGORIES, SCOPES } from '../knowledge/item.js';
import { BM25_K1, CATEGORY_PRIOR, SCOPE_PRIOR, bm25Idf, bm25Norm, clampConfidence, evidenceFactor, priorOf, recencyFactor } from './priors.js';

export { CATEGORY_PRIOR, SCOPE_PRIOR };

const DAY_MS = 86_400_000;
/** The age given to an item whose last_seen cannot be read: as old as can be. */
const UNKNOWN_AGE_DAYS = 1e6;

/** What ranking needs of each candidate, by position (candidates in index order). */
export interface Candidates {
  readonly n: number;
  /** Index into CATEGORIES / SCOPES. */
  readonly category: Uint8Array;
  readonly scope: Uint8Array;
  readonly confidence: Float64Array;
  readonly evidence: Float64Array;
  /** last_seen, ms since the epoch (NaN when it cannot be read). */
  readonly time: Float64Array;
  /** Weighted number of terms (the BM25 length). */
  readonly docLen: Uint32Array;
  /** Tie-break key: in the order of the ids. */
  readonly order: Uint32Array;
}

/** The candidates a task term occurs in, ascending, with its weighted frequency in each. */
export interface TermMatches {
  at: number[];
  tf: number[];
}

export interface Query {
  repo?: string;
  agent?: string;
  minConfidence: number;
  /** Distinct analysed terms of the task (empty without a task). */
  taskTerms: readonly string[];
}

export interface Ranked {
  /** Position among the candidates. */
  at: number;
  bm25: number;
  score: number;
}

export interface ScoreParts {
  bm25: number;
  category: number;
  confidence: number;
  evidence: number;
  recency: number;
  scope: number;
  score: number;
}

export interface Ranking {
  ranked: Ranked[];
  /** The factors of a candidate's score, for --explain. */
  parts(at: number, bm25: number): ScoreParts;
}

/** Candidates, best first; ties by id. `matches` has one entry per task term, in a fixed order. */
export function rankCandidates(c: Candidates, matches: readonly TermMatches[]): Ranking {
  const n = c.n;
  let newest = 0;
  let totalLen = 0;
  for (let k = 0; k < n; k++) {
    const t = c.time[k]!;
    if (Number.isFinite(t) && t > newest) newest = t;
    totalLen += c.docLen[k]!;
  }
  const avgDocLen = n ? totalLen / n : 0;
  const age = (k: number) => {
    const t = c.time[k]!;
    return Number.isFinite(t) ? Math.max(0, (newest - t) / DAY_MS) : UNKNOWN_AGE_DAYS;
  };
  const bm25 = new Float64Array(n);
  for (const m of matches) {
    if (m.at.length === 0) continue;
    const idfK = bm25Idf(n, m.at.length) * (BM25_K1 + 1);
    for (let j = 0; j < m.at.length; j++) {
      const k = m.at[j]!;
      const tf = m.tf[j]!;
      bm25[k]! += (idfK * tf) / (tf + bm25Norm(c.docLen[k]!, avgDocLen));
    }
  }
  const prior = (k: number) => priorOf(CATEGORIES[c.category[k]!]!, SCOPES[c.scope[k]!]!, c.confidence[k]!, c.evidence[k]!, age(k));
  const ranked: Ranked[] = new Array<Ranked>(n);
  for (let k = 0; k < n; k++) ranked[k] = { at: k, bm25: bm25[k]!, score: (1 + bm25[k]!) * prior(k) };
  const order = c.order;
  ranked.sort((a, b) => b.score - a.score || order[a.at]! - order[b.at]!);
  return {
    ranked,
    parts: (k, b) => ({
      bm25: b,
      category: CATEGORY_PRIOR[CATEGORIES[c.category[k]!]!],
      confidence: clampConfidence(c.confidence[k]!),
      evidence: evidenceFactor(c.evidence[k]!),
      recency: recencyFactor(age(k)),
      scope: SCOPE_PRIOR[SCOPES[c.scope[k]!]!],
      score: (1 + b) * prior(k),
    }),
  };
}

/** Tie-break keys from ids: each candidate's place in id order (equal ids keep index order). */
export function idOrder(ids: readonly string[]): Uint32Array {
  const byId = ids.map((_, k) => k).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
  const order = new Uint32Array(ids.length);
  byId.forEach((k, rank) => (order[k] = rank));
  return order;
}
