/**
 * Secrets and personal data recognised by how people and tools write them rather than by a
 * provider prefix or a `KEY=value` assignment: passwords given to a command as a short flag
 * (`mysql -pPASS`, `sshpass -p 'x'`, `redis-cli -a x`) or stated in prose ("the password is X",
 * "bearer token X"), Twilio SIDs and auth tokens, a Google service-account key id, an AWS secret
 * key standing alone, payment-card numbers (Luhn-checked), phone numbers and public IP addresses.
 */
import { KIND_INFO } from './kinds.js';
import type { RawMatch, RegexRule, ScanRule } from './rule.js';
import { charClasses, isPlaceholderValue, isStructuralValue, looksRandom } from './values.js';

const S = 2;
const P = 3;

/** A password-like value: not a placeholder, not a plain lowercase word ("incorrect", "set"). */
function passwordLike(v: string): boolean {
  const value = v.replace(/[.,;:!?)]+$/, '');
  if (value.length < 4 || isPlaceholderValue(value) || isStructuralValue(value)) return false;
  if (/^\$\{?[A-Z_]+\}?$/.test(value) || /^<[^>]+>$/.test(value)) return false;
  const c = charClasses(value);
  if (c.upper + c.lower === 0 && c.digit < 6) return false; // "1234" is a code, a PIN of 6+ digits is not
  return c.digit > 0 || /[^A-Za-z]/.test(value) || (c.upper > 0 && c.lower > 0 && value.length >= 8);
}

export const STATED_RULES: readonly (RegexRule | ScanRule)[] = [
  {
    // mysql -pPASS (no space: `-p PASS` asks for the password), mysqldump, mariadb, mysqladmin
    kind: 'cli-credential',
    priority: S,
    pretest: /\b(?:mysql|mysqldump|mariadb|mysqladmin)\b/i,
    re: /\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n|;&]*?\s-p["']?([^\s"']{1,256})/gd,
    group: 1,
    accept: passwordLike,
    describe: () => `${KIND_INFO['cli-credential'].label} (mysql -p)`,
  },
  {
    // sshpass -p 'x', redis-cli -a x, mongosh -p x, smbclient -U user%pass
    kind: 'cli-credential',
    priority: S,
    pretest: /\b(?:sshpass|redis-cli|mongo|mongosh)\b/i,
    re: /\b(?:sshpass\s+-p|redis-cli\b[^\n|;&]*?\s-a|mongo(?:sh)?\b[^\n|;&]*?\s(?:-p|--password))\s*["']?([^\s"']{1,256})/gd,
    group: 1,
    accept: passwordLike,
    describe: () => KIND_INFO['cli-credential'].label,
  },
  {
    // "the password is X", "password: X" in prose, "passphrase was X"
    kind: 'stated-password',
    priority: S,
    pretest: /\b(?:password|passphrase|passwd|pin|passcode)\b/i,
    re: /\b(?:password|passphrase|passwd|pin code|passcode)\s+(?:is|was|=|:|would be|should be)\s+[`"'“]?([^\s`"'”]{4,128})/gid,
    group: 1,
    accept: passwordLike,
    describe: () => KIND_INFO['stated-password'].label,
  },
  {
    // "bearer token X", "bearer X" in prose (the Authorization header has its own rule)
    kind: 'bearer-header',
    priority: S,
    pretest: /\bbearer\b/i,
    re: /\bbearer\s+(?:token\s+)?(?:is\s+|of\s+)?[`"'“]?([A-Za-z0-9._~+/-]{16,512}=*)/gid,
    group: 1,
    accept: (v) => looksRandom(v, 16) || (/\d/.test(v) && /[A-Za-z]/.test(v) && v.length >= 20),
    describe: () => `${KIND_INFO['bearer-header'].label} (in prose)`,
  },
  {
    // Twilio account and API key SIDs (AC…, SK…) and a 32-hex auth token named as such
    kind: 'twilio-credential',
    priority: P,
    triggers: ['AC', 'SK'],
    re: /(?<![A-Za-z0-9])((?:AC|SK)[0-9a-f]{32})(?![A-Za-z0-9])/gd,
    group: 1,
    describe: (s) => `${KIND_INFO['twilio-credential'].label} (${s.slice(0, 2)}…)`,
  },
  {
    kind: 'twilio-credential',
    priority: P,
    pretest: /auth.?token/i,
    re: /\bauth[_ -]?token\b\W{0,6}(?:is\s+)?[`"']?([0-9a-f]{32})(?![0-9a-f])/gid,
    group: 1,
    describe: () => `${KIND_INFO['twilio-credential'].label} (auth token)`,
  },
  {
    // a Google service-account key file's private_key_id
    kind: 'google-service-account-key',
    priority: P,
    triggers: ['private_key_id'],
    re: /private_key_id\\?["']?\s*[:=]\s*\\?["']?([0-9a-f]{40})/gd,
    group: 1,
    describe: () => KIND_INFO['google-service-account-key'].label,
  },
  {
    // an AWS secret access key standing alone: 40 base64 characters with a / or +, mixed case
    // and digits (git SHAs are hex, base64 of text reads as text)
    kind: 'aws-secret-key',
    priority: S,
    pretest: /[A-Za-z0-9+/]{40}/,
    re: /(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=_-])/gd,
    group: 1,
    accept: (v) => {
      if (!/[/+]/.test(v) || v.includes('EXAMPLE')) return false;
      const c = charClasses(v);
      return c.upper >= 4 && c.lower >= 4 && c.digit >= 2 && looksRandom(v, 40);
    },
    describe: () => `${KIND_INFO['aws-secret-key'].label} (unlabelled)`,
  },
  PAYMENT_CARD_RULE(),
  PHONE_RULE(),
  PUBLIC_IP_RULE(),
];

/** The Luhn checksum every payment-card number passes. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Card numbers of the big networks' prefixes and lengths, grouped by spaces or dashes or not. */
function PAYMENT_CARD_RULE(): ScanRule {
  // (not glued to letters: digits inside an identifier, `aider-2ead400008-20250407T035901`, are no card)
  const re = /(?<![\w.-])((?:\d[ -]?){12,18}\d)(?![\w-]|\.\d)/g;
  return {
    kind: 'payment-card',
    pretest: /\d{4}[ -]?\d{4}[ -]?\d{4}/,
    scan(text: string, out: RawMatch[]): void {
      for (const m of text.matchAll(re)) {
        const digits = m[1]!.replace(/[ -]/g, '');
        if (digits.length < 13 || digits.length > 19 || !luhn(digits)) continue;
        if (!/^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9])|35)/.test(digits)) continue;
        if (/^(\d)\1+$/.test(digits)) continue;
        const start = m.index!;
        out.push({ kind: 'payment-card', start, end: start + m[1]!.length, priority: S, description: KIND_INFO['payment-card'].label });
      }
    },
  };
}

