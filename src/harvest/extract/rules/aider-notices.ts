/**
 * Aider's own notices that what was asked did not happen, though nothing failed loudly: it skips
 * files that match .gitignore (an edit the model wrote, a file named on the command line) and a
 * read-only file it cannot find, its repo map leaves out files deleted but not committed, it
 * answers an in-chat command it does not have with `Invalid command: /x`, and a traceback through
 * its own code says aider itself crashed. The notice is
 * aider's own words, so the item is what aider did, not a guess.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import { fileName, type SessionView } from '../view.js';

const SKIPPED_EDIT = /^Skipping edits to (.+?) that matches gitignore spec\.?\s*$/;
const SKIPPED_ADD = /^Skipping (?!edits to )(.+?) that matches gitignore spec\.?\s*$/;
const INVALID = /^Invalid command: (\/\S+)/;
const MISSING_READ = /^(?:Error: )?Read-only file (.+?) does not exist\. Skipping\.?\s*$/;
const REPO_MAP_MISSING = /^Repo-map can't include (.+?)\s*$/;
const GIT_DIR = /^Git working dir: (.+?)\s*$/;
const VERSION = /^Aider (v\d+(?:\.\d+)+)\b/;
/** A frame of aider's own code in a traceback (`…/site-packages/aider/coders/base_coder.py", line 2090, in compute_costs_from_tokens`). */
const AIDER_FRAME = /[\\/]aider[\\/][\w\\/]+\.py", line \d+, in (\w+)/;
const EXCEPTION = /^(\w+(?:Error|Exception)): (.+?)\s*$/;
const CUR_DIR = /^Cur working dir: (.+?)\s*$/;
/** Aider's in-chat commands (`/help` lists them): an invalid one that differs from one of these
 * only in case or a missing space is that command mistyped, not a command aider lacks. */
const COMMANDS = new Set([
  'add', 'architect', 'ask', 'chat-mode', 'clear', 'code', 'commit', 'context', 'copy', 'copy-context', 'diff', 'drop', 'edit',
  'editor', 'editor-model', 'exit', 'git', 'help', 'lint', 'load', 'ls', 'map', 'map-refresh', 'model', 'models', 'multiline-mode',
  'paste', 'quit', 'read-only', 'reasoning-effort', 'report', 'reset', 'run', 'save', 'settings', 'test', 'think-tokens', 'tokens',
  'undo', 'voice', 'weak-model', 'web',
]);
const MAX_NAMED = 4;

/** Aider's notice lines, each with the event that holds it (a system event holds several). */
function noticeLines(view: SessionView): { line: string; event: number }[] {
  const out: { line: string; event: number }[] = [];
  for (const e of view.session.events) {
    if (e.kind !== 'system') continue;
    for (const raw of e.text.split('\n')) out.push({ line: raw.trim(), event: e.index });
  }
  return out;
}

/** What an invalid command was meant to be: `/Add` → `/add`, `/ask你好` → `/ask`. */
function mistyped(command: string): string | undefined {
  const word = command.slice(1);
  if (COMMANDS.has(word.toLowerCase()) && !COMMANDS.has(word)) return `/${word.toLowerCase()}`;
  const prefix = [...COMMANDS].filter((c) => word.startsWith(c) && word.length > c.length && !/^[\w-]/.test(word.slice(c.length))).sort((a, b) => b.length - a.length)[0];
  return prefix ? `/${prefix}` : undefined;
}

/** A path as the repository names it: relative to the git working dir aider reports when it is
 * under it, else (an absolute path naming this machine's folders) only its file name. */
function repoPath(path: string, gitDir?: string): string {
  const slashed = path.replace(/\\/g, '/');
  const root = gitDir?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (root && slashed.startsWith(`${root}/`)) return slashed.slice(root.length + 1);
  return /^(?:[A-Za-z]:)?[\\/]|^~/.test(path) ? fileName(path) : slashed;
}

/** The first value a banner line of this session gives (`Git working dir: …`). */
function bannerValue(lines: { line: string }[], re: RegExp): string | undefined {
  for (const l of lines) {
    const m = re.exec(l.line);
    if (m) return m[1];
  }
  return undefined;
}

/** A file passed with --read (or /read-only) that aider did not find: named from the repository
 * root, and, when aider ran in a subfolder and looked there, that said too. */
function missingReadDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hit = lines.find((l) => MISSING_READ.test(l.line));
  if (!hit) return undefined;
  const gitDir = bannerValue(lines, GIT_DIR);
  const curDir = bannerValue(lines, CUR_DIR);
  const missing = repoPath(MISSING_READ.exec(hit.line)![1]!, gitDir);
  const here = curDir && gitDir && curDir !== gitDir ? repoPath(curDir, gitDir) : undefined;
  const inHere = here !== undefined && missing.startsWith(`${here}/`);
  return {
    category: 'tool-quirk',
    scope: 'repo',
    title: `aider skipped read-only ${fileName(missing)}: not found`,
    text: `Aider skips a read-only file that does not exist: ${code(missing)} (${code(`Read-only file ${fileName(missing)} does not exist. Skipping.`)}).${inHere ? ` Aider ran in ${code(here)}, not at the repository root, and looked for the file there.` : ''}`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'read-only', fileName(missing)],
    quotes: [clip(`Read-only file ${missing} does not exist. Skipping.`, 160)],
    rule: 'aider-notice',
    signature: `aider read-only file not found ${missing}`,
    score: 6,
  };
}

/** Aider's repo map cannot read files git still tracks but the disk no longer has; aider asks
 * "Has it been deleted from the file system but not from git?": a deletion not yet committed. */
function repoMapDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => REPO_MAP_MISSING.test(l.line));
  if (hits.length === 0 || !lines.some((l) => /deleted from the file system but not from git/.test(l.line))) return undefined;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider: Repo-map can't include a deleted file",
    // the files are this repository's and this day's; the behaviour is aider's, the same text everywhere
    text: `Aider warns ${code("Repo-map can't include <file>")} (${code('Has it been deleted from the file system but not from git?')}) for a file git still tracks but the disk no longer has: a deletion not yet committed.`,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'repo-map'],
    quotes: [clip(hits[0]!.line, 160)],
    rule: 'aider-notice',
    signature: 'aider repo-map cannot include a deleted file',
    score: 4,
  };
}

function gitignoreDrafts(lines: { line: string; event: number }[]): Draft[] {
  const drafts: Draft[] = [];
  for (const [re, what] of [
    [SKIPPED_EDIT, 'applies no edit to a file that matches .gitignore: the model\'s edits to'],
    [SKIPPED_ADD, 'takes a file named on its command line as a file to edit, and adds none that matches .gitignore to the chat:'],
  ] as const) {
    const hits = lines.filter((l) => re.test(l.line));
    if (hits.length === 0) continue;
    // a path relative to the repository says where (`models/modules/__init__.py`); an absolute one
    // names this machine's folders, so only its file name is kept
    const files = [...new Set(hits.map((h) => repoPath(re.exec(h.line)![1]!, bannerValue(lines, GIT_DIR))))];
    const named = files.slice(0, MAX_NAMED).map((f) => code(f)).join(', ');
    drafts.push({
      category: 'tool-quirk',
      // a skipped edit says this repository's .gitignore covers files the model works on; a file
      // named on the command line and skipped is how aider treats its arguments anywhere
      scope: re === SKIPPED_EDIT ? 'repo' : 'agent',
      title: re === SKIPPED_EDIT ? 'aider skips edits to gitignored files' : 'aider does not add gitignored files',
      text: `Aider ${what} ${named}${re === SKIPPED_EDIT ? ' were skipped' : ' was skipped'} (${code(clip(hits[0]!.line.replace(/^(Skipping (?:edits to )?).*?( that matches)/, `$1${files[0]}$2`), 120))}).`,
      confidence: CONFIDENCE.stated,
      event: hits[0]!.event,
      tags: ['aider', 'gitignore', ...files.slice(0, 2)],
      quotes: [clip(hits[0]!.line, 160)],
      rule: 'aider-notice',
      score: 6,
    });
  }
  return drafts;
}

/** A later prompt that ran the program as a shell command (`!find …`, `/run find …`): how the
 * user got what the invalid command was for. */
function shellAlternative(view: SessionView, command: string, after: number): string | undefined {
  const program = command.slice(1).toLowerCase();
  const ran = view.prompts.find((p) => p.index > after && new RegExp(`^(?:!|/run\\s+)${program.replace(/[^\w-]/g, '')}\\b`).test(p.text.trim()));
  return ran ? ran.text.trim().split(/\s+/).slice(0, 2).join(' ') : undefined;
}

/** The command the user typed next on the same arguments (`/bye` then `/exit`), when aider took it:
 * what the invalid one was meant to be. */
