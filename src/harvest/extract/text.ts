/**
 * Small pure text helpers shared by the extraction rules: cleaning tool output, cutting
 * sentences, spotting concrete identifiers, and keeping personal paths out of item text.
 */
import { TextCache } from './text-cache.js';
import { redact } from '../../redact/index.js';

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;
const TOOL_ERROR_TAG = /<\/?tool_use_error>/g;
/** Claude Code Read output prefixes every line with its number and an arrow. */
const LINE_NUMBER_PREFIX = /^ *\d+→/gm;

/** Tool output or message text without ANSI codes, injected reminders and tool wrappers. */
export function cleanText(text: string): string {
  // Each pass only when its marker occurs (most outputs have none): same result, less scanning.
  let t = text;
  if (t.includes('\u001b')) t = t.replace(ANSI, '');
  // Both tags start with '<', which few outputs hold: one search for it spares the two longer ones.
  if (t.includes('<')) {
    if (t.includes('<system-reminder>')) t = t.replace(SYSTEM_REMINDER, '');
    if (t.includes('tool_use_error>')) t = t.replace(TOOL_ERROR_TAG, '');
  }
  if (t.includes('→')) t = t.replace(LINE_NUMBER_PREFIX, '');
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  // a Windows program writing UTF-16 (WSL's bash.exe: "A\0c\0c\0e\0s\0s\0…") read as UTF-8
  // shows a NUL after every character; no text holds NULs
  if (t.includes('\u0000')) t = t.replace(/\u0000/g, '');
  return t;
}

/** "I’ve", "don’t" read as "I've", "don't": the rules' words are written with the plain
 * apostrophe, and a reply typeset with the curly one says the same thing. */
export function plainApostrophes(text: string): string {
  return text.includes('\u2019') || text.includes('\u2018') ? text.replace(/[\u2018\u2019]/g, "'") : text;
}

/** Collapses all whitespace to single spaces. */
export function oneLine(text: string): string {
  // Already one line (single spaces only): only the ends can change. Saves rebuilding the string.
  if (!MULTI_SPACE.test(text)) return text.trim();
  return text.replace(/\s+/g, ' ').trim();
}
/** Whitespace that `oneLine` would rewrite: a run of two, or any whitespace other than a space. */
const MULTI_SPACE = /\s\s|[^\S ]/;

/** Cuts `text` to at most `max` characters at a word boundary, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  // Only the first `max` characters of the one-line form are kept: for a long text, collapse a
  // prefix first (its one-line form is a prefix of the whole one's) and use it when long enough.
  // What is cut is redacted first: a secret cut in two no longer matches its pattern, and its
  // first part would survive the redaction of the candidate (user names are redacted later,
  // whole words that the cut at a space does not split).
  if (text.length > 4 * max + 64) {
    const head = oneLine(text.slice(0, 2 * max + 64));
    if (head.length > max) return cutAt(redact(head).text, max);
  }
  const t = oneLine(text);
  if (t.length <= max) return t;
  return cutAt(redact(t).text, max);
}

/**
 * An item's text cut to `max` characters at the end of its last whole sentence or list entry
 * ("…; …", "… .") that fits, so that an item never stops mid-thought; what does not fit is
 * left out. Only when no boundary leaves `keep` characters (half of `max` unless given) is it
 * cut at a word, with '…'. (A cause inside an item is cut by clipSentences, at the sentences the
 * sentence splitter finds: "Reproduced. 0042 runs …" stays one sentence there.)
 */
export function clipWhole(text: string, max: number, keep = max / 2): string {
  const t = oneLine(text);
  if (t.length <= max) return t;
  // cut after redaction, like clip: a secret is never split into a part its pattern misses
  const r = redact(t).text;
  if (r.length <= max) return r;
  let end = -1;
  // (a full stop inside a code span, `4. Push …`, ends no sentence)
  for (const m of r.slice(0, max).matchAll(/[.;!?](?= )/g)) if (outsideCode(r, m.index)) end = m.index;
  if (end >= keep) return r[end] === ';' ? `${r.slice(0, end)}.` : r.slice(0, end + 1);
  return cutAt(r, max);
}

