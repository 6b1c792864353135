/**
 * A fast path for the front matter this tool writes itself (block mapping of plain scalars,
 * flow lists, one flow mapping per source). It accepts only lines whose YAML meaning is
 * unambiguous and returns undefined for anything else, so the full YAML parser decides those;
 * `check` and `reindex` on 100,000 items would otherwise spend most of their time in YAML.
 */

const CORE_NUMBER = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const SAFE_FIRST = /^[A-Za-z0-9_.\/(]/; // no YAML indicator first
const UNSAFE_INSIDE = /: |:$| #|\t/; // would end the scalar or start a comment
const RISKY_PLAIN = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

type Scalar = string | number;

/** The lowercase spellings RISKY_PLAIN rejects. */
const RISKY_WORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/**
 * The common case (`pitfall`, `claude-code`, `repo-12`, `s-1585`) without five regexes: a
 * lowercase letter then `[a-z0-9_./-]` is not a number, has no indicator, space, `:` or `#`, so
 * `scalar` below returns it as is unless RISKY_PLAIN matches it.
 */
function isPlainWord(s: string): boolean {
  const first = s.charCodeAt(0);
  if (!(first >= 97 && first <= 122)) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 47 || c === 45)) return false;
  }
  return !RISKY_WORDS.has(s);
}

/** A plain or double-quoted scalar with the same meaning YAML 1.2 core would give it, or undefined. */
function scalar(raw: string): Scalar | undefined {
  if (isPlainWord(raw)) return raw;
  const s = raw.trim();
  if (s !== raw || s === '') return undefined;
  if (s.startsWith('"')) {
    if (s.length < 2 || !s.endsWith('"') || s.slice(1, -1).includes('"') || s.includes('\\')) return undefined;
    return s.slice(1, -1);
  }
  if (s.startsWith("'")) {
    const inner = s.slice(1, -1);
    if (s.length < 2 || !s.endsWith("'") || inner.replace(/''/g, '').includes("'")) return undefined;
    return inner.replace(/''/g, "'");
  }
  if (CORE_NUMBER.test(s)) return Number(s);
  if (RISKY_PLAIN.test(s) || !SAFE_FIRST.test(s) || UNSAFE_INSIDE.test(s)) return undefined;
  if (/^0[xo]/i.test(s)) return undefined;
  return s;
}

function flowList(raw: string): Scalar[] | undefined {
  if (!raw.startsWith('[') || !raw.endsWith(']')) return undefined;
  const inner = raw.slice(1, -1);
  if (inner === '') return [];
  if (/[[\]{}"']/.test(inner)) return undefined;
  const out: Scalar[] = [];
  for (const part of inner.split(',')) {
    const v = scalar(part.trim());
    if (v === undefined || part.trim() === '') return undefined;
    out.push(v);
  }
  return out;
}

/** Length of the `[a-z_]+` key at the start of `s` when a `:` follows it, else 0. */
function keyLength(s: string): number {
  let k = 0;
  for (let c = s.charCodeAt(0); (c >= 97 && c <= 122) || c === 95; c = s.charCodeAt(++k));
  return k > 0 && s.charCodeAt(k) === 58 ? k : 0;
}

function flowMap(inner: string): Record<string, Scalar> | undefined {
  if (/[[\]{}"']/.test(inner)) return undefined;
  const out: Record<string, Scalar> = {};
  for (const part of inner.split(', ')) {
    // `key: value`, value not empty
    const k = keyLength(part);
    if (k === 0 || part.charCodeAt(k + 1) !== 32 || part.length < k + 3) return undefined;
    const key = part.slice(0, k);
    const v = scalar(part.slice(k + 2));
    if (v === undefined || key in out) return undefined;
    out[key] = v;
  }
  return out;
}

/** Line terminators other than `\n`: `.` in a regex would not match them, YAML decides. */
const OTHER_TERMINATOR = /[\r\u2028\u2029]/;

/** Parses the lines between the fences; undefined means "let the YAML parser decide". */
export function parseSimpleFrontMatter(lines: readonly string[]): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let list: Record<string, Scalar>[] | undefined;
  for (const line of lines) {
    if (OTHER_TERMINATOR.test(line)) return undefined;
    if (list) {
      // `  - {…}`
      if (line.length >= 6 && line.startsWith('  - {') && line.charCodeAt(line.length - 1) === 125) {
        const rec = flowMap(line.slice(5, -1));
        if (!rec) return undefined;
        list.push(rec);
        continue;
      }
      list = undefined;
    }
    // `key:` or `key: value`
    const k = keyLength(line);
    if (k === 0) return undefined;
    const key = line.slice(0, k);
    if (key in data) return undefined; // duplicate keys: the YAML parser reports them
    if (k + 1 === line.length) {
      list = [];
      data[key] = list;
      continue;
    }
    if (line.charCodeAt(k + 1) !== 32) return undefined;
    const value = line.slice(k + 2);
    const parsed = value.startsWith('[') ? flowList(value) : scalar(value);
    if (parsed === undefined) return undefined;
    data[key] = parsed;
  }
  return data;
}
