/**
 * The known items a request lists, so the model can reinforce one (`same_as`) or correct it
 * (`contradicts`) instead of writing a paraphrase: the active items this session may see
 * (global, its repo's, its agent's), ranked lexically against the part of the session the
 * request holds (the bootstrap's terms, weighted by how rare each is among the items), a few.
 */
import { terms } from '../../bootstrap/terms.js';
import type { StoredItem } from '../../knowledge/item.js';

export const KNOWN_PER_REQUEST = 12;

export interface KnownItem {
  id: string;
  category: StoredItem['meta']['category'];
  scope: StoredItem['meta']['scope'];
  repo?: string;
  agent?: string;
  title: string;
  terms: Set<string>;
}

export class KnownItems {
  private readonly items: KnownItem[];
  private readonly docFreq = new Map<string, number>();
  readonly byId = new Map<string, KnownItem>();

  constructor(store: readonly StoredItem[]) {
    this.items = store
      .filter((i) => i.meta.status === 'active')
      .map((i) => ({
        id: i.meta.id,
        category: i.meta.category,
        scope: i.meta.scope,
        ...(i.meta.repo !== undefined ? { repo: i.meta.repo } : {}),
        ...(i.meta.agent !== undefined ? { agent: i.meta.agent } : {}),
        title: i.title.replace(/\s+/g, ' ').trim(),
        terms: new Set(terms(`${i.title} ${i.text}`)),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const item of this.items) {
      this.byId.set(item.id, item);
      for (const t of item.terms) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** The best `limit` items for a session part (ties by id: the same inputs, the same list). */
  relevant(text: string, repo: string | undefined, agent: string, limit = KNOWN_PER_REQUEST): KnownItem[] {
    if (this.items.length === 0) return [];
    const query = new Set(terms(text));
    const n = this.items.length;
    const scored: { item: KnownItem; score: number }[] = [];
    for (const item of this.items) {
      if (item.scope === 'repo' && item.repo !== repo) continue;
      if (item.scope === 'agent' && item.agent !== agent) continue;
      let score = 0;
      for (const t of item.terms) if (query.has(t)) score += Math.log(1 + n / (this.docFreq.get(t) ?? 1));
      if (score > 0) scored.push({ item, score: score / Math.sqrt(item.terms.size) });
    }
    scored.sort((a, b) => b.score - a.score || (a.item.id < b.item.id ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.item);
  }
}
