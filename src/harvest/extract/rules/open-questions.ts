/**
 * Open questions: what the session raised and left unanswered. A request whose diagnosis the
 * user stopped (every call rejected, nothing ran after), recommendations and open points a
 * closing report lists, and doubts the agent states at the very end. Confidence stays low.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { reportsOf } from '../report.js';
import { clip, code, concreteness, oneLine, sentence, sentences, unreadableProse } from '../text.js';
import { editedFiles, type SessionView } from '../view.js';

const OPEN_SECTION = /\b(?:recommend\w*|next steps?|open questions?|unknowns?|todo|follow[- ]?ups?|unresolved|remaining)\b/i;
const OPEN_LINE = /^(?:recommendation|open question|todo|follow[- ]?up|unresolved|next step)s?:\s*/i;
const DOUBT = /\b(?:not (?:yet )?verified|never verified|could(?:n't| not) (?:verify|confirm|determine|find out)|unclear (?:whether|if|why)|remains? (?:unclear|unknown|to be)|needs? (?:verification|to be verified|confirmation)|whether .+ (?:actually|really))\b/i;
/** Offers to the user ("Shall we create … and continue from there?"), requests for the user's input ("Could you share …?"), options put to the
 * user as questions ("Try … instead?") and a tool's own prompts ("Did you mean …?"): the session
 * waiting for its user, not a question of the project. */
const OFFER = /^(?:would you like|shall (?:i|we)|should (?:i|we)|may i|do you want|want me to|let me know|if you'd like|need me to|did you mean|(?:could|can|would|will) you\b|please\b|(?:try|add|use|switch|consider|or|maybe|perhaps)\b)/i;
/** A question put to the user ("Have you reviewed the repository …?", "Are you aware …?", "Is
 * this your personal machine?"): it waits for the user's answer; the project raised nothing. */
const ASKS_THE_USER = /^(?:(?:do|did|does|have|had|are|were|is|was|can|could|would|will|should)\s+you\b|is (?:this|that|it) your\b)/i;

/** A prompt that reports a problem ("mix phx.server doesnt seem to start", "why does the build
 * fail?"), not a task ("make it so bun is in my path"): only a problem left undiagnosed is open. */
const REPORTS_PROBLEM = /\b(?:doesn'?t|does not|don'?t|do not|won'?t|will not|can'?t|cannot|isn'?t|is not|aren'?t|not)\s+(?:\w+\s+){0,2}(?:work\w*|start\w*|run\w*|load\w*|build\w*|compil\w*|open\w*|show\w*|connect\w*|respond\w*)\b|\b(?:errors?|fails?|failing|failed|broken|crash\w*|hangs?|hanging|stuck|exceptions?|why)\b/i;

/** A reported problem the user cut short: every call after it was rejected and nothing else ran. */
function stoppedRequest(view: SessionView): Draft | undefined {
  const prompt = view.prompts[view.prompts.length - 1];
  if (!prompt || !REPORTS_PROBLEM.test(prompt.text)) return undefined;
  const after = view.steps.filter((s) => s.call.index > prompt.index);
  if (after.length === 0 || !after.every((s) => s.rejected)) return undefined;
  const request = clip(oneLine(prompt.text), 140);
  const tried = after.slice(0, 2).map((s) => code(clip(s.command ?? s.call.name, 50)));
  return {
    category: 'question',
    title: `Unresolved: ${clip(request, 60)}`,
    text: `Open: the user reported "${request}", but the cause was never diagnosed; the diagnostic calls (${tried.join(', ')}) were rejected and the session ended.`,
    // the session shows the question was left open (not a guess that it might be)
    confidence: CONFIDENCE.implied,
    event: prompt.index,
    tags: ['open', ...after.map((s) => s.call.name)],
    quotes: [request],
    rule: 'open-question',
    score: 4,
  };
}

/** Whether a file the line names was edited after `event` (a recommendation acted on is not open). */
function actedOn(view: SessionView, event: number, line: string): boolean {
  return view.steps.some((s) => s.call.index > event && !s.failed && editedFiles(s).some((f) => line.includes(f)));
}

function fromReports(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const reports = reportsOf(view);
  // (and so are those of a closing report the user answered with another request)
  const lastPrompt = view.prompts[view.prompts.length - 1];
  const lastClosing = reports.filter((r) => r.source === 'closing' && (lastPrompt === undefined || lastPrompt.index < r.event)).pop();
  // Recommendations of an intermediate turn are taken up by the conversation that follows.
  for (const report of reports.filter((r) => r.source === 'delegate' || r === lastClosing)) {
    for (const section of report.sections) {
      const heading = section.headings[section.headings.length - 1] ?? '';
      const inOpenSection = OPEN_SECTION.test(heading);
      for (const line of section.lines) {
        if (!inOpenSection && !OPEN_LINE.test(line.text)) continue;
        if (concreteness(line.text) === 0 || actedOn(view, report.event, line.text)) continue;
        const body = line.text.replace(OPEN_LINE, '');
        drafts.push({
          category: 'question',
          title: `Open: ${clip(body, 60)}`,
          text: `Open (recommended, not done in the session): ${sentence(clip(body, 300))}`,
          confidence: CONFIDENCE.speculative,
          event: report.event,
          tags: ['open', 'recommendation'],
          quotes: [],
          rule: 'open-question',
          score: 3 + Math.min(2, concreteness(body)),
        });
      }
    }
  }
  return drafts;
}

/** "What if X is called twice? It uses the same id. That's fine.": a question the writer answers
 * in the same line or paragraph, with a verdict, is thinking aloud, not one left open ("Should X
 * be configurable? Right now it is hardcoded." gives context, not an answer). */
function answeredInLine(text: string, question: string): boolean {
  for (const block of text.split(/\n\s*\n|\n(?=\s*(?:[-*+•]|\d+[.)])\s)/)) {
    const said = sentences(block);
    const at = said.indexOf(question);
    if (at >= 0) return said.slice(at + 1).some((x) => !x.endsWith('?') && VERDICT.test(x));
  }
  return false;
}
const VERDICT = /^(?:yes|no)\b|\b(?:(?:that|this|which|it)(?:'s| is) (?:fine|ok(?:ay)?|correct|good|safe|handled|expected|not (?:a|an) (?:problem|issue))|prevents? (?:it|that|this|double|duplicate)|(?:is|are) handled)\b/i;

/** List items that are questions next to a sibling question ("For example: - Does `User` extend
 * `Person`? - Does a `User` have a `Person`?"): options laid out for the user to choose from,
 * in any language, not a question left open. */
function optionQuestions(text: string): string[] {
  const items = text.split('\n').map((l) => {
    const m = /^(\s*)(?:[-*+•]|\d+[.)])\s+(.*\?)\s*$/.exec(l);
    return m ? { indent: m[1]!.length, text: m[2]! } : undefined;
  });
  // compared without emphasis marks, which the sentences are read without
  return items.filter((it, i) => it && [items[i - 1], items[i + 1]].some((n) => n && n.indent === it.indent)).map((it) => it!.text.replace(/[*_]/g, ''));
}

/** "Actually without width/height, it may default to 300x150?", "so maybe size zero?": the
 * writer's own guess with a question mark, thinking aloud (a model's reasoning left in its
 * reply), not a question it leaves open. */
const HEDGED = /^(?:actually|hmm+|so|or)\b|\b(?:maybe|perhaps|probably|possibly|might|may)\b/i;

/** Doubts and real questions in the agent's last message. */
function closingDoubts(view: SessionView): Draft[] {
  const last = [...view.events].reverse().find((e) => e.kind === 'assistant');
  if (!last || last.kind !== 'assistant') return [];
  const drafts: Draft[] = [];
  const options = optionQuestions(last.text);
  for (const raw of sentences(last.text)) {
    // a list item's marker is no part of the question
    const s = raw.replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
    // (in a language the rules cannot read, an offer to the user cannot be told from a question)
    if (unreadableProse(s) || options.some((o) => o.includes(s.replace(/[*_]/g, '')))) continue;
    const bare = s.replace(/^[*_]+/, '');
    const question = s.endsWith('?') && !OFFER.test(bare) && !ASKS_THE_USER.test(bare) && !HEDGED.test(s) && !answeredInLine(last.text, raw);
    if (!question && !DOUBT.test(s)) continue;
    // a question must stand alone for a later reader: "What about X?" does not
    if (concreteness(s) === 0 || s.split(/\s+/).length < 8) continue;
    drafts.push({
      category: 'question',
      title: `Open: ${clip(s, 60)}`,
      text: `Open: ${sentence(clip(s, 300))}`,
      confidence: CONFIDENCE.implied,
      event: last.index,
      tags: ['open'],
      quotes: [],
      rule: 'open-question',
      score: 3 + Math.min(2, concreteness(s)),
    });
  }
  return drafts.slice(0, 2);
}

const QUESTION_LIST = /^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:open questions?|unknowns|unresolved(?: questions)?|remaining questions|questions to (?:answer|investigate|resolve))(?:\*\*)?:?\s*$/i;
const ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+(.*)$/;
/** Later text that settles a question: a conclusion, not more speculation. */
const SETTLED = /\b(?:confirmed|turns out|the answer is|resolved|this explains|we now know|definitively)\b/i;

/** The items of the session's last "Open Questions" list whose first sentence is a question about something concrete. */
function listedQuestions(view: SessionView): Draft[] {
  let found: { event: number; items: string[] } | undefined;
  for (const e of view.events) {
    if (e.kind !== 'assistant') continue;
    const lines = e.text.split('\n');
    const at = lines.findIndex((l) => QUESTION_LIST.test(l));
    if (at < 0) continue;
    const items: string[] = [];
    for (const line of lines.slice(at + 1)) {
      const item = ITEM.exec(line);
      if (item) items.push(item[1]!.trim());
      else if (line.trim() === '') continue;
      else if (items.length > 0 && /^\s{2,}\S/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
      else if (items.length > 0) break;
    }
    if (items.length > 0) found = { event: e.index, items };
  }
  if (!found) return [];
  const later = view.events.filter((e) => e.index > found!.event && e.kind === 'assistant').map((e) => ('text' in e ? e.text : ''));
  const drafts: Draft[] = [];
  for (const raw of found.items) {
    const q = sentences(raw)[0] ?? '';
    if (!q.endsWith('?') || q.length < 20 || OFFER.test(q) || unreadableProse(q) || concreteness(raw) === 0) continue;
    const spans = [...raw.matchAll(/`([^`]{2,})`/g)].map((m) => m[1]!);
    // Settled when a later sentence states a conclusion about the same identifiers.
    const settled = later.some((t) => sentences(t).some((x) => SETTLED.test(x) && spans.length > 0 && spans.every((sp) => x.includes(sp))));
    if (settled) continue;
    drafts.push({
      category: 'question',
      title: `Open: ${clip(q, 60)}`,
      text: `Open (listed as an open question, not answered in the session): ${clip(sentences(raw).filter((x) => x.endsWith('?') || concreteness(x) > 0).join(' '), 300)}`,
      confidence: CONFIDENCE.implied,
      event: found.event,
      tags: ['open'],
      quotes: [clip(q, 160)],
      rule: 'open-question',
      score: 4.5 + Math.min(1, concreteness(raw) * 0.5),
    });
  }
  return drafts.slice(0, 3);
}

export function openQuestionDrafts(view: SessionView): Draft[] {
  const stopped = stoppedRequest(view);
  return [...(stopped ? [stopped] : []), ...fromReports(view), ...closingDoubts(view), ...listedQuestions(view)];
}

export const openQuestions: RuleExtractor = ruleExtractor('open-question', openQuestionDrafts);
