/**
 * Which repo and which agent a session belongs to, when the flags do not say.
 *
 * Repo: the last path segment of the `origin` remote's URL (without `.git`), read straight from
 * the git config file (no git process, no git library: this runs at every session start); else
 * the name of the git root directory; else the name of the current directory.
 *
 * Agent: from the variables each agent sets in the environment of the commands and hooks it
 * runs. Claude Code sets CLAUDECODE=1 and CLAUDE_CODE_ENTRYPOINT; Codex sets CODEX_SANDBOX /
 * CODEX_SANDBOX_NETWORK_DISABLED for the commands it runs (and CODEX_THREAD_ID,
 * CODEX_MANAGED_BY_NPM in recent versions); Gemini CLI sets GEMINI_CLI=1; Aider has no marker of
 * its own, so any AIDER_* variable (its settings) counts, checked last as the weakest signal.
 * CODEX_HOME alone is a user setting, not a sign that Codex is running.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface Detected {
  value?: string;
  /** How it was found, shown by --explain. */
  source: string;
}

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
export function repoNameFromUrl(url: string): string | undefined {
  const trimmed = url.trim().replace(/[\/\\]+$/, '').replace(/\.git$/i, '').replace(/[\/\\]+$/, '');
  const segment = trimmed.split(/[\/\\:]/).pop() ?? '';
  return segment === '' ? undefined : segment;
}

export function detectRepo(cwd: string): Detected {
  const git = findGit(cwd);
  if (git) {
    try {
      const url = originUrl(readFileSync(git.configFile, 'utf8'));
      const name = url ? repoNameFromUrl(url) : undefined;
      if (name) return { value: name, source: 'git remote origin' };
    } catch {
      /* unreadable config: fall back to the directory name */
    }
    return { value: basename(git.root), source: 'git root directory name' };
  }
  const name = basename(resolve(cwd));
  return name ? { value: name, source: 'current directory name (no git repository)' } : { source: 'no git repository, no directory name' };
}

type Env = Record<string, string | undefined>;

const set = (env: Env, name: string) => env[name] !== undefined && env[name] !== '';

export function detectAgent(env: Env): Detected {
  if (set(env, 'CLAUDECODE') || set(env, 'CLAUDE_CODE_ENTRYPOINT')) return { value: 'claude-code', source: set(env, 'CLAUDECODE') ? 'CLAUDECODE' : 'CLAUDE_CODE_ENTRYPOINT' };
  const codex = ['CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'CODEX_THREAD_ID', 'CODEX_MANAGED_BY_NPM', 'CODEX_MANAGED_BY_BUN'].find((n) => set(env, n));
  if (codex) return { value: 'codex', source: codex };
  if (set(env, 'GEMINI_CLI')) return { value: 'gemini-cli', source: 'GEMINI_CLI' };
  const aider = Object.keys(env).filter((n) => n.startsWith('AIDER_') && set(env, n)).sort()[0];
  if (aider) return { value: 'aider', source: aider };
  return { source: 'no agent variables in the environment' };
}
