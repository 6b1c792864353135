/**
 * The priors of the ranking (see rank.ts for the formula), computed per candidate at each session
 * start (recency is counted from the newest candidate, so they are not stored).
 */
import type { Category, Scope } from '../knowledge/item.js';

export const CATEGORY_PRIOR: Record<Category, number> = { pitfall: 1, 'tool-quirk': 0.9, pattern: 0.75, fact: 0.65, question: 0.35 };
export const SCOPE_PRIOR: Record<Scope, number> = { repo: 1, agent: 0.85, global: 0.7 };
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const RECENCY_HALF_LIFE_DAYS = 90;
export const EVIDENCE_CAP = 16;


/** 1 for one session, 1.5 for four, 2 from sixteen on. */
export function evidenceFactor(evidence: number): number {
  return 1 + 0.25 * Math.log2(Math.min(EVIDENCE_CAP, Math.max(1, evidence)));
}

/** 1 for the newest item in the store, 0.75 at 90 days older, towards 0.5 for the oldest. */
export function recencyFactor(ageDays: number): number {
  return 0.5 + 0.5 * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
}

export function clampConfidence(confidence: number): number {
  return Math.min(1, Math.max(0, confidence));
}

/** category × confidence × evidence × recency × scope, multiplied in this order. */
export function priorOf(category: Category, scope: Scope, confidence: number, evidence: number, ageDays: number): number {
  return CATEGORY_PRIOR[category] * clampConfidence(confidence) * evidenceFactor(evidence) * recencyFactor(ageDays) * SCOPE_PRIOR[scope];
}

/** BM25's length normalisation of an item: k1 · (1 − b + b · length / average length). */
export function bm25Norm(docLen: number, avgDocLen: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * docLen) / (avgDocLen || 1));
}

export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}
