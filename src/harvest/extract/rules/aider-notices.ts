/**
 * Aider's own notices that what was asked did not happen, though nothing failed loudly: it skips
 * files that match .gitignore (an edit the model wrote, a file named on the command line) and a
 * read-only file it cannot find, it answers an in-chat command it does not have with `Invalid
 * command: /x`, a second command in one message becomes a file name of the first, a line of the
 * reply above a code block becomes a file's name, /undo refuses a commit aider did not make in
 * this chat, a traceback through its own code says aider itself crashed, and a launch whose model
 * requests failed before a launch with another model worked says which model names work; its own
 * commit can fail and leave the edits uncommitted, a launch in a subfolder still names files from
 * the repository root, and a tracked path gone from disk draws a repo-map warning. The notice is
 * aider's own words, so the item is what aider did, not a guess.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, errorSignature } from '../text.js';
import { tokens } from '../commands.js';
import { fileName, type SessionView } from '../view.js';
import { LITELLM_ERROR, REPO_MAP_MISSING } from '../../aider-launches.js';

const SKIPPED_EDIT = /^Skipping edits to (.+?) that matches gitignore spec\.?\s*$/;
const SKIPPED_ADD = /^Skipping (?!edits to )(.+?) that matches gitignore spec\.?\s*$/;
/** `Invalid command: /grep`: a command-shaped name; a message that only starts with a slash
 * (`/api/orders returns 500`) was a question aider misread, not a command the user looked for. */
const INVALID = /^Invalid command: (\/[^\s/.]+)\s*$/;
/** `Error creating file /add: …` (after `No files matched '/add'. Do you want to create /add?`):
 * a command name taken as a file name. */
const COMMAND_AS_FILE = /^(?:No files matched '|Error creating file )\/([a-z][a-z-]*)(?:'|:)/;
const MISSING_READ = /^(?:Error: )?Read-only file (.+?) does not exist\. Skipping\.?\s*$/;
const GIT_DIR = /^Git working dir: (.+?)\s*$/;
const VERSION = /^Aider (v\d+(?:\.\d+)+)\b/;
/** A frame of a traceback (`File "…", line 2090, in compute_costs_from_tokens`) and whether it is
 * installed aider's own code (`…/site-packages/aider/coders/base_coder.py`). */
const FRAME = /^File "([^"]+)", line \d+, in (\S+)/;
const AIDER_CODE = /[\\/](?:site-packages|aider-chat[^\\/]*)[\\/](?:.*[\\/])?aider[\\/][\w\\/]+\.py$/;
/** The exception line that ends a traceback (`TypeError: …`, `litellm.exceptions.APIError: …`). */
const EXCEPTION = /^([\w.]*\w(?:Error|Exception|Interrupt|Exit)): (.+?)\s*$/;
const CUR_DIR = /^Cur working dir: (.+?)\s*$/;
/** Aider's in-chat commands (`/help` lists them): an invalid one that differs from one of these
 * only in case, or runs into its text without a space, is that command mistyped. */
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

/** What an invalid command was meant to be: `/Add` → `/add` (aider's commands are lowercase),
 * `/ask你好` → `/ask` (a command followed by a character no command name has, with no space). */
function mistyped(command: string): string | undefined {
  const word = command.slice(1);
  if (COMMANDS.has(word.toLowerCase()) && !COMMANDS.has(word)) return `/${word.toLowerCase()}`;
  const prefix = [...COMMANDS].filter((c) => word.startsWith(c) && word.length > c.length && !/^[\w-]/.test(word.slice(c.length))).sort((a, b) => b.length - a.length)[0];
  return prefix ? `/${prefix}` : undefined;
}

/** Whether `word` is one keystroke (a letter added, left out, changed, or two swapped) from a
 * command aider has. */
function oneKeyFromCommand(word: string): boolean {
  return [...COMMANDS].some((c) => Math.abs(c.length - word.length) <= 1 && c.length >= 2 && oneEdit(word, c));
}

function oneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    const diff = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
    return diff.length === 1 || (diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!]);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

/** A path as the repository names it: relative to the git working dir aider reports when it is
 * under it (Windows drive letters in any case), else (an absolute path naming this machine's
 * folders) only its file name. */
function repoPath(path: string, gitDir?: string): string {
  const inside = underRoot(path, gitDir);
  if (inside !== undefined) return inside;
  return isAbsolute(path) ? fileName(path) : path.replace(/\\/g, '/');
}

/** `path` relative to `root`, or undefined when it is not under it. */
function underRoot(path: string, root: string | undefined): string | undefined {
  if (!root) return undefined;
  const slashed = path.replace(/\\/g, '/');
  const base = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const fold = (t: string): string => (/^[A-Za-z]:/.test(t) ? t.toLowerCase() : t);
  return fold(slashed).startsWith(`${fold(base)}/`) ? slashed.slice(base.length + 1) : undefined;
}

