/**
 * `KEY=value`, `KEY: value`, `"key": "value"`, `key = "value"`: values assigned to a key whose
 * name says "secret", and random-looking values assigned to environment-style keys.
 *
 * How a value is judged depends on how it is written, because the same key appears in code:
 *  - quoted (`"…"`, `'…'`): a literal; reported unless it is a placeholder, a reference, a
 *    path/URL/number, an env-var or snake/camel identifier, or contains whitespace (prose);
 *  - `KEY=value` with no spaces (shell, .env, CLI): a literal too, same checks;
 *  - `key = value`, `key: value` unquoted (code, YAML, Elixir keywords, TS types): usually a
 *    variable or a type, so the value must look like a password: letters plus digits or symbols.
 * Keys whose name only hints at a secret (`auth`, `key`) and environment-style keys with a
 * neutral name need a random-looking value (see `looksRandom`).
 */
import type { RawMatch, ScanRule } from './rule.js';
import {
  charClasses,
  isCodeReference,
  isIdentifierLike,
  isPlaceholderValue,
  isStructuralValue,
  looksRandom,
  UUID_RE,
} from './values.js';

type KeyClass = 'strong' | 'weak' | 'excluded' | 'neutral';

/** Substrings of a key word that make it a secret name (PGPASSWORD, authToken, clientSecret). */
const STRONG_PART_RE = /passw(?:or)?d|passphrase|secret|token|credential|apikey|privatekey|accesskey|secretkey/;
/** Whole words that make it a secret name. */
const STRONG_WORDS = new Set(['pwd', 'pass', 'pat', 'credentials']);
/** Pairs of consecutive words that do. */
const STRONG_PAIRS = new Set([
  'api key', 'private key', 'access key', 'secret key', 'auth key', 'signing key', 'encryption key',
  'master key', 'client secret', 'auth token', 'account key', 'shared key', 'app key',
]);
const WEAK_WORDS = new Set(['auth', 'key']);
/** Words that turn a secret-sounding key into metadata about the secret (`max_tokens`). */
const EXCLUDED_WORDS = new Set([
  'max', 'min', 'count', 'counts', 'limit', 'limits', 'length', 'len', 'type', 'types', 'kind',
  'method', 'methods', 'url', 'uri', 'urls', 'endpoint', 'host', 'file', 'files', 'filename', 'path',
  'paths', 'dir', 'name', 'names', 'ids', 'usage', 'used', 'expires', 'expiry', 'expiration', 'exp',
  'ttl', 'timeout', 'header', 'headers', 'field', 'fields', 'env', 'var', 'hint', 'prompt', 'policy',
  'mode', 'provider', 'strategy', 'enabled', 'enable', 'disabled', 'required', 'input', 'output',
  'format', 'prefix', 'suffix', 'regex', 'pattern', 'label', 'description', 'placeholder', 'example',
  'schema', 'ref', 'source', 'location', 'manager', 'helper', 'service', 'handler', 'callback',
  'redirect', 'scope', 'scopes', 'audience', 'issuer', 'algorithm', 'alg', 'version', 'param', 'arg',
  'flag', 'option', 'reset', 'strength', 'rule', 'rules', 'validation', 'valid', 'budget', 'cost',
  'window', 'remaining', 'rate', 'estimate', 'lifetime', 'cache', 'hash', 'digest', 'sha', 'checksum',
  'tokens', 'tokenizer', 'tokenize', 'tokenized', 'public', 'pub', 'size', 'index', 'position',
  'start', 'end', 'offset', 'line', 'lines', 'column', 'event', 'events', 'store', 'stdin', 'command',
  'cmd', 'length', 'secretary', 'passwordless', 'author', 'authors', 'authority', 'fingerprint',
  'rotation', 'created', 'updated', 'changed', 'last', 'next', 'prev', 'previous', 'status', 'state',
  'error', 'errors', 'message', 'text', 'title', 'link', 'docs', 'doc', 'help', 'usage',
]);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function classifyKey(key: string): KeyClass {
  const words = keyWords(key);
  if (words.length === 0) return 'neutral';
  let strong = false;
  let weak = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (EXCLUDED_WORDS.has(w)) return 'excluded';
    if (w === 'id' && !words.includes('secret')) return 'excluded';
    if (STRONG_WORDS.has(w) || STRONG_PART_RE.test(w)) strong = true;
    else if (WEAK_WORDS.has(w)) weak = true;
    if (i > 0 && STRONG_PAIRS.has(`${words[i - 1]} ${w}`)) strong = true;
  }
  return strong ? 'strong' : weak ? 'weak' : 'neutral';
}

