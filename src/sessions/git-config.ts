/**
 * Reading git's own files without git: the work tree and git directory of a folder (linked
 * worktrees followed to their main repository), the `origin` remote's URL, a repository's name
 * from a URL. No git process and no git library: this runs at every session start.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The git directory and work tree root for `start`, following `.git` files (worktrees). */
export function findGit(start: string): { root: string; gitDir: string; configFile: string } | undefined {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    try {
      const st = statSync(dotGit);
      let gitDir = dotGit;
      if (st.isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        if (!m) return undefined;
        gitDir = resolve(dir, m[1]!);
      }
      // a linked worktree keeps its config in the main repository (named by `commondir`)
      const commonFile = join(gitDir, 'commondir');
      const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
      return { root: dir, gitDir, configFile: join(common, 'config') };
    } catch {
      /* no .git here: look further up */
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The `url` of `[remote "origin"]` in a git config file's text. */
export function originUrl(configText: string): string | undefined {
  let inOrigin = false;
  for (const rawLine of configText.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      inOrigin = section[1]!.toLowerCase() === 'remote' && section[2] === 'origin';
      continue;
    }
    if (!inOrigin) continue;
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (kv) {
      let value = kv[1]!.replace(/\s+[#;].*$/, '').trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      return value || undefined;
    }
  }
  return undefined;
}

/** `git@github.com:owner/name.git` → `name`; `https://host/owner/name/` → `name`. */
export function repoNameOfUrl(url: string): string | undefined {
  const trimmed = url.trim().replace(/[\/\\]+$/, '').replace(/\.git$/i, '').replace(/[\/\\]+$/, '');
  const segment = trimmed.split(/[\/\\:]/).pop() ?? '';
  return segment === '' ? undefined : segment;
}

/** What the file system says about a working directory (see repo-identity.ts, step 2). */
export interface GitFacts {
  /** The `origin` remote's repository name. */
  name?: string;
  /** The main work tree's folder name (a linked worktree's main repository, not the worktree). */
  folder?: string;
  /** The work tree's root folder (absolute). */
  root?: string;
  detail: string;
}

export type GitProbe = (cwd: string) => GitFacts | undefined;

/** The probe of this machine: the working directory, if it exists here inside a git work tree. */
export const localGitProbe: GitProbe = (cwd) => {
  if (!/^(?:\/|[A-Za-z]:[\\/])/.test(cwd) || !existsSync(cwd)) return undefined;
  const git = findGit(cwd);
  if (!git) return undefined;
  const common = dirname(git.configFile);
  // the main repository's folder: <main>/.git, or a bare <name>.git
  const folder = basename(common) === '.git' ? basename(dirname(common)) : basename(common).replace(/\.git$/, '');
  let url: string | undefined;
  try {
    url = originUrl(readFileSync(git.configFile, 'utf8'));
  } catch {
    /* unreadable config: the folder name only */
  }
  const name = url ? repoNameOfUrl(url) : undefined;
  const linked = git.gitDir !== common;
  return name ? { name, folder, root: git.root, detail: 'git remote origin' } : { folder, root: git.root, detail: linked ? 'git main work tree directory name (a linked worktree)' : 'git root directory name' };
};
