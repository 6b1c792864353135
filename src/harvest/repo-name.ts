/**
 * Which repository a session's knowledge belongs to. Readers take it from the git remote or the
 * working directory; some formats record neither (Gemini CLI chats, SpecStory exports copied out
 * of their project), so the transcript's own folder is the next witness, then `--repo`.
 */
import { basename, dirname, resolve } from 'node:path';
import { sanitizeName } from '../knowledge/paths.js';
import type { Session } from '../sessions/model.js';
import { identifyRepo, witnessOf, type RepoIdentity } from '../sessions/repo-identity.js';
import { localGitProbe, type GitFacts, type GitProbe } from '../sessions/git-config.js';

/** Folder names that say where agents keep transcripts, not which project they are about. */
const CONTAINER_DIRS = new Set([
  'chats', 'tmp', 'history', 'sessions', 'session', 'saved', 'projects', 'subagents', 'logs', 'log', 'transcripts',
  'transcript', 'exports', 'export', 'inbox', 'in', 'input', 'incoming', 'downloads', 'captured', 'conversations', 'rollouts', 'archive', 'home', 'users', 'src', 'work',
  'test_sessions', 'fixtures', 'samples', 'examples', 'data', 'tests', 'test',
  'claude-code', 'codex', 'gemini-cli', 'gemini', 'hermes', 'aider', 'cursor', 'specstory', 'cursor-specstory', 'openai-chat',
]);
const HOME_ROOTS = new Set(['home', 'Users']);

/** Generated names, and Claude Code's project folders (`-home-dev-repo`: the working directory
 * encoded, already weighed as the working directory). */
function looksGenerated(name: string): boolean {
  return name.startsWith('-') || /^[0-9a-f]{12,}$/i.test(name) || /^[0-9a-f-]{32,}$/i.test(name) || /^\d{4}(-\d\d){0,2}$/.test(name) || /^\d+$/.test(name);
}

/** The nearest folder above the transcript that names a project, if any (never a user's home). */
export function repoFromTranscriptPath(file: string): string | undefined {
  let dir = dirname(resolve(file));
  // the folder or its parent (hidden folders such as .specstory not counted): further up is guesswork
  for (let depth = 0; depth < 2; ) {
    const name = basename(dir);
    const parent = dirname(dir);
    if (name === '' || parent === dir) return undefined;
    if (HOME_ROOTS.has(basename(parent))) return undefined; // the segment after /home is a user name
    if (!name.startsWith('.')) {
      if (!CONTAINER_DIRS.has(name.toLowerCase()) && !looksGenerated(name)) return name;
      depth++;
    }
    dir = parent;
  }
  return undefined;
}

export interface RepoOptions {
  aliases: Record<string, string>;
  /** `--repo`: for sessions whose transcript records no working directory. */
  fallback?: string;
  /** Known user names: a folder named like the user (a session started in ~) is no repo. */
  users: readonly string[];
}

/** Working directories looked up on this machine once per run (one per few dozen sessions). */
const probed = new Map<string, GitFacts | undefined>();
const cachedProbe: GitProbe = (cwd) => {
  if (!probed.has(cwd)) probed.set(cwd, localGitProbe(cwd));
  return probed.get(cwd);
};

/** The session's repository (sanitized for a folder name) and the evidence for it (see
 * sessions/repo-identity.ts). */
export function resolveRepo(session: Session, file: string, options: RepoOptions): RepoIdentity {
  const transcriptFolder = repoFromTranscriptPath(file);
  const id = identifyRepo(witnessOf(session), { aliases: options.aliases, users: options.users, ...(options.fallback ? { fallback: options.fallback } : {}), ...(transcriptFolder ? { transcriptFolder } : {}), probe: cachedProbe });
  return id.repo ? { ...id, repo: sanitizeName(id.repo) } : id;
}