/** A code span longer than this may be shortened to fit an item's text. */
const LONG_SPAN = 40;
/** The shortest quote whose middle fitWhole may take out. */
const CUTTABLE_SPAN = 60;

/**
 * The text within `max` characters, whole sentences kept: where it is too long and shortening its
 * longest code spans (a quoted command line or error, which the evidence keeps whole) makes all
 * of it fit, they are shortened; else sentences are dropped from the end (clipWhole). The last
 * sentence is most often what to do, worth more than a quote's tail; a quote cut for nothing is not.
 */
export function fitWhole(text: string, max: number): string {
  const whole = oneLine(text);
  if (whole.length <= max) return whole;
  // (redacted before anything is cut, as clipWhole does: a secret split in two escapes its pattern)
  let t = redact(whole).text;
  // (a shorter quote is most often a command or a name, which a cut would make wrong: it is kept)
  const spans = [...t.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((b) => b.length > CUTTABLE_SPAN).sort((a, b) => b.length - a.length);
  for (const body of spans) {
    if (t.length <= max) break;
    const short = cutMiddle(body, Math.max(LONG_SPAN, body.length - (t.length - max)));
    if (short.length < body.length) t = t.replace(`\`${body}\``, `\`${short}\``);
  }
  return t.length <= max ? t : clipWhole(whole, max);
}

/** A quote shortened to `max` characters by taking out its middle, no more than needed: its
 * head says what it is, its tail most often the particulars (a duration, a file, a status). */
function cutMiddle(t: string, max: number): string {
  if (t.length <= max) return t;
  // (the mark ` … ` takes three of the characters taken out)
  const remove = t.length - max + 3;
  // whole words out, the fewest characters past what is needed, nearest the middle: a word cut in
  // two ("reposi … in") reads as broken, and a long name (a file) is the particulars to keep
  const words = [...t.matchAll(/\S+/g)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
  let best: { from: number; to: number; cost: number } | undefined;
  for (let i = 1; i < words.length - 1; i++) {
    for (let j = i; j < words.length - 1; j++) {
      const from = words[i]!.from;
      const to = words[j + 1]!.from;
      if (to - from < remove) continue;
      const cost = (to - from - remove) * 4 + Math.abs((from + to) / 2 - t.length / 2);
      if (best === undefined || cost < best.cost) best = { from, to, cost };
      break;
    }
  }
  if (best === undefined) return t;
  // (a quote already cut in its middle keeps one mark)
  const cut = `${t.slice(0, best.from).replace(/[\s…]+$/, '')} … ${t.slice(best.to).replace(/^[\s…]+/, '')}`;
  return cut.length < t.length ? cut : t;
}

/** Whether position `at` of `text` lies outside any `code span` (an even count of backticks before it). */
function outsideCode(text: string, at: number): boolean {
  let ticks = 0;
  for (let i = text.indexOf('`'); i !== -1 && i < at; i = text.indexOf('`', i + 1)) ticks++;
  return ticks % 2 === 0;
}

/**
 * A title cut to `max` characters at the end of a clause ("No — all three overrides need to
 * stay, each for …" → "No — all three overrides need to stay"), so that it reads as a phrase;
 * only without a clause end past a third of `max` is it cut at a word, with '…'.
 */
export function clipTitle(text: string, max: number): string {
  const t = clip(text, max);
  if (!t.endsWith('…')) return t;
  const body = t.slice(0, -1);
  let end = -1;
  for (const m of body.matchAll(/\s*(?:[,;:.!?](?= )|\s[—–-]\s|\s\()/g)) end = m.index;
  return end >= max / 3 ? body.slice(0, end) : t;
}

function cutAt(t: string, max: number): string {
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:(–-]+$/, '')}…`;
}

/**
 * Prose the rules cannot read: another language in Latin letters (German, Spanish, …), or fewer
 * than 60% of its letters in the Latin script (Chinese, Cyrillic, …). Every test the rules make of
 * prose (narration, change log, offer, hedge) is English; such a line would pass them all unread
 * ("実装完了内容" is a progress report they cannot see), so the rules leave it to the model
 * extractor. Names in code spans are Latin in any language and are not counted.
 */
export function unreadableProse(text: string): boolean {
  if (otherLatinLanguage(text)) return true;
  if (!NON_ASCII.test(text)) return false; // most lines: nothing but ASCII
  let latin = 0;
  let other = 0;
  for (const ch of text.replace(/`[^`]*`/g, '')) {
    if (/\p{Script=Latin}/u.test(ch)) latin++;
    // a Chinese or Japanese character carries about a word: weigh it like one (~4 letters)
    else if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(ch)) other += 4;
    else if (/\p{L}/u.test(ch)) other++;
  }
  return latin < 0.6 * (latin + other);
}

