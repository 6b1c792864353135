/**
 * findSecrets: runs every rule whose pre-filter passes, drops matches inside existing
 * `[REDACTED:…]` placeholders, merges overlaps (the most specific kind wins, spans are united so
 * nothing is left half-redacted), and adds 1-based line and column.
 */
import { ASSIGNMENT_RULES } from './assignments.js';
import { KIND_INFO, PLACEHOLDER_RE, type SecretFinding } from './kinds.js';
import { EMAIL_RULE, findUserNames, HOME_PATH_RULE } from './personal.js';
import { PROVIDER_RULES } from './providers.js';
import { prefixScanner, rulePasses, runRegexRule, type RawMatch, type RegexRule, type Rule } from './rule.js';
import { STRUCTURAL_RULES } from './structural.js';
import { STATED_RULES } from './stated.js';
import { PERSON_NAME_RULE } from './people.js';
import { escapeRegExp } from '../core/regexp.js';

export interface FindOptions {
  /** Account names to report wherever they appear as a word (kind `user-name`). */
  users?: readonly string[];
  /**
   * Skip findings on lines that contain `compound:allow-secret`. For `compound check` on
   * reviewed files only; `redact` never honours it.
   */
  honorAllowMarker?: boolean;
}

export const ALLOW_MARKER = 'compound:allow-secret';

const RULES: readonly Rule[] = [...PROVIDER_RULES, ...STRUCTURAL_RULES, ...STATED_RULES, ...ASSIGNMENT_RULES, EMAIL_RULE, HOME_PATH_RULE, PERSON_NAME_RULE];

const isAnchored = (r: Rule): r is RegexRule => !('scan' in r) && r.anchored === true;
const scanPrefixes = prefixScanner(RULES.filter(isAnchored));
const OTHER_RULES = RULES.filter((r) => !isAnchored(r));
/** A pre-test with flags other than `i` would change meaning inside the combined regex below. */
const gated = (r: Rule): boolean => r.triggers !== undefined || (r.pretest !== undefined && /^i?$/.test(r.pretest.flags));
/** Rules with a trigger or a pre-test, which most texts (an item file, a short message) fail. */
const GATED_RULES = OTHER_RULES.filter(gated);
const IS_GATED = OTHER_RULES.map(gated);
/**
 * One case-insensitive test for all of their triggers and pre-tests at once: a superset of each
 * (a trigger is a case-sensitive literal, a pre-test a regex), so a text it fails fails every
 * one of them, and the rules' own tests still decide the rest. One scan instead of one per rule.
 */
const ANY_GATE = new RegExp(
  GATED_RULES.map((r) => (r.triggers ? r.triggers.map((t) => escapeRegExp(t)).join('|') : `(?:${r.pretest!.source})`)).join('|'),
  'i',
);

export function collectRaw(text: string, users: readonly string[] = []): RawMatch[] {
  const raw: RawMatch[] = [];
  if (text.length === 0) return raw;
  scanPrefixes(text, raw);
  // in the order of RULES among themselves: the order matches are found in does not matter
  // (resolve() sorts them), but keep it stable for the next reader
  const gate = ANY_GATE.test(text);
  for (let i = 0; i < OTHER_RULES.length; i++) {
    const rule = OTHER_RULES[i]!;
    if (!gate && IS_GATED[i]) continue;
    if (!rulePasses(rule, text)) continue;
    if ('scan' in rule) rule.scan(text, raw);
    else runRegexRule(rule, text, raw);
  }
  if (users.length > 0) {
    const claimed = resolve(raw);
    for (const u of findUserNames(text, users)) if (!overlapsAny(u, claimed)) raw.push(u);
  }
  return dropInsidePlaceholders(text, raw);
}

export function findSecrets(text: string, options: FindOptions = {}): SecretFinding[] {
  const merged = resolve(collectRaw(text, options.users ?? []));
  let findings = toFindings(text, merged);
  if (options.honorAllowMarker && text.includes(ALLOW_MARKER)) {
    const lines = text.split('\n');
    findings = findings.filter((f) => !(lines[f.line - 1] ?? '').includes(ALLOW_MARKER));
  }
  return findings;
}

function dropInsidePlaceholders(text: string, raw: RawMatch[]): RawMatch[] {
  if (raw.length === 0 || !text.includes('[REDACTED:')) return raw;
  const spans: [number, number][] = [];
  PLACEHOLDER_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PLACEHOLDER_RE.exec(text)) !== null) spans.push([m.index, m.index + m[0].length]);
  return raw.filter((r) => !spans.some(([s, e]) => r.start < e && s < r.end));
}

function overlapsAny(r: RawMatch, sorted: readonly RawMatch[]): boolean {
  for (const s of sorted) {
    if (s.start >= r.end) break;
    if (s.end > r.start) return true;
  }
  return false;
}

/** Merges overlapping matches; the highest priority (then the longest) names the kind. */
export function resolve(raw: readonly RawMatch[]): RawMatch[] {
  if (raw.length <= 1) return [...raw];
  const sorted = [...raw].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: RawMatch[] = [];
  let cur = { ...(sorted[0] as RawMatch) };
  let best = sorted[0] as RawMatch;
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i] as RawMatch;
    if (r.start < cur.end) {
      if (r.priority > best.priority || (r.priority === best.priority && r.end - r.start > best.end - best.start)) best = r;
      cur.end = Math.max(cur.end, r.end);
      continue;
    }
    out.push({ ...cur, kind: best.kind, priority: best.priority, description: best.description });
    cur = { ...r };
    best = r;
  }
  out.push({ ...cur, kind: best.kind, priority: best.priority, description: best.description });
  return out;
}

export function toFindings(text: string, merged: readonly RawMatch[]): SecretFinding[] {
  if (merged.length === 0) return [];
  const starts = lineStarts(text);
  return merged.map((r) => {
    const li = lineIndexOf(starts, r.start);
    return {
      kind: r.kind,
      category: KIND_INFO[r.kind].category,
      line: li + 1,
      column: r.start - (starts[li] as number) + 1,
      start: r.start,
      end: r.end,
      description: r.description || KIND_INFO[r.kind].label,
    };
  });
}

function lineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

function lineIndexOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
