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
import { resolve } from 'node:path';
import { findGit, localGitProbe, originUrl, repoNameOfUrl } from '../sessions/git-config.js';
import { identifyRepo } from '../sessions/repo-identity.js';

export { findGit, originUrl, repoNameOfUrl as repoNameFromUrl };

export interface Detected {
  value?: string;
  /** How it was found, shown by --explain. */
  source: string;
}

/** The repository of the current directory, decided as the harvest decides a session's (see
 * sessions/repo-identity.ts): the git remote origin, the main work tree, a worktree layout, the
 * folder's name unless it names nothing (a home, a temp or generic folder); aliases win. */
export function detectRepo(cwd: string, aliases: Readonly<Record<string, string>> = {}): Detected {
  const id = identifyRepo({ cwd: resolve(cwd) }, { aliases, users: [], probe: localGitProbe });
  return id.repo !== undefined ? { value: id.repo, source: id.detail } : { source: id.detail };
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