function isAbsolute(path: string): boolean {
  return /^(?:[A-Za-z]:)?[\\/]|^~/.test(path);
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
  const path = MISSING_READ.exec(hit.line)![1]!;
  // a file outside the repository (`~/.config/aider/CONVENTIONS.md`) is this machine's, not the repository's
  if (isAbsolute(path) && underRoot(path, gitDir) === undefined) return undefined;
  const missing = repoPath(path, gitDir);
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

const DELETED_HINT = /^Has it been deleted from the file system but not from git\?/;
/** A file's name: with an extension, or a dotfile (`.gitignore`); a bare name is most often a folder. */
const HAS_EXTENSION = /[^/.]\.[A-Za-z0-9]+$|(?:^|\/)\.[^/.]+$/;

/** Aider's repo map covers every file git tracks: one deleted or moved on disk without the
 * deletion committed makes aider warn, once per launch ("Repo-map can't include <file>", "Has it
 * been deleted from the file system but not from git?"), until the deletion is committed. A warning
 * only this launch gave, which a later launch of the same history no longer gave, was passing
 * (the files came back, a sync folder had not caught up): nothing for the next session. One that
 * recurs across launches is the state of the checkout. */
function deletedTrackedDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l, i) => REPO_MAP_MISSING.test(l.line) && DELETED_HINT.test(lines[i + 1]?.line ?? ''));
  if (hits.length === 0) return undefined;
  const launches = view.session.aiderLaunches;
  if (launches && launches.all.slice(launches.at + 1).some((l) => !l.missingTracked) && !launches.all.some((l, i) => i !== launches.at && l.missingTracked)) return undefined;
  const gitDir = bannerValue(lines, GIT_DIR);
  const paths = namedPaths(lines);
  const raw = hits.map((h) => REPO_MAP_MISSING.exec(h.line)![1]!);
  const placed = raw.map((p) => inCheckout(p, paths));
  const named = [...new Set(raw.map((p, i) => placed[i] ?? repoPath(p, gitDir)))];
  // the paths as the repository names them, when aider's notices or its banner say so (a bare
  // file name of an absolute path says too little to act on: then there is no item)
  const located = raw.every((p, i) => placed[i] !== undefined || !isAbsolute(p) || underRoot(p, gitDir) !== undefined);
  // a name without an extension (`sc/lib/forge-std`) is most often a submodule or a nested
  // repository, which aider warns about the same way: no deleted file, nothing to remove
  const folders = named.filter((f) => !HAS_EXTENSION.test(f));
  const installed = installedFolder(raw);
  if (folders.length === named.length && installed === undefined) return undefined;
  // (never a `git rm` for a submodule: aider leaves out what .aiderignore lists)
  const submodule = folders.length > 0 ? `; a submodule folder (here ${code(folders[0]!)}) draws the same harmless warning: list it in ${code('.aiderignore')} instead` : '';
  // most of the warned files in one folder of generated files (an IDE's index, build output):
  // that folder was committed by mistake, and the tool rewrites it all the time
  const generated = installed ?? generatedFolder(raw.filter((f) => HAS_EXTENSION.test(f)));
  const files = named.filter((f) => HAS_EXTENSION.test(f));
  const warns = `${code("Repo-map can't include <file>")}, ${code('Has it been deleted from the file system but not from git?')}`;
  // an item that cannot say which path is gone only repeats aider's own hint
  if (!generated && !located) return undefined;
  // a path the session itself had just moved or removed is this task's work in progress
  if (!generated && files.some((f) => movedInSession(view, f, hits[0]!.event))) return undefined;
  const text = generated
    ? `Aider warns once per launch about each path git tracks that is no file on disk: ${warns}. Here they are files of a ${code(`${generated}/`)} folder, generated files committed by mistake: untrack it (${code(`git rm -r --cached <path>/${generated}`)}), add it to ${code('.gitignore')} and commit.`
    : `Git tracks ${files.slice(0, 2).map(code).join(', ')}${files.length > 2 ? ` and ${files.length - 2} more` : ''}, ${files.length > 1 ? 'which are' : 'which is'} no file on disk (deleted or moved without committing that), so aider's repo map warns about it (${code("Repo-map can't include <file>")}). Run ${code(`git rm --cached ${clip(files[0]!, 50)}`)} (or commit the move)${submodule}.`;
  return {
    category: 'tool-quirk',
    // (named paths and a generated folder are this repository's: what it tracks and should untrack)
    scope: 'repo',
    title: generated ? `git tracks generated ${generated}/ files, which aider warns about` : `git tracks ${clip(files[0]!, 40)}, which is gone from disk`,
    text,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'repo-map', 'git'],
    quotes: [hits[0]!.line],
    rule: 'aider-notice',
    signature: 'aider repo-map tracked file deleted',
    score: 5,
  };
}