/** Function words of the languages written in Latin script that sessions use most besides
 * English (German, Spanish, French, Portuguese, Italian); words English shares ("a", "in", "no",
 * "do", "as", "per") are left out. */
const OTHER_FUNCTION_WORDS = new Set(
  (
    'und der die das dem den des ist nicht wird werden wurde wurden mit auf für aus ich sie ein eine einen einem zu im auch wenn nur bei oder aber noch sind kein keine habe hat wie über vom zum zur beim nach als alle diese dieser dieses sich ob dass' +
    ' el los las que y es para con por una del se está están son pero como más este esta lo su al' +
    ' le les des est et pour dans une du pas avec sur ce cette sont qui il elle au aux' +
    ' os não uma são mas mais ao pelo pela da dos das' +
    ' gli della che è non sono questo questa nel nella'
  ).split(' '),
);
const ENGLISH_FUNCTION_WORDS = new Set('the and is are to of for with that this it be not on was were by from at an or if when which has have'.split(' '));

/** A line in another language written in Latin letters (German, Spanish, …): its function words
 * are not English ones. The rules' prose tests cannot read it either. */
export function otherLatinLanguage(text: string): boolean {
  let other = 0;
  let english = 0;
  for (const w of text.replace(/`[^`]*`/g, ' ').toLowerCase().split(/[^\p{L}]+/u)) {
    if (OTHER_FUNCTION_WORDS.has(w)) other++;
    else if (ENGLISH_FUNCTION_WORDS.has(w)) english++;
  }
  return other >= 2 && other > english;
}

/** The user saying the problem is still there ("still not working", "it still does it"): what
 * was tried or claimed did not fix it. */
export const STILL_BROKEN = /\b(?:still (?:not|doesn['’]?t|does(?: it| that| this)?|do(?:es)? the same|happens|happening|occurs|shows?|there|broken|fails|failing|the same|getting|an issue)|not working|doesn['’]?t work|same (?:error|problem|issue)|didn['’]?t (?:work|help|fix))\b/i;

/** The whole sentences of `text` that fit in `max` characters (a cause cut mid-sentence reads
 * as garbled); a first sentence longer than that is clipped. */
export function clipSentences(text: string, max: number): string {
  let out = '';
  for (const s of sentences(text)) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > max) break;
    out = next;
  }
  return out || clip(text, max);
}

/** Markdown emphasis, heading marks, list bullets and link targets removed; code spans kept. */
export function stripMarkdown(line: string): string {
  // Each rewrite only when its marker occurs (most lines have none): same result, fewer scans.
  // (a list nests to any depth: "        - As each chunk …" is an item of an item of an item)
  let t = line.replace(/^\s*(?:#{1,6}\s+|[-*+•]\s+|\d+[.)]\s+|>\s*)/, '');
  if (t.includes('](')) t = t.replace(/\[([^\]]+)\]\((?:[^)]+)\)/g, '$1');
  if (t.includes('**')) t = t.replace(/\*\*([^*]+)\*\*/g, '$1');
  if (t.includes('__')) t = t.replace(/__([^_]+)__/g, '$1');
  if (t.includes('*')) t = t.replace(/(^|\s)\*([^*\s][^*]*)\*(?=\s|$|[.,;:])/g, '$1$2');
  if (NON_ASCII.test(t)) t = t.replace(/[✅❌⚠️🔴🟢🟡⏸️✓✗★☐⏳📋🔍]+\uFE0F?/gu, '');
  return t.trim();
}
const NON_ASCII = /[^\x00-\x7F]/;

const STRUCTURAL = /^\s*(?:#{1,6}\s|[-*+•]\s|\d+[.)]\s|>|\||```)/;

/**
 * Markdown blocks: a paragraph's lines (hard-wrapped text, terminal copies) are joined, while
 * headings, list items and table rows stay one block each; continuation lines join their item.
 */
export function blocks(text: string): string[] {
  const out: string[] = [];
  let open = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      open = false;
      continue;
    }
    const structural = STRUCTURAL.test(line);
    if (open && !structural && out.length > 0) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    open = !/^\s*(?:#{1,6}\s|\||```)/.test(line);
  }
  return out;
}

