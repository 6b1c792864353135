/**
 * People and their machines named in a transcript: a person's name beside an address
 * (`Jane Doe <jane@corp.io>`), the names of git's author and trailer lines (`Author: Jane Doe`,
 * `Signed-off-by:`), the logins of issue-tracker output (`author:\tjdoe` from `gh issue view`),
 * the name git is told to sign commits with (`git config user.name "Jane Doe"`, `user.name=jdoe`,
 * `GIT_AUTHOR_NAME=…`), and the user and host of a shell prompt (`jane@janes-laptop:~/src$`) or a
 * personal machine name (`Janes-MacBook-Pro.local`). Bots and tools (`Claude <noreply@anthropic.com>`,
 * `dependabot[bot]`) are no people.
 */
import { KIND_INFO } from './kinds.js';
import type { RawMatch, ScanRule } from './rule.js';

/** Accounts of tools and bots: their names identify nobody. */
const BOT = /^(?:claude|codex|copilot|gemini|gpt|openai|aider|cursor|devin|github(?:[- ]actions)?|gitlab|dependabot|renovate|snyk|bot|ci|jenkins|web-flow|noreply|no-reply)\b|\[bot\]$|\bbot$/i;
const BOT_ADDRESS = /(?:^|[.+-])(?:no-?reply|bot|notifications?)(?:$|[.+-@])|@users\.noreply\.github\.com$|@anthropic\.com$|@github\.com$/i;

/** A name before `<address>`: one to five capitalised words (particles such as van, de between);
 * a login may carry digits (`Eoinl12 <…>`). */
const NAME_BEFORE_ADDRESS = /(?<![\w@<])((?:\p{Lu}[\p{L}\p{M}\p{N}'’._-]*)(?:[ \t]+(?:\p{Lu}[\p{L}\p{M}\p{N}'’._-]*|van|von|de|da|del|der|di|du|le|la|dos)){0,4})[ \t]*<([^<>\s@]+@[^<>\s]+)>/gu;
/** git's header and trailer lines, and issue-tracker fields, naming a person. */
const PERSON_LINE = /^[ \t]*(?:author|commit(?:ter)?|signed-off-by|co-authored-by|reviewed-by|reported-by|tested-by|acked-by|suggested-by|helped-by|assignees?|reviewers?|requested reviewers|merged by|closed by|opened by)[ \t]*:[ \t]*([^\n<>]*[^\s<>])/gimu;
/** The same fields inside a line (output flattened to one line, "… state: OPEN author: jdoe …"):
 * logins only, one token each, so the rest of the line is left alone. */
const LOGIN_FIELD = /(?<=\s)(?:author|assignees?|reviewers?|merged by|closed by|opened by)[ \t]*:[ \t]+([A-Za-z0-9][\w.-]*(?:,[ \t]*[A-Za-z0-9][\w.-]*)*)/gi;
/** `user@host:~/src$ `: a prompt ends its path with $, # or % and a space (scp's `deploy@10.0.0.5:/srv/` does not);
 * a git branch or a cloud project may stand in parentheses before it (`jun@cloudshell:~/app (my-project)$`). */
