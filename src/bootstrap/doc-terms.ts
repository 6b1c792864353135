/**
 * What BM25 reads of an item: its terms (terms.ts) over title and tags (weight 2) and text
 * (weight 1). The search structure keeps every item's terms; a session start without it needs
 * only each candidate's length (carried by index.json) and how often the task's few terms occur,
 * which termFrequencies finds by searching for them instead of analysing the whole item.
 */
import type { RenderItem } from './render.js';
import { terms } from './terms.js';

/** Title and tag words count double: they say what the item is about. */
export const TITLE_WEIGHT = 2;
export const TAG_WEIGHT = 2;

function fields(it: RenderItem): [text: string, weight: number][] {
  return [
    [it.title, TITLE_WEIGHT],
    [it.text, 1],
    [it.tags.join(' '), TAG_WEIGHT],
  ];
}

/** An item's terms with their weighted frequencies. */
export function weightedTerms(it: RenderItem): Map<string, number> {
  const counted = new Map<string, number>();
  for (const [text, weight] of fields(it)) for (const t of terms(text)) counted.set(t, (counted.get(t) ?? 0) + weight);
  return counted;
}

/** BM25's length of an item: its weighted number of terms (the sum of weightedTerms). */
export function weightedLength(it: RenderItem): number {
  let len = 0;
  for (const [text, weight] of fields(it)) len += terms(text).length * weight;
  return len;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A character a raw token may hold (terms.ts RAW_TOKEN, for ASCII text). */
function tokenChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 47 || c === 92 || c === 58 || c === 64 || c === 43 || c === 35 || c === 45;
}

/**
 * How often `term` is a term of an ASCII text, without analysing all of it. Every term of a raw
 * token is a lowercased piece of it (a plural folded to `y` keeps the rest: `entries` → `entry`),
 * so each occurrence lies in a run of token characters that contains the term without a final
 * `y`; tokens never cross such a run, so analysing just those runs counts exactly.
 */
function countInAscii(text: string, lower: string, term: string): number {
  const needle = term.length > 1 && term.endsWith('y') ? term.slice(0, -1) : term;
  let count = 0;
  let done = -1; // end of the last run analysed
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    if (at < done) continue;
    let from = at;
    while (from > 0 && tokenChar(text.charCodeAt(from - 1))) from--;
    let to = at + needle.length;
    while (to < text.length && tokenChar(text.charCodeAt(to))) to++;
    for (const t of terms(text.slice(from, to))) if (t === term) count++;
    done = to;
  }
  return count;
}

/** The weighted frequency of each task term in an item: what weightedTerms gives, found faster. */
export function termFrequencies(it: RenderItem, taskTerms: readonly string[]): number[] {
  const tf = taskTerms.map(() => 0);
  for (const [text, weight] of fields(it)) {
    if (text === '') continue;
    if (NON_ASCII.test(text)) {
      // Unicode case mapping is not one character for one: analyse this field whole
      const all = terms(text);
      taskTerms.forEach((term, i) => {
        for (const t of all) if (t === term) tf[i]! += weight;
      });
      continue;
    }
    const lower = text.toLowerCase();
    taskTerms.forEach((term, i) => {
      tf[i]! += weight * countInAscii(text, lower, term);
    });
  }
  return tf;
}
