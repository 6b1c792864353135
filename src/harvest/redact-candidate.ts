/** Redaction runs on every field of a candidate before it can be written, logged or printed. */
import { isGenericUserName, ownAccountNames, redact } from '../redact/index.js';
import type { Session } from '../sessions/model.js';
import type { Candidate } from './candidate.js';
import { TextCache } from './extract/text-cache.js';

export interface RedactionStats {
  findings: number;
}

/**
 * Candidates repeat the same titles, tags, quotes and texts across sessions (in the 100 MB bench
 * corpus, 2,323 distinct strings among 32,536), and redact is pure: each string is redacted once
 * per list of user names. One memo per list (keyed by its JSON), each keyed by the string itself:
 * a string made by joining the list's key and the text would be a new string every call, to be
 * flattened and hashed again, where a candidate's own strings keep their hash. Bounded (see
 * TextCache: 2 million characters per list, at most MAX_USER_LISTS lists), so memory stays flat.
 */
const memos = new Map<string, TextCache<{ text: string; findings: number }>>();
const MAX_USER_LISTS = 4;

function memoFor(users: readonly string[]): TextCache<{ text: string; findings: number }> {
  const key = users.length === 0 ? '' : JSON.stringify(users);
  let memo = memos.get(key);
  if (!memo) {
    if (memos.size >= MAX_USER_LISTS) memos.clear();
    memo = new TextCache(20000, 2_000_000);
    memos.set(key, memo);
  }
  return memo;
}

export function redactCandidate(c: Candidate, users: readonly string[], stats: RedactionStats): Candidate {
  const memo = memoFor(users);
  const redactOne = (s: string): { text: string; findings: number } => {
    const done = redact(s, { users });
    return { text: done.text, findings: done.findings.length };
  };
  const r = (s: string): string => {
    const out = memo.get(s, redactOne);
    stats.findings += out.findings;
    return out.text;
  };
  return {
    ...c,
    title: r(c.title),
    text: r(c.text),
    quotes: c.quotes.map(r),
    tags: c.tags.map(r),
    ...(c.signature !== undefined ? { signature: r(c.signature) } : {}),
  };
}

/** User names visible in a session's working directory (`/home/<user>`, `/Users/<user>`). */
export function usersFromPath(path: string | undefined): string[] {
  if (!path) return [];
  const m = /^(?:\/home|\/Users|[A-Za-z]:\\Users)[\\/]([^\\/]+)/.exec(path);
  // generic accounts (USER, runner, root) are not people, and scrubbing them mangles prose
  return m && !isGenericUserName(m[1]!) ? [m[1]!] : [];
}

/** Commands whose output can name the user's own accounts: ssh's greeting (`ssh -T
 * git@github.com`), `gh auth status`, `git config --list` (the name git signs with). */
const SHOWS_ACCOUNT = /\bssh\b|\b(?:gh|glab)\s+auth\b|\bgit\s+(?:-C\s+\S+\s+)?config\b/;

/** The accounts the session shows to be its user's (a code host's greeting, the name git signs
 * with), from its command lines and the output of the commands above: redacted wherever the
 * session's items name them, as the home folder's user name is. */
export function usersShownIn(session: Session): string[] {
  const names = new Set<string>();
  const asked = new Set<string>();
  const add = (text: string): void => {
    // (a name of two letters is as often a word of the text: "ok", "go")
    for (const n of ownAccountNames(text)) if (n.length >= 3 && !isGenericUserName(n)) names.add(n);
  };
  for (const e of session.events) {
    if (e.kind === 'tool_call' && e.command !== undefined) {
      add(e.command);
      if (e.callId !== undefined && SHOWS_ACCOUNT.test(e.command)) asked.add(e.callId);
    } else if (e.kind === 'tool_result' && e.callId !== undefined && asked.has(e.callId)) add(e.output);
  }
  return [...names];
}
