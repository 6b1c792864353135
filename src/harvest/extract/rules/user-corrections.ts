/**
 * What the user corrected or laid down: "no, it's not X", "don't …", "use X instead",
 * "X is the same as Y", "before …, check …", and answers to the agent's own questions.
 * The user's words are kept (they are the knowledge); the file the agent then worked on is
 * added as context so the item stands alone. Procedures become patterns, the rest facts.
 */
import type { Session } from '../../../sessions/model.js';
import type { Candidate, Extractor } from '../../candidate.js';
import { CONFIDENCE } from '../../candidate.js';
import { makeCandidate, type Draft } from '../build.js';
import { NARRATION, clip, concreteness, oneLine, sentence, sentences, stripMarkdown } from '../text.js';
import { EDIT_TOOLS, READ_TOOLS, type SessionView, viewOf } from '../view.js';

const CORRECTION = new RegExp(
  [
    String.raw`^(?:no|nope|wrong|not|actually|wait|stop)\b`,
    String.raw`\b(?:it'?s|it is|that'?s|this is) not\b`,
    String.raw`\b(?:isn'?t|aren'?t|don'?t|do not|doesn'?t|shouldn'?t|never|always|instead|rather than|we use|we don'?t)\b`,
    String.raw`\bshould (?:be|use|go)\b`,
    String.raw`\bmust(?: not)?\b`,
    String.raw`\b(?:is|are) (?:exactly )?the same (?:as|value)\b|\bsame value\b`,
    String.raw`\bthere (?:is|are) no\b`,
    String.raw`\b(?:bad idea|not needed|no need|overcomplicat\w*|over-engineer\w*|too complex|unnecessary)\b`,
    String.raw`\bonly (?:change|use|touch|edit|modify)\b`,
    String.raw`\bbefore (?:providing|proposing|doing|making|editing|committing|writing|changing|you)\b`,
  ].join('|'),
  'i',
);
const PROCEDURE = /\b(?:before|first|then|after|afterwards|always run|workflow|step)\b/i;
const CONVENTION = /\b(?:always|never|we use|must)\b/i;
const ANSWER = /User has answered your questions?:\s*"([^"]+)"\s*=\s*"([^"]+)"/;
const AGREEMENT = /^(?:you'?re (?:absolutely )?(?:right|correct)|good (?:point|catch)|got it|understood|ah,?|i see|perfect|brilliant|excellent|great|sure|ok(?:ay)?)[!.,:]?\s*/i;

/** The agent's first concrete sentence after the correction: what it took the correction to mean. */
function reaction(view: SessionView, after: number, until: number): string | undefined {
  for (const e of view.events) {
    if (e.index <= after || e.index >= until) continue;
    if (e.kind !== 'assistant') continue;
    for (const raw of sentences(e.text)) {
      const s = raw.replace(AGREEMENT, '').replace(AGREEMENT, '').trim();
      if (s.length < 20 || s.endsWith('?') || concreteness(s) === 0) continue;
      return clip(s.replace(NARRATION, '').replace(/^[\s,:]+/, ''), 160);
    }
  }
  return undefined;
}

/** Files the agent edited (else read) right after the correction. */
function touched(view: SessionView, after: number, until: number): string[] {
  const edits: string[] = [];
  const reads: string[] = [];
  for (const s of view.steps) {
    if (s.call.index <= after || s.call.index >= until || s.failed || s.rejected) continue;
    const path = s.call.input.file_path ?? s.call.input.path;
    if (typeof path !== 'string') continue;
    const name = path.replace(/^.*\//, '');
    if (EDIT_TOOLS.has(s.call.name) && !edits.includes(name)) edits.push(name);
    else if (READ_TOOLS.has(s.call.name) && !reads.includes(name)) reads.push(name);
  }
  return (edits.length > 0 ? edits : reads).slice(0, 2);
}

function fromPrompts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  view.prompts.forEach((p, i) => {
    const text = oneLine(stripMarkdown(p.text));
    if (text.length < 12 || text.length > 500) return;
    if (i === 0 && !CONVENTION.test(text)) return; // the opening prompt is the task, not a correction
    if (text.endsWith('?') && !/\b(?:don'?t|not|never)\b/i.test(text)) return;
    if (!CORRECTION.test(text)) return;
    const next = view.prompts[i + 1]?.index ?? Number.MAX_SAFE_INTEGER;
    const files = touched(view, p.index, next);
    const react = reaction(view, p.index, next);
    const context: string[] = [];
    if (files.length > 0 && !files.some((f) => text.includes(f))) context.push(`applies to ${files.map((f) => `\`${f}\``).join(', ')}`);
    if (react) context.push(`the agent then: ${react}`);
    const procedural = PROCEDURE.test(text);
    drafts.push({
      category: procedural ? 'pattern' : 'fact',
      title: clip(text, 70),
      text: `User correction: ${sentence(clip(text, 260))}${context.length > 0 ? ` (${context.join('; ')})` : ''}`,
      confidence: CONFIDENCE.stated,
      event: p.index,
      tags: ['user-correction', ...files],
      quotes: [clip(text, 200)],
      rule: 'user-correction',
      score: 5 + Math.min(2, concreteness(text)) + (CONVENTION.test(text) ? 1 : 0) + (files.length > 0 || react ? 1 : 0),
    });
  });
  return drafts;
}

/** Answers the user gave to the agent's multiple-choice questions. */
function fromAnswers(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  for (const s of view.steps) {
    const m = ANSWER.exec(s.output);
    if (!m) continue;
    const question = clip(m[1]!, 200);
    const answer = clip(m[2]!, 160);
    drafts.push({
      category: 'fact',
      title: clip(answer, 70),
      text: `Asked "${question}", the user answered "${answer}".`,
      confidence: CONFIDENCE.stated,
      event: s.outputEvent,
      tags: ['user-correction', s.call.name],
      quotes: [answer],
      rule: 'user-correction',
      score: 8,
    });
  }
  return drafts;
}

export function userCorrectionDrafts(view: SessionView): Draft[] {
  return [...fromPrompts(view), ...fromAnswers(view)];
}

export const userCorrections: Extractor = {
  name: 'user-correction',
  extract(session: Session): Candidate[] {
    return userCorrectionDrafts(viewOf(session)).map((d) => makeCandidate(session, d));
  },
};