/** Splits prose into sentences (also between blocks); code fences are dropped. */
export function sentences(text: string): string[] {
  return sentenceCache.get(text, sentencesOf);
}
/** Several rules cut the same message into sentences; the cut is pure, so it is kept per text. */
const sentenceCache = new TextCache<string[]>(5000);

function sentencesOf(text: string): string[] {
  const withoutFences = text.replace(/```[\s\S]*?(?:```|$)/g, '\n\n');
  const out: string[] = [];
  for (const rawLine of blocks(withoutFences)) {
    const line = stripMarkdown(rawLine);
    if (!line) continue;
    for (const s of line.split(/(?<=[.!?]["')\]]*)\s+(?=[A-Z`"'(\[])/)) {
      const t = s.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

const PATH_LIKE = /(?:^|[\s`'"(=])(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@.{}*-]+|\b[\w-]+\.(?:[a-z]{1,5})\b/i;
const CODE_SPAN = /`[^`\n]{2,}`/;
const CONSTANT = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
const CAMEL = /\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b/;
const FLAG = /(?:^|[\s(])--?[a-z][\w-]*/;

/** How many kinds of concrete identifier a text names (code spans, paths, CONSTANTS, camelCase, flags). */
/** Whether a text names something to run or look at: a code span, a path, a constant or a flag
 * (a CamelCase word alone is as often a product's or a person's name). */
export function namesRunnable(text: string): boolean {
  return CODE_SPAN.test(text) || PATH_LIKE.test(text) || CONSTANT.test(text) || FLAG.test(text);
}

export function concreteness(text: string): number {
  let n = 0;
  if (CODE_SPAN.test(text)) n++;
  if (PATH_LIKE.test(text)) n++;
  if (CONSTANT.test(text)) n++;
  if (CAMEL.test(text)) n++;
  if (FLAG.test(text)) n++;
  return n;
}

/** Home directories of real users become `~`; the session's working directory is dropped. */
export function depersonalize(text: string, cwd?: string): string {
  let t = text;
  // (a Windows folder ends in `\` as often as `/`; a root, `/` or a drive's `D:\`, names no
  // project and is kept, as a quote has it)
  const base = cwd?.replace(/[\\/]+$/, '') ?? '';
  if (base !== '' && !/^[A-Za-z]:$/.test(base) && t.includes(base)) {
    t = t.split(`${base}/`).join('');
    if (base.includes('\\')) t = t.split(`${base}\\`).join('');
    t = t.split(base).join('.');
  }
  // Each rewrite only when its marker occurs (most texts have none): same result.
  // (with the drive a Windows path written with slashes has: `C:/Users/x/app`, Git Bash's
  // `/c/Users/x/app` and WSL's `/mnt/c/Users/x/app` are all `~/app`)
  if (t.includes('/home/') || t.includes('/Users/')) t = t.replace(/(?:\b[A-Za-z]:|(?<![\w.~-])(?:\/mnt)?\/[A-Za-z](?=\/Users\/))?\/(?:home|Users)\/(?!USER\b)[^/\s`'")]+/g, '~');
  if (t.includes('/home/USER')) t = t.replace(/\/home\/USER\b/g, '~');
  if (t.includes('@')) t = t.replace(/\b[\w.-]+@[\w.-]+ [^\n%$#]*[%$#] ?/g, '');
  return t;
}

/** Literal `\\n` escapes (an output printed as a JSON string) as the line breaks they stand for. */
export function literalNewlines(text: string): string {
  return text.includes('\\n') ? text.replace(/\\n/g, '\n') : text;
}

/** Section markers such as `[FORMAT]` or `[CREDO]` that a hook or checker prints, each once. */
export function hookSections(output: string): string[] {
  if (!output.includes('[')) return []; // every marker has one
  return [...new Set([...literalNewlines(output).matchAll(/^\s*\[([A-Z][A-Z_-]{2,})\]/gm)].map((m) => m[1]!))];
}

/** Normalised error line for counting recurrences: paths, hex ids, numbers and quotes stripped. */
export function errorSignature(line: string): string {
  // Rules sign each failure's error line and each draft's; a session repeats its errors.
  return signatureCache.get(line, signatureOf);
}
const signatureCache = new TextCache<string>(5000);

function signatureOf(line: string): string {
  return oneLine(
    line
      .toLowerCase()
      .replace(/(?:~|\.{0,2})?\/?(?:[\w@.#-]+\/)+[\w@.#-]*/g, '<path>')
      .replace(/\b[0-9a-f]{7,}\b/g, '<id>')
      .replace(/\d+(?:\.\d+)*/g, '<n>')
      .replace(/(['"`])[^'"`]{0,80}\1/g, '<s>'),
  ).slice(0, 160);
}

/** File extensions named in a text, for tags ("ts", "ex", "md"). */
export function extensionsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b[\w-]+\.([a-z]{1,4})\b/g)) {
    const ext = m[1]!;
    if (!COMMON_WORD_EXT.has(ext)) out.add(ext);
  }
  return [...out].sort();
}
const COMMON_WORD_EXT = new Set(['e', 'g', 'i', 'x', 'com', 'org', 'io', 'net', 'dev', 'ai', 'so', 'it', 'co', 'app']);

/** Lowercase word set for overlap tests. */
export function words(text: string): Set<string> {
  // The runs of [a-z0-9_.\-/] longer than two characters, as splitting on the other characters
  // would give them, in one pass without the intermediate array.
  const lower = text.toLowerCase();
  const out = new Set<string>();
  let start = 0;
  for (let i = 0; i <= lower.length; i++) {
    if (i < lower.length && isWordChar(lower.charCodeAt(i))) continue;
    if (i - start > 2) out.add(lower.slice(start, i));
    start = i + 1;
  }
  return out;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 45 && c <= 57) || c === 95; // a-z, '-' '.' '/' 0-9, '_'
}

/** Share of the smaller set that the larger one also holds (0..1). */
export function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const w of small) if (large.has(w)) n++;
  return n / small.size;
}

/** Ensures a sentence ends with terminal punctuation. */
export function sentence(text: string): string {
  const t = oneLine(text).replace(/[\s:;,]+$/, '');
  if (!t) return t;
  return /[.!?…)`"']$/.test(t) ? t : `${t}.`;
}

/** Wraps a command or identifier in a code span unless it already is one. */
export function code(text: string): string {
  const t = oneLine(text);
  if (!t.includes('`')) return `\`${t}\``;
  // a quoted message keeps its backticks ("No filename provided before ``` in file listing"):
  // the span is delimited by a run of backticks that occurs nowhere in it (CommonMark), padded
  // with a space where the text starts or ends with one
  const runs = new Set((t.match(/`+/g) ?? []).map((r) => r.length));
  let n = 1;
  while (runs.has(n)) n++;
  const fence = '`'.repeat(n);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Words that mark a statement as first-person narration of the agent's own steps. */
export const NARRATION = /^(?:let me|let's|i'll|i will|i'm going to|i am going to|i need to|i should|we need to|we'll|we will|we should|we must now|now (?:i|let)|next,? i|first,? (?:i|let)|great|perfect|excellent|good|ok(?:ay)?|done|all done|now)\b/i;
