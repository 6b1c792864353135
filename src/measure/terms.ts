/**
 * Key terms of an item: what an agent would type or write if it acted on the item. Backticked
 * code, commands, paths, file names, identifiers, flags, script names and quoted error strings
 * from the title and the knowledge text, lowercased. A given item counts as used when one of
 * them appears in the session's later tool calls or assistant text.
 */
import { createHash } from 'node:crypto';

const MIN_TERM = 4;
const MAX_TERMS = 24;
const MAX_SPAN = 120;

/** Frequent words that look like identifiers or file names but say nothing about the item. */
const STOP = new Set([
  'e.g.', 'i.e.', 'etc.', 'n/a', 'and/or', 'true', 'false', 'null', 'undefined', 'none', 'this', 'that', 'with', 'from',
  'then', 'when', 'node', 'file', 'files', 'path', 'error', 'errors', 'fails', 'failed', 'run', 'cause:', 'fix:',
]);

const PATH_RE = /(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)+[\w@.+-]+/g;
const FILE_RE = /\b[\w-]+\.[a-z][a-z0-9]{0,4}\b/g;
const CAMEL_RE = /\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g;
const SNAKE_RE = /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/g;
const FLAG_RE = /(?<![\w-])--?[a-z][\w-]{2,}/g;
const SCRIPT_RE = /\b[a-z][\w-]*:[a-z][\w:-]*\b/g;
const QUOTED_RE = /"([^"\n]{6,120})"/g;
const NOT_FILE_EXT = new Set(['e', 'g', 'i', 'x', 'com', 'org', 'net', 'io', 'dev', 'so', 'it']);

function add(out: Set<string>, term: string): void {
  const t = term.trim().replace(/[.,;:]+$/, '').toLowerCase();
  if (t.length < MIN_TERM || STOP.has(t) || /^[\d.\s<>-]+$/.test(t) || /^https?:?$/.test(t)) return;
  out.add(t);
}

function identifiersIn(text: string, out: Set<string>): void {
  for (const m of text.matchAll(PATH_RE)) add(out, m[0]);
  for (const m of text.matchAll(FILE_RE)) {
    const ext = m[0].slice(m[0].lastIndexOf('.') + 1);
    if (!NOT_FILE_EXT.has(ext)) add(out, m[0]);
  }
  for (const re of [CAMEL_RE, SNAKE_RE, FLAG_RE, SCRIPT_RE]) for (const m of text.matchAll(re)) add(out, m[0]);
}

/** Sorted, de-duplicated key terms of an item (at most MAX_TERMS, longest kept first). */
export function keyTerms(title: string, text: string): string[] {
  const out = new Set<string>();
  for (const source of [title, text]) {
    for (const m of source.matchAll(/`([^`\n]+)`/g)) {
      const span = m[1]!;
      if (span.length <= MAX_SPAN) add(out, span);
      identifiersIn(span, out);
    }
    const plain = source.replace(/`[^`\n]*`/g, ' ');
    identifiersIn(plain, out);
    for (const m of plain.matchAll(QUOTED_RE)) add(out, m[1]!);
  }
  const terms = [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_TERMS);
  return terms.sort();
}

/** What the "used" verdict depended on: a changed item re-measures the sessions given it. */
export function termsFingerprint(terms: readonly string[]): string {
  return createHash('sha256').update(terms.join('\n')).digest('hex').slice(0, 12);
}
