/**
 * Judging a candidate value: placeholder, code reference, or something that looks like a real
 * credential. These checks run only on regex matches, never on whole texts.
 */

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

export function distinctChars(s: string): number {
  return new Set(s).size;
}

export interface CharClasses {
  upper: number;
  lower: number;
  digit: number;
  other: number;
  vowels: number;
}

export function charClasses(s: string): CharClasses {
  const r: CharClasses = { upper: 0, lower: 0, digit: 0, other: 0, vowels: 0 };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) r.upper++;
    else if (c >= 97 && c <= 122) r.lower++;
    else if (c >= 48 && c <= 57) r.digit++;
    else r.other++;
    if ('aeiouAEIOU'.includes(s[i] as string)) r.vowels++;
  }
  return r;
}

/**
 * Values that stand for a secret without being one: documentation placeholders, template
 * references, masks, well-known local-development defaults.
 */
const PLACEHOLDER_WORDS = new Set([
  'password', 'passwd', 'pass', 'secret', 'token', 'apikey', 'api_key', 'key', 'changeme',
  'change_me', 'changethis', 'example', 'sample', 'placeholder', 'dummy', 'fake', 'test', 'testing',
  'redacted', 'hidden', 'masked', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'yes', 'no',
  'required', 'optional', 'string', 'str', 'number', 'int', 'integer', 'boolean', 'bool', 'bytes',
  'any', 'unknown', 'object', 'secretstr', 'env', 'todo', 'tbd', 'foo', 'bar', 'baz', 'foobar',
  'admin', 'root', 'postgres', 'mysql', 'guest', 'user', 'username', 'default', 'local', 'dev',
  'development', 'localdev', 'letmein', 'hunter2', 'qwerty', 'abc123', '123456', '12345678',
  'password123', 'secret123', 'bearer', 'basic', 'oauth', 'oauth2', 'xxx', 'mypassword',
  'mysecret', 'mytoken', 'yourpassword', 'yoursecret', 'yourtoken', 'notasecret', 'supersecret',
]);

const PLACEHOLDER_RE =
  /^(?:\$|%|<|\{|\[|\*|!|#\{|@[A-Za-z_]|&|\.\.\.|…)|\[REDACTED|\$\{|\{\{|<[^>]*>|your[_-]?|^my[_-]|(?:^|[_-])(?:here|example|sample|placeholder|dummy|fake|changeme)(?:$|[_-])|xxxx|\.\.\.|…|^env[:.(]/i;

export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  // (a word ending a sentence, `FLAG=false.`, is still that word)
  if (PLACEHOLDER_WORDS.has(v.toLowerCase()) || PLACEHOLDER_WORDS.has(v.replace(/[.,;:!?)]+$/, '').toLowerCase())) return true;
  if (PLACEHOLDER_RE.test(v)) return true;
  // AWS documents its example keys with EXAMPLE inside (AKIAIOSFODNN7EXAMPLE).
  if (v.includes('EXAMPLE')) return true;
  // Masks and fillers: "********", "xxxxxxxx", "00000000", "abcabcabc".
  if (distinctChars(v) <= Math.max(2, Math.floor(v.length / 8))) return true;
  return false;
}

/** `process.env.API_KEY`, `config.auth.token`, `opts[:secret]`, `getToken()`: code, not data.
 * A random-looking part is no name (`<token>.txt` is a file named after a secret). */
export function isCodeReference(value: string, nextChar: string): boolean {
  if (nextChar === '(' || nextChar === '[' || nextChar === '.') return true;
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !value.split('.').some((part) => looksRandom(part));
}

/** Paths, URLs, numbers and versions are never credentials in themselves. */
export function isStructuralValue(value: string): boolean {
  if (/^(?:\/|\.\.?\/|~|[A-Za-z]:[\\/])/.test(value)) return true;
  if (value.includes('://')) return true;
  // Versions and ranges: 1.2.3, v20, ^3.948.0, ~1.2, >=2.0.0-rc.1
  if (/^(?:[\^~]|[<>]=?|=)?v?\d+(?:[.:_-]\d+)*(?:[-+][\w.]+)?$/.test(value)) return true;
  if (/^\d+(?:\.\d+)?(?:ms|s|m|h|d|kb|mb|gb|k|%)?$/i.test(value)) return true;
  return false;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const HEX_RE = /^[0-9a-f]+$/i;

/**
 * Names rather than values: `hashed_password`, `authToken`, `SECRET_NAME`, `proxy-handled`,
 * `test-key`. Plain lowercase words (`hunter`) are not included: in `.env` files they are values.
 */
export function isIdentifierLike(value: string): boolean {
  // A token prefix on its own ("sk-ant-" + rest built in code).
  if (/[-_]$/.test(value)) return true;
  if (/\d/.test(value)) return false;
  return (
    /^[a-z]+(?:_[a-z]+)+$/.test(value) ||
    /^[a-z]+(?:-[a-z]+)+$/.test(value) ||
    /^[A-Z]+(?:_[A-Z]+)+$/.test(value) ||
    /^[a-z]+(?:[A-Z][a-z]*)+$/.test(value) ||
    /^(?:[A-Z][a-z]+){2,}$/.test(value)
  );
}

/** base64 that decodes to readable text ("SGVsbG8gd29ybGQ=") is an encoding, not a key. */
export function isBase64OfText(value: string): boolean {
  if (value.length < 12 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  let printable = 0;
  let letters = 0;
  let spaces = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if (c >= 32 && c < 127) printable++;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    if (c === 32) spaces++;
  }
  return printable === decoded.length && letters >= decoded.length * 0.6 && (spaces > 0 || decoded.length < 12);
}

/**
 * "Looks random": long, mixes upper, lower and digits, high Shannon entropy and few vowels.
 * Thresholds come from sampling random base62/base64 strings (1st percentile of entropy at
 * length 20 is about 3.65 bits) and checking camelCase names, slugs and base64 of words.
 */
export function looksRandom(value: string, minLength = 20): boolean {
  if (value.length < minLength) return false;
  if (UUID_RE.test(value) || HEX_RE.test(value)) return false;
  const cls = charClasses(value);
  if (cls.upper === 0 || cls.lower === 0 || cls.digit < 2) return false;
  const threshold = value.length >= 32 ? 4.0 : 3.55;
  if (shannonEntropy(value) < threshold) return false;
  const letters = cls.upper + cls.lower;
  if (letters > 0 && cls.vowels / letters > 0.34) return false;
  if (isBase64OfText(value)) return false;
  return true;
}

/** A prefixed token's body: enough variety to be random, not a filler like "xxxx" or "1234". */
export function isTokenBody(body: string, needDigit = true): boolean {
  if (isPlaceholderValue(body)) return false;
  if (distinctChars(body) < Math.min(10, Math.ceil(body.length / 3))) return false;
  const cls = charClasses(body);
  if (cls.upper + cls.lower === 0) return false;
  if (needDigit && cls.digit === 0) return false;
  return true;
}
