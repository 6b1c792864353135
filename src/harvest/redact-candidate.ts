/** Redaction runs on every field of a candidate before it can be written, logged or printed. */
import { isGenericUserName, redact } from '../redact/index.js';
import type { Candidate } from './candidate.js';
import { TextCache } from './extract/text-cache.js';

export interface RedactionStats {
  findings: number;
}

/**
 * Candidates repeat the same titles, tags, quotes and texts across sessions (in the 100 MB bench
 * corpus, 2,323 distinct strings among 32,536), and redact is pure: each string is redacted once
 * per list of user names. Keyed by the JSON of the list (self-delimiting) and the string;
 * bounded (see TextCache), so memory stays flat.
 */
const memo = new TextCache<{ text: string; findings: number }>(20000);

export function redactCandidate(c: Candidate, users: readonly string[], stats: RedactionStats): Candidate {
  const usersKey = JSON.stringify(users);
  const r = (s: string): string => {
    const out = memo.get(usersKey + s, () => {
      const done = redact(s, { users });
      return { text: done.text, findings: done.findings.length };
    });
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