/** International numbers (+CC …) and the North American (415) 555-0134 / 415-555-0134 forms. */
function PHONE_RULE(): ScanRule {
  const re = /(?<![\w+])(\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4}|\(\d{3}\)[ ]?\d{3}-\d{4}|\d{3}-\d{3}-\d{4})(?![\w-])/g;
  return {
    kind: 'phone-number',
    pretest: /\+\d|\(\d{3}\)|\d{3}-\d{3}-\d{4}/,
    scan(text: string, out: RawMatch[]): void {
      for (const m of text.matchAll(re)) {
        const digits = m[1]!.replace(/\D/g, '');
        if (digits.length < 9 || digits.length > 15) continue;
        const start = m.index!;
        out.push({ kind: 'phone-number', start, end: start + m[1]!.length, priority: 0, description: KIND_INFO['phone-number'].label });
      }
    },
  };
}

/** Addresses that name no one's machine: private, loopback, shared (CGNAT), link-local,
 * documentation, benchmark, multicast and reserved ranges. */
function isNonPublic(a: number, b: number, c: number): boolean {
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && (b === 168 || (b === 0 && (c === 0 || c === 2)))) ||
    (a === 198 && (b === 18 || b === 19 || (b === 51 && c === 100))) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** Public resolvers everyone uses: naming them tells nothing about anyone. */
const PUBLIC_RESOLVERS = new Set(['8.8.8.8', '8.8.4.4', '1.1.1.1', '1.0.0.1', '9.9.9.9', '149.112.112.112', '208.67.222.222', '208.67.220.220']);

/**
 * Public IPv4 addresses: a server's or a home connection's address identifies its owner as a
 * host name does. No address: a four-part version (after `v`, `version` or a comparison such as
 * `==`, `>=`; a part with a leading zero; a fifth part following), a section number
 * (`§12.5.4.2`), or a network or broadcast address (`.0`, `.255`), which names no one machine.
 */
function PUBLIC_IP_RULE(): ScanRule {
  const re = /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w-]|\.\d)/g;
  return {
    kind: 'ip-address',
    pretest: /\d\.\d{1,3}\.\d{1,3}\.\d/,
    scan(text: string, out: RawMatch[]): void {
      for (const m of text.matchAll(re)) {
        const parts = [m[1]!, m[2]!, m[3]!, m[4]!];
        if (parts.some((p) => p.length > 1 && p.startsWith('0'))) continue;
        const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
        if (a > 255 || b > 255 || c > 255 || d === 0 || d >= 255 || isNonPublic(a, b, c)) continue;
        if (PUBLIC_RESOLVERS.has(m[0])) continue;
        const before = text.slice(Math.max(0, m.index! - 9), m.index!);
        if (/(?:[=<>~!]=|[<>~^§]|(?:\bv|version|section)\s*:?\s*)$/i.test(before)) continue;
        const start = m.index!;
        out.push({ kind: 'ip-address', start, end: start + m[0].length, priority: 0, description: KIND_INFO['ip-address'].label });
      }
    },
  };
}