/** A provider's refusal for an account with no credit left (OpenAI's 429 `insufficient_quota`). */
const QUOTA_GONE = /^litellm\.RateLimitError\b.*?(You exceeded your current quota[^.'"]*|insufficient_quota)/;
const RETRYING = /^Retrying in [\d.]+ seconds/;

/** A 429 that says the account's quota is used up is no rate limit: no wait fixes it, yet aider
 * retries it with growing backoff like one. The next session should stop and fix the billing. */
function quotaDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => QUOTA_GONE.test(l.line));
  const retrying = at < 0 ? undefined : lines.slice(at + 1, at + 4).map((l) => RETRYING.exec(l.line)?.[0]).find((r) => r !== undefined);
  if (retrying === undefined) return undefined;
  const said = QUOTA_GONE.exec(lines[at]!.line)![1]!;
  const model = view.session.models[0];
  return {
    category: 'pitfall',
    scope: 'agent',
    title: 'aider retries an exhausted API quota (429) as a rate limit',
    text:
      `${model ? `${code(model)}'s requests` : "The model's requests"} failed with 429 ${code(clip(said, 90))}: the account has no credit left, which no wait fixes, ` +
      `yet aider reads it as a rate limit and retries with growing backoff (${code(retrying)}…). Stop it (Ctrl-C) and fix the plan or the key.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'quota', ...(model ? [model.split('/')[0]!] : [])],
    quotes: [clip(said, 120)],
    rule: 'aider-notice',
    signature: 'aider quota exhausted retried',
    score: 6,
  };
}

/** `Warning for gemini/gemini-3-flash: Unknown context window size and costs, using sane defaults.` */
const UNKNOWN_MODEL = /^Warning for (\S+?): Unknown context window size and costs\b/;
const SUGGESTION = /^-\s+(\S+)\s*$/;

/** A model name litellm does not know: aider warns and suggests names it knows. When this launch
 * got no answer and a later launch of the same history with one of those names did, the item says
 * which name to use (dated: which names a provider serves changes). A launch that answered anyway
 * (a local model litellm has no table for) says nothing. */
function suggestedNameDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const launches = view.session.aiderLaunches;
  if (!launches || launches.all[launches.at]?.outcome === 'answered') return undefined;
  const at = lines.findIndex((l) => UNKNOWN_MODEL.test(l.line));
  if (at < 0 || !/^Did you mean one of these\?/.test(lines[at + 1]?.line ?? '')) return undefined;
  const unknown = UNKNOWN_MODEL.exec(lines[at]!.line)![1]!;
  const suggested: string[] = [];
  for (const l of lines.slice(at + 2)) {
    const name = SUGGESTION.exec(l.line)?.[1];
    if (name === undefined) break;
    suggested.push(name);
  }
  const worked = launches.all.slice(launches.at + 1).find((l) => l.outcome === 'answered' && l.model !== undefined && suggested.includes(l.model))?.model;
  if (worked === undefined) return undefined;
  return {
    category: 'pitfall',
    scope: 'agent',
    title: `aider: use ${clip(worked, 38)}, not ${clip(unknown, 30)}`,
    text: `${aiderOn(view)} did not know ${code(unknown)} (${code('Unknown context window size and costs')}) and suggested ${code(worked)}${suggested.length > 1 ? ' among others' : ''}: the launch with ${code(worked)} then worked.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'model', unknown.split('/')[0]!],
    quotes: [`Warning for ${unknown}: Unknown context window size and costs`],
    rule: 'aider-notice',
    signature: `aider unknown model ${unknown} use ${worked}`,
    score: 6,
  };
}

/** A launch line (`> /opt/homebrew/bin/aider --model … --yes-always …`) with aider's flag that
 * answers every question yes. */
const YES_ALWAYS = /(?:^|[\\/\s])aider(?:\.exe)?\s.*\s--yes-always\b/;
const SCRAPING = /^Scraping (https?:\/\/[^\s/]+)/;

/** With `--yes-always` aider says yes to its own offers too: a URL in the message is scraped into
 * the chat, and the Playwright it wants for that is installed, with nobody asked. A scripted run
 * that passes a ticket's URL in `--message` does both. Said when the launch shows it happen. */
function yesAlwaysDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  if (!lines.some((l) => YES_ALWAYS.test(l.line))) return undefined;
  const scraped = lines.map((l) => SCRAPING.exec(l.line)?.[1]).find((h) => h !== undefined);
  if (scraped === undefined) return undefined;
  const installed = view.session.events.some((e) => (e.kind === 'system' || e.kind === 'assistant') && /\bplaywright install\b/.test(e.text));
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider --yes-always also says yes to scraping URLs',
    text:
      `With \`--yes-always\` aider answers its own offers yes as well: a URL in the message (${code(scraped.replace(/^https?:\/\//, '').replace(/[?#:].*$/, ''))}) was scraped into the chat${installed ? ', and aider went on to install Playwright for it' : ''}, with nobody asked. ` +
      'In scripted runs, keep URLs out of `--message` unless the page should be read.',
    confidence: CONFIDENCE.verified,
    event: lines.find((l) => SCRAPING.test(l.line))!.event,
    tags: ['aider', 'yes-always'],
    quotes: [`Scraping ${scraped}`],
    rule: 'aider-notice',
    signature: 'aider yes-always scrapes urls',
    score: 5,
  };
}

/** Programs that move or remove files. */
const MOVES = /^(?:mv|rm|git mv|git rm|Move-Item|Remove-Item|del|move|rmdir)$/i;

/** Whether a command run before event `before` moved or removed `file` or a folder holding it
 * (`/run mv label_bro_rs/src/utils src` for `label_bro_rs/src/utils/mod.rs`). */
function movedInSession(view: SessionView, file: string, before: number): boolean {
  return view.steps.some(
    (s) =>
      s.call.index < before &&
      s.simple.some((c, i) => MOVES.test(s.families[i] ?? '') && tokens(c).slice(1).some((t) => {
        const path = t.replace(/\\/g, '/').replace(/\/+$/, '');
        return !path.startsWith('-') && (file === path || file.startsWith(`${path}/`));
      })),
  );
}

/** `Unable to write file /home/h/web/nginx/x.conf after 5 attempts: [Errno 13] Permission denied: …` */
const UNWRITABLE = /^Unable to write file (.+?) after \d+ attempts: (\[Errno 13\] Permission denied|PermissionError\b[^:]*)/;

/** Files of the checkout the user running aider may not write (root-owned, read-only): aider's
 * edits to them fail after its retries, and it goes on to offer the reply's shell commands as if
 * the edit had been made. The next session should fix the ownership before asking for edits. A
 * path aider elsewhere names as a folder (`seniales/test` of `seniales/test/a.py`) is no such
 * file: the model put a folder's name above its code block, and a folder cannot be written. */
function unwritableDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const gitDir = bannerValue(lines, GIT_DIR);
  const named = namedPaths(lines);
  const hits = lines.flatMap((l) => {
    const m = UNWRITABLE.exec(l.line);
    if (!m) return [];
    if (namesFolder(m[1]!, named)) return [];
    const file = inCheckout(m[1]!, named) ?? repoPath(m[1]!, gitDir);
    return [{ file, error: m[2]!, event: l.event, posix: m[1]!.startsWith('/') }];
  });
  if (hits.length === 0) return undefined;
  const files = [...new Set(hits.map((h) => h.file))];
  // the shell command aider offered right after, from the same reply (`sudo systemctl reload nginx`)
  const offered = hits.map((h) => shellOfferAfter(view, h.event)).find((c) => c !== undefined);
  const them = files.length > 1 ? 'them' : 'it';
  // every file took a later edit: its ownership was fixed in the session, which the item says
  const fixedLater = files.every((f) => appliedAfter(view, f, Math.max(...hits.filter((h) => h.file === f).map((h) => h.event))));
  return {
    category: 'pitfall',
    scope: 'repo',
    title: `aider ${fixedLater ? 'could not' : 'cannot'} write ${clip(files[0]!, 45)} (permission denied)`,
    text:
      `Aider could not write its edits to ${files.slice(0, MAX_NAMED).map(code).join(', ')} (${code(hits[0]!.error)}, after its retries): the user running aider ${fixedLater ? `could not write ${them} in this checkout until ${files.length > 1 ? 'their' : 'its'} ${hits[0]!.posix ? 'ownership was' : 'permissions were'} fixed (later edits applied). ` : `may not write ${them} in this checkout. `}` +
      `${offered ? `After a failed write aider still offers the reply's shell commands (here ${code(clip(offered, 50))}): decline them. ` : ''}${fixedLater ? '' : `${hits[0]!.posix ? 'Fix the ownership (`sudo chown`)' : 'Fix the permissions'} before asking aider to edit ${them}.`}`,
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', 'permission'],
    quotes: [`${hits[0]!.error}: ${files[0]}`],
    rule: 'aider-notice',
    signature: `aider unwritable ${files.join(' ')}`,
    score: 6,
  };
}

/** The paths aider's notices name relative to the checkout (`Added x/y.ts to the chat`, a file name
 * on a line of its own). */
function namedPaths(lines: { line: string }[]): Set<string> {
  const out = new Set<string>();
  for (const { line } of lines) for (const t of line.split(/\s+/)) if (/^[\w.@-]+(?:\/[\w.@-]+)+$/.test(t) || /^[\w@-][\w.@-]*\.\w+$/.test(t)) out.add(t);
  return out;
}

/** An absolute path as the checkout names it: the longest path with a folder in it that aider's
 * notices name and the absolute path ends with (a bare file name says nothing of where it is). */
function inCheckout(path: string, named: ReadonlySet<string>): string | undefined {
  const slashed = path.replace(/\\/g, '/');
  return [...named].filter((p) => p.includes('/') && slashed.endsWith(`/${p}`)).sort((a, b) => b.length - a.length)[0];
}

/** Whether an absolute path is the folder of a path aider's notices name (`…\\seniales\\test` of
 * `seniales/test/test_plotting.py`). */
function namesFolder(path: string, named: ReadonlySet<string>): boolean {
  const slashed = path.replace(/\\/g, '/').replace(/\/+$/, '');
  return [...named].some((p) => {
    const dir = p.slice(0, p.lastIndexOf('/'));
    return dir.length > 0 && (slashed === dir || slashed.endsWith(`/${dir}`));
  });
}

/** Whether aider applied an edit to `file` after event `event` (its reader makes each edit a call). */
function appliedAfter(view: SessionView, file: string, event: number): boolean {
  return view.session.events.some((e) => e.index > event && e.kind === 'tool_result' && e.name === 'edit' && !e.isError && e.output.trim() === `Applied edit to ${file}`);
}

/** The shell command aider offered to run right after a notice, before the next message. */
function shellOfferAfter(view: SessionView, event: number): string | undefined {
  for (const e of view.session.events) {
    if (e.index <= event) continue;
    if (e.kind === 'tool_call') return e.command;
    if (e.kind === 'user' || e.kind === 'assistant') return undefined;
  }
  return undefined;
}

/** Folders of files a tool generates (an IDE's index and caches, build output, installed packages). */
const GENERATED = /^(?:\.vs|\.idea|\.vscode|\.gradle|\.next|\.nuxt|\.cache|\.pytest_cache|\.mypy_cache|__pycache__|node_modules|bin|obj|build|dist|target|out)$/;

/** Folders of installed packages (a virtualenv, node_modules): nobody commits one on purpose, so
 * one warned path in it shows it committed. */
const INSTALLED = /^(?:venv|\.venv|node_modules|site-packages|__pycache__)$/;

/** The folder of installed packages a warned path (a file or a folder) lies in. */
function installedFolder(paths: readonly string[]): string | undefined {
  return paths.flatMap((p) => p.split(/[\\/]/)).find((segment) => INSTALLED.test(segment));
}

/** The generated folder at least three warned files, and four in five of them, lie in (`.vs`),
 * wherever it is in their paths (aider names them absolute when it does not know the root). */
function generatedFolder(files: readonly string[]): string | undefined {
  const count = new Map<string, number>();
  for (const f of files) {
    const folder = f.split(/[\\/]/).slice(0, -1).find((segment) => GENERATED.test(segment));
    if (folder !== undefined) count.set(folder, (count.get(folder) ?? 0) + 1);
  }
  for (const [folder, n] of count) if (n >= 3 && n >= files.length * 0.8) return folder;
  return undefined;
}

const SUBFOLDER_NOTE = /^Note: in-chat filenames are always relative to the git working dir\b/;

/** The launch banner says `Git repo: none` (`--no-git`): aider then names files from the folder
 * it runs in, whatever note it prints about the git working dir (a reviewer found a session
 * that added `components/Contact.jsx` from `src/`). */
function withoutRepo(lines: { line: string; event: number }[], event: number): boolean {
  return lines.some((l) => l.event === event && /^Git repo: none\b/.test(l.line));
}

/** Aider started in a subfolder of the repository notes that the file names of its chat stay
 * relative to the repository root: a file of that folder is `backend/…` in the chat, and a path
 * without the folder names a file at the root. Said once at launch, and easily missed. */
function subfolderDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => SUBFOLDER_NOTE.test(l.line) && !withoutRepo(lines, l.event));
  if (at < 0) return undefined;
  const near = lines.slice(at, at + 4);
  const cur = near.map((l) => CUR_DIR.exec(l.line)?.[1]).find((v) => v !== undefined);
  const git = near.map((l) => GIT_DIR.exec(l.line)?.[1]).find((v) => v !== undefined);
  // (only the folder's path inside the repository: the absolute paths name this machine)
  const here = cur !== undefined && git !== undefined ? underRoot(cur, git) : undefined;
  if (here === undefined) return undefined;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider started in a subfolder names chat files from the repository root',
    text: `Aider started in a subfolder of the repository (here ${code(here)}) still takes the file names of its chat from the repository root (${code('Note: in-chat filenames are always relative to the git working dir, not the current working dir.')}): a file of that folder is ${code(`${here}/…`)} in the chat, and a path without the folder names a file at the root.`,
    confidence: CONFIDENCE.stated,
    event: lines[at]!.event,
    tags: ['aider', 'paths', 'subfolder'],
    quotes: [lines[at]!.line],
    rule: 'aider-notice',
    signature: 'aider in-chat filenames relative to git root',
    score: 5,
  };
}

function gitignoreDrafts(lines: { line: string; event: number }[]): Draft[] {
  const drafts: Draft[] = [];
  const gitDir = bannerValue(lines, GIT_DIR);
  for (const [re, what] of [
    [SKIPPED_EDIT, 'applies no edit to a file that matches .gitignore: the model\'s edits to'],
    [SKIPPED_ADD, 'takes a file named on its command line as a file to edit, and adds none that matches .gitignore to the chat'],
  ] as const) {
    const hits = lines.filter((l) => re.test(l.line));
    if (hits.length === 0) continue;
    // a path relative to the repository says where (`models/modules/__init__.py`); an absolute one
    // names this machine's folders, so only its file name is kept
    const files = [...new Set(hits.map((h) => repoPath(re.exec(h.line)![1]!, gitDir)))];
    const edits = re === SKIPPED_EDIT;
    // aider's own files (`.aider.conf.json`) are aider's, not the repository's: an agent-scope
    // item may name them, and say that aider put `.aider*` into .gitignore itself
    const ownFiles = !edits && files.every((f) => /^\.aider/.test(fileName(f)));
    const shown = edits || ownFiles ? files[0] : '<file>';
    // aider's notice with the path as the repository names it (never this machine's folders)
    const notice = hits[0]!.line.replace(/^(Skipping (?:edits to )?).*?( that matches)/, `$1${shown}$2`);
    const named = files.slice(0, MAX_NAMED).map((f) => code(f)).join(', ');
    const ownIgnore = ownFiles && lines.some((l) => /^Added \.aider\* to \.gitignore/.test(l.line)) ? '; aider itself had added `.aider*` to .gitignore' : '';
    drafts.push({
      category: 'tool-quirk',
      // a skipped edit says this repository's .gitignore covers files the model works on (named);
      // a file named on the command line and skipped is how aider treats its arguments anywhere,
      // so that item names none of this repository's files
      scope: edits ? 'repo' : 'agent',
      title: edits ? 'aider skips edits to gitignored files' : 'aider does not add gitignored files',
      text: edits
        ? `Aider ${what} ${named} ${files.length > 1 ? 'were' : 'was'} skipped (${code(clip(notice, 120))}).`
        : ownFiles
          ? `Aider ${what}: ${named} ${files.length > 1 ? 'were' : 'was'} skipped (${code(clip(notice, 120))})${ownIgnore}.`
          : `Aider ${what} (${code(clip(notice, 120))}).`,
      confidence: CONFIDENCE.stated,
      event: hits[0]!.event,
      tags: ['aider', 'gitignore', ...(edits || ownFiles ? files.slice(0, 2) : [])],
      quotes: [clip(notice, 160)],
      rule: 'aider-notice',
      // the same files skipped again in a later launch of the same history are the same item
      signature: `aider gitignore ${edits ? 'edit' : 'argument'} ${files.join(' ')}`,
      score: 6,
    });
  }
  return drafts;
}

/** A later prompt that ran the program as a shell command (`!find …`, `/run find …`): how the
 * user got what the invalid command was for. */
function shellAlternative(view: SessionView, command: string, after: number): string | undefined {
  const program = command.slice(1).toLowerCase().replace(/[^\w-]/g, '');
  if (program === '') return undefined;
  const ran = view.prompts.find((p) => p.index > after && new RegExp(`^(?:!|/run\\s+)${program}\\b`).test(p.text.trim()));
  return ran ? ran.text.trim().split(/\s+/).slice(0, 2).join(' ') : undefined;
}

function invalidCommandDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => INVALID.test(l.line));
  if (hits.length === 0) return undefined;
  const commands = [...new Set(hits.map((h) => INVALID.exec(h.line)![1]!))];
  // a command today's aider has, answered as invalid, came from an older version: what an old
  // version lacked is no lesson for a session today (a reviewer rejected "aider has no /quit")
  // and one a keystroke away from one it has (`/gitt`, `/ad`) is a slip of typing, no lesson either
  const missing = commands.filter((c) => mistyped(c) === undefined && !COMMANDS.has(c.slice(1)) && !oneKeyFromCommand(c.slice(1).toLowerCase()));
  const typos = commands.filter((c) => mistyped(c) !== undefined);
  if (missing.length === 0 && typos.length === 0) return undefined;
  const parts: string[] = [];
  if (missing.length > 0) {
    const alternative = missing.map((c) => shellAlternative(view, c, hits[0]!.event)).find((a) => a !== undefined);
    parts.push(`Aider has no ${missing.slice(0, MAX_NAMED).map((c) => code(c)).join(', ')} in-chat command${missing.length > 1 ? 's' : ''}: it answers ${code(`Invalid command: ${missing[0]}`)}.${alternative ? ` A shell command runs with \`!\` or \`/run\` (${code(`${alternative} …`)}).` : ''}`);
  }
  // a command run into its text shows as `/ask<text>`: the user's words are this session's
  const shown = (c: string): string => {
    const meant = mistyped(c);
    return meant === undefined || c.toLowerCase() === meant ? c : `${c.slice(0, meant.length)}<text>`;
  };
  const distinct = [...new Map(typos.map((c) => [shown(c), c])).values()];
  if (typos.length > 0) parts.push(`${parts.length > 0 ? 'Its' : "Aider's"} in-chat commands are lowercase and need a space before their text: ${distinct.slice(0, 2).map((c) => `${code(shown(c))} is an invalid command (the command is ${code(mistyped(c)!)})`).join(', ')}.`);
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: missing.length > 0 ? `aider has no ${missing.slice(0, MAX_NAMED).join(', ')} command` : 'aider commands are lowercase and need a space after them',
    text: parts.join(' '),
    confidence: CONFIDENCE.stated,
    event: hits[0]!.event,
    tags: ['aider', ...commands.slice(0, 3).map((c) => shown(c).replace(/<text>$/, '').slice(1))],
    quotes: [`Invalid command: ${shown(commands[0]!)}`],
    rule: 'aider-notice',
    score: 5,
  };
}

/** A traceback that ends in aider's own code is a crash of aider, not of the user's program: the
 * exception, the aider function it came from, the version and the model it ran with. */
function crashDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  // each traceback: its frames in order, then the exception line that ends it
  let last: { file: string; fn: string } | undefined;
  let inTrace = false;
  for (const l of lines) {
    if (l.line.startsWith('Traceback (most recent call last)')) {
      inTrace = true;
      last = undefined;
      continue;
    }
    if (!inTrace) continue;
    const frame = FRAME.exec(l.line);
    if (frame) {
      last = { file: frame[1]!, fn: frame[2]! };
      continue;
    }
    const error = EXCEPTION.exec(l.line);
    if (!error) continue;
    inTrace = false;
    // the error was raised in aider's own code only when the traceback's last frame is aider's
    // (every aider traceback starts in aider/main.py, whatever library it ends in)
    if (!last || !AIDER_CODE.test(last.file)) continue;
    const where = last.fn;
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

/** A message with two in-chat commands (`/add a.ts` and, on the next line, `/add b.ts`): aider
 * runs the first and reads the rest as its arguments, so it looks for a file named `/add`. */
function commandAsFileDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hit = lines.find((l) => {
    const m = COMMAND_AS_FILE.exec(l.line);
    return m !== null && COMMANDS.has(m[1]!);
  });
  if (!hit) return undefined;
  const command = `/${COMMAND_AS_FILE.exec(hit.line)![1]}`;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider runs one in-chat command per message',
    text: `Aider runs one in-chat command per message and reads the rest of the message as its arguments: a second ${code(command)} line in the same message was taken for a file to create (${code(clip(hit.line, 100))}). Send each command as its own message.`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', command.slice(1)],
    quotes: [clip(hit.line, 160)],
    rule: 'aider-notice',
    signature: 'aider one command per message',
    score: 5,
  };
}

const APPLIED = /^Applied edit to (.+?)\s*$/;
const DECLINED = /^Skipping edits to (.+?)\s*$/;
const EDIT_FORMAT = /^(?:Main )?[Mm]odel: .* with (\S+) edit format\b/;
/** Files that are named without an extension. */
const BARE_FILE_NAMES = /^(?:Makefile|Dockerfile|Containerfile|Procfile|Gemfile|Rakefile|Brewfile|Justfile|Vagrantfile|Jenkinsfile|LICENSE|README|CHANGELOG|NOTICE|AUTHORS|CODEOWNERS|VERSION|\.[\w.-]+)$/;

/** The line above a fence as aider reads it for a file name (`### Topology` → `Topology`). */
function asFileName(line: string): string {
  return line.trim().replace(/^#+\s*/, '').replace(/^[*`]+|[*`:]+$/g, '').trim();
}

/** Whether `name` could be a file name a model meant: a path, a name with an extension, or a
 * file that has none by custom; a heading word or a line of prose is none. */
function plausibleFile(name: string): boolean {
  return !/\s/.test(name) && (/[./\\]/.test(name) || BARE_FILE_NAMES.test(name));
}

/** A name that reads as a file's path: one word of path characters with an extension, or a
 * file name that has none by custom (stricter than plausibleFile: `KEY=https://x.io` is none). */
function namesAFile(name: string): boolean {
  return /^[\w@~./\\-]+$/.test(name) && (/\.\w{1,8}$/.test(name) || BARE_FILE_NAMES.test(name));
}

/** The file whose content, in the reply before line `at`, held a fenced block of its own
 * (`README.md` with a "```bash" example): aider ends a file at the next fence line whatever it
 * carries, so the lines after it were read as more files. */
function nestedFenceFile(replyLines: readonly string[], at: number): string | undefined {
  let inside = false;
  let named = '';
  let found: string | undefined;
  for (let i = 0; i < at; i++) {
    const l = replyLines[i]!;
    if (!l.startsWith('```') && !l.startsWith('~~~')) continue;
    if (!inside) {
      inside = true;
      named = asFileName(replyLines[i - 1] ?? '');
      continue;
    }
    inside = false;
    // a fence with a language closed the block: to the model it opened one inside the file
    // (only under a name that reads as a file's path: a stray name's block tells nothing)
    if (/^```\w/.test(l) && namesAFile(named)) found = named;
  }
  return found;
}

/** Aider writing a file named after a line of the reply (`Applied edit to Topology`, from a
 * `### Topology` heading right above a fenced diagram): in its whole-file edit format the line
 * just above a fence names the file the block is written to, whatever that line says. */
function strayFileDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  // the files aider wrote (the reader gives each applied edit as an `edit` call and its notice as
  // the result) and those it asked to create and the user declined (`Skipping edits to <name>`)
  const written = view.steps.flatMap((step) => {
    const applied = APPLIED.exec(step.output.trim());
    return step.call.name === 'edit' && applied ? [{ name: applied[1]!, line: applied[0], event: step.call.index, declined: false }] : [];
  });
  const declined = lines.flatMap((l, i) => {
    const skipped = DECLINED.exec(l.line);
    // (aider names the file, asks `Create new file?`, and on "n" skips it; the reader keeps the name)
    return skipped && !SKIPPED_EDIT.test(l.line) && lines[i - 1]?.line === skipped[1] ? [{ name: skipped[1]!, line: l.line, event: l.event, declined: true }] : [];
  });
  for (const hit of [...written, ...declined].sort((a, b) => a.event - b.event)) {
    const name = hit.name;
    if (plausibleFile(name)) continue;
    // the reply that held it: a line that reads as `name` right above a fence
    const reply = view.session.events.findLast((e) => e.kind === 'assistant' && e.index < hit.event);
    if (!reply || reply.kind !== 'assistant') continue;
    const replyLines = reply.text.split('\n');
    const at = replyLines.findIndex((l, i) => asFileName(l) === name && /^\s*(?:```|~~~)/.test(replyLines[i + 1] ?? ''));
    if (at < 0) continue;
    const format = bannerValue(lines, EDIT_FORMAT);
    const above = clip(replyLines[at]!.trim(), 60);
    // aider's auto-commit follows the edit before the next message
    const nextPrompt = view.prompts.find((p) => p.index > hit.event)?.index ?? Infinity;
    const committed = view.steps.some((s) => s.call.name === 'commit' && s.call.index > hit.event && s.call.index < nextPrompt);
    const made = hit.declined ? 'ask to create ' : `create ${committed ? 'and commit ' : ''}`;
    // the same happened to other lines of the session's replies: named, so a reader can clean up
    const more = [...new Set([...written, ...declined].filter((h) => h !== hit && !plausibleFile(h.name)).map((h) => h.name))].slice(0, 3);
    // (after the advice: a long item is cut at its end)
    const also = more.length > 0 ? ` Other lines got the same: ${more.map((m) => code(clip(m, 40))).join(', ')}.` : '';
    // that answering no to aider's question skips such a file, only where the session shows it
    // (under --yes nobody answers: a reviewer found the claim unshown)
    const declinedOther = hit.declined ? undefined : declined.find((d) => !plausibleFile(d.name));
    const ask = declinedOther ? ` Answering no to aider's \`Create new file?\` skips such a file (as for ${code(clip(declinedOther.name, 40))}).` : '';
    // why a line of a file's content stood above a fence at all: the model nested fences in it
    const nested = nestedFenceFile(replyLines, at);
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: 'aider takes the line above a code block for a file name',
      text: nested
        ? `In aider's ${format ? `${format} ` : ''}edit format the line just above a fenced code block names the file it is written to, and a file ends at the next fence line: ${code(clip(nested, 40))}'s content in a reply held fenced blocks of its own, so its line ${code(above)} made aider ${made}a file named ${code(clip(name, 60))}${hit.declined ? ' (declined)' : ''}. A file's content cannot hold fences in this format.${ask}${also}`
        : `In aider's ${format ? `${format} ` : ''}edit format the line just above a fenced code block names the file the block is written to: a reply with ${code(above)} above a fenced block made aider ${made}a file named ${code(clip(name, 60))} (${code(clip(hit.line, 80))}${hit.declined ? ', declined' : ''}).${ask}${also}`,
      confidence: CONFIDENCE.stated,
      event: hit.event,
      tags: ['aider', 'edit-format', 'file-name'],
      quotes: [clip(hit.line, 160)],
      rule: 'aider-notice',
      signature: 'aider line above a fence taken as a file name',
      score: 5,
    };
  }
  return undefined;
}

const UNDO_REFUSED = /^The last commit was not made by aider in this chat session\.?\s*$/;

/** `/undo` refused: aider undoes only a commit it counts as its own in this chat session, and
 * points to a destructive `git reset` instead. Which commits it counts differs between versions
 * (an old one refused its own commit of the same launch after `/clear`): the item says what aider
 * answers and a way back that keeps the work, not why it refused. */
function undoDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => UNDO_REFUSED.test(l.line));
  if (at < 0) return undefined;
  const hit = lines[at]!;
  const hint = /^You could try `\/git reset/.test(lines[at + 1]?.line ?? '');
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider's /undo can refuse the last commit",
    text: `Aider's ${code('/undo')} undoes only a commit it counts as its own in the current chat session; for any other last commit it answers ${code('The last commit was not made by aider in this chat session')}${hint ? ` and suggests ${code('/git reset --hard HEAD^')}, which it warns is destructive` : ''}. ${code('/git revert HEAD')} undoes the last commit and keeps the history.`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'undo'],
    quotes: [hit.line],
    rule: 'aider-notice',
    signature: 'aider undo only its own commits',
    score: 5,
  };
}

const UNABLE_TO_COMMIT = /^Unable to commit: /;

/** Aider commits each edit itself; when that `git commit` fails ("Unable to commit: Cmd('git')
 * failed …", then git's stderr) it says so and goes on: the edits stay applied, uncommitted,
 * and git's own first line says why (a signing failure, nothing staged, …). */
function commitFailedDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => UNABLE_TO_COMMIT.test(l.line));
  if (at < 0) return undefined;
  const stderr = lines.slice(at + 1, at + 4).find((l) => /^stderr:/.test(l.line));
  const why = stderr?.line.replace(/^stderr:\s*'?/, '').replace(/'$/, '').trim();
  if (!why) return undefined;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider leaves its edits uncommitted when its own git commit fails',
    text: `Aider commits each applied edit itself; when that ${code('git commit')} fails it prints ${code('Unable to commit')} with git's error (${code(clip(why, 100))}) and goes on, so the edits stay in the files uncommitted: commit them yourself once git's error is fixed.`,
    confidence: CONFIDENCE.stated,
    event: lines[at]!.event,
    tags: ['aider', 'git', 'commit'],
    quotes: [why],
    rule: 'aider-notice',
    signature: `aider unable to commit ${errorSignature(why)}`,
    score: 5,
  };
}

