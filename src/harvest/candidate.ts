/**
 * What an extractor proposes: one piece of knowledge with its evidence. Candidates are redacted,
 * merged with the store, and only then become items. Extractors are pure: Session in, candidates out.
 */
import type { Category, Scope } from '../knowledge/item.js';
import type { Session } from '../sessions/model.js';

/** Confidence by the kind of evidence (issue 4): verified by a later success, stated, implied, speculative. */
export const CONFIDENCE = {
  verified: 0.9,
  stated: 0.7,
  implied: 0.5,
  speculative: 0.3,
} as const;

export interface CandidateEvidence {
  /** Index of the event that shows the knowledge (Session.events[i].index). */
  event: number;
  /** Transcript line of that event. */
  line?: number;
}

export interface Candidate {
  category: Category;
  scope: Scope;
  /** Set when scope is 'repo' (the session's repo). */
  repo?: string;
  /** Set when scope is 'agent' (the session's agent). */
  agent?: string;
  /** Short one-line title (no trailing period). */
  title: string;
  /** One to three standalone sentences naming the concrete command, file, error or identifier. */
  text: string;
  confidence: number;
  tags: string[];
  evidence: CandidateEvidence;
  /** Lines for the item's `## Evidence` section: short quotes (error text, the fix command). */
  quotes: string[];
  /** Which rule produced it (for --explain, eval and debugging), e.g. "error-fix". */
  rule: string;
  /** Normalised error signature for pitfalls (measure uses it to count recurrences). */
  signature?: string;
  /** Rank of the candidate within its session (higher first); extractors keep the best few. */
  score?: number;
  /** Which extractor wrote it when not the rules, e.g. `model:claude-haiku-4-5@1a2b3c4d`
   * (written into the item's source). */
  extractor?: string;
  /** The model said this is the known item with this id again: it reinforces that item. */
  sameAs?: string;
  /** The model said this corrects the known item with this id: the two are linked as conflicting. */
  contradicts?: string;
  /** Why it is written with `status: quarantined` (see quarantine.ts). */
  quarantine?: string;
}

export interface Extractor {
  name: string;
  extract(session: Session): Candidate[];
}
