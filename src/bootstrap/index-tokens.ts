/**
 * Token counts carried by knowledge/index.json, so that a session start never loads a tokenizer
 * vocabulary (a few hundred ms): per active entry `"tokens": [line, hookLine, firstId, laterId]`
 * for the default encoding and the BM25 length (`[…, length]`, doc-terms.ts), and in the index's
 * head the encoding, a signature of the renderer and the analyzer, and the counts of the frames'
 * fixed chunks. Counts are a function of the entry, so the index
 * stays a function of the item files; a writer takes them over from the index it replaces for
 * entries whose rendering did not change and counts only the others.
 *
 * A reader trusts the counts only when the head's encoding and renderer signature are its own: a
 * compound whose renderer changed counts for itself until harvest or reindex rewrites the index.
 * `compound check` compares the index with the item files leaving the counts out (they are the
 * writer's, derived from the entries like a cache).
 */
import { CATEGORIES } from '../knowledge/item.js';
import { parseIndex, type IndexEntry, type IndexTokens } from '../knowledge/index-file.js';
import { weightedLength, weightedTerms } from './doc-terms.js';
import { frameFor, jsonEscape, type Frame, type RenderItem } from './render.js';
import { DEFAULT_ENCODING, loadCounterSync, type EncodingName, type TokenCounter } from './tokens.js';

/** [markdown line, Claude Code hook line, id as first in the marker, id as a later one, BM25 length]. */
export type EntryTokens = [line: number, hookLine: number, firstId: number, laterId: number, length: number];
export const ENTRY_COUNTS = 5;

/** A markdown item line with nothing JSON would escape before its final `x)_` newline. */
const ESCAPE_FREE_LINE = /^[^"\\\u0000-\u001f\ud800-\udfff]*x\)_\n$/;

const md = frameFor('markdown', { repo: null, agent: null, budget: 0 });
const cc = frameFor('claude-code', { repo: null, agent: null, budget: 0 });

/** The fixed chunks of the two formats whose counts are carried (markdown and codex share one). */
export function frameChunks(): string[] {
  const out: string[] = [];
  for (const frame of [md, cc]) out.push(...[frame.head, frame.noIds, frame.tail, frame.header, frame.close, ...CATEGORIES.map((c) => frame.heading(c))].filter((c) => c !== ''));
  return [...new Set(out)];
}

const PROBES: RenderItem[] = [
  { id: 'aaaaaaaaaa', category: 'pitfall', scope: 'global', repo: null, agent: null, confidence: 0.855, evidence: 3.4, last_seen: '2026-01-01T00:00:00Z', title: 'Probe title', text: 'Probe title: `npm test` says "x"\\n <!-- y --> **z**', tags: ['a'] },
  { id: 'bbbbbbbbbb', category: 'fact', scope: 'repo', repo: 'r', agent: null, confidence: 1, evidence: 1, last_seen: '2026-01-01T00:00:00Z', title: '', text: 'Plain text.\n\nSecond line\twith tab: parseIndex in src/cli/main.ts --no-verify, entries and tests, café HTTPServer', tags: ['node_modules'] },
];

let signature: string | undefined;

/** Two 32-bit FNV-1a hashes (different seeds) of a string's UTF-16 units, as 16 hex digits: a
 * fingerprint, not a secret (node:crypto would cost a session start more to load). */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

/** Changes whenever the chunks or item lines of the precomputed formats render differently, or
 * the analyzer reads the probes differently. */
export function renderSignature(): string {
  if (signature === undefined) {
    const parts = [
      ...frameChunks(),
      ...[md, cc].flatMap((f: Frame) => PROBES.flatMap((p) => [f.line(p, true), f.line(p, false), f.id(p.id, true), f.id(p.id, false)])),
      ...PROBES.flatMap((p) => [...weightedTerms(p)].map(([t, n]) => `${t}=${n}`)),
    ];
    signature = fingerprint(JSON.stringify(parts));
  }
  return signature;
}

/** Whether the counts were made by this build's renderer and analyzer (whatever the encoding:
 * the BM25 lengths do not depend on it). */
export function sameRenderer(tokens: IndexTokens | undefined): boolean {
  return tokens !== undefined && tokens.render === renderSignature();
}

/** What the index head says of its counts, when they were counted the way this build counts. */
export function usableTokens(tokens: IndexTokens | undefined, encoding: EncodingName = DEFAULT_ENCODING): IndexTokens | undefined {
  return tokens && tokens.encoding === encoding && tokens.render === renderSignature() ? tokens : undefined;
}

/** The renderable item of an index entry's fields (the ones its line is made of). */
function renderable(e: IndexEntry): RenderItem {
  return { id: e.id, category: e.category as RenderItem['category'], scope: e.scope as RenderItem['scope'], repo: e.repo, agent: e.agent, confidence: e.confidence, evidence: e.evidence, last_seen: e.last_seen, title: e.title, text: e.text, tags: e.tags };
}

/** Counts one item. */
export function countEntry(item: RenderItem, counter: TokenCounter): EntryTokens {
  const line = md.line(item, false);
  const lineTokens = counter.count(line);
  // an escape-free line differs from its JSON-escaped form only in the final newline, and the
  // piece before `)_` ends with the `x` of `seen 3x` in both: swap the last piece's count
  const hook = ESCAPE_FREE_LINE.test(line) ? lineTokens - counter.count(')_\n') + counter.count(')_\\n') : counter.count(jsonEscape(line));
  return [lineTokens, hook, counter.count(md.id(item.id, true)), counter.count(md.id(item.id, false)), weightedLength(item)];
}

/** The fields an entry's counts depend on: equal keys, equal counts. */
function countKey(e: IndexEntry): string {
  return JSON.stringify([e.id, e.title, e.text, e.confidence, e.evidence, e.tags]);
}

/** An entry's `tokens` as written here (each fits the structure's u32 columns). */
export function isCounts(v: unknown): v is EntryTokens {
  return Array.isArray(v) && v.length === ENTRY_COUNTS && v.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff);
}

