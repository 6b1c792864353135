/**
 * Budget packing. Items are considered best first; an item is taken whole when it, its id in
 * the marker and (for the first of its category) its heading still fit, otherwise skipped, and
 * smaller items further down may still fit. The frame (markers, header, JSON wrapping) is
 * charged before any item, so the total can never exceed the budget. Near-duplicates of an
 * item already taken are skipped.
 */
import type { Category } from '../knowledge/item.js';
import type { Ranked } from './rank.js';
import type { Frame, RenderItem } from './render.js';
import { jaccard, termSet } from './terms.js';

/** Two items whose term sets overlap this much say the same thing. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

/** What adding one item costs: its line plus its id in the marker, as first item or later. */
export interface ItemCost {
  tokensFirst: number;
  tokensRest: number;
  charsFirst: number;
  charsRest: number;
}

export interface PackInput {
  frame: Frame;
  budget: number;
  ranked: readonly Ranked[];
  category(at: number): Category;
  cost(at: number): ItemCost;
  item(at: number): RenderItem;
  /** Token count of one of the frame's fixed chunks. */
  chunkTokens(chunk: string): number;
  /** Keep a decision for every candidate (for --explain), not only for those taken. */
  recordAll?: boolean;
  /** A lower bound on what any item adds: once less than this is left, nothing else fits. */
  minItemTokens?: number;
}

export type DecisionStatus = 'taken' | 'no room' | 'near-duplicate' | 'over char cap';

export interface Decision {
  ranked: Ranked;
  /** Tokens the item would add (line, id, heading, header when first). */
  tokens: number;
  status: DecisionStatus;
  duplicateOf?: string;
}

export interface Packed {
  /** False when not even the empty frame fits: nothing is printed. */
  fits: boolean;
  /** Items taken, in rank order. */
  taken: RenderItem[];
  /** What became of each candidate: all of them with recordAll, else those read (taken, duplicates). */
  decisions: Decision[];
  /** Exact token count of the output (the chunk counts add up, see render.ts). */
  tokens: number;
  chars: number;
  frameTokens: number;
}

export function pack(input: PackInput): Packed {
  const { frame, budget } = input;
  const t = (chunk: string) => (chunk === '' ? 0 : input.chunkTokens(chunk));
  const noIds = t(frame.noIds);
  const header = t(frame.header);
  const frameTokens = t(frame.head) + noIds + t(frame.tail) + t(frame.close);
  const frameChars = frame.head.length + frame.noIds.length + frame.tail.length + frame.close.length;
  const cap = frame.charCap ?? Infinity;
  if (frameTokens > budget || frameChars > cap) return { fits: false, taken: [], decisions: [], tokens: 0, chars: 0, frameTokens };

  let tokens = frameTokens;
  let chars = frameChars;
  const taken: RenderItem[] = [];
  const takenTerms: { id: string; terms: Set<string> }[] = [];
  const headings = new Set<Category>();
  const decisions: Decision[] = [];
  const floor = input.minItemTokens ?? 0;
  for (const r of input.ranked) {
    if (floor > 0 && taken.length > 0 && tokens + floor > budget && !input.recordAll) break;
    const c = input.cost(r.at);
    const first = taken.length === 0;
    const category = input.category(r.at);
    const heading = frame.grouped && !headings.has(category) ? frame.heading(category) : '';
    const deltaTokens = (first ? c.tokensFirst - noIds + header : c.tokensRest) + t(heading);
    const deltaChars = (first ? c.charsFirst - frame.noIds.length + frame.header.length : c.charsRest) + heading.length;
    if (tokens + deltaTokens > budget) {
      if (input.recordAll) decisions.push({ ranked: r, tokens: deltaTokens, status: 'no room' });
      continue;
    }
    if (chars + deltaChars > cap) {
      if (input.recordAll) decisions.push({ ranked: r, tokens: deltaTokens, status: 'over char cap' });
      continue;
    }
    const item = input.item(r.at);
    const terms = termSet(`${item.title} ${item.text}`);
    const twin = takenTerms.find((x) => jaccard(x.terms, terms) >= NEAR_DUPLICATE_JACCARD);
    if (twin) {
      decisions.push({ ranked: r, tokens: deltaTokens, status: 'near-duplicate', duplicateOf: twin.id });
      continue;
    }
    taken.push(item);
    takenTerms.push({ id: item.id, terms });
    headings.add(category);
    tokens += deltaTokens;
    chars += deltaChars;
    decisions.push({ ranked: r, tokens: deltaTokens, status: 'taken' });
  }
  return { fits: true, taken, decisions, tokens, chars, frameTokens };
}
