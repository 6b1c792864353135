/**
 * Keeping the best few: a reviewer's time is the scarcest resource, so each session yields at
 * most a budget of candidates that grows with how much happened in it (tool calls, prompts,
 * report text). Near duplicates are dropped, the rest ranked by score; ties are broken by
 * evidence position and text so the same session always gives the same list.
 */
import type { Candidate } from '../candidate.js';
import { overlap, words } from './text.js';
import { rejectReason } from './precision.js';
import type { SessionView } from './view.js';
import { reportsOf } from './report.js';
import { ruleTexts } from './rules/repo-rules.js';

/** Minimum score a candidate needs to be kept at all. */
export const MIN_SCORE = 4;
const MAX_PER_SESSION = 24;
/**
 * Slots every session gets before its size counts. 5 rather than 1: on the labelled transcripts
 * (npm run eval) it lifts harvest recall from 69 to 74 of 105 gold items while every session
 * still yields no more unmatched items than it has gold items; candidates must still pass
 * MIN_SCORE, so a small session does not fill its slots with weak ones.
 */
const BASE_BUDGET = 5;

/** How many candidates a session may yield. */
export function budget(view: SessionView): number {
  const calls = view.steps.filter((s) => !s.rejected).length;
  const prompts = view.prompts.length;
  const reportChars = reportsOf(view).reduce((n, r) => n + r.text.length, 0);
  // A rule file the session loaded states several conventions at once.
  const ruleChars = ruleTexts(view).reduce((n, r) => n + r.text.length, 0);
  const b = Math.floor(calls / 10) + Math.floor(prompts / 2) + Math.min(8, Math.floor(reportChars / 2500)) + Math.min(3, Math.floor(ruleChars / 4000)) + BASE_BUDGET;
  return Math.min(MAX_PER_SESSION, b);
}

function byRank(a: Candidate, b: Candidate): number {
  return (b.score ?? 0) - (a.score ?? 0) || a.evidence.event - b.evidence.event || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
}

/**
 * The kind of error a candidate is about: its signature up to the first quoted or bracketed
 * payload (`error: failed to find expected lines`), when that much is left to tell kinds apart.
 */
function errorKind(c: Candidate): string | undefined {
  const head = c.signature?.split(/<s>|\[/)[0]!.trim();
  return head !== undefined && head.length >= 20 ? head : undefined;
}

/** The first line of a candidate's error signature: one error is one item, whichever rule
 * read it (a failing build as error → fix, its finding as a checker finding). */
function errorHead(c: Candidate): string | undefined {
  const head = c.signature?.split(' <n>')[0]!.trim();
  return head !== undefined && head.length >= 12 ? head : undefined;
}

/**
 * Drops near duplicates keeping the better ranked one: same category and mostly the same words,
 * or the same error signature (one error hit twice with different quoted context is one item).
 */
export function dedupe(candidates: readonly Candidate[]): Candidate[] {
  const kept: { c: Candidate; w: Set<string>; kind: string | undefined; head: string | undefined }[] = [];
  for (const c of [...candidates].sort(byRank)) {
    const w = words(`${c.title} ${c.text}`);
    const kind = errorKind(c);
    const head = errorHead(c);
    if (kept.some((k) => k.c.category === c.category && ((kind !== undefined && k.kind === kind) || (head !== undefined && k.head === head) || overlap(k.w, w) >= 0.8))) continue;
    kept.push({ c, w, kind, head });
  }
  return kept.map((k) => k.c);
}

export function select(view: SessionView, candidates: readonly Candidate[]): Candidate[] {
  const good = dedupe(candidates.filter((c) => (c.score ?? 0) >= MIN_SCORE && rejectReason(c) === undefined));
  return good.slice(0, budget(view)).sort((a, b) => a.evidence.event - b.evidence.event || byRank(a, b));
}