/** A model request aider reports failed because of the model named or its quota (not a key). */
const MODEL_REFUSED = /LLM Provider NOT provided|not a valid model|is not found|does not exist|NotFoundError|exceeded your current quota|RateLimitError/i;
const KEY_PROBLEM = /AuthenticationError|API key|api_key|credential|unauthori[sz]ed|permission denied/i;

/** What a litellm error says, without the provider's wrapping: its `"message"`, else its first clause. */
function modelErrorMessage(line: string): string {
  const message = /"message":\s*"([^"]{5,600})"/.exec(line)?.[1];
  if (message) return message.replace(/\\n.*$/, '').split(/(?<=\.)\s/)[0]!.replace(/\.$/, '').trim();
  const after = line.replace(/^litellm\.\w+:\s*/, '').replace(/^(?:litellm\.)?\w+(?:Error|Exception):\s*/, '').replace(/^\w+Exception\s*-\s*/, '');
  return after.split(/(?<=\.)\s/)[0]!.replace(/\.$/, '');
}

/** "On 2026-08-31, aider": which model names a provider serves changes over months, so an item about
 * them says when it held (the launch's date, when the history records it). */
function aiderOn(view: SessionView): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(view.session.startedAt ?? '')?.[0];
  return day ? `On ${day}, aider` : 'Aider';
}

