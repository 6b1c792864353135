/**
 * Committing store changes with isomorphic-git: only the paths a plan touched are staged, on the
 * current branch or a named one, with the author from flags, environment or git config.
 */
import fs from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve, dirname } from 'node:path';
import git from 'isomorphic-git';
import { RuntimeError, UsageError } from '../core/errors.js';

export interface Author {
  name: string;
  email: string;
}

export interface CommitOptions {
  /** Directory that holds knowledge/ (inside a git work tree). */
  root: string;
  /** Paths relative to root (posix) that were written. */
  changed: readonly string[];
  /** Paths relative to root (posix) that were deleted. */
  removed: readonly string[];
  message: string;
  author?: Partial<Author>;
  /** Commit to this branch (created at HEAD when missing). Default: the current branch. */
  branch?: string;
  /** Make no commit when the staged paths are as the branch already has them (a run that was
   * killed after its commit, replayed). */
  onlyIfChanged?: boolean;
}

export interface CommitResult {
  sha: string;
  branch: string;
  /** The commit went to a branch that is not checked out (its files are not HEAD's). */
  elsewhere?: boolean;
}

export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (fs.existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads user.name / user.email from a git config file (the global one isomorphic-git ignores). */
function readGitConfigUser(file: string): Partial<Author> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const out: Partial<Author> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const sec = /^\[([^\]]+)\]$/.exec(line);
    if (sec) {
      section = sec[1]!.trim().toLowerCase();
      continue;
    }
    const kv = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (section === 'user' && kv) {
      const value = kv[2]!.replace(/^"(.*)"$/, '$1').trim();
      if (kv[1]!.toLowerCase() === 'name') out.name = value;
      if (kv[1]!.toLowerCase() === 'email') out.email = value;
    }
  }
  return out;
}

export async function resolveAuthor(gitRoot: string, flags: Partial<Author> = {}): Promise<Author> {
  const env = process.env;
  const repoName = (await git.getConfig({ fs, dir: gitRoot, path: 'user.name' })) as string | undefined;
  const repoEmail = (await git.getConfig({ fs, dir: gitRoot, path: 'user.email' })) as string | undefined;
  const globalCfg = readGitConfigUser(env.GIT_CONFIG_GLOBAL ?? join(homedir(), '.gitconfig'));
  const name = flags.name ?? env.GIT_AUTHOR_NAME ?? repoName ?? globalCfg.name;
  const email = flags.email ?? env.GIT_AUTHOR_EMAIL ?? repoEmail ?? globalCfg.email;
  if (!name || !email) {
    throw new UsageError('no commit author is set', {
      why: 'a commit needs an author name and e-mail, and none was found in --author-name/--author-email, GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL, or git config user.name/user.email',
      fix: 'pass --author-name "Knowledge Bot" --author-email bot@example.com, or run git config user.name/user.email',
    });
  }
  return { name, email };
}

/** Commit time: GIT_COMMITTER_DATE / GIT_AUTHOR_DATE (epoch seconds, @epoch, or ISO) for reproducible SHAs. */
export function commitTimestamp(): { timestamp: number; timezoneOffset: number } {
  const raw = process.env.GIT_COMMITTER_DATE ?? process.env.GIT_AUTHOR_DATE;
  if (raw) {
    const epoch = /^@?(\d+)(\s+[+-]\d{4})?$/.exec(raw.trim());
    if (epoch) return { timestamp: Number(epoch[1]), timezoneOffset: 0 };
    const ms = Date.parse(raw);
    if (!Number.isNaN(ms)) return { timestamp: Math.floor(ms / 1000), timezoneOffset: 0 };
  }
  return { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: new Date().getTimezoneOffset() };
}

