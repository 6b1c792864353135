/**
 * `compound check`: everything a PR check needs to trust knowledge/: every item valid, ids
 * unique, paths matching content, links resolving, index.json in sync, ledger readable, and no
 * secret or personal data (by the same detector the harvester redacts with).
 */
import { existsSync, readFileSync } from 'node:fs';
import { buildIndex, renderIndex, parseIndex, textWithoutCounts, withoutCounts } from './index-file.js';
import { INDEX_FILE, LEDGER_FILE } from './paths.js';
import { parseLedger } from './ledger.js';
import type { LoadedStore } from './store.js';
import { loadStoreParallel } from './store-parallel.js';
import { secretProblems } from './secret-problems.js';
import { sortProblems, type Problem } from './problem.js';
import { abs } from './fsutil.js';
import { LoadCache } from './load-cache.js';

export interface CheckResult {
  store: LoadedStore;
  problems: Problem[];
}

function indexProblems(root: string, store: LoadedStore, cache: LoadCache | undefined): Problem[] {
  const file = abs(root, INDEX_FILE);
  const fix = 'run `compound reindex` and commit the result';
  if (!existsSync(file)) return [{ code: 'E_INDEX_MISSING', file: INDEX_FILE, line: 1, what: 'index.json is missing', why: 'bootstrap and measure read the index', fix }];
  const text = readFileSync(file, 'utf8');
  // the index is a function of the item files: the same files and the same index.json as a
  // run that found them in sync need no rendering
  const digest = cache?.storeDigest();
  if (cache?.indexInSync(digest, text)) return [];
  const index = buildIndex(store.items);
  const expected = renderIndex(index);
  // counts are the writer's, derived from the entries like a cache: compared without them
  if (text === expected || textWithoutCounts(text) === expected) {
    cache?.rememberIndex(digest, text);
    return [];
  }
  let detail = 'its content differs from the item files';
  try {
    const actual = withoutCounts(parseIndex(text));
    const have = new Map(actual.items.map((e) => [e.id, JSON.stringify(e)]));
    const want = new Map(index.items.map((e) => [e.id, JSON.stringify(e)]));
    const missing = [...want.keys()].filter((id) => !have.has(id)).length;
    const extra = [...have.keys()].filter((id) => !want.has(id)).length;
    const changed = [...want.keys()].filter((id) => have.has(id) && have.get(id) !== want.get(id)).length;
    detail = `${missing} item(s) missing from it, ${extra} listed that no longer exist, ${changed} out of date`;
  } catch {
    detail = 'it is not valid index JSON';
  }
  return [{ code: 'E_INDEX_STALE', file: INDEX_FILE, line: 1, what: `index.json is out of sync: ${detail}`, why: 'index.json is derived from the item files and must match them', fix }];
}

function ledgerProblems(root: string): Problem[] {
  const file = abs(root, LEDGER_FILE);
  if (!existsSync(file)) return [];
  try {
    parseLedger(readFileSync(file, 'utf8'));
    return [];
  } catch (err) {
    return [{ code: 'E_LEDGER_INVALID', file: LEDGER_FILE, line: 1, what: `ledger.json is invalid: ${(err as Error).message}`, why: 'the harvester uses it to skip sessions already read', fix: `restore it from git, or delete it to harvest everything again` }];
  }
}

function linkProblems(store: LoadedStore): Problem[] {
  const ids = new Set(store.items.map((i) => i.meta.id));
  const out: Problem[] = [];
  for (const item of store.items) {
    for (const key of ['supersedes', 'conflicts_with'] as const) {
      for (const id of item.meta[key] ?? []) {
        if (!ids.has(id)) out.push({ code: 'E_ITEM_LINK', file: item.path, line: 2, what: `${key} names \`${id}\`, which is not in the store`, why: 'links must point at existing items', fix: `remove \`${id}\` from ${key}` });
      }
    }
  }
  return out;
}

export interface CheckOptions {
  /** Use and update the per-user record of files already found clean (load-cache.ts); false
   * checks every file from scratch and leaves the record as it is. Default true. */
  cache?: boolean;
}

export async function checkStore(root: string, options: CheckOptions = {}): Promise<CheckResult> {
  const cache = options.cache === false ? undefined : LoadCache.open(root);
  const store = await loadStoreParallel(root, cache ? { scan: secretProblems, cache } : { scan: secretProblems });
  const problems = [...store.problems];
  problems.push(...linkProblems(store), ...indexProblems(root, store, cache), ...ledgerProblems(root));
  cache?.save();
  return { store, problems: sortProblems(problems) };
}
