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
import { afterEscape, type RawMatch, type ScanRule } from './rule.js';
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
/** Words that hint at a secret without naming one: the value must also look random. */
const WEAK_WORDS = new Set(['auth', 'key', 'salt', 'creds', 'cookie', 'signing']);
/** Words that turn a secret-sounding key into metadata about the secret (`max_tokens`). */
const EXCLUDED_WORDS = new Set([
  'max', 'min', 'count', 'counts', 'limit', 'limits', 'length', 'len', 'type', 'types', 'kind',
  'method', 'methods', 'url', 'uri', 'urls', 'endpoint', 'host', 'file', 'files', 'filename', 'path',
  'paths', 'dir', 'name', 'names', 'ids', 'usage', 'used', 'expires', 'expiry', 'expiration', 'exp',
  'ttl', 'timeout', 'header', 'headers', 'field', 'fields', 'env', 'var', 'hint', 'prompt', 'policy',
  'mode', 'provider', 'providers', 'strategy', 'enabled', 'enable', 'disabled', 'required', 'input', 'output',
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

/** Keys repeat endlessly in JSON transcripts (`input_tokens`, `sessionId`): remember them. */
const keyCache = new Map<string, KeyClass>();
const KEY_CACHE_MAX = 4096;

export function classifyKey(key: string): KeyClass {
  let cls = keyCache.get(key);
  if (cls === undefined) {
    cls = classifyKeyUncached(key);
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    keyCache.set(key, cls);
  }
  return cls;
}

function classifyKeyUncached(key: string): KeyClass {
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

/**
 * After the key: optional closing quote (maybe escaped), operator, optional opening quote, then a
 * quoted or an unquoted value. Sticky: tried only right after a key found from an operator.
 */
const REST_RE = new RegExp(
  String.raw`(?<kq>\\{0,3}["'])?(?<sp1>[ \t]*)(?<op>:=|=>|=(?!=)|:(?!:))(?<sp2>[ \t]*)` +
    String.raw`(?:(?<vq>\\{0,3}["'\x60])(?<qv>[^\s"'\x60\\]{1,512})|(?<uv>[^\s"'\x60\\,;(){}\[\]<>]{1,512}))`,
  'yd',
);
/** Cheap test on the key before the full classification. */
const KEYWORD_RE = /passw|pwd|pass|secret|token|cred|key|auth|pat|private|salt|cookie|signing/i;
/** Environment-style keys (`SOME_VALUE=…`, `"SOME_VALUE": "…"`), checked for random values only. */
const ENV_KEY_RE = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})$/;
const OP_RE = /[:=]/g;
const MAX_KEY = 120;

function isKeyChar(c: number): boolean {
  // A-Z a-z 0-9 _ . -
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}

/** The key that ends before the operator at `op` (spaces and a closing quote may sit between). */
function keyBefore(text: string, op: number): [number, number] | undefined {
  let i = op - 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  const q = text.charCodeAt(i);
  if (q === 34 || q === 39) {
    i--;
    while (i >= 0 && text.charCodeAt(i) === 92) i--;
  }
  const end = i + 1;
  while (i >= 0 && end - i <= MAX_KEY && isKeyChar(text.charCodeAt(i)) && !afterEscape(text, i + 1)) i--;
  const start = i + 1;
  if (start >= end || end - start > MAX_KEY) return undefined;
  if (start > 0 && text.charCodeAt(start - 1) === 92 && !afterEscape(text, start)) return undefined;
  return [start, end];
}

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
  afterSpace: boolean;
  op: string;
  next: string;
}

function parse(key: string, m: RegExpExecArray, text: string): Parsed | undefined {
  const g = m.groups ?? {};
  const quoted = g.qv !== undefined;
  const value = quoted ? g.qv : g.uv;
  const span = m.indices?.groups?.[quoted ? 'qv' : 'uv'];
  if (value === undefined || span === undefined) return undefined;
  return {
    key,
    value,
    start: span[0],
    end: span[1],
    quoted,
    spaced: (g.sp1 ?? '').length > 0 || (g.sp2 ?? '').length > 0,
    afterSpace: (g.sp2 ?? '').length > 0,
    op: g.op ?? '=',
    next: text.charAt(span[1]),
  };
}

