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
import { CATEGORIES, SCOPES } from '../knowledge/item.js';
import { BM25_K1, CATEGORY_PRIOR, SCOPE_PRIOR, bm25Idf, clampConfidence, evidenceFactor, recencyFactor } from './priors.js';
import { NO_OWNER, type SearchStructure } from './structure.js';

export { CATEGORY_PRIOR, SCOPE_PRIOR };

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

/** BM25 of every row against the task terms (rows without a match keep 0). */
export function bm25Scores(s: SearchStructure, taskTerms: readonly string[]): Float64Array {
  const scores = new Float64Array(s.n);
  const norm = s.bm25Norm;
  for (const term of taskTerms) {
    const post = s.postings(term);
    if (!post) continue;
    const idfK = bm25Idf(s.n, post.length / 2) * (BM25_K1 + 1);
    const end = post.length;
    for (let k = 0; k < end; k += 2) {
      const row = post[k]!;
      const tf = post[k + 1]!;
      scores[row]! += (idfK * tf) / (tf + norm[row]!);
    }
  }
  return scores;
}

/** The factors of a row's score, for --explain. */
export function scoreParts(s: SearchStructure, row: number, bm25: number): ScoreParts {
  const parts = {
    bm25,
    category: CATEGORY_PRIOR[CATEGORIES[s.category[row]!]!],
    confidence: clampConfidence(s.confidence[row]!),
    evidence: evidenceFactor(s.column('evidence')[row]!),
    recency: recencyFactor(s.ageDays[row]!),
    scope: SCOPE_PRIOR[SCOPES[s.scope[row]!]!],
  };
  return { ...parts, score: (1 + bm25) * s.prior[row]! };
}

/** Candidates, best first; ties by id. */
export function rank(s: SearchStructure, query: Query): Ranked[] {
  const rows = candidateRows(s, query);
  const bm25 = query.taskTerms.length ? bm25Scores(s, query.taskTerms) : undefined;
  const idRank = s.column('idRank');
  const prior = s.prior;
  const ranked: Ranked[] = rows.map((row) => {
    const b = bm25 ? bm25[row]! : 0;
    return { row, bm25: b, score: (1 + b) * prior[row]! };
  });
  ranked.sort((a, b) => b.score - a.score || idRank[a.row]! - idRank[b.row]!);
  return ranked;
}
