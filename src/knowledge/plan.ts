/**
 * Plan first, then apply (the changesets habit): a Plan lists every file change; `--dry-run`
 * prints it; `applyPlan` writes it atomically under the lock and regenerates the index.
 */
import { existsSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Category, Item, Scope, StoredItem } from './item.js';
import { parseItemBytes, sameItem, serializeItem } from './codec.js';
import { itemDir, itemPath, sanitizeName, INDEX_FILE, LEDGER_FILE, LOCK_FILE, KNOWLEDGE_DIR, isInsideKnowledge } from './paths.js';
import { titleFromText, splitBody } from './body.js';
import { buildIndex, renderIndex, type IndexCountsFor } from './index-file.js';
import { renderLedger, type Ledger } from './ledger.js';
import { abs, removeFileAndEmptyDirs, writeFileAtomic } from './fsutil.js';
import { acquireLock } from './lock.js';
import { crashPoint, endJournal, readJournal, writeJournal, type CommitIntent, type Journal } from './transaction.js';
import { CACHE_DIR, prepareCacheDir, RACY_MS } from './cache-dir.js';
import { loadStore, readIndexText } from './store.js';
import { STORE_STAMP_FILE, stampOf } from './store-stamp.js';
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
    } else if (existing.path.slice(0, existing.path.lastIndexOf('/')) !== itemDir(item.meta)) {
      // its scope, repo, agent or category changed (`repos rename`): the file moves
      entries.push({ ...base, action: 'remove', path: existing.path });
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

/** What to do while applyPlan goes on (see applyPlan). */
export interface ApplyHooks {
  /** Called once index.json is as the plan leaves it (`changed`: whether it was rewritten),
   * before the ledger and the cache files are written. */
  indexWritten?(changed: boolean): void;
  /** The commit the caller makes once the plan is applied: journaled with it, so that the next
   * run makes it if this one is killed first (see transaction.ts). */
  commit?: CommitIntent;
  /** Token counts for index.json's entries (none without). */
  indexCounts?: IndexCountsFor;
}

/** A cache file's content, or what makes it (undefined: leave the file as it is). */
export type CacheContent = string | (() => string | undefined);

/** Derived, git-ignored files (caches) to write along with each plan (see attachCacheFile). */
const planCaches = new WeakMap<Plan, { path: string; content: CacheContent; replaces: readonly string[] }[]>();

/**
 * Asks applyPlan to also write a derived file under knowledge/.cache/ (which ignores itself in
 * git and is skipped by the store walk). It is not listed as changed, so it is never committed,
 * and failing to write it does not fail the plan. Nothing is written on a dry run. A function
 * is called by applyPlan, last: a cache that is costly to render is then rendered only when
 * written, while work started at indexWritten goes on.
 */
export function attachCacheFile(plan: Plan, path: string, content: CacheContent, replaces: readonly string[] = []): void {
  for (const p of [path, ...replaces]) if (!p.startsWith(`${CACHE_DIR}/`) || !isInsideKnowledge(p)) throw new Error(`not a cache path: ${p}`);
  const list = planCaches.get(plan) ?? [];
  list.push({ path, content, replaces });
  planCaches.set(plan, list);
}

/** Writes a cache file, then deletes the older versions it `replaces` (when they are there);
 * a content function answering undefined leaves the file as it is. */
function writeCacheFile(root: string, path: string, content: CacheContent, replaces: readonly string[] = []): void {
  try {
    const text = typeof content === 'function' ? content() : content;
    if (text === undefined || !prepareCacheDir(root)) return;
    writeFileAtomic(abs(root, path), text);
    for (const old of replaces) rmSync(abs(root, old), { force: true });
  } catch {
    /* a cache that cannot be written only makes the next run slower */
  }
}

/** Plans made knowing that index.json is that of the items on disk (see markIndexCurrent). */
const indexCurrent = new WeakSet<Plan>();

/**
 * Tells applyPlan that index.json already is the index of the items on disk (the store stamp
 * holds, see store-stamp.ts) and that the plan writes no item: it then neither loads the store
 * nor touches index.json.
 */
export function markIndexCurrent(plan: Plan): void {
  if (plan.entries.some((e) => e.action !== 'unchanged')) throw new Error('a plan that writes items changes the index');
  indexCurrent.add(plan);
}

/** Whether the store stamp taken when index.json was last written still holds (see
 * store-stamp.ts): same version of compound, same item files, every stat unchanged. */
export function storeStampHolds(root: string): boolean {
  let saved: string;
  try {
    saved = readFileSync(abs(root, STORE_STAMP_FILE), 'utf8');
  } catch {
    return false;
  }
  const files = plainItemFiles(root);
  return files !== undefined && stampOf(root, files) === saved;
}

/** Keeps the store stamp, once index.json was written from the store's items and they had no
 * problem (a store that changed within RACY_MS is not stamped: the next run loads it and stamps
 * it then). */
function keepStoreStamp(root: string): void {
  const files = plainItemFiles(root);
  const stamp = files && stampOf(root, files, Date.now() - RACY_MS);
  if (stamp !== undefined) writeCacheFile(root, STORE_STAMP_FILE, stamp);
}

/** The store each plan was made from, when it loaded without problems (see attachStore). */
const planBases = new WeakMap<Plan, readonly StoredItem[]>();

/**
 * Records the store `plan` was made from, so that `applyPlan` can build index.json from those
 * items plus what the plan writes instead of parsing every item file again. Used only when the
 * store loaded without problems, and only after checking, under the lock, that the files on disk
 * are exactly the expected ones with the expected bytes (otherwise the index is rebuilt from disk).
 */
export function attachStore(plan: Plan, store: { items: readonly StoredItem[]; problems: readonly unknown[] }): void {
  if (store.problems.length === 0) planBases.set(plan, store.items);
}

/**
 * Applies a plan under the writer lock: item files first (each atomically), then index.json
 * regenerated from the files now on disk, then the ledger and the cache files. The ledger comes
 * after the index so that work waiting for the index (the CLI's search structure, on another
 * thread, see `hooks`) runs while the ledger is written.
 */
export function applyPlan(root: string, plan: Plan, hooks: ApplyHooks = {}): ApplyResult {
  for (const e of plan.entries) {
    if (!isInsideKnowledge(e.path)) {
      throw new RuntimeError('E_PLAN_PATH', `refusing to write outside ${KNOWLEDGE_DIR}/: ${e.path}`, { why: 'every item path must stay inside the store', fix: 'report this as a bug', data: { path: e.path } });
    }
  }
  const release = acquireLock(join(root, LOCK_FILE));
  try {
    const left = readJournal(root);
    if (left?.commit) {
      throw new RuntimeError('E_JOURNAL', 'an interrupted run left a commit to make', { why: 'its files and its commit must land before anything else is written', fix: 'run compound harvest or compound reindex again: they finish it first' });
    }
    if (left) replayJournalFiles(root, left, hooks.indexCounts);
    // the whole run, written down before its first file: a kill from here on is replayed
    const journal: Journal = { version: 1, entries: plan.entries.filter((e) => e.action === 'remove' || ((e.action === 'add' || e.action === 'update') && e.content !== undefined)).map((e) => (e.action === 'remove' ? { path: e.path } : { path: e.path, content: e.content! })) };
    if (plan.ledger) journal.ledger = renderLedger(plan.ledger);
    if (hooks.commit) journal.commit = hooks.commit;
    writeJournal(root, journal);
    crashPoint('after-journal');
    const changed: string[] = [];
    const removed: string[] = [];
    const dirs = new Set<string>(); // made once each, not once per item
    let written = 0;
    for (const e of plan.entries) {
      if ((e.action === 'add' || e.action === 'update') && e.content !== undefined) {
        writeFileAtomic(abs(root, e.path), e.content, dirs);
        changed.push(e.path);
        if (++written === 2) crashPoint('mid-items');
      } else if (e.action === 'remove' && existsSync(abs(root, e.path))) {
        removeFileAndEmptyDirs(abs(root, e.path), abs(root, KNOWLEDGE_DIR));
        removed.push(e.path);
      }
    }
    crashPoint('before-index');
    let indexChanged = false;
    if (!indexCurrent.has(plan)) {
      const base = planBases.get(plan);
      const after = base ? itemsAfter(root, base, plan) : undefined;
      const store = after ? undefined : loadStore(root);
      indexChanged = writeIndex(root, after ?? store!.items, hooks.indexCounts);
      if (indexChanged) changed.push(INDEX_FILE);
      if (after || store!.problems.length === 0) keepStoreStamp(root);
    }
    hooks.indexWritten?.(indexChanged);
    crashPoint('before-ledger');
    if (journal.ledger !== undefined && writeIfChanged(root, LEDGER_FILE, journal.ledger)) changed.push(LEDGER_FILE);
    for (const c of planCaches.get(plan) ?? []) writeCacheFile(root, c.path, c.content, c.replaces);
    // with a commit to make, the journal stays until the caller has made it (see commitIfAsked)
    if (!hooks.commit) endJournal(root);
    return { changed: changed.sort(), removed: removed.sort() };
  } finally {
    release();
  }
}

/** Writes a journal's files again (the same bytes), its removals, the index and its ledger. */
export function replayJournalFiles(root: string, journal: Journal, indexCounts?: IndexCountsFor): ApplyResult {
  const changed: string[] = [];
  const removed: string[] = [];
  for (const e of journal.entries) {
    if (!isInsideKnowledge(e.path)) continue;
    if (e.content !== undefined) {
      writeFileAtomic(abs(root, e.path), e.content);
      changed.push(e.path);
    } else {
      if (existsSync(abs(root, e.path))) removeFileAndEmptyDirs(abs(root, e.path), abs(root, KNOWLEDGE_DIR));
      removed.push(e.path);
    }
  }
  writeIndex(root, undefined, indexCounts);
  changed.push(INDEX_FILE);
  if (journal.ledger !== undefined) {
    writeIfChanged(root, LEDGER_FILE, journal.ledger);
    changed.push(LEDGER_FILE);
  }
  return { changed: changed.sort(), removed: removed.sort() };
}

function writeIfChanged(root: string, rel: string, content: string): boolean {
  const file = abs(root, rel);
  if (existsSync(file) && readFileSync(file, 'utf8') === content) return false;
  writeFileAtomic(file, content);
  return true;
}

/**
 * Regenerates index.json from the item files on disk (or from `items`, when the caller knows them
 * to be exactly what loading the store would give), with token counts when given the means;
 * returns whether it changed.
 */
export function writeIndex(root: string, items?: readonly StoredItem[], indexCounts?: IndexCountsFor): boolean {
  const current = readIndexText(root);
  const text = renderIndex(buildIndex(items ?? loadStore(root).items, indexCounts?.(current)));
  if (text === current) return false;
  writeFileAtomic(abs(root, INDEX_FILE), text);
  return true;
}

/**
 * The valid items `loadStore` would return now that `plan` is applied to a store that held
 * exactly `base` (loaded without problems): base items not removed or rewritten, plus each
 * written item parsed from the content just written. Undefined, so that the caller loads the
 * store from disk, whenever that cannot be known for sure: a file on disk that is not expected
 * or whose bytes differ from the ones `base` was read from (a reviewer's edit, another writer),
 * anything the store walk would report, or a written item that loading would reject or flag.
 */
export function itemsAfter(root: string, base: readonly StoredItem[], plan: Plan): StoredItem[] | undefined {
  const expected = new Map<string, StoredItem | string>();
  for (const item of base) expected.set(item.path, item);
  for (const e of plan.entries) {
    if (e.action === 'remove') expected.delete(e.path);
    else if ((e.action === 'add' || e.action === 'update') && e.content !== undefined) expected.set(e.path, e.content);
  }
  const files = plainItemFiles(root);
  if (!files || files.length !== expected.size) return undefined;
  const items: StoredItem[] = [];
  const ids = new Set<string>();
  for (const rel of files) {
    const want = expected.get(rel);
    if (want === undefined) return undefined;
    let item: StoredItem;
    if (typeof want === 'string') {
      const parsed = parseItemBytes(rel, Buffer.from(want, 'utf8'));
      if (!parsed.item || parsed.problems.length > 0 || !passesStoreChecks(parsed.item)) return undefined;
      item = parsed.item;
    } else {
      let text: string;
      try {
        text = readFileSync(abs(root, rel), 'utf8');
      } catch {
        return undefined;
      }
      if (text !== want.raw) return undefined;
      item = want;
    }
    if (ids.has(item.meta.id)) return undefined;
    ids.add(item.meta.id);
    items.push(item);
  }
  return items;
}

/** The checks loading applies across files (store.ts crossCheck): safe repo/agent names, the
 * folder its scope and category say, a file name ending with the id. */
function passesStoreChecks(item: StoredItem): boolean {
  const m = item.meta;
  for (const value of [m.repo, m.agent]) if (value !== undefined && sanitizeName(value) !== value) return false;
  const slash = item.path.lastIndexOf('/');
  if (item.path.slice(0, slash) !== itemDir(m)) return false;
  const name = item.path.slice(slash + 1, -'.md'.length);
  return name === m.id || name.endsWith(`-${m.id}`);
}

/**
 * The item files the store walk lists (sorted relative paths), or undefined when the walk would
 * report a problem (a link, an unreadable folder): then the store is loaded the usual way.
 */
function plainItemFiles(root: string): string[] | undefined {
  const files: string[] = [];
  const walk = (rel: string): boolean => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs(root, rel), { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isSymbolicLink()) {
        if (e.name.endsWith('.md') || rel !== KNOWLEDGE_DIR) return false;
      } else if (e.isDirectory()) {
        if (!e.name.startsWith('.') && !walk(child)) return false;
      } else if (e.isFile() && e.name.endsWith('.md')) {
        if (rel === KNOWLEDGE_DIR && e.name === 'README.md') continue;
        files.push(child);
      }
    }
    return true;
  };
  if (!existsSync(join(root, KNOWLEDGE_DIR))) return [];
  return walk(KNOWLEDGE_DIR) ? files.sort() : undefined;
}