function notASecret(p: Parsed): boolean {
  const v = p.value;
  if (v.includes('[REDACTED')) return true;
  if (isPlaceholderValue(v) || isStructuralValue(v) || UUID_RE.test(v)) return true;
  if (!p.quoted && isCodeReference(v, p.next)) return true;
  // `user:pass@host` and `host:port` are not assignments; YAML and JSON put a space or a quote
  // after the colon.
  if (!p.quoted && p.op === ':' && !p.afterSpace) return true;
  if (p.quoted && p.next !== '' && p.next !== '"' && p.next !== "'" && p.next !== '`' && p.next !== '\\') {
    return true; // the quoted value continues with whitespace: prose, not a credential
  }
  return false;
}

const PASSWORD_KEY_RE = /pass|pwd/i;

/**
 * A literal written as a literal (quoted, or `KEY=value` shell style). Passwords may be plain
 * words; API keys and tokens never are (`apiKey: 'ollama'` is a documented dummy value).
 */
function literalSecret(v: string, key: string): boolean {
  if (v.length < 5 || isIdentifierLike(v)) return false;
  if (!/[A-Za-z0-9]/.test(v)) return false;
  return PASSWORD_KEY_RE.test(key) || !/^[a-z]+$/.test(v);
}

/** An unquoted value in code or YAML: a password has letters and digits or symbols. */
function passwordShaped(v: string): boolean {
  if (v.length < 6 || isIdentifierLike(v)) return false;
  const c = charClasses(v);
  if (c.upper + c.lower === 0) return false;
  return c.digit > 0 || /[^A-Za-z0-9_.-]/.test(v) || looksRandom(v);
}

function report(out: RawMatch[], kind: 'secret-assignment' | 'high-entropy-assignment', p: Parsed): void {
  const what = kind === 'secret-assignment' ? 'value of secret-named key' : 'random-looking value of key';
  out.push({ kind, start: p.start, end: p.end, priority: 1, description: `${what} "${describeKey(p.key)}"` });
}

/**
 * Whether the text holds a key that KEYWORD_RE or ENV_KEY_RE accepts, right before an operator
 * (what REST_RE allows between them included): a superset of what the loop below can report, in
 * one scan. Most texts (an item file's YAML, prose) have neither, and skip the loop over every
 * `:` and `=`. The env-style part is case-sensitive, as ENV_KEY_RE is.
 */
const KEYWORD_KEY_THEN_OP = /(?:passw|pwd|pass|secret|token|cred|key|auth|pat|private|salt|cookie|signing)[\w.-]*(?:\\{0,3}["'])?[ \t]*[:=]/i;
const ENV_KEY_THEN_OP = /(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})(?:\\{0,3}["'])?[ \t]*[:=]/;

/** Found from each `:` / `=`: the key before it decides which check the value gets. */
function scanAssignments(text: string, out: RawMatch[]): void {
  if (!KEYWORD_KEY_THEN_OP.test(text) && !ENV_KEY_THEN_OP.test(text)) return;
  OP_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = OP_RE.exec(text)) !== null) {
    const span = keyBefore(text, m.index);
    if (!span) continue;
    const key = text.slice(span[0], span[1]);
    const keyword = KEYWORD_RE.test(key);
    if (!keyword && !ENV_KEY_RE.test(key)) continue;
    const cls = keyword ? classifyKey(key) : 'neutral';
    if (cls === 'excluded') continue;
    REST_RE.lastIndex = span[1];
    const rest = REST_RE.exec(text);
    if (!rest) continue;
    OP_RE.lastIndex = Math.max(OP_RE.lastIndex, REST_RE.lastIndex);
    const p = parse(key, rest, text);
    if (!p || notASecret(p)) continue;
    if (cls === 'strong') {
      const literal = p.quoted || (p.op === '=' && !p.spaced);
      if (literal ? literalSecret(p.value, p.key) : passwordShaped(p.value)) report(out, 'secret-assignment', p);
    } else if (cls === 'weak' || ENV_KEY_RE.test(key)) {
      if (looksRandom(p.value)) report(out, 'high-entropy-assignment', p);
    }
  }
}

export const ASSIGNMENT_RULES: readonly ScanRule[] = [{ kind: 'multiple', scan: scanAssignments }];
