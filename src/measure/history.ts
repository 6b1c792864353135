/**
 * Git history of knowledge/: which item files were deleted (not moved) and when. Read with
 * isomorphic-git by diffing each commit's knowledge/ tree against its parent's, descending only
 * into subtrees whose ids differ, so a long history of small commits stays cheap.
 */
import fs from 'node:fs';
import { relative, resolve } from 'node:path';
import { KNOWLEDGE_DIR } from '../knowledge/paths.js';
import { parseItemBytes } from '../knowledge/codec.js';
import { extractorOf, reviewFingerprint, type Deletion, type History, type WrittenItem } from './data.js';

/** History longer than this is not walked further (the oldest deletions are then not dated). */
export const MAX_COMMITS = 5_000;

type Git = typeof import('isomorphic-git').default;

/** The id at the end of an item file name (`slug-<id>.md` or `<id>.md`). */
export function idFromItemPath(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const m = /(?:^|-)([0-9a-f]{10})\.md$/.exec(base);
  return m ? m[1] : undefined;
}

interface TreeDiff {
  added: string[];
  deleted: string[];
  /** Blob id of each added path. */
  blobs: Map<string, string>;
}

async function diffTrees(git: Git, dir: string, cache: object, a: string | undefined, b: string | undefined, prefix: string, out: TreeDiff): Promise<void> {
  if (a === b) return;
  const read = async (oid: string | undefined) => (oid ? (await git.readTree({ fs, dir, oid, cache })).tree : []);
  const [ta, tb] = await Promise.all([read(a), read(b)]);
  const ma = new Map(ta.map((e) => [e.path, e]));
  const mb = new Map(tb.map((e) => [e.path, e]));
  for (const name of [...new Set([...ma.keys(), ...mb.keys()])].sort()) {
    const ea = ma.get(name);
    const eb = mb.get(name);
    const path = `${prefix}/${name}`;
    if (ea?.oid === eb?.oid && ea?.type === eb?.type) continue;
    const treeA = ea?.type === 'tree' ? ea.oid : undefined;
    const treeB = eb?.type === 'tree' ? eb.oid : undefined;
    if (treeA || treeB) await diffTrees(git, dir, cache, treeA, treeB, path, out);
    if (ea?.type === 'blob' && eb?.type !== 'blob') out.deleted.push(path);
    if (eb?.type === 'blob' && ea?.type !== 'blob') {
      out.added.push(path);
      out.blobs.set(path, eb.oid);
    }
  }
}

type LogEntry = Awaited<ReturnType<Git['log']>>[number];

/** What a (single-parent) commit changed in knowledge/, or undefined when nothing. */
async function commitDiff(git: Git, dir: string, cache: object, c: LogEntry, knowledgeTree: (commit: string) => Promise<string | undefined>): Promise<TreeDiff | undefined> {
  const parent = c.commit.parent[0];
  const now = await knowledgeTree(c.oid);
  const before = parent ? await knowledgeTree(parent).catch(() => undefined) : undefined;
  if (now === before) return undefined;
  const diff: TreeDiff = { added: [], deleted: [], blobs: new Map() };
  await diffTrees(git, dir, cache, before, now, KNOWLEDGE_DIR, diff);
  return diff;
}

export async function readHistory(root: string): Promise<History> {
  // loaded here: knowledge/git.js pulls in isomorphic-git, which a run without history never needs
  const { findGitRoot } = await import('../knowledge/git.js');
  const dir = findGitRoot(root);
  if (!dir) return { available: false, reason: 'not a git repository', commits: 0, deletions: [] };
  const git = (await import('isomorphic-git')).default;
  const cache = {};
  const prefix = relative(dir, resolve(root)).split('\\').join('/');
  const knowledge = prefix === '' ? KNOWLEDGE_DIR : `${prefix}/${KNOWLEDGE_DIR}`;
  let commits: Awaited<ReturnType<Git['log']>>;
  try {
    commits = await git.log({ fs, dir, ref: 'HEAD', depth: MAX_COMMITS, cache });
  } catch {
    return { available: false, reason: 'no commits yet', commits: 0, deletions: [] };
  }
  const subtree = new Map<string, string | undefined>();
  const knowledgeTree = async (commit: string): Promise<string | undefined> => {
    if (subtree.has(commit)) return subtree.get(commit);
    let oid: string | undefined;
    try {
      oid = (await git.readTree({ fs, dir, oid: commit, filepath: knowledge, cache })).oid;
    } catch {
      oid = undefined; // knowledge/ did not exist in that commit
    }
    subtree.set(commit, oid);
    return oid;
  };
  const deletions: Deletion[] = [];
  for (const c of commits) {
    // a merge repeats what its branches did; its branch commits are walked on their own
    if (c.commit.parent.length > 1) continue;
    const diff = await commitDiff(git, dir, cache, c, knowledgeTree);
    if (!diff) continue;
    const addedIds = new Set(diff.added.map(idFromItemPath).filter((id): id is string => id !== undefined));
    for (const path of diff.deleted) {
      const id = idFromItemPath(path);
      if (!id || addedIds.has(id)) continue; // moved (new category, scope or title), not deleted
      deletions.push({ id, path, time: c.commit.committer.timestamp * 1000, commit: c.oid.slice(0, 10) });
    }
  }
  deletions.sort((a, b) => a.time - b.time || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const written = await harvestWrites(git, dir, cache, commits, knowledgeTree);
  return { available: true, commits: commits.length, deletions, written };
}

/** The subject `compound harvest --commit` gives its commits. */
const HARVEST_SUBJECT = /^compound: harvest /;
/** Where the nightly job commits (a pull request not merged yet, or merged by squash). */
const HARVEST_BRANCHES = ['knowledge/nightly', 'origin/knowledge/nightly'];

/**
 * Every item as a harvest commit first added it, from HEAD's history and the harvest branch's
 * (a squash merge keeps only the reviewed result on the main branch; the branch keeps what the
 * harvester wrote). Oldest write wins: a later harvest re-adding a moved item is not a new one.
 */
async function harvestWrites(
  git: Git,
  dir: string,
  cache: object,
  head: Awaited<ReturnType<Git['log']>>,
  knowledgeTree: (commit: string) => Promise<string | undefined>,
): Promise<WrittenItem[]> {
  const commits = new Map(head.map((c) => [c.oid, c]));
  for (const ref of HARVEST_BRANCHES) {
    try {
      for (const c of await git.log({ fs, dir, ref, depth: MAX_COMMITS, cache })) commits.set(c.oid, c);
    } catch {
      // no such branch here
    }
  }
  const written = new Map<string, WrittenItem>();
  const harvests = [...commits.values()].filter((c) => HARVEST_SUBJECT.test(c.commit.message) && c.commit.parent.length <= 1);
  harvests.sort((a, b) => a.commit.committer.timestamp - b.commit.committer.timestamp || (a.oid < b.oid ? -1 : 1));
  for (const c of harvests) {
    const diff = await commitDiff(git, dir, cache, c, knowledgeTree);
    if (!diff) continue;
    for (const path of diff.added) {
      const id = idFromItemPath(path);
      if (!id || written.has(id)) continue;
      const { blob } = await git.readBlob({ fs, dir, oid: diff.blobs.get(path)!, cache });
      const item = parseItemBytes(path, blob).item;
      if (!item) continue;
      written.set(id, {
        id,
        category: item.meta.category,
        extractor: extractorOf(item.meta.sources),
        fp: reviewFingerprint(item.meta.category, item.title, item.text),
        time: c.commit.committer.timestamp * 1000,
      });
    }
  }
  return [...written.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}
