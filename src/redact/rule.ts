/**
 * A detection rule: a cheap pre-filter, a regex compiled once, and an acceptance check that
 * weeds out placeholders and look-alikes. Rules report raw spans; `detect.ts` resolves overlaps.
 */
import type { SecretKind } from './kinds.js';

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
  /** Global regex with the `d` flag so that capture groups have offsets. */
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

/**
 * Start of a token: not in the middle of a word, a base64/base64url blob or a path segment
 * glued to letters. `\n`, `\r`, `\t` escapes (JSON strings read raw) count as separators.
 */
export const TOKEN_START = String.raw`(?:(?<![A-Za-z0-9_+\-\\])|(?<=\\[nrt]))`;
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

export function runRegexRule(rule: RegexRule, text: string, out: RawMatch[]): void {
  const re = rule.re;
  const group = rule.group ?? 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const secret = m[group];
    const span = m.indices?.[group];
    if (secret === undefined || span === undefined || secret.length === 0) continue;
    if (rule.accept && !rule.accept(secret, m, text)) continue;
    out.push({
      kind: rule.kind,
      start: span[0],
      end: span[1],
      priority: rule.priority,
      description: rule.describe ? rule.describe(secret, m) : '',
    });
  }
}
