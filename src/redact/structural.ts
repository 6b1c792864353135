/**
 * Secrets recognised by their surroundings: PEM blocks, JWTs, Authorization headers, passwords
 * inside URLs, connection strings and command lines. Spans cover only the secret, so that
 * `Authorization: Bearer [REDACTED:bearer-header]` still reads well.
 */
import { KIND_INFO } from './kinds.js';
import { wordStartOk, type RawMatch, type RegexRule, type ScanRule } from './rule.js';
import {
  charClasses,
  isIdentifierLike,
  isPlaceholderValue,
  isStructuralValue,
  isTokenBody,
} from './values.js';

const S = 2;

const PEM_BEGIN_RE = /-----BEGIN ((?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?)-----/g;
/** When the END line is missing (truncated output), the block runs over base64 and escapes. */
const PEM_TAIL_RE = /[A-Za-z0-9+/=\s\\:,-]*/y;
const PEM_MAX = 64 * 1024;

/** Whole PEM private key blocks, BEGIN and END lines included. */
export const PRIVATE_KEY_RULE: ScanRule = {
  kind: 'private-key-block',
  triggers: ['PRIVATE KEY'],
  scan(text: string, out: RawMatch[]): void {
    PEM_BEGIN_RE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = PEM_BEGIN_RE.exec(text)) !== null) {
      const label = m[1] as string;
      const bodyStart = m.index + m[0].length;
      const endLine = `-----END ${label}-----`;
      const endAt = text.indexOf(endLine, bodyStart);
      let end: number;
      let body: string;
      if (endAt !== -1 && endAt - bodyStart <= PEM_MAX) {
        end = endAt + endLine.length;
        body = text.slice(bodyStart, endAt);
      } else {
        PEM_TAIL_RE.lastIndex = bodyStart;
        const tail = PEM_TAIL_RE.exec(text);
        end = bodyStart + (tail ? tail[0].length : 0);
        body = text.slice(bodyStart, end);
      }
      // "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----" in docs holds no key.
      const keyChars = body.replace(/\\[nrt]|[^A-Za-z0-9+/]/g, '').length;
      if (keyChars >= 64) {
        out.push({ kind: 'private-key-block', start: m.index, end, priority: S, description: `PEM block (${label})` });
      }
      PEM_BEGIN_RE.lastIndex = Math.max(end, bodyStart);
    }
    headlessBlocks(text, out);
  },
};

const PEM_END_RE = /-----END ((?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?)-----/g;
/** A line of a PEM body (base64), ending at `end`: a real newline or an escaped one before it. */
const PEM_LINE_BEFORE_RE = /(?:^|\n|\\n)[ \t]*([A-Za-z0-9+/=]{16,})[ \t\r]*(?:\n|\\n)?$/;

const PEM_RUN_BEFORE_RE = /([A-Za-z0-9+/=]{16,})[ \t\r]*(?:\n|\\n)$/;

/** The second half of a block whose BEGIN line is in another text (a command cut at its first
 * newline, output split in two): the base64 lines right before the END line are the key. */
function headlessBlocks(text: string, out: RawMatch[]): void {
  PEM_END_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PEM_END_RE.exec(text)) !== null) {
    const endAt = m.index;
    if (out.some((r) => r.kind === 'private-key-block' && r.start <= endAt && endAt < r.end)) continue;
    let start = endAt;
    let keyChars = 0;
    for (;;) {
      const before = text.slice(Math.max(0, start - 256), start);
      const line = PEM_LINE_BEFORE_RE.exec(before);
      if (line) {
        start -= line[0].length - (line[0].startsWith('\n') ? 1 : line[0].startsWith('\\n') ? 2 : 0);
        keyChars += (line[1] as string).length;
        continue;
      }
      // the first body line may share its line with what came before the cut (`--note "…`)
      const run = PEM_RUN_BEFORE_RE.exec(before);
      if (run && keyChars > 0) {
        start -= run[0].length;
        keyChars += (run[1] as string).length;
      }
      break;
    }
    if (keyChars >= 64) out.push({ kind: 'private-key-block', start, end: endAt + m[0].length, priority: S, description: `PEM block (${m[1] as string}, its BEGIN line elsewhere)` });
  }
}

export const JWT_RULE: RegexRule = {
  kind: 'jwt',
  priority: S,
  triggers: ['eyJ'],
  anchored: true,
  re: /(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})(?![A-Za-z0-9_-])/yd,
  group: 1,
  describe: () => KIND_INFO.jwt.label,
};

function credentialValue(v: string): boolean {
  if (isPlaceholderValue(v) || isIdentifierLike(v) || isStructuralValue(v)) return false;
  return /[A-Za-z]/.test(v);
}

