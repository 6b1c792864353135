/**
 * The lexical analyzer behind the BM25 ranking. Knowledge about code is full of identifiers,
 * paths and commands, so a word like `bootstrap_budget`, `parseIndex`, `src/cli/main.ts` or
 * `--no-verify` yields both the whole token (an exact mention scores high) and its parts
 * (`bootstrap`, `budget`, `parse`, `index`, `main.ts`, `verify`), lowercased, with English
 * plurals folded and function words dropped. Tasks and items go through the same function.
 */

const STOP_WORDS = new Set(
  'a an and are as at be been but by can do does for from has have if in into is it its not of on or so than that the their then there these this to was were when where which while will with you your i we our us they them he she his her'.split(' '),
);

/** Identifier-ish runs: letters, digits and the joiners found in names, paths and flags. */
const RAW_TOKEN = /(?:--?)?[\p{L}\p{N}_][\p{L}\p{N}_.\/\\:@+#-]*/gu;
const PLAIN_WORD = /^[a-z]+$/;
const TRAILING_JOINERS = /[.\/\\:@+#-]+$/u;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
/** Split points inside camelCase and PascalCase, keeping acronyms together (HTTPServer → HTTP Server). */
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** Folds English plurals so "tests" meets "test"; deliberately light, never a full stemmer. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function keep(word: string): boolean {
  return word.length >= 2 && !STOP_WORDS.has(word);
}

/** Analyses one raw token into the whole form (when compound) and its parts. */
function analyseToken(raw: string, out: string[]): void {
  if (PLAIN_WORD.test(raw)) {
    // most tokens are plain lowercase words: skip the splitting below
    const word = stem(raw);
    if (keep(word)) out.push(word);
    return;
  }
  const token = raw.replace(TRAILING_JOINERS, '');
  if (token === '') return;
  const lower = token.toLowerCase();
  const parts: string[] = [];
  for (const piece of token.split(SEPARATORS)) {
    if (piece === '') continue;
    for (const sub of piece.split(CAMEL)) if (sub !== '') parts.push(sub.toLowerCase());
  }
  const compound = parts.length > 1 || lower !== parts[0];
  if (compound && lower.length >= 2) out.push(lower);
  // path segments that name a file (`main.ts`) are searched for on their own too
  if (/[\/\\]/.test(token)) {
    for (const segment of lower.split(/[\/\\]+/)) if (segment.includes('.') && segment !== lower) out.push(segment.replace(TRAILING_JOINERS, ''));
  }
  for (const part of parts) {
    const word = /^\p{L}+$/u.test(part) ? stem(part) : part;
    if (keep(word)) out.push(word);
  }
}

/** Every term of a text, repeated as often as it occurs (term frequency matters to BM25). */
export function terms(text: string): string[] {
  const out: string[] = [];
  // match() with a global pattern gives the strings alone: cheaper than matchAll's match objects
  for (const raw of text.match(RAW_TOKEN) ?? []) analyseToken(raw, out);
  return out;
}

/** The distinct terms of a text: what a task asks for, and what near-duplicates share. */
export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

/** Jaccard similarity of two term sets: |A ∩ B| / |A ∪ B| (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}