/** A launch whose model requests failed (a model name litellm does not know, a quota), followed
 * by a launch with another model that got replies: which model name failed, and which worked.
 * (Launches that failed in between are not named: their errors may be others, a key, a network.) */
function modelSwitchDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const launches = view.session.aiderLaunches;
  if (!launches) return undefined;
  const { at, all } = launches;
  const here = all[at];
  if (here?.outcome !== 'failed' || !here.model) return undefined;
  // said once, by the first failing launch of a run (idle launches in between do not end it)
  const before = all.slice(0, at).filter((l) => l.outcome !== 'idle').pop();
  if (before?.outcome === 'failed') return undefined;
  const error = lines.find((l) => LITELLM_ERROR.test(l.line));
  if (!error || !MODEL_REFUSED.test(error.line) || KEY_PROBLEM.test(error.line)) return undefined;
  const rest = all.slice(at + 1);
  // the same model under another name (`openai/<name>` for a bare `<name>`) says what to change;
  // else the first model that worked
  const base = (m: string): string => m.replace(/^.*\//, '');
  const answered = rest.filter((l) => l.outcome === 'answered' && l.model && l.model !== here.model);
  const worked = (answered.find((l) => base(l.model!) === base(here.model!)) ?? answered[0])?.model;
  if (!worked) return undefined;
  const message = clip(modelErrorMessage(error.line), 110);
  // the same model with a provider in front (`openai/<name>` for `<name>`): what to change is the prefix
  const provider = !here.model.includes('/') && worked.endsWith(`/${here.model}`) ? worked.slice(0, -here.model.length - 1) : undefined;
  return {
    category: 'pitfall',
    scope: 'agent',
    title: provider ? `aider needs the provider prefix on a model name (${clip(provider, 20)}/…)` : `aider: ${clip(here.model, 40)} failed, ${clip(worked, 40)} worked`,
    text: provider
      ? `Aider (through litellm) needs the provider in front of a model name: ${code(here.model)} alone failed (${code(message)}); ${code(worked)} worked.`
      : `${aiderOn(view)}'s requests with ${code(here.model)} failed (${code(message)}); the launch with ${code(worked)} then worked.`,
    confidence: CONFIDENCE.stated,
    event: error.event,
    tags: ['aider', 'model', ...here.model.split('/').slice(0, 1)],
    quotes: [message],
    rule: 'aider-notice',
    signature: `aider model failed ${here.model} worked ${worked}`,
    score: 6,
  };
}

export function aiderNoticeDrafts(view: SessionView): Draft[] {
  if (view.session.agent !== 'aider') return [];
  const lines = noticeLines(view);
  const found = [invalidCommandDraft(view, lines), commandAsFileDraft(lines), missingReadDraft(lines), crashDraft(view, lines), strayFileDraft(view, lines), modelSwitchDraft(view, lines), undoDraft(lines), commitFailedDraft(lines), subfolderDraft(lines), deletedTrackedDraft(view, lines), unwritableDraft(view, lines), quotaDraft(view, lines), yesAlwaysDraft(view, lines), suggestedNameDraft(view, lines)].filter((d): d is Draft => d !== undefined);
  return [...gitignoreDrafts(lines), ...found];
}

export const aiderNotices: RuleExtractor = ruleExtractor('aider-notice', aiderNoticeDrafts);
