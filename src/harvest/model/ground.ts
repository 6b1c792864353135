/**
 * Grounding: an item is kept only when one of its quotes occurs in the event it cites or within
 * three shown events of it (models often cite a neighbour), compared after folding case, white
 * space and typographic quotes. A quote that is nowhere means the model made it up. The kept
 * item cites the event that holds the quote, and its transcript line.
 */
import type { Quote } from './answer.js';
import type { ViewEvent } from './view.js';

/** Shown events on either side of the cited one that may hold the quote. */
export const NEIGHBOURS = 3;
/** A shorter quote would occur almost anywhere. */
const MIN_QUOTE = 8;

export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032`]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Grounded {
  /** The shown event that holds the first quote found. */
  event: ViewEvent;
  /** The quotes found, as the model wrote them. */
  quotes: string[];
}

/** Looks up shown events by index, folded once. */
export class GroundingIndex {
  private readonly position = new Map<number, number>();
  private readonly folded: string[];

  constructor(private readonly events: readonly ViewEvent[]) {
    events.forEach((e, i) => this.position.set(e.index, i));
    // the [E<n>] label is not part of the event's text a quote may hold
    this.folded = events.map((e) => fold(e.text.replace(/^\[E\d+\] [^:]*: /, '')));
  }

  /** Where the event `index` is shown, or the nearest shown event after it. */
  private positionOf(index: number): number | undefined {
    const exact = this.position.get(index);
    if (exact !== undefined) return exact;
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid]!.index < index) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.events.length ? lo : undefined;
  }

  /** The grounded form of `evidence`, or undefined when no quote occurs near its event. */
  ground(evidence: readonly Quote[]): Grounded | undefined {
    let first: ViewEvent | undefined;
    const quotes: string[] = [];
    for (const q of evidence) {
      const needle = fold(q.quote).replace(/^\.\.\.|\.\.\.$/g, '').trim();
      if (needle.length < MIN_QUOTE) continue;
      const at = this.positionOf(q.event);
      if (at === undefined) continue;
      // the cited event first, then outwards
      for (let d = 0; d <= NEIGHBOURS; d++) {
        const hit = [at - d, ...(d > 0 ? [at + d] : [])].find((p) => p >= 0 && p < this.folded.length && this.folded[p]!.includes(needle));
        if (hit !== undefined) {
          first ??= this.events[hit];
          quotes.push(q.quote.replace(/\s+/g, ' ').trim());
          break;
        }
      }
    }
    return first ? { event: first, quotes } : undefined;
  }
}
