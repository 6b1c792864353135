/**
 * Ranking a user can follow:
 *
 *   score = (1 + BM25(task, item)) × category × confidence × evidence × recency × scope
 *
 * - BM25 (k1 = 1.2, b = 0.75) over the item's title and tags (weight 2) and text (weight 1),
 *   with the analyzer of terms.ts; idf = ln(1 + (N − df + 0.5) / (df + 0.5)) over all active
 *   items. Without a task it is 0 and the priors alone decide.
 * - category: pitfall 1, tool-quirk 0.9, pattern 0.75, fact 0.65, question 0.35.
 * - confidence: the item's own, 0..1.
 * - evidence: 1 + ¼·log2(sessions), capped at 16 sessions (1 → 1, 4 → 1.5, 16 → 2).
 * - recency: 0.5 + 0.5·2^(−age/90 days), age counted from the newest last_seen in the store
 *   (never the wall clock, so the same store ranks the same way tomorrow).
 * - scope: repo 1, agent 0.85, global 0.7.
 *
 * Equal scores are ordered by id, so the order is total and the output deterministic.
 */
import { CATEGORIES, SCOPES, type Category, type Scope } from '../knowledge/item.js';
import { NO_OWNER, type SearchStructure } from './structure.js';

export const CATEGORY_PRIOR: Record<Category, number> = { pitfall: 1, 'tool-quirk': 0.9, pattern: 0.75, fact: 0.65, question: 0.35 };
export const SCOPE_PRIOR: Record<Scope, number> = { repo: 1, agent: 0.85, global: 0.7 };
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const RECENCY_HALF_LIFE_DAYS = 90;
const EVIDENCE_CAP = 16;

export function evidenceFactor(evidence: number): number {
  return 1 + 0.25 * Math.log2(Math.min(EVIDENCE_CAP, Math.max(1, evidence)));
}

export function recencyFactor(ageDays: number): number {
  return 0.5 + 0.5 * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
}

export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
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

export interface Query {
  repo?: string;
  agent?: string;
  minConfidence: number;
  /** Distinct analysed terms of the task (empty without a task). */
  taskTerms: readonly string[];
}

export interface Ranked {
  row: number;
  bm25: number;
  score: number;
}

/** Rows that may be given to this session: global, this repo's, this agent's; above the floor. */
export function candidateRows(s: SearchStructure, query: Query): number[] {
  const repo = s.nameIndex(query.repo);
  const agent = s.nameIndex(query.agent);
  const owner = s.column('owner');
  const rows: number[] = [];
  for (let i = 0; i < s.n; i++) {
    if (s.confidence[i]! < query.minConfidence) continue;
    const scope = SCOPES[s.scope[i]!];
    const o = owner[i]!;
    if (scope === 'global' || (scope === 'repo' && o === repo && o !== NO_OWNER) || (scope === 'agent' && o === agent && o !== NO_OWNER)) rows.push(i);
  }
  return rows;
}

/** BM25 of every row against the task terms (rows without a match keep 0). */
export function bm25Scores(s: SearchStructure, taskTerms: readonly string[]): Float64Array {
  const scores = new Float64Array(s.n);
  const docLen = s.column('docLen');
  const avg = s.header.avgDocLen || 1;
  for (const term of taskTerms) {
    const post = s.postings(term);
    if (!post) continue;
    const idf = bm25Idf(s.n, post.length / 2);
    for (let k = 0; k < post.length; k += 2) {
      const row = post[k]!;
      const tf = post[k + 1]!;
      scores[row]! += (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * docLen[row]!) / avg));
    }
  }
  return scores;
}

/** The factors of a row's score, for --explain (rank() computes the same product inline). */
export function scoreParts(s: SearchStructure, row: number, bm25: number): ScoreParts {
  const parts = {
    bm25,
    category: CATEGORY_PRIOR[CATEGORIES[s.category[row]!]!],
    confidence: Math.min(1, Math.max(0, s.confidence[row]!)),
    evidence: evidenceFactor(s.column('evidence')[row]!),
    recency: recencyFactor(s.ageDays[row]!),
    scope: SCOPE_PRIOR[SCOPES[s.scope[row]!]!],
  };
  const score = (1 + bm25) * parts.category * parts.confidence * parts.evidence * parts.recency * parts.scope;
  return { ...parts, score };
}

/** Candidates, best first; ties by id. */
export function rank(s: SearchStructure, query: Query): Ranked[] {
  const rows = candidateRows(s, query);
  const bm25 = query.taskTerms.length ? bm25Scores(s, query.taskTerms) : undefined;
  const idRank = s.column('idRank');
  const evidence = s.column('evidence');
  const categoryPrior = CATEGORIES.map((c) => CATEGORY_PRIOR[c]);
  const scopePrior = SCOPES.map((c) => SCOPE_PRIOR[c]);
  const ranked: Ranked[] = rows.map((row) => {
    const b = bm25 ? bm25[row]! : 0;
    const score =
      (1 + b) *
      categoryPrior[s.category[row]!]! *
      Math.min(1, Math.max(0, s.confidence[row]!)) *
      evidenceFactor(evidence[row]!) *
      recencyFactor(s.ageDays[row]!) *
      scopePrior[s.scope[row]!]!;
    return { row, bm25: b, score };
  });
  ranked.sort((a, b) => b.score - a.score || idRank[a.row]! - idRank[b.row]!);
  return ranked;
}
