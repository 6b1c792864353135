/**
 * Personal data: e-mail addresses, home directories and the account name in them.
 *
 * Rules (documented in README.md):
 *  - Every home path (`/home/<u>`, `/Users/<u>`, `/mnt/c/Users/<u>`, `/c/Users/<u>`, `C:\Users\<u>`) is rewritten
 *    to `~` by `redact`, whoever `<u>` is, so paths read the same on every machine.
 *  - Only home paths whose account name is personal are *findings*. Service and placeholder
 *    accounts (`runner` on GitHub Actions, `ubuntu`, `root`, `USER`, ...) identify nobody, so
 *    `compound check` does not flag `/home/runner/work/...` in CI notes.
 *  - Directories under /Users that are not homes (`Shared`, `Public`) are left alone.
 *  - Documentation addresses (example.com, .test, .invalid, localhost), `git@host` remotes,
 *    no-reply senders and file names such as `icon@2x.png` are not e-mail findings.
 */
import { KIND_INFO } from './kinds.js';
import { afterEscape, type RawMatch, type ScanRule } from './rule.js';
import { escapeRegExp } from '../core/regexp.js';

/** Accounts that belong to no person: CI runners, cloud images, containers, placeholders. */
const GENERIC_USERS = new Set([
  'runner', 'runneradmin', 'ubuntu', 'debian', 'ec2-user', 'centos', 'fedora', 'admin',
  'administrator', 'root', 'user', 'username', 'users', 'me', 'you', 'vagrant', 'node', 'app',
  'circleci', 'travis', 'jenkins', 'gitlab-runner', 'buildkite-agent', 'codespace', 'codespaces',
  'vscode', 'docker', 'build', 'builder', 'ci', 'dev', 'developer', 'guest', 'test', 'tester', 'www-data',
  'nobody', 'daemon', 'git', 'sample_user', 'example', 'redacted', 'someone', 'name', 'yourname',
  'your-name', 'your_name', 'myuser', 'johndoe', 'janedoe',
]);

/** Directories under /Users or C:\Users that are not anyone's home. */
const NOT_HOMES = new Set(['shared', 'public', 'default', 'default user', 'all users', 'guest']);

export function isGenericUserName(name: string): boolean {
  return name.length <= 1 || GENERIC_USERS.has(name.toLowerCase());
}

export interface HomePath {
  start: number;
  end: number;
  user: string;
  generic: boolean;
}