const KEY_START = String.raw`(?:(?<![A-Za-z0-9_.\\])|(?<=\\[nrt]))`;
const KEYWORD = String.raw`(?:passw(?:or)?d|passphrase|pwd|pass|secret|token|credential|api[_.-]?key|auth|private[_.-]?key|access[_.-]?key|key|pat)`;
/** Operator, optional opening quote, then a quoted or an unquoted value. */
const REST =
  String.raw`(?<kq>\\{0,3}["'])?(?<sp1>[ \t]*)(?<op>:=|=>|=(?!=)|:(?!:))(?<sp2>[ \t]*)` +
  String.raw`(?:(?<vq>\\{0,3}["'\x60])(?<qv>[^\s"'\x60\\]{1,512})|(?<uv>[^\s"'\x60\\,;(){}\[\]<>]{1,512}))`;

/** Keys that contain a secret keyword (case-insensitive). */
const KEYWORD_ASSIGN_RE = new RegExp(`${KEY_START}(?<key>[A-Za-z0-9_.-]{0,60}?${KEYWORD}[A-Za-z0-9_.-]{0,60})${REST}`, 'gid');
/** Environment-style keys (`SOME_VALUE=…`, `"SOME_VALUE": "…"`), checked for random values only. */
const ENV_ASSIGN_RE = new RegExp(`${KEY_START}(?<key>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})${REST}`, 'gd');

const PRETEST_RE = /passw|passphrase|pwd|pass|secret|token|credential|key|auth|pat/i;

function describeKey(key: string): string {
  const k = key.replace(/^[-_.]+/, '');
  return k.length > 40 ? `${k.slice(0, 37)}...` : k;
}

interface Parsed {
  key: string;
  value: string;
  start: number;
  end: number;
  quoted: boolean;
  spaced: boolean;
  op: string;
  next: string;
}

function parse(m: RegExpExecArray, text: string): Parsed | undefined {
  const g = m.groups ?? {};
  const quoted = g.qv !== undefined;
  const value = quoted ? g.qv : g.uv;
  const span = m.indices?.groups?.[quoted ? 'qv' : 'uv'];
  if (value === undefined || span === undefined || g.key === undefined) return undefined;
  return {
    key: g.key,
    value,
    start: span[0],
    end: span[1],
    quoted,
    spaced: (g.sp1 ?? '').length > 0 || (g.sp2 ?? '').length > 0,
    op: g.op ?? '=',
    next: text.charAt(span[1]),
  };
}

function notASecret(p: Parsed): boolean {
  const v = p.value;
  if (v.includes('[REDACTED')) return true;
  if (isPlaceholderValue(v) || isStructuralValue(v) || UUID_RE.test(v)) return true;
  if (!p.quoted && isCodeReference(v, p.next)) return true;
  if (p.quoted && p.next !== '' && p.next !== '"' && p.next !== "'" && p.next !== '`' && p.next !== '\\') {
    return true; // the quoted value continues with whitespace: prose, not a credential
  }
  return false;
}

/** A literal written as a literal (quoted, or `KEY=value` shell style). */
function literalSecret(v: string): boolean {
  if (v.length < 5 || isIdentifierLike(v)) return false;
  return /[A-Za-z0-9]/.test(v);
}

/** An unquoted value in code or YAML: a password has letters and digits or symbols. */
function passwordShaped(v: string): boolean {
  if (v.length < 6 || isIdentifierLike(v)) return false;
  const c = charClasses(v);
  if (c.upper + c.lower === 0) return false;
  return c.digit > 0 || /[^A-Za-z0-9_.-]/.test(v) || looksRandom(v);
}

function scanKeywordAssignments(text: string, out: RawMatch[]): void {
  const re = KEYWORD_ASSIGN_RE;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const p = parse(m, text);
    if (!p) continue;
    const cls = classifyKey(p.key);
    if (cls === 'excluded' || cls === 'neutral') continue;
    if (notASecret(p)) continue;
    if (cls === 'strong') {
      const literal = p.quoted || (p.op === '=' && !p.spaced);
      if (literal ? literalSecret(p.value) : passwordShaped(p.value)) {
        out.push({
          kind: 'secret-assignment',
          start: p.start,
          end: p.end,
          priority: 1,
          description: `value of secret-named key "${describeKey(p.key)}"`,
        });
      }
    } else if (looksRandom(p.value)) {
      out.push({
        kind: 'high-entropy-assignment',
        start: p.start,
        end: p.end,
        priority: 1,
        description: `random-looking value of key "${describeKey(p.key)}"`,
      });
    }
  }
}

function scanEnvAssignments(text: string, out: RawMatch[]): void {
  const re = ENV_ASSIGN_RE;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const p = parse(m, text);
    if (!p) continue;
    // Secret-named keys were handled by the keyword scan.
    if (classifyKey(p.key) !== 'neutral') continue;
    if (notASecret(p) || !looksRandom(p.value)) continue;
    out.push({
      kind: 'high-entropy-assignment',
      start: p.start,
      end: p.end,
      priority: 1,
      description: `random-looking value of key "${describeKey(p.key)}"`,
    });
  }
}

export const ASSIGNMENT_RULES: readonly ScanRule[] = [
  { kind: 'multiple', pretest: PRETEST_RE, scan: scanKeywordAssignments },
  { kind: 'high-entropy-assignment', pretest: /[A-Z]{3}/, scan: scanEnvAssignments },
];
