/**
 * A detection rule: a cheap pre-filter, a regex compiled once, and an acceptance check that
 * weeds out placeholders and look-alikes. Rules report raw spans; `detect.ts` resolves overlaps.
 *
 * Speed: a regex that begins with a look-behind is tried at every position of the text. Rules
 * whose matches all begin with a fixed prefix are therefore "anchored": `indexOf` finds the
 * prefix (fast, vectorised), the start boundary is checked by hand, and a sticky regex matches
 * from there.
 */
import type { SecretKind } from './kinds.js';
import { escapeRegExp } from '../core/regexp.js';

export interface RawMatch {
  kind: SecretKind;
  start: number;
  end: number;
  /** Higher wins when two matches overlap: provider 3, structural 2, assignment 1, personal 0. */
  priority: number;
  description: string;
}

export interface RegexRule {
  kind: SecretKind;
  priority: number;
  /** The regex runs only if the text contains one of these (case-sensitive `includes`). */
  triggers?: readonly string[];
  /** Or only if this case-insensitive test passes. */
  pretest?: RegExp;
  /**
   * Every match begins with one of `triggers`: `re` is sticky (`y`) and is tried only where a
   * trigger occurs and `startOk` accepts the position.
   */
  anchored?: boolean;
  startOk?: (text: string, at: number) => boolean;
  /** Regex with the `d` flag so that capture groups have offsets (`g`, or `y` when anchored). */
  re: RegExp;
  /** Capture group that holds the secret; 0 = the whole match. */
  group?: number;
  accept?: (secret: string, m: RegExpExecArray, text: string) => boolean;
  describe?: (secret: string, m: RegExpExecArray) => string;
}

/** A rule that is easier to write as code than as one regex. */
export interface ScanRule {
  kind: SecretKind | 'multiple';
  triggers?: readonly string[];
  pretest?: RegExp;
  scan: (text: string, out: RawMatch[]) => void;
}

export type Rule = RegexRule | ScanRule;

function isWordish(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** `\n`, `\r`, `\t` written as escapes (JSON strings read raw) end at `at`. */
export function afterEscape(text: string, at: number): boolean {
  if (at < 2 || text.charCodeAt(at - 2) !== 92) return false;
  const c = text.charCodeAt(at - 1);
  return c === 110 || c === 114 || c === 116;
}

/**
 * Start of a token: not in the middle of a word, a base64/base64url blob (`+ - _`) or after a
 * lone backslash; an escaped newline counts as a separator.
 */
export function tokenStartOk(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  if (isWordish(c) || c === 43 || c === 45) return afterEscape(text, at);
  return c !== 92;
}

/** Start of a word: the previous character is not a letter or digit. */
export function wordStartOk(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  return !isWordish(c) || c === 95 || afterEscape(text, at);
}

/** End of a fixed-alphabet token. */
export const TOKEN_END = String.raw`(?![A-Za-z0-9])`;

export function rulePasses(rule: Rule, text: string): boolean {
  if (rule.triggers) {
    for (const t of rule.triggers) if (text.includes(t)) return true;
    return false;
  }
  if (rule.pretest) return rule.pretest.test(text);
  return true;
}

function pushMatch(rule: RegexRule, m: RegExpExecArray, text: string, out: RawMatch[]): void {
  const group = rule.group ?? 0;
  const secret = m[group];
  const span = m.indices?.[group];
  if (secret === undefined || span === undefined || secret.length === 0) return;
  if (rule.accept && !rule.accept(secret, m, text)) return;
  out.push({
    kind: rule.kind,
    start: span[0],
    end: span[1],
    priority: rule.priority,
    description: rule.describe ? rule.describe(secret, m) : '',
  });
}

/** Runs an anchored rule at one position where one of its triggers occurs. */
export function runAnchoredAt(rule: RegexRule, text: string, at: number, out: RawMatch[]): void {
  if (!(rule.startOk ?? tokenStartOk)(text, at)) return;
  rule.re.lastIndex = at;
  const m = rule.re.exec(text);
  if (m !== null) pushMatch(rule, m, text, out);
}

export function runRegexRule(rule: RegexRule, text: string, out: RawMatch[]): void {
  const re = rule.re;
  if (rule.anchored && rule.triggers) {
    for (const t of rule.triggers) {
      for (let at = text.indexOf(t); at !== -1; at = text.indexOf(t, at + 1)) runAnchoredAt(rule, text, at, out);
    }
    return;
  }
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    pushMatch(rule, m, text, out);
  }
}

/**
 * All anchored rules at once: one regex finds every trigger (an alternation of literals is far
 * cheaper than one `indexOf` per trigger), then each rule whose trigger starts there is tried.
 */
export function prefixScanner(rules: readonly RegexRule[]): (text: string, out: RawMatch[]) => void {
  const entries: { trigger: string; rule: RegexRule }[] = [];
  for (const rule of rules) for (const trigger of rule.triggers ?? []) entries.push({ trigger, rule });
  entries.sort((a, b) => b.trigger.length - a.trigger.length);
  const alternatives = [...new Set(entries.map((e) => escapeRegExp(e.trigger)))];
  const re = new RegExp(alternatives.join('|'), 'g');
  return (text, out) => {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const at = m.index;
      for (const e of entries) if (text.startsWith(e.trigger, at)) runAnchoredAt(e.rule, text, at, out);
      re.lastIndex = at + 1;
    }
  };
}