async function prepareBranch(dir: string, branch: string | undefined): Promise<string> {
  const current = await git.currentBranch({ fs, dir, fullname: false });
  if (!branch || branch === current) {
    if (!current) throw new RuntimeError('E_GIT_DETACHED', 'HEAD is detached', { why: 'there is no branch to commit to', fix: 'pass --branch <name> or check out a branch' });
    return current;
  }
  const branches = await git.listBranches({ fs, dir });
  if (branches.includes(branch)) {
    throw new RuntimeError('E_GIT_BRANCH', `branch ${branch} exists but is not checked out`, {
      why: 'committing there would use a tree that does not match the files on disk',
      fix: `check it out first (git checkout ${branch}) or pass a new branch name`,
      data: { branch, current },
    });
  }
  let hasHead = true;
  try {
    await git.resolveRef({ fs, dir, ref: 'HEAD' });
  } catch {
    hasHead = false;
  }
  if (hasHead) await git.branch({ fs, dir, ref: branch, checkout: true });
  else await git.writeRef({ fs, dir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
  return branch;
}

export async function commitChanges(options: CommitOptions): Promise<CommitResult | undefined> {
  const dir = findGitRoot(options.root);
  if (!dir) {
    throw new RuntimeError('E_GIT_NO_REPO', `${options.root} is not inside a git repository`, { why: '--commit needs a repository to commit to', fix: 'run git init (or compound init in a repository), or drop --commit' });
  }
  if (options.changed.length === 0 && options.removed.length === 0) return undefined;
  const author = await resolveAuthor(dir, options.author);
  const current = await git.currentBranch({ fs, dir, fullname: false });
  if (options.branch && options.branch !== current && (await hasHeadCommit(dir))) return commitToOtherBranch(dir, options, author);
  const branch = await prepareBranch(dir, options.branch);
  const prefix = relative(dir, resolve(options.root)).split('\\').join('/');
  const toRepo = (p: string) => (prefix === '' ? p : `${prefix}/${p}`);
  const cache = {};
  if (options.changed.length > 0) await git.add({ fs, dir, filepath: options.changed.map(toRepo), cache });
  for (const p of options.removed) await git.remove({ fs, dir, filepath: toRepo(p), cache });
  if (options.onlyIfChanged) {
    const rows = await git.statusMatrix({ fs, dir, filepaths: [...options.changed, ...options.removed].map(toRepo), cache });
    // [path, HEAD, workdir, stage]: staged equal to HEAD is 1,?,1 (kept) or 0,?,0 (absent in both)
    if (rows.every(([, head, , stage]) => head === stage)) return undefined;
  }
  const when = commitTimestamp();
  const sha = await git.commit({ fs, dir, message: options.message, author: { ...author, ...when }, committer: { ...author, ...when }, cache });
  return { sha, branch };
}

/** The files under knowledge/ that differ from HEAD in the working tree (derived caches, the
 * lock and the journal aside): what a reviewer changed and deleted, for `reindex --commit`. */
export async function knowledgeChanges(root: string): Promise<{ changed: string[]; removed: string[] }> {
  const dir = findGitRoot(root);
  if (!dir) return { changed: [], removed: [] };
  const prefix = relative(dir, resolve(root)).split('\\').join('/');
  const base = prefix === '' ? 'knowledge' : `${prefix}/knowledge`;
  const rows = await git.statusMatrix({ fs, dir, filepaths: [base], filter: (f) => !/\/\.cache\/|\/\.lock$|\/\.journal\.json$|\.tmp-\d+-\d+$/.test(f) });
  const fromRoot = (p: string) => (prefix === '' ? p : p.slice(prefix.length + 1));
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [file, head, workdir] of rows) {
    if (head === 1 && workdir === 0) removed.push(fromRoot(file));
    else if (workdir === 2 || (head === 0 && workdir !== 0)) changed.push(fromRoot(file));
  }
  return { changed: changed.sort(), removed: removed.sort() };
}

async function hasHeadCommit(dir: string): Promise<boolean> {
  try {
    await git.resolveRef({ fs, dir, ref: 'HEAD' });
    return true;
  } catch {
    return false;
  }
}

/** git's order of tree entries: by name, a tree compared as if its name ended in "/". */
function treeOrder(a: { path: string; type: string }, b: { path: string; type: string }): number {
  const ka = a.type === 'tree' ? `${a.path}/` : a.path;
  const kb = b.type === 'tree' ? `${b.path}/` : b.path;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

type TreeEntry = { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' };

/** `oid`'s tree with `changes` applied (path -> blob oid, or null to delete); undefined when empty. */
async function treeWith(dir: string, oid: string | undefined, changes: ReadonlyMap<string, string | null>): Promise<string | undefined> {
  const entries = new Map<string, TreeEntry>();
  if (oid) for (const e of (await git.readTree({ fs, dir, oid })).tree) entries.set(e.path, e as TreeEntry);
  const below = new Map<string, Map<string, string | null>>();
  for (const [path, blob] of changes) {
    const slash = path.indexOf('/');
    if (slash === -1) {
      if (blob === null) entries.delete(path);
      else entries.set(path, { mode: '100644', path, oid: blob, type: 'blob' });
      continue;
    }
    const name = path.slice(0, slash);
    let m = below.get(name);
    if (!m) below.set(name, (m = new Map()));
    m.set(path.slice(slash + 1), blob);
  }
  for (const [name, sub] of below) {
    const existing = entries.get(name);
    const child = await treeWith(dir, existing?.type === 'tree' ? existing.oid : undefined, sub);
    if (child) entries.set(name, { mode: '040000', path: name, oid: child, type: 'tree' });
    else entries.delete(name);
  }
  if (entries.size === 0) return undefined;
  return git.writeTree({ fs, dir, tree: [...entries.values()].sort(treeOrder) });
}

/**
 * `--branch` other than the checked-out one: the commit goes to that branch's ref, made of HEAD's
 * tree with knowledge/ as it is on disk (every change there against HEAD, this run's and earlier
 * ones), its parent HEAD; the branch is created or reset to it. HEAD, the index and every other
 * file stay as they are: nothing is checked out.
 */
async function commitToOtherBranch(dir: string, options: CommitOptions, author: Author): Promise<CommitResult | undefined> {
  const branch = options.branch!;
  const prefix = relative(dir, resolve(options.root)).split('\\').join('/');
  const toRepo = (p: string) => (prefix === '' ? p : `${prefix}/${p}`);
  const { changed, removed } = await knowledgeChanges(options.root);
  if (changed.length + removed.length === 0) return undefined;
  const changes = new Map<string, string | null>();
  for (const p of changed) changes.set(toRepo(p), await git.writeBlob({ fs, dir, blob: fs.readFileSync(resolve(options.root, p)) }));
  for (const p of removed) changes.set(toRepo(p), null);
  const head = await git.resolveRef({ fs, dir, ref: 'HEAD' });
  const base = (await git.readCommit({ fs, dir, oid: head })).commit.tree;
  const tree = (await treeWith(dir, base, changes)) ?? (await git.writeTree({ fs, dir, tree: [] }));
  const when = commitTimestamp();
  const sha = await git.writeCommit({ fs, dir, commit: { message: options.message.endsWith('\n') ? options.message : `${options.message}\n`, tree, parent: [head], author: { ...author, ...when }, committer: { ...author, ...when } } });
  await git.writeRef({ fs, dir, ref: `refs/heads/${branch}`, value: sha, force: true });
  return { sha, branch, elsewhere: true };
}

/**
 * Adds `files` (path in the repository -> text) to `branch` as one commit on its tip (an orphan
 * commit when the branch does not exist yet), without checking anything out: the inbox branch
 * that `compound capture` delivers to. The author comes from the usual places, as for --commit.
 */
export async function commitFilesToBranch(dir: string, branch: string, files: ReadonlyMap<string, string>, message: string): Promise<string> {
  const author = await resolveAuthor(dir);
  let tip: string | undefined;
  try {
    tip = await git.resolveRef({ fs, dir, ref: `refs/heads/${branch}` });
  } catch {
    tip = undefined;
  }
  const changes = new Map<string, string | null>();
  for (const [path, text] of files) changes.set(path, await git.writeBlob({ fs, dir, blob: Buffer.from(text, 'utf8') }));
  const base = tip ? (await git.readCommit({ fs, dir, oid: tip })).commit.tree : undefined;
  const tree = (await treeWith(dir, base, changes)) ?? (await git.writeTree({ fs, dir, tree: [] }));
  const when = commitTimestamp();
  const sha = await git.writeCommit({ fs, dir, commit: { message: `${message}\n`, tree, parent: tip ? [tip] : [], author: { ...author, ...when }, committer: { ...author, ...when } } });
  await git.writeRef({ fs, dir, ref: `refs/heads/${branch}`, value: sha, force: true });
  return sha;
}
