/**
 * Personal data: e-mail addresses, home directories and the account name in them.
 *
 * Rules (documented in README.md):
 *  - Every home path (`/home/<u>`, `/Users/<u>`, `/mnt/c/Users/<u>`, `C:\Users\<u>`) is rewritten
 *    to `~` by `redact`, whoever `<u>` is, so paths read the same on every machine.
 *  - Only home paths whose account name is personal are *findings*. Service and placeholder
 *    accounts (`runner` on GitHub Actions, `ubuntu`, `root`, `USER`, ...) identify nobody, so
 *    `compound check` does not flag `/home/runner/work/...` in CI notes.
 *  - Directories under /Users that are not homes (`Shared`, `Public`) are left alone.
 *  - Documentation addresses (example.com, .test, .invalid, localhost), `git@host` remotes,
 *    no-reply senders and file names such as `icon@2x.png` are not e-mail findings.
 */
import { KIND_INFO } from './kinds.js';
import type { RawMatch, ScanRule } from './rule.js';

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
const UNIX_HOME_RE = new RegExp(
  String.raw`(?:(?<![\p{L}\p{N}_.~\\-])|(?<=\\[nrt]))(?:/mnt/[a-z])?/(?:home|Users)/(${NAME})(?![$*{<%])`,
  'gud',
);
const WIN_HOME_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])[A-Za-z]:(?:\\\\|\\|/)(?:Users|Documents and Settings)(?:\\\\|\\|/)(${NAME}(?: ${NAME})*(?=\\|/)|${NAME})`,
  'gud',
);

export function findHomePaths(text: string): HomePath[] {
  const found: HomePath[] = [];
  if (text.includes('/home/') || text.includes('/Users/')) collectHomes(UNIX_HOME_RE, text, found);
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

const EMAIL_RE =
  /(?:(?<![A-Za-z0-9._%+\-\\])|(?<=\\[nrt]))([A-Za-z0-9][A-Za-z0-9._%+-]{0,63})@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24}))(?![A-Za-z0-9-])/gd;

const NON_PERSONAL_LOCALS = new Set(['git', 'noreply', 'no-reply', 'donotreply', 'do-not-reply', 'mailer-daemon']);
const DOC_DOMAIN_RE = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;
const FILE_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'avif', 'js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx',
  'json', 'css', 'scss', 'map', 'md', 'txt', 'yml', 'yaml', 'html', 'lock', 'ex', 'exs', 'py', 'rb',
  'rs', 'go', 'heex', 'vue', 'toml', 'wasm', 'pdf',
]);

export const EMAIL_RULE: ScanRule = {
  kind: 'email',
  triggers: ['@'],
  scan(text: string, out: RawMatch[]): void {
    EMAIL_RE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = EMAIL_RE.exec(text)) !== null) {
      const local = (m[1] ?? '').toLowerCase();
      const domain = (m[2] ?? '').toLowerCase();
      const tld = (m[3] ?? '').toLowerCase();
      if (NON_PERSONAL_LOCALS.has(local) || DOC_DOMAIN_RE.test(domain) || FILE_EXTENSIONS.has(tld)) continue;
      if (isUrlUserInfo(text, m.index)) continue;
      out.push({ kind: 'email', start: m.index, end: m.index + m[0].length, priority: 0, description: KIND_INFO.email.label });
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

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
