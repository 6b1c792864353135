/** Redaction runs on every field of a candidate before it can be written, logged or printed. */
import { isGenericUserName, redact } from '../redact/index.js';
import type { Candidate } from './candidate.js';

export interface RedactionStats {
  findings: number;
}

export function redactCandidate(c: Candidate, users: readonly string[], stats: RedactionStats): Candidate {
  const r = (s: string): string => {
    const out = redact(s, { users });
    stats.findings += out.findings.length;
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