export const BEARER_RULES: readonly RegexRule[] = [
  {
    kind: 'bearer-header',
    priority: S,
    pretest: /authorization/i,
    re: /(?<![A-Za-z0-9])(?:proxy-)?authorization(?:\\{0,3}["'])?[ \t]*[:=][ \t]*(?:\\{0,3}["'])?(bearer|basic|token|bot|digest)[ \t]+([A-Za-z0-9._~+/=-]{8,4096})/gid,
    group: 2,
    accept: (v, m) => credentialValue(v) && ((m[1] ?? '').toLowerCase() === 'basic' || isTokenBody(v, false)),
    describe: (_v, m) => `${KIND_INFO['bearer-header'].label} (${m[1]})`,
  },
  {
    // A bare "Bearer <token>" outside a header line (curl output, logs).
    kind: 'bearer-header',
    priority: S,
    triggers: ['Bearer '],
    anchored: true,
    startOk: wordStartOk,
    re: /Bearer[ \t]+([A-Za-z0-9._~+/-]{16,4096}=*)/yd,
    group: 1,
    accept: (v) => credentialValue(v) && isTokenBody(v),
    describe: () => `${KIND_INFO['bearer-header'].label} (Bearer)`,
  },
];

// (a `#` is allowed in the password: `pa#ss@host` is still user:password@host)
const URL_AUTH_RE = /([^\s:/?#@"'<>\\]{1,128}):([^\s/?@"'<>\\]{1,256})@(?=[A-Za-z0-9[])/y;
const SCHEME_CHAR_RE = /[A-Za-z0-9+.-]/;

/** `scheme://user:password@host`: found from each `://`, only the password is reported. */
export const URL_PASSWORD_RULE: ScanRule = {
  kind: 'url-password',
  triggers: ['://'],
  scan(text: string, out: RawMatch[]): void {
    for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
      let s = at;
      while (s > 0 && at - s <= 20 && SCHEME_CHAR_RE.test(text.charAt(s - 1))) s--;
      if (at - s < 2 || !/[A-Za-z]/.test(text.charAt(s))) continue;
      URL_AUTH_RE.lastIndex = at + 3;
      const m = URL_AUTH_RE.exec(text);
      if (!m) continue;
      const user = m[1] as string;
      const pw = m[2] as string;
      if (isPlaceholderValue(pw) || isPlaceholderValue(decodeSafe(pw))) continue;
      const start = at + 3 + user.length + 1;
      const scheme = text.slice(s, at).toLowerCase();
      out.push({ kind: 'url-password', start, end: start + pw.length, priority: S, description: `${KIND_INFO['url-password'].label} (${scheme}://)` });
    }
  },
};

function decodeSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

const CONN_KEYS = '(?:password|pwd|passwd|accountkey|sharedaccesskey)';
const CONN_VALUE = `([^;"'\\\\\\s]{1,256})`;

function connValue(v: string): boolean {
  return !isPlaceholderValue(v) && !isStructuralValue(v);
}

/** `Server=db;User Id=app;Password=…;` — the `;` context tells it from a shell assignment. */
export const CONNECTION_STRING_RULES: readonly RegexRule[] = [
  {
    kind: 'connection-string-password',
    priority: S,
    pretest: /;\s*(?:password|pwd|passwd|accountkey|sharedaccesskey)\s*=/i,
    re: new RegExp(`(?<=;[ \\t]*)${CONN_KEYS}[ \\t]*=[ \\t]*${CONN_VALUE}`, 'gid'),
    group: 1,
    accept: connValue,
    describe: () => KIND_INFO['connection-string-password'].label,
  },
  {
    kind: 'connection-string-password',
    priority: S,
    pretest: /(?:password|pwd|passwd|accountkey|sharedaccesskey)\s*=[^;\s]+;/i,
    re: new RegExp(`(?<![A-Za-z0-9_.-])${CONN_KEYS}[ \\t]*=[ \\t]*${CONN_VALUE}(?=;)`, 'gid'),
    group: 1,
    accept: connValue,
    describe: () => KIND_INFO['connection-string-password'].label,
  },
];

function cliSecretValue(v: string): boolean {
  if (isPlaceholderValue(v) || isStructuralValue(v) || isIdentifierLike(v)) return false;
  const c = charClasses(v);
  return v.length >= 6 && c.upper + c.lower > 0;
}

export const CLI_RULES: readonly RegexRule[] = [
  {
    // --password hunter22, --token=abc, --client-secret "…"
    kind: 'cli-credential',
    priority: S,
    pretest: /--[a-z-]*(?:pass|token|secret|api-?key|access-key)/i,
    re: /(?<![A-Za-z0-9-])--(?:[a-z0-9]+-)*(?:password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|client-secret)(?:=|[ \t]+)\\?["']?([^\s"'\\]{1,512})/gid,
    group: 1,
    accept: cliSecretValue,
    describe: () => KIND_INFO['cli-credential'].label,
  },
  {
    // curl -u user:password, --user user:password
    kind: 'cli-credential',
    priority: S,
    triggers: ['-u ', '--user '],
    re: /(?<![A-Za-z0-9-])(?:-u|--user)[ \t]+\\?["']?[^\s:"'\\]{1,128}:([^\s"'\\@]{1,256})/gd,
    group: 1,
    // user:group pairs (`-u 1000:1000`, `-u www-data:www-data`) are not credentials: ask for a
    // digit or a symbol besides - _ . in the password.
    accept: (v) => cliSecretValue(v) && /[0-9]|[^A-Za-z0-9_.-]/.test(v) && /[A-Za-z]/.test(v),
    describe: () => `${KIND_INFO['cli-credential'].label} (user:password)`,
  },
];

export const STRUCTURAL_RULES = [
  PRIVATE_KEY_RULE,
  JWT_RULE,
  ...BEARER_RULES,
  URL_PASSWORD_RULE,
  ...CONNECTION_STRING_RULES,
  ...CLI_RULES,
] as const;
