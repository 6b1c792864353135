/**
 * Plan first, then apply (the changesets habit): a Plan lists every file change; `--dry-run`
 * prints it; `applyPlan` writes it atomically under the lock and regenerates the index.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Category, Item, Scope, StoredItem } from './item.js';
import { sameItem, serializeItem } from './codec.js';
import { itemPath, INDEX_FILE, LEDGER_FILE, LOCK_FILE, KNOWLEDGE_DIR, isInsideKnowledge } from './paths.js';
import { titleFromText, splitBody } from './body.js';
import { buildIndex, renderIndex } from './index-file.js';
import { renderLedger, type Ledger } from './ledger.js';
import { abs, removeFileAndEmptyDirs, writeFileAtomic } from './fsutil.js';
import { acquireLock } from './lock.js';
import { loadStore } from './store.js';
import { RuntimeError } from '../core/errors.js';

export type PlanAction = 'add' | 'update' | 'remove' | 'unchanged';

export interface PlanEntry {
  action: PlanAction;
  path: string;
  id: string;
  category: Category;
  scope: Scope;
  title: string;
  /** The new content for add/update. */
  content?: string;
  /** Why (e.g. "reinforced by 2 sessions", "rejected by reviewer"): for the plan and PR body. */
  reason?: string;
}

export interface Plan {
  entries: PlanEntry[];
  /** The ledger to write, when the plan changes it. */
  ledger?: Ledger;
}

export interface PlanCounts {
  add: number;
  update: number;
  remove: number;
  unchanged: number;
}

export function countPlan(plan: Plan): PlanCounts {
  const c: PlanCounts = { add: 0, update: 0, remove: 0, unchanged: 0 };
  for (const e of plan.entries) c[e.action]++;
  return c;
}

export function planChanges(plan: Plan): PlanEntry[] {
  return plan.entries.filter((e) => e.action !== 'unchanged');
}

function titleOf(item: Item): string {
  return item.meta.title ?? titleFromText(splitBody(item.body).text);
}

/**
 * Compares desired items with the store. Existing items keep their path (stable for review);
 * new ones get one from scope, category and title. `remove` lists ids to delete.
 */
export function makePlan(current: readonly StoredItem[], desired: readonly Item[], remove: readonly string[] = [], reasons: ReadonlyMap<string, string> = new Map()): Plan {
  const byId = new Map(current.map((i) => [i.meta.id, i]));
  const entries: PlanEntry[] = [];
  const touched = new Set<string>();
  for (const item of desired) {
    const id = item.meta.id;
    if (touched.has(id)) continue;
    touched.add(id);
    const existing = byId.get(id);
    const title = titleOf(item);
    const base = { id, category: item.meta.category, scope: item.meta.scope, title, ...(reasons.has(id) ? { reason: reasons.get(id)! } : {}) };
    if (!existing) {
      entries.push({ ...base, action: 'add', path: itemPath(item.meta, title), content: serializeItem(item) });
    } else if (sameItem(existing, item)) {
      entries.push({ ...base, action: 'unchanged', path: existing.path });
    } else {
      entries.push({ ...base, action: 'update', path: existing.path, content: serializeItem(item) });
    }
  }
  for (const id of remove) {
    const existing = byId.get(id);
    if (!existing || touched.has(id)) continue;
    touched.add(id);
    entries.push({ action: 'remove', path: existing.path, id, category: existing.meta.category, scope: existing.meta.scope, title: existing.title, ...(reasons.has(id) ? { reason: reasons.get(id)! } : {}) });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries };
}

export interface ApplyResult {
  /** Relative paths written or removed, index and ledger included: what a commit stages. */
  changed: string[];
  removed: string[];
}

/**
 * Applies a plan under the writer lock: item files first (each atomically), then the ledger,
 * then index.json regenerated from the files now on disk.
 */
export function applyPlan(root: string, plan: Plan): ApplyResult {
  for (const e of plan.entries) {
    if (!isInsideKnowledge(e.path)) {
      throw new RuntimeError('E_PLAN_PATH', `refusing to write outside ${KNOWLEDGE_DIR}/: ${e.path}`, { why: 'every item path must stay inside the store', fix: 'report this as a bug', data: { path: e.path } });
    }
  }
  const release = acquireLock(join(root, LOCK_FILE));
  try {
    const changed: string[] = [];
    const removed: string[] = [];
    for (const e of plan.entries) {
      if ((e.action === 'add' || e.action === 'update') && e.content !== undefined) {
        writeFileAtomic(abs(root, e.path), e.content);
        changed.push(e.path);
      } else if (e.action === 'remove' && existsSync(abs(root, e.path))) {
        removeFileAndEmptyDirs(abs(root, e.path), abs(root, KNOWLEDGE_DIR));
        removed.push(e.path);
      }
    }
    if (plan.ledger && writeIfChanged(root, LEDGER_FILE, renderLedger(plan.ledger))) changed.push(LEDGER_FILE);
    if (writeIndex(root)) changed.push(INDEX_FILE);
    return { changed: changed.sort(), removed: removed.sort() };
  } finally {
    release();
  }
}

function writeIfChanged(root: string, rel: string, content: string): boolean {
  const file = abs(root, rel);
  if (existsSync(file) && readFileSync(file, 'utf8') === content) return false;
  writeFileAtomic(file, content);
  return true;
}

/** Regenerates index.json from the item files on disk; returns whether it changed. */
export function writeIndex(root: string): boolean {
  const store = loadStore(root);
  return writeIfChanged(root, INDEX_FILE, renderIndex(buildIndex(store.items)));
}