const PROMPT = /(?<![\w.@-])([a-z_][a-z0-9_.-]{0,31})@([A-Za-z0-9][A-Za-z0-9-]{0,62}(?:\.[A-Za-z0-9-]+)*):(?=[~/][^\s]*?(?: \([^()\s]+\))?[$#%](?:\s|$))/g;
/** A code host's answer naming the account a login reached: GitHub's and Bitbucket's SSH check
 * (`Hi jdoe! You've successfully authenticated`, `logged in as jdoe`), GitLab's (`Welcome to
 * GitLab, @jdoe!`), `gh auth status` (`Logged in to github.com account jdoe`, older `as jdoe`). */
const LOGIN_GREETING = /\bHi ([A-Za-z0-9][\w.-]*)! You've successfully authenticated\b|\bWelcome to GitLab, @([\w.-]+)!|\blogged in as ([A-Za-z0-9][\w.-]*)\b|\bLogged in to [\w.-]+ (?:account|as) ([A-Za-z0-9][\w.-]*)\b/dgi;
/** The name git signs commits with: set or listed (`git config --global user.name "Jane Doe"`,
 * `user.name=Jane Doe` from `git config --list`, `GIT_AUTHOR_NAME=jdoe`). A value in quotes, the
 * rest of a listed line, or one word; a bare `git config user.name` only asks. */
const GIT_IDENTITY = /\b(?:user\.name|GIT_(?:AUTHOR|COMMITTER)_NAME)(?:[ \t]+|[ \t]*=[ \t]*)(?:"([^"\n]+)"|'([^'\n]+)'|(?<==)([^\s"'&;|][^\n"'&;|]*?)[ \t]*$|([A-Za-z][\w.-]*)(?=[ \t]*(?:$|[;&|)])))/dgm;
const PERSONAL_MACHINE = /(?<![\w.-])[A-Za-z][\w'’]*-(?:MacBook(?:-(?:Pro|Air))?|iMac|Mac-mini|Mac-Studio|ThinkPad|Laptop|Desktop|PC)(?:-\d+)?(?:\.local)?(?![\w-])/g;

function push(out: RawMatch[], kind: 'person-name' | 'host-name' | 'user-name', start: number, text: string): void {
  out.push({ kind, start, end: start + text.length, priority: 0, description: KIND_INFO[kind].label });
}

/** The people in one field's value: names and logins separated by commas; bots and addresses left. */
function names(value: string, at: number, out: RawMatch[]): void {
  let offset = 0;
  for (const part of value.split(',')) {
    // YAML may quote the value: the quotes stay
    const quoted = /^(\s*)(["']?)(.*?)\2\s*$/.exec(part)!;
    const lead = quoted[1]!.length + quoted[2]!.length;
    const name = quoted[3]!.trim();
    // a person has letters: "reviewers: 2", "assignees: []" and "none" name nobody
    if (/\p{L}/u.test(name) && !BOT.test(name) && !name.includes('@') && !/^(?:none|n\/a|unknown|null|\[\])$/i.test(name)) push(out, 'person-name', at + offset + lead, name);
    offset += part.length + 1;
  }
}

export const PERSON_NAME_RULE: ScanRule = {
  kind: 'multiple',
  pretest: /@|user\.name|GIT_(?:AUTHOR|COMMITTER)_NAME|^[ \t]*(?:author|commit|signed-off-by|co-authored-by|reviewed-by|reported-by|tested-by|acked-by|suggested-by|helped-by|assignees?|reviewers?|requested reviewers|merged by|closed by|opened by)[ \t]*:|\s(?:author|assignees?|reviewers?|merged by|closed by|opened by)[ \t]*:[ \t]|-(?:MacBook|iMac|Mac-mini|Mac-Studio|ThinkPad|Laptop|Desktop|PC)\b|successfully authenticated|Welcome to GitLab|logged in (?:as|to)/im,
  scan(text: string, out: RawMatch[]): void {
    for (const m of text.matchAll(NAME_BEFORE_ADDRESS)) {
      const name = m[1]!;
      if (BOT.test(name) || BOT_ADDRESS.test(m[2]!)) continue;
      push(out, 'person-name', m.index!, name);
    }
    for (const m of text.matchAll(PERSON_LINE)) {
      const value = m[1]!;
      // "Author: Jane Doe" (a name with an address is found above); "Date:" lines are not people
      names(value, m.index! + m[0].length - value.length, out);
    }
    for (const m of text.matchAll(LOGIN_FIELD)) {
      const value = m[1]!;
      names(value, m.index! + m[0].length - value.length, out);
    }
    for (const m of text.matchAll(PROMPT)) {
      push(out, 'user-name', m.index!, m[1]!);
      push(out, 'host-name', m.index! + m[1]!.length + 1, m[2]!);
    }
    for (const m of text.matchAll(LOGIN_GREETING)) {
      const a = accountIn(m);
      if (a) push(out, 'user-name', a.at, a.name);
    }
    for (const m of text.matchAll(GIT_IDENTITY)) {
      const a = accountIn(m);
      if (a) push(out, 'person-name', a.at, a.name);
    }
    for (const m of text.matchAll(PERSONAL_MACHINE)) push(out, 'host-name', m.index!, m[0]);
  },
};

/** A name written to be replaced (`"Your Name"`, `<name>`, `$NAME`): nobody's. */
const PLACEHOLDER_NAME = /^(?:your[ _-]?(?:full[ _-]?)?name|name|<[^>]*>|\$\{?\w+\}?|x+|todo|\[REDACTED:[\w-]+\])$/i;

/** The account a greeting or a git identity match names (the first of its groups that matched,
 * with its place), unless it is a bot's or a placeholder. */
function accountIn(m: RegExpMatchArray): { name: string; at: number } | undefined {
  const group = [1, 2, 3, 4].find((k) => m[k] !== undefined);
  const name = group === undefined ? undefined : m[group]!;
  return name === undefined || BOT.test(name) || PLACEHOLDER_NAME.test(name) ? undefined : { name, at: m.indices![group!]![0] };
}

/**
 * The accounts a text shows to be its user's own: the login a code host greets
 * (`Hi jdoe! You've successfully authenticated`) and the name git signs with. Found once in a
 * session, they are redacted wherever the session names them (a remote `github.com/jdoe/app`).
 */
export function ownAccountNames(text: string): string[] {
  // (literal tests first: every command line of a session passes here)
  if (!text.includes('user.name') && !text.includes('_NAME') && !text.includes('authenticated') && !text.includes('to GitLab') && !text.includes('ogged in')) return [];
  const found: string[] = [];
  for (const re of [LOGIN_GREETING, GIT_IDENTITY]) {
    for (const m of text.matchAll(re)) {
      const a = accountIn(m);
      if (a) found.push(a.name);
    }
  }
  return found;
}