function nextCommandInstead(view: SessionView, command: string, notices: { line: string; event: number }[]): string | undefined {
  const typed = [...view.prompts].reverse().find((p) => p.index < (notices.find((n) => n.line.startsWith(`Invalid command: ${command}`))?.event ?? -1));
  if (!typed || !typed.text.trim().startsWith(command)) return undefined;
  const next = view.prompts.find((p) => p.index > typed.index);
  const words = (t: string): string[] => t.trim().split(/\s+/);
  if (!next || !/^\/[a-z][\w-]*(?:\s|$)/.test(next.text.trim())) return undefined;
  const name = words(next.text)[0]!;
  const refused = notices.some((n) => n.event > next.index && n.line.startsWith(`Invalid command: ${name}`));
  return !refused && name !== command && words(next.text).slice(1).join(' ') === words(typed.text).slice(1).join(' ') ? next.text.trim() : undefined;
}

function invalidCommandDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => INVALID.test(l.line));
  if (hits.length === 0) return undefined;
  const commands = [...new Set(hits.map((h) => INVALID.exec(h.line)![1]!))];
  const missing = commands.filter((c) => mistyped(c) === undefined);
  const typos = commands.filter((c) => mistyped(c) !== undefined);
  const parts: string[] = [];
  if (missing.length > 0) {
    const alternative = missing.map((c) => shellAlternative(view, c, hits[0]!.event)).find((a) => a !== undefined);
    const instead = missing.map((c) => [c, nextCommandInstead(view, c, lines)] as const).filter(([, n]) => n !== undefined);
    const insteadText = instead.slice(0, 2).map(([c, n]) => ` After ${code(c)} the user typed ${code(n!)}, which aider took.`).join('');
    parts.push(`Aider has no ${missing.slice(0, MAX_NAMED).map((c) => code(c)).join(', ')} in-chat command${missing.length > 1 ? 's' : ''}: it answers ${code(`Invalid command: ${missing[0]}`)}.${alternative ? ` A shell command runs with \`!\` or \`/run\` (${code(`${alternative} …`)}).` : ''}${insteadText}`);
  }
  if (typos.length > 0) parts.push(`${parts.length > 0 ? 'Its' : "Aider's"} in-chat commands are lowercase and need a space before their text: ${typos.slice(0, 2).map((c) => `${code(clip(c, 24))} is an invalid command (the command is ${code(mistyped(c)!)})`).join(', ')}.`);
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: missing.length > 0 ? `aider has no ${missing.slice(0, MAX_NAMED).join(', ')} command` : 'aider commands are lowercase and need a space after them',
    text: parts.join(' '),
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', ...commands.slice(0, 3).map((c) => c.slice(1))],
    quotes: [clip(hits[0]!.line, 160)],
    rule: 'aider-notice',
    score: 5,
  };
}

/** A traceback that ends in aider's own code is a crash of aider, not of the user's program: the
 * exception, the aider function it came from, the version and the model it ran with. */
function crashDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const start = lines.findIndex((l) => l.line.startsWith('Traceback (most recent call last)'));
  if (start < 0) return undefined;
  let where: string | undefined;
  for (const l of lines.slice(start + 1)) {
    const frame = AIDER_FRAME.exec(l.line);
    if (frame) {
      where = frame[1];
      continue;
    }
    const error = EXCEPTION.exec(l.line);
    if (!error) continue;
    if (!where) return undefined;
    const version = bannerValue(lines, VERSION);
    const model = view.session.models[0];
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `aider${version ? ` ${version}` : ''} crashes in ${where}`,
      text: `Aider${version ? ` ${version}` : ''} crashed in its own ${code(where)} with ${code(clip(`${error[1]}: ${error[2]}`, 120))}${model ? ` while running ${code(model)}` : ''}: a bug of aider, not of the code it works on.`,
      confidence: CONFIDENCE.stated,
      event: l.event,
      tags: ['aider', 'crash', where],
      quotes: [clip(l.line, 160)],
      rule: 'aider-notice',
      signature: `aider crash ${where} ${error[1]}`,
      score: 5,
    };
  }
  return undefined;
}

export function aiderNoticeDrafts(view: SessionView): Draft[] {
  if (view.session.agent !== 'aider') return [];
  const lines = noticeLines(view);
  const found = [invalidCommandDraft(view, lines), missingReadDraft(lines), repoMapDraft(lines), crashDraft(view, lines)].filter((d): d is Draft => d !== undefined);
  return [...gitignoreDrafts(lines), ...found];
}

export const aiderNotices: RuleExtractor = ruleExtractor('aider-notice', aiderNoticeDrafts);