const NAME = String.raw`[\p{L}\p{N}_][\p{L}\p{N}._-]{0,63}`;
const NAME_RE = new RegExp(NAME, 'uy');
/** Characters that glue a path to what precedes it (`foo/home/x` is not a home). */
const GLUE_RE = /[\p{L}\p{N}_.~\\-]/u;
/** Shell/template syntax right after the name: `/home/$USER`, `/home/{user}` are not homes. */
const TEMPLATE_AFTER = new Set(['$', '*', '{', '<', '%']);
/** A drive before `/Users/`: WSL's `/mnt/c`, or Git Bash's (MSYS) `/c`. */
const DRIVE_PREFIX_RE = /(?:\/mnt)?\/[a-z]$/;
const WIN_HOME_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])[A-Za-z]:(?:\\\\|\\|/)(?:Users|Documents and Settings)(?:\\\\|\\|/)(${NAME}(?: ${NAME})*(?=\\|/)|${NAME})`,
  'gud',
);

export function findHomePaths(text: string): HomePath[] {
  const found: HomePath[] = [];
  for (const marker of ['/home/', '/Users/']) {
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
      let start = at;
      const drive = marker === '/Users/' ? DRIVE_PREFIX_RE.exec(text.slice(Math.max(0, at - 6), at)) : null;
      if (drive) start = at - drive[0].length;
      if (start > 0 && GLUE_RE.test(text.charAt(start - 1)) && !afterEscape(text, start)) continue;
      NAME_RE.lastIndex = at + marker.length;
      const m = NAME_RE.exec(text);
      if (!m) continue;
      const end = NAME_RE.lastIndex;
      if (TEMPLATE_AFTER.has(text.charAt(end))) continue;
      const user = m[0];
      if (NOT_HOMES.has(user.toLowerCase())) continue;
      found.push({ start, end, user, generic: isGenericUserName(user) });
    }
  }
  if (text.includes('Users\\') || text.includes(':/Users/') || text.includes('Documents and Settings')) {
    collectHomes(WIN_HOME_RE, text, found);
  }
  if (found.length < 2) return found;
  // `C:/Users/x` matches both patterns: keep the earliest, longest match.
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: HomePath[] = [];
  for (const h of found) {
    const last = kept[kept.length - 1];
    if (last && h.start < last.end) continue;
    kept.push(h);
  }
  return kept;
}

function collectHomes(re: RegExp, text: string, found: HomePath[]): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const user = m[1] ?? '';
    if (NOT_HOMES.has(user.toLowerCase())) continue;
    found.push({ start: m.index, end: m.index + m[0].length, user, generic: isGenericUserName(user) });
  }
}

export const HOME_PATH_RULE: ScanRule = {
  kind: 'home-path',
  scan(text: string, out: RawMatch[]): void {
    for (const h of findHomePaths(text)) {
      if (h.generic) continue;
      out.push({ kind: 'home-path', start: h.start, end: h.end, priority: 0, description: KIND_INFO['home-path'].label });
    }
  },
};

const DOMAIN_RE = /(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})(?![A-Za-z0-9-])/y;

function isLocalChar(c: number): boolean {
  // A-Z a-z 0-9 . _ % + -
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

const NON_PERSONAL_LOCALS = new Set(['git', 'noreply', 'no-reply', 'donotreply', 'do-not-reply', 'mailer-daemon']);
const DOC_DOMAIN_RE = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;
const FILE_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'avif', 'js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx',
  'json', 'css', 'scss', 'map', 'md', 'txt', 'yml', 'yaml', 'html', 'lock', 'ex', 'exs', 'py', 'rb',
  'rs', 'go', 'heex', 'vue', 'toml', 'wasm', 'pdf',
]);

/** Addresses found from each `@`: local part to the left, domain to the right. */
export const EMAIL_RULE: ScanRule = {
  kind: 'email',
  triggers: ['@'],
  scan(text: string, out: RawMatch[]): void {
    for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
      let s = at;
      while (s > 0 && at - s < 64 && isLocalChar(text.charCodeAt(s - 1)) && !afterEscape(text, s)) s--;
      while (s < at && !isAlnum(text.charCodeAt(s))) s++;
      if (s === at || text.charCodeAt(at - 1) === 46) continue; // empty, or ends with "."
      if (s > 0 && text.charCodeAt(s - 1) === 92 && !afterEscape(text, s)) continue;
      DOMAIN_RE.lastIndex = at + 1;
      const m = DOMAIN_RE.exec(text);
      if (!m) continue;
      let end = DOMAIN_RE.lastIndex;
      // `name@scope.io/pkg` is a package path, not an address; `/jane@corp.io/` (a folder named
      // after an account, as gcloud's legacy_credentials) is one
      if (text.charAt(end) === '/' && text.charAt(s - 1) !== '/') continue;
      const local = text.slice(s, at).toLowerCase();
      let domain = m[0].toLowerCase();
      if (FILE_EXTENSIONS.has((m[1] ?? '').toLowerCase())) {
        // `logo@2x.png` is a file; `jane@corp.io.txt` is an address in a file name
        const cut = /^((?:[a-z0-9-]+\.)+([a-z]{2,24}))\.[a-z0-9]+$/.exec(domain);
        if (!cut || FILE_EXTENSIONS.has(cut[2] as string)) continue;
        end -= domain.length - (cut[1] as string).length;
        domain = cut[1] as string;
      }
      if (NON_PERSONAL_LOCALS.has(local) || DOC_DOMAIN_RE.test(domain)) continue;
      if (isUrlUserInfo(text, s)) continue;
      out.push({ kind: 'email', start: s, end, priority: 0, description: KIND_INFO.email.label });
      at = end - 1;
    }
  },
};

/** `scheme://user@host`: a login name in a URL, not an address. */
function isUrlUserInfo(text: string, at: number): boolean {
  const from = Math.max(0, at - 200);
  for (let i = at - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    // whitespace, quotes, < > ( ) end the token
    if (c <= 32 || c === 34 || c === 39 || c === 60 || c === 62 || c === 40 || c === 41) return false;
    if (c === 47 && text.charCodeAt(i - 1) === 47 && text.charCodeAt(i - 2) === 58) return true;
  }
  return false;
}

/** Occurrences of known account names as whole words (letters/digits do not continue them). */
export function findUserNames(text: string, users: Iterable<string>): RawMatch[] {
  const out: RawMatch[] = [];
  const names = [...new Set([...users].filter((u) => u.length >= 2))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return out;
  const lower = text.toLowerCase();
  const present = names.filter((n) => lower.includes(n.toLowerCase()));
  if (present.length === 0) return out;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${present.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    out.push({ kind: 'user-name', start: m.index, end: m.index + m[0].length, priority: 0, description: KIND_INFO['user-name'].label });
  }
  return out;
}
