/**
 * `compound repos rename <from> <to>`: a store split by an older repo rule (a folder per worktree,
 * the user's name as a repo) joined under the right name. Each repo item of `from` moves to `to`
 * (same id: ids are fixed at creation), or, when `to` already holds the same knowledge (same
 * category, and the same id, nearly the same words or nearly the same title), is merged into
 * that item: evidence added up, sources and tags joined, the wider date range, the higher
 * confidence, the target's body kept (a reviewer may have edited it). Pure: items in, a plan's
 * parts out.
 */
import { capSources, type Item, type StoredItem } from '../knowledge/item.js';
import { NEAR_DUPLICATE, SAME_TITLE, jaccard, tokens } from './similarity.js';

export interface RenamePlan {
  /** Items to write (moved, and merge targets changed). */
  desired: Item[];
  /** Ids of the items merged into another (their files are removed). */
  remove: string[];
  reasons: Map<string, string>;
  moved: number;
  merged: number;
}

function bodyText(item: StoredItem): Set<string> {
  return tokens(`${item.title} ${item.text}`);
}

function mergeInto(target: Item, other: StoredItem): Item {
  const m = target.meta;
  const sources = [...m.sources, ...other.meta.sources.filter((s) => !m.sources.some((t) => t.session === s.session && t.event === s.event))];
  return {
    meta: {
      ...m,
      confidence: Math.max(m.confidence, other.meta.confidence),
      evidence: m.evidence + other.meta.evidence,
      first_seen: m.first_seen <= other.meta.first_seen ? m.first_seen : other.meta.first_seen,
      last_seen: m.last_seen >= other.meta.last_seen ? m.last_seen : other.meta.last_seen,
      tags: [...new Set([...m.tags, ...other.meta.tags])].sort().slice(0, 8),
      sources: capSources(sources),
    },
    body: target.body,
  };
}

export function planRename(items: readonly StoredItem[], from: string, to: string): RenamePlan {
  const out: RenamePlan = { desired: [], remove: [], reasons: new Map(), moved: 0, merged: 0 };
  const targets = new Map<string, { item: Item; stored: StoredItem }>();
  for (const i of items) if (i.meta.scope === 'repo' && i.meta.repo === to) targets.set(i.meta.id, { item: { meta: i.meta, body: i.body }, stored: i });
  const moving = items.filter((i) => i.meta.scope === 'repo' && i.meta.repo === from).sort((a, b) => (a.meta.id < b.meta.id ? -1 : 1));
  for (const item of moving) {
    const words = bodyText(item);
    const title = tokens(item.title);
    let twin: { item: Item; stored: StoredItem } | undefined;
    for (const t of targets.values()) {
      if (t.stored.meta.category !== item.meta.category) continue;
      if (t.stored.meta.id === item.meta.id || jaccard(words, bodyText(t.stored)) >= NEAR_DUPLICATE || (title.size >= 3 && jaccard(title, tokens(t.stored.title)) >= SAME_TITLE)) {
        twin = t;
        break;
      }
    }
    if (twin) {
      twin.item = mergeInto(twin.item, item);
      out.remove.push(item.meta.id);
      out.reasons.set(item.meta.id, `merged into ${twin.stored.meta.id} (repo ${to})`);
      out.reasons.set(twin.stored.meta.id, `merged with ${item.meta.id} from repo ${from}`);
      out.merged++;
    } else {
      out.desired.push({ meta: { ...item.meta, repo: to }, body: item.body });
      out.reasons.set(item.meta.id, `moved from repo ${from}`);
      out.moved++;
    }
  }
  for (const t of targets.values()) if (t.item !== t.stored && t.item.meta !== t.stored.meta) out.desired.push(t.item);
  return out;
}
