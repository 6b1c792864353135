/**
 * A parsed answer into candidates: every entry grounded in the view (or dropped and counted),
 * its scope completed from the session, anything below the confidence floor dropped. Pure.
 * Redaction, the merge with the store and the plan come after, as for rule candidates.
 */
import type { Session } from '../../sessions/model.js';
import type { Candidate } from '../candidate.js';
import type { AnswerEntry } from './answer.js';
import type { GroundingIndex } from './ground.js';
import type { KnownItems } from './known.js';

/** Below this the prompt's own rubric says "do not write": a doubtful item costs a reviewer more
 * than a missed one. */
export const MIN_CONFIDENCE = 0.5;

export interface Conversion {
  candidates: Candidate[];
  ungrounded: number;
  /** Entries dropped for another reason: low confidence, a repo item without a repo, an unknown id. */
  dropped: number;
}

export function toCandidates(entries: readonly AnswerEntry[], session: Session, grounding: GroundingIndex, known: KnownItems, extractor: string): Conversion {
  const out: Conversion = { candidates: [], ungrounded: 0, dropped: 0 };
  for (const e of entries) {
    const grounded = grounding.ground(e.evidence);
    if (!grounded) {
      out.ungrounded++;
      continue;
    }
    const evidence = { event: grounded.event.index, line: grounded.event.line };
    if (e.kind === 'same') {
      const item = known.byId.get(e.sameAs);
      if (!item) {
        out.dropped++;
        continue;
      }
      out.candidates.push({
        category: item.category,
        scope: item.scope,
        ...(item.repo !== undefined ? { repo: item.repo } : {}),
        ...(item.agent !== undefined ? { agent: item.agent } : {}),
        title: item.title,
        text: item.title,
        confidence: MIN_CONFIDENCE,
        tags: [],
        evidence,
        quotes: grounded.quotes,
        rule: 'model',
        extractor,
        sameAs: item.id,
      });
      continue;
    }
    if (e.confidence < MIN_CONFIDENCE || (e.scope === 'repo' && !session.repo)) {
      out.dropped++;
      continue;
    }
    out.candidates.push({
      category: e.category,
      scope: e.scope,
      ...(e.scope === 'repo' ? { repo: session.repo } : {}),
      ...(e.scope === 'agent' ? { agent: session.agent } : {}),
      title: e.title.length > 120 ? `${e.title.slice(0, 119)}…` : e.title,
      text: e.knowledge,
      confidence: Math.min(0.95, e.confidence),
      tags: e.tags,
      evidence,
      quotes: grounded.quotes,
      rule: 'model',
      extractor,
      ...(e.contradicts !== undefined && known.byId.has(e.contradicts) ? { contradicts: e.contradicts } : {}),
    });
  }
  return out;
}
