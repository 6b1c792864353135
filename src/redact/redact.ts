/**
 * redact: replaces every finding by a placeholder naming its kind (`[REDACTED:github-token]`),
 * rewrites home directories to `~`, and removes known account names. Idempotent: placeholders
 * are never detected again and nothing that is left can form a new match.
 */
import { collectRaw, resolve, toFindings } from './detect.js';
import { placeholder, type SecretFinding } from './kinds.js';
import { findHomePaths } from './personal.js';

export interface RedactOptions {
  /** Account names to remove wherever they appear as a word (e.g. from the session's cwd). */
  users?: readonly string[];
}

export interface RedactResult {
  text: string;
  /** What was replaced, with offsets into the input text. Generic home paths (`/home/runner`)
   * are rewritten to `~` but are not findings. */
  findings: SecretFinding[];
}

/** Names shorter than this, taken from a home path, are too ambiguous to remove as words. */
const MIN_DERIVED_NAME = 3;

export function redact(text: string, options: RedactOptions = {}): RedactResult {
  const homes = findHomePaths(text);
  const users = [...(options.users ?? [])];
  for (const h of homes) if (!h.generic && h.user.length >= MIN_DERIVED_NAME) users.push(h.user);

  const merged = resolve(collectRaw(text, users));
  const findings = toFindings(text, merged);

  const edits: { start: number; end: number; replacement: string }[] = merged.map((r) => ({
    start: r.start,
    end: r.end,
    replacement: r.kind === 'home-path' ? '~' : placeholder(r.kind),
  }));
  for (const h of homes) {
    if (!h.generic) continue;
    if (merged.some((r) => r.start < h.end && h.start < r.end)) continue;
    edits.push({ start: h.start, end: h.end, replacement: '~' });
  }
  if (edits.length === 0) return { text, findings };

  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const e of edits) {
    out += text.slice(cursor, e.start) + e.replacement;
    cursor = e.end;
  }
  out += text.slice(cursor);
  return { text: out, findings };
}
