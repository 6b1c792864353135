/**
 * What the aider-notice drafts read from aider's notice lines, whichever kind of notice they are
 * about: the lines themselves, a value the launch banner gives (the git working dir), and a path
 * as the repository names it rather than as this machine's folders do. Kept apart so the launch
 * notices and the chat notices read them the same way.
 */
import { fileName, type SessionView } from '../view.js';

/** Aider's question before it writes a file that does not exist (the file's name on the line above). */
export const CREATE_NEW_FILE = /^Create new file\?/m;
export const GIT_DIR = /^Git working dir: (.+?)\s*$/;
/** A launch line (`> /opt/homebrew/bin/aider --model … --yes-always …`) that gave aider `flag`
 * (a pattern source), anywhere after the program, right after it too. */
export function launchLine(flag: string): RegExp {
  return new RegExp(String.raw`(?:^|[\\/\s])aider(?:\.exe)?\s(?:.*\s)?` + flag);
}

/** A launch line with `--yes` or `--yes-always`: nobody answers aider's questions. */
export const YES_LAUNCH = launchLine(String.raw`--yes(?:-always)?\b`);

/** Aider's notice that a reply hit a model's limit, with the model (`Model gpt-4o has hit a token limit!`). */
export const TOKEN_LIMIT = /^Model (\S+) has hit a token limit!/;
/** The launch banner's `Aider v0.86.2`: what aider did is said of that version. */
export const AIDER_VERSION = /^Aider (v\d+(?:\.\d+)+)\b/;
export const MAX_NAMED = 4;
/** A message that asks rather than tells: it ends in a question mark or opens with a question word. */
/** Words that open a question or a request to explain: English, and the Portuguese, Spanish,
 * French and German that users also write to aider in ("me explica o funcionamento desse sistema"). */
const ASKING = [
  String.raw`how|what|why|where|when|which|who|can|could|should|is|are|do|does|explain|describe|tell me`,
  String.raw`(?:me )?expli(?:ca|que|cá)(?:-me)?|expl[ií]came|por ?qu[eé]|c[oó]mo|qu[eé]|o que|onde|d[oó]nde|quando|cu[aá]ndo|qual|cu[aá]l`,
  String.raw`pourquoi|comment|qu'est-ce|explique-moi|warum|wie|erkl[äa]re?`,
].join('|');
export const QUESTION = new RegExp(String.raw`\?\s*$|^(?:${ASKING})(?![\p{L}\p{N}])`, 'iu');

/** Aider's notice lines, each with the event that holds it (a system event holds several). */
export function noticeLines(view: SessionView): { line: string; event: number }[] {
  const out: { line: string; event: number }[] = [];
  for (const e of view.session.events) {
    if (e.kind !== 'system') continue;
    for (const raw of e.text.split('\n')) out.push({ line: raw.trim(), event: e.index });
  }
  return out;
}

/** A path as the repository names it: relative to the git working dir aider reports when it is
 * under it (Windows drive letters in any case), else (an absolute path naming this machine's
 * folders) only its file name. */
export function repoPath(path: string, gitDir?: string): string {
  const inside = underRoot(path, gitDir);
  if (inside !== undefined) return inside;
  return isAbsolute(path) ? fileName(path) : path.replace(/\\/g, '/');
}

/** `path` relative to `root`, or undefined when it is not under it. */
export function underRoot(path: string, root: string | undefined): string | undefined {
  if (!root) return undefined;
  const slashed = path.replace(/\\/g, '/');
  const base = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const fold = (t: string): string => (/^[A-Za-z]:/.test(t) ? t.toLowerCase() : t);
  return fold(slashed).startsWith(`${fold(base)}/`) ? slashed.slice(base.length + 1) : undefined;
}

export function isAbsolute(path: string): boolean {
  return /^(?:[A-Za-z]:)?[\\/]|^~/.test(path);
}

/** The first value a banner line of this session gives (`Git working dir: …`). */
export function bannerValue(lines: { line: string }[], re: RegExp): string | undefined {
  for (const l of lines) {
    const m = re.exec(l.line);
    if (m) return m[1];
  }
  return undefined;
}

/** A message telling the model not to commit, or that the user commits ("never commit anything",
 * "I'll commit myself", "leave out the commit"). */
const COMMIT_WISH = /\b(?:don'?t|do not|never|stop|no more)\b[^.!?\n]{0,40}\bcommit|\bcommit\w*\b[^.!?\n]{0,30}\b(?:myself|by myself|on my own)\b|\bleave out (?:the|any) (?:\w+ )?commits?\b/i;
/** A sentence about keeping one thing out of git ("Hardcoded password … never commit to git"):
 * a wish about that thing, not about who commits. */
const KEPT_OUT = /\b(?:passwords?|secrets?|credentials?|api[ _-]?keys?|tokens?|\.env)\b/i;
/** A message asking for a commit ("Commit with message …", "commit the changes"): this user wants
 * aider's commits. */
const COMMIT_ASKED = /^\s*(?:please\s+)?(?:git\s+)?commit\b(?!\s+(?:to|nothing)\b)|\b(?:and|then|please)\s+commit\b(?!\s+(?:to|nothing)\b)/im;

/** The messages of an aider session that tell the model not to commit after aider had committed
 * an edit itself: each a wish about aider's auto-commits (which the model does not make), none a
 * correction of the model. Each comes with the sentence that says it; a session whose user also
 * asks for commits has none. */
export function commitWishes(view: SessionView): SessionView['prompts'] {
  if (view.session.format !== 'aider') return [];
  const firstCommit = view.steps.find((s) => s.call.name === 'commit')?.call.index;
  if (firstCommit === undefined) return [];
  if (view.prompts.some((q) => COMMIT_ASKED.test(q.text))) return [];
  const out: SessionView['prompts'] = [];
  for (const q of view.prompts) {
    if (q.index <= firstCommit) continue;
    const sentence = q.text.split(/(?<=[.!?])\s+|\n/).find((t) => COMMIT_WISH.test(t) && !KEPT_OUT.test(t));
    if (sentence !== undefined) out.push({ ...q, text: sentence.trim() });
  }
  return out;
}

/** A fenced block's language that says it holds commands to run, not a file. */
export const SHELL_LANG = /^(?:sh|bash|zsh|shell|console|powershell|ps1|cmd|bat)$/i;

/** A line that reads as a command typed at a shell prompt (`sudo apt install scapy`, `$ npm
 * test`, `python3 app.py -i wlan0`): a fence without a language may still hold commands. */
export const COMMAND_LINE = /^(?:\$\s+)?(?:sudo|apt(?:-get)?|brew|pip3?|pipx|uv|python3?|node|npm|npx|pnpm|yarn|bun|cargo|go|make|git|docker|curl|wget|chmod|export|source|cd|mkdir|ls|cat|bash|sh)\s/;
