/**
 * Facts the agent states right after a tool showed them: "AshComputer auto-generates
 * `handle_event(...)`" just after reading the code that does it. The sentence must name an
 * identifier the preceding tool output contains, and say how things are (generates, is tracked,
 * lives in, requires), not what the agent will do next.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { NARRATION, clip, concreteness, oneLine, sentence, sentences } from '../text.js';
import { isEdit, type SessionView, type Step } from '../view.js';

const DISCOVERY =
  /\b(?:auto-?generates?|generates?|is generated|are generated|already (?:tracked|exists?|handles?|defined|present)|is tracked|lives? in|is defined in|are defined in|is stored|are stored|requires?|expects?|returns?|is (?:a|an) (?:\w+ )?(?:wrapper|alias|bundle|generated)|is gitignored|is ignored|defaults? to|is (?:only )?called|must be|cannot|can't|doesn't support|does not support|is not (?:exposed|available|installed|supported))\b/i;
const MAX_STATEMENTS = 3;
const INTERJECTION = /^(?:good|great|perfect|ok(?:ay)?|right|ah|oh|i see|interesting|excellent)\b[!,.:;\s—–-]*/i;

function spansOf(s: string): string[] {
  return [...s.matchAll(/`([^`\n]{3,100})`/g)].map((m) => m[1]!.toLowerCase());
}

/** Whether the output shows the identifier (or most of its words, for calls quoted with other arguments). */
function shown(span: string, output: string): boolean {
  if (output.includes(span)) return true;
  const words = span.split(/[^a-z0-9_]+/).filter((w) => w.length >= 4);
  return words.length > 0 && words.filter((w) => output.includes(w)).length * 2 >= words.length;
}

/**
 * The successful looking step (read, search, shell) whose output the statement at `index`
 * follows: the step before the first one whose output is at or after `index`. That first step
 * is never earlier for a later index, so `cursor` (its position for the last index asked) only
 * moves forward while the indexes asked grow, instead of each question walking every step.
 */
function previousLook(view: SessionView, index: number, cursor: { at: number; index: number }): Step | undefined {
  const steps = view.steps;
  if (index < cursor.index) cursor.at = 0;
  cursor.index = index;
  while (cursor.at < steps.length && steps[cursor.at]!.outputEvent < index) cursor.at++;
  const found = cursor.at > 0 ? steps[cursor.at - 1] : undefined;
  if (!found || found.failed || found.rejected || isEdit(found) || index - found.outputEvent > 3) return undefined;
  return found;
}

export function confirmedStatementDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const cursor = { at: 0, index: -Infinity };
  for (const e of view.events) {
    // a statement must quote an identifier in backticks (spansOf): a text without any has none
    if (e.kind !== 'assistant' || !e.text.includes('`')) continue;
    const look = previousLook(view, e.index, cursor);
    if (!look) continue;
    let output: string | undefined; // lowercased only when a sentence gets that far
    for (const raw of sentences(e.text)) {
      const s = oneLine(raw).replace(INTERJECTION, '');
      if (s.length < 40 || s.length > 300 || s.endsWith('?') || NARRATION.test(s) || !DISCOVERY.test(s)) continue;
      const spans = spansOf(s);
      if (spans.length === 0) continue;
      const lower = (output ??= look.output.toLowerCase());
      if (!spans.some((span) => shown(span, lower))) continue;
      drafts.push({
        category: 'fact',
        title: clip(s.replace(/`/g, ''), 70),
        text: sentence(clip(s, 300)),
        confidence: CONFIDENCE.stated,
        event: e.index,
        tags: ['confirmed', look.call.name],
        quotes: [clip(s, 160)],
        rule: 'confirmed-statement',
        score: 4.5 + Math.min(2, concreteness(s)) * 0.5,
      });
    }
  }
  return drafts.sort((a, b) => b.score - a.score || a.event - b.event).slice(0, MAX_STATEMENTS);
}

export const confirmedStatements: RuleExtractor = ruleExtractor('confirmed-statement', confirmedStatementDrafts);
