/**
 * When two statements are "the same knowledge" and when they contradict each other.
 * Token-set Jaccard is crude but predictable: a reviewer can see why two items merged.
 */

const STOP = new Set('a an the of to in on for and or is are was were be been it its this that with as by at from when then than into use using run runs ran'.split(' '));
const NEGATIONS = /\b(never|not|no|don't|do not|doesn't|does not|must not|mustn't|avoid|instead of|without)\b/i;
const POLARITY_WORDS = new Set(['never', 'not', 'no', "don't", 'do', 'doesn', 'does', 'must', 'mustn', 'avoid', 'always', 'without', 'instead']);

export function tokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of text.toLowerCase().split(/[^a-z0-9_./:-]+/)) {
    const w = t.replace(/^[.:/-]+|[.:/-]+$/g, '');
    if (w.length >= 2 && !STOP.has(w)) out.add(w);
  }
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Tokens without the words that flip a statement's meaning, to compare content only. */
export function contentTokens(all: ReadonlySet<string>): Set<string> {
  return new Set([...all].filter((t) => !POLARITY_WORDS.has(t)));
}

export function isNegative(text: string): boolean {
  return NEGATIONS.test(text);
}

export const NEAR_DUPLICATE = 0.6;
export const SAME_TOPIC = 0.7;
/** Model candidates: this much title overlap is the same item (see CandidateMerger.add). */
export const SAME_TITLE = 0.6;

/** Title tokens that name a thing (`left-pad`, `src/app.ts`, `node20`, `db:reset`): a letter
 * with a separator or a digit. */
export function namedThings(titleTokens: ReadonlySet<string>): Set<string> {
  return new Set([...titleTokens].filter((t) => /[a-z]/.test(t) && /[-_./:@0-9]/.test(t)));
}

/** Two titles that each name things, none in common, are about different things however alike
 * the rest of their words ("left-pad is not installed", "eslint-plugin-import is not installed"). */
export function differentThings(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  for (const t of a) if (b.has(t)) return false;
  return true;
}