/** The Claude Code hook line's length in characters (its output has a character cap). */
export function hookLineChars(item: RenderItem): number {
  return jsonEscape(md.line(item, false)).length;
}

/**
 * Counts for the entries of a new index: taken over from `previous` (the entries of the index
 * being replaced, when its counts are usable) where the entry renders the same, else counted.
 * The tokenizer is loaded only when something is left to count.
 */
export class EntryCounter {
  private readonly known = new Map<string, EntryTokens>();
  private readonly knownChunks: Record<string, number> = {};
  private counter: TokenCounter | undefined;
  /** How many entries had to be counted (the rest were taken over). */
  counted = 0;

  constructor(previous?: { tokens?: IndexTokens; items: readonly IndexEntry[] }) {
    const usable = usableTokens(previous?.tokens);
    if (previous && usable) {
      Object.assign(this.knownChunks, usable.chunks);
      for (const e of previous.items) if (isCounts(e.tokens)) this.known.set(countKey(e), e.tokens);
    }
  }

  private tokenizer(): TokenCounter {
    return (this.counter ??= loadCounterSync(DEFAULT_ENCODING));
  }

  head(): IndexTokens {
    const chunks: Record<string, number> = {};
    for (const chunk of frameChunks()) chunks[chunk] = this.knownChunks[chunk] ?? this.tokenizer().count(chunk);
    return { encoding: DEFAULT_ENCODING, render: renderSignature(), chunks };
  }

  count(e: IndexEntry): EntryTokens {
    const key = countKey(e);
    let counts = this.known.get(key);
    if (!counts) {
      counts = countEntry(renderable(e), this.tokenizer());
      this.known.set(key, counts);
      this.counted++;
    }
    return counts;
  }
}

/** An EntryCounter that takes over the counts of the index text being replaced, if any. */
export function entryCounterFor(previousText: string | undefined): EntryCounter {
  if (previousText === undefined) return new EntryCounter();
  try {
    return new EntryCounter(parseIndex(previousText));
  } catch {
    return new EntryCounter();
  }
}

/** The head of an index text as renderIndex writes it (its first line), or undefined. */
export function indexHead(text: string): { version?: number; tokens?: IndexTokens } | undefined {
  const end = text.indexOf('\n');
  const line = end < 0 ? text : text.slice(0, end);
  if (!line.startsWith('{') || !line.endsWith(',')) return undefined;
  try {
    return JSON.parse(`${line.slice(0, -1)}}`) as { version?: number; tokens?: IndexTokens };
  } catch {
    return undefined;
  }
}

/** Whether an index text carries counts this build can use (reads its first line only). */
export function hasUsableCounts(text: string): boolean {
  return usableTokens(indexHead(text)?.tokens) !== undefined;
}
