/**
 * Aider's notices about how it applied the chat's edits and commands: edits and files skipped as
 * gitignored, an in-chat command it does not have, a second command read as a file name, a line
 * above a code block taken for a file's name, /undo refused, its own commit failed, and a
 * traceback through aider's own code. Each says what aider did with what the chat asked.
 */
import { CONFIDENCE } from '../../candidate.js';
import type { Draft } from '../build.js';
import { clip, code, errorSignature } from '../text.js';
import { fileName, type SessionView } from '../view.js';
import type { UserEvent } from '../../../sessions/model.js';
import { AIDER_VERSION as VERSION, bannerValue, COMMAND_LINE, commitWishes, CREATE_NEW_FILE, GIT_DIR, MAX_NAMED, launchLine, QUESTION, repoPath, SHELL_LANG, YES_LAUNCH } from './aider-notice-lines.js';
import { EDIT_FORMAT } from '../../aider-launches.js';

const SKIPPED_EDIT = /^Skipping edits to (.+?) that matches gitignore spec\.?\s*$/;
const SKIPPED_ADD = /^Skipping (?!edits to )(.+?) that matches gitignore spec\.?\s*$/;
/** `Invalid command: /grep`: a command-shaped name; a message that only starts with a slash
 * (`/api/orders returns 500`) was a question aider misread, not a command the user looked for. */
const INVALID = /^Invalid command: (\/[^\s/.]+)\s*$/;
/** `Error creating file /add: …` (after `No files matched '/add'. Do you want to create /add?`):
 * a command name taken as a file name. */
const COMMAND_AS_FILE = /^(?:No files matched '|Error creating file )\/([a-z][a-z-]*)(?:'|:)/;
/** A frame of a traceback (`File "…", line 2090, in compute_costs_from_tokens`) and whether it is
 * installed aider's own code (`…/site-packages/aider/coders/base_coder.py`). */
const FRAME = /^File "([^"]+)", line \d+, in (\S+)/;
const AIDER_CODE = /[\\/](?:site-packages|aider-chat[^\\/]*)[\\/](?:.*[\\/])?aider[\\/][\w\\/]+\.py$/;
/** The exception line that ends a traceback (`TypeError: …`, `litellm.exceptions.APIError: …`). */
const EXCEPTION = /^([\w.]*\w(?:Error|Exception|Interrupt|Exit)): (.+?)\s*$/;
/** Aider's in-chat commands (`/help` lists them): an invalid one that differs from one of these
 * only in case, or runs into its text without a space, is that command mistyped. */
const COMMANDS = new Set([
  'add', 'architect', 'ask', 'chat-mode', 'clear', 'code', 'commit', 'context', 'copy', 'copy-context', 'diff', 'drop', 'edit',
  'editor', 'editor-model', 'exit', 'git', 'help', 'lint', 'load', 'ls', 'map', 'map-refresh', 'model', 'models', 'multiline-mode',
  'paste', 'quit', 'read-only', 'reasoning-effort', 'report', 'reset', 'run', 'save', 'settings', 'test', 'think-tokens', 'tokens',
  'undo', 'voice', 'weak-model', 'web',
]);

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

export function gitignoreDrafts(lines: { line: string; event: number }[]): Draft[] {
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

export function invalidCommandDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => INVALID.test(l.line));
  if (hits.length === 0) return undefined;
  const commands = [...new Set(hits.map((h) => INVALID.exec(h.line)![1]!))];
  // a command today's aider has, answered as invalid, came from an older version: what an old
  // version lacked is no lesson for a session today (a reviewer rejected "aider has no /quit")
  // and one a keystroke away from one it has (`/gitt`, `/ad`) is a slip of typing, no lesson either
  const unknown = commands.filter((c) => mistyped(c) === undefined && !COMMANDS.has(c.slice(1)) && !oneKeyFromCommand(c.slice(1).toLowerCase()));
  // that aider lacks a command is its own answer, read again by the next session that tries it:
  // an item only with what the session then ran instead (a reviewer called "no /instructions" trivia)
  const alternative = unknown.map((c) => shellAlternative(view, c, hits[0]!.event)).find((a) => a !== undefined);
  const missing = alternative === undefined ? [] : unknown;
  // a command typed in capitals (`/EXIT`) is a slip aider's answer shows at once (a reviewer called
  // it a one-off typo); one run into its text (`/ask你好`) says that a space is needed
  const typos = commands.filter((c) => mistyped(c) !== undefined && c.slice(1).toLowerCase() !== mistyped(c)!.slice(1));
  if (missing.length === 0 && typos.length === 0) return undefined;
  const parts: string[] = [];
  if (missing.length > 0) {
    parts.push(`Aider has no ${missing.slice(0, MAX_NAMED).map((c) => code(c)).join(', ')} in-chat command${missing.length > 1 ? 's' : ''}: it answers ${code(`Invalid command: ${missing[0]}`)}. A shell command runs with \`!\` or \`/run\` (${code(`${alternative} …`)}).`);
  }
  // a command run into its text shows as `/ask<text>`: the user's words are this session's
  const shown = (c: string): string => {
    const meant = mistyped(c);
    return meant === undefined || c.toLowerCase() === meant ? c : `${c.slice(0, meant.length)}<text>`;
  };
  const distinct = [...new Map(typos.map((c) => [shown(c), c])).values()];
  if (typos.length > 0) parts.push(`${parts.length > 0 ? 'Its' : "Aider's"} in-chat commands need a space before their text: ${distinct.slice(0, 2).map((c) => `${code(shown(c))} is an invalid command (the command is ${code(mistyped(c)!)})`).join(', ')}.`);
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: missing.length > 0 ? `aider has no ${missing.slice(0, MAX_NAMED).join(', ')} command` : 'aider commands need a space after them',
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
export function crashDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
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
export function commandAsFileDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.filter((l) => {
    const m = COMMAND_AS_FILE.exec(l.line);
    return m !== null && COMMANDS.has(m[1]!);
  });
  // (what happened to the name, where aider said, over its question whether to create it)
  const hit = hits.find((l) => !l.line.startsWith('No files matched')) ?? hits[0];
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
export function namesAFile(name: string): boolean {
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
export function strayFileDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  // the files aider wrote (the reader gives each applied edit as an `edit` call and its notice as
  // the result) and those it asked to create and the user declined (`Skipping edits to <name>`)
  const written = view.steps.flatMap((step) => {
    const applied = APPLIED.exec(step.output.trim());
    return step.call.name === 'edit' && applied ? [{ name: applied[1]!, line: applied[0], event: step.call.index, declined: false }] : [];
  });
  const declined = lines.flatMap((l, i) => {
    const skipped = DECLINED.exec(l.line);
    // (aider names the file, asks `Create new file?`, and on "n" skips it)
    const named = CREATE_NEW_FILE.test(lines[i - 1]?.line ?? '') ? lines[i - 2] : lines[i - 1];
    return skipped && !SKIPPED_EDIT.test(l.line) && named?.line === skipped[1] ? [{ name: skipped[1]!, line: l.line, event: l.event, declined: true }] : [];
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
    // a question drew the reply ("how do I …"): its examples were never meant as edits, which
    // aider's /ask mode would not have read as any
    const asked = QUESTION.test(view.prompts.findLast((p) => p.index < reply.index)?.text.trim() ?? '');
    const askMode = asked ? ' A question drew it: ask with `/ask`, whose answers are not read as edits.' : '';
    // why a line of a file's content stood above a fence at all: the model nested fences in it
    const nested = nestedFenceFile(replyLines, at);
    // a command in the block (```bash, or `cargo kani` alone) was meant to be run, no file's
    // content: no path on that line would have helped (a reviewer's fix: fence no commands)
    const lang = replyLines[at + 1]!.trim().replace(/^(?:```|~~~)/, '').trim();
    const first = replyLines[at + 2]?.trim() ?? '';
    const command = SHELL_LANG.test(lang) || (lang === '' && COMMAND_LINE.test(`${first} `));
    const meant = command ? ' The block was a command to run, which aider cannot tell from a file: fence only whole files in this format.' : ' The block went there, not to the file meant: put only the path on that line.';
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: 'aider takes the line above a code block for a file name',
      text: nested
        ? `In aider's ${format ? `${format} ` : ''}edit format the line just above a fenced code block names the file it is written to, and a file ends at the next fence line: ${code(clip(nested, 40))}'s content in a reply held fenced blocks of its own, so its line ${code(above)} made aider ${made}a file named ${code(clip(name, 60))}${hit.declined ? ' (declined)' : ''}. A file's content cannot hold fences in this format.${askMode}${ask}${also}`
        : `In aider's ${format ? `${format} ` : ''}edit format the line just above a fenced code block names the file the block is written to: a reply with ${code(above)} above a fenced block made aider ${made}a file named ${code(clip(name, 60))}${hit.declined ? ` (${code(clip(hit.line, 80))}, declined)` : ''}.${askMode || (hit.declined && !command ? '' : meant)}${ask}${also}`,
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

/** Aider, not the model, commits each edit it applies (auto-commits, its default): a user who
 * tells the model not to commit asks the wrong party, and the edits keep being committed. The
 * repository's way is then aider's switch, which the item names with the user's words. */
export function autoCommitDraft(view: SessionView): Draft | undefined {
  const wish = commitWishes(view)[0];
  if (!wish) return undefined;
  return {
    category: 'pattern',
    scope: 'repo',
    title: 'The user commits here: start aider with --no-auto-commits',
    text:
      `Aider itself, not the model, commits every edit it applies (its ${code('Commit …')} line after ${code('Applied edit to …')}), so telling the model not to commit changes nothing. ` +
      `The user of this repository makes the commits ("${clip(wish.text.trim().replace(/\s+/g, ' '), 90)}"): start aider with ${code('--no-auto-commits')} (or ${code('auto-commits: false')} in ${code('.aider.conf.yml')}).`,
    confidence: CONFIDENCE.verified,
    event: wish.index,
    tags: ['aider', 'commit', 'auto-commits'],
    quotes: [clip(wish.text.trim(), 200)],
    rule: 'aider-notice',
    signature: 'aider auto-commits unwanted',
    score: 7,
  };
}

/** `/undo` refused: aider undoes only a commit it counts as its own in this chat session, and
 * points to a destructive `git reset` instead. Which commits it counts differs between versions
 * (an old one refused its own commit of the same launch after `/clear`): the item says what aider
 * answers and a way back that keeps the work, not why it refused; where aider had committed
 * nothing, that a commit it did not make is not its to undo. */
export function undoDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => UNDO_REFUSED.test(l.line));
  if (at < 0) return undefined;
  const hit = lines[at]!;
  const hint = /^You could try `\/git reset/.test(lines[at + 1]?.line ?? '');
  // where aider committed nothing before it, the last commit was someone else's work: the way
  // back would take that back (a reviewer found the advice wrong there)
  // (the reader makes each of aider's own commits a `commit` call)
  const aiderCommitted = view.steps.some((s) => s.call.name === 'commit' && s.call.index < hit.event);
  // aider counts only the commits of the running process: a commit of an earlier launch of the
  // same history is aider's own work, refused after the restart (a reviewer found "not aider's"
  // wrong there)
  const launches = view.session.aiderLaunches;
  const earlierLaunchCommitted = !aiderCommitted && launches !== undefined && launches.all.slice(0, launches.at).some((l) => l.committed);
  // (aider's commits earlier in the session do not make the last commit one of them: the user may
  // have committed since, and reverting HEAD would undo their work; a reviewer found it so)
  const way = aiderCommitted
    ? `Check whose the last commit is with ${code('/git log -1')}; ${code('/git revert <hash>')} undoes a commit and keeps the history.`
    : earlierLaunchCommitted
      ? `Find that launch's commits with ${code('/git log')}; ${code('/git revert <hash>')} undoes one and keeps the history.`
      : // (said of any refusal, not of this session's: an agent item's text stands for every session it merges)
        `Check whose the last commit is with ${code('/git log -1')} before any reset.`;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: earlierLaunchCommitted ? "aider's /undo refuses the commits of an earlier launch" : "aider's /undo can refuse the last commit",
    text: earlierLaunchCommitted
      ? `After a restart aider's ${code('/undo')} no longer counts the commits of an earlier launch as its own: for aider's own last commit it answered ${code('The last commit was not made by aider in this chat session')}${hint ? ` (and suggested the destructive ${code('/git reset --hard HEAD^')})` : ''}. ${way}`
      : `Aider's ${code('/undo')} undoes only its own edit commits of this launch; for any other (yours, an earlier run's, its pre-edit commit of pending changes) it answers ${code('The last commit was not made by aider in this chat session')}${hint ? ` and suggests the destructive ${code('/git reset --hard HEAD^')}` : ''}. ${way}`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'undo'],
    quotes: [hit.line],
    rule: 'aider-notice',
    signature: 'aider undo only its own commits',
    score: 5,
  };
}

const DIR_NOT_IN_GIT = /^Directory (.+?) is not in git\.?\s*$/;
/** `/add .` answered `No files matched '.'. Do you want to create <folder>?` (seen in a folder
 * with no git repository, `Git repo: none`). */
const NO_MATCH_DOT = /^No files matched '\.[\\/]?'\./;
/** `/add .` (or `./`), and `/add *`, which takes the whole checkout. */
const ADD_DOT = /^\/add\s+\.[\\/]?\s*$/;
const ADD_ALL = /^\/add\s+(?:\.[\\/])?\*\s*$/;
const ADDED = /^Added (.+?) to the chat\b/;
/** A launch line with `--no-git`. */
const NO_GIT_LAUNCH = launchLine(String.raw`--no-git\b`);
/** A build's output folder in a path (`target/debug/…`, `dist/app.js`). */
const BUILD_DIR = /(?:^|[\\/])(target|build|dist|node_modules|__pycache__|\.next|out)[\\/]/;

/** `/add .` answered `Directory <checkout> is not in git.`: aider's `/add` of the checkout's own
 * folder adds nothing, in versions from 0.59 to 0.86, also where git tracks its files (sessions
 * ran `/git add .` and a commit first and got the same answer). What adds files is a name, a
 * subfolder or `/add *`; the item names the one the session then saw work. */
/** Aider's offer to create a file at a path it made by joining a `~/…` argument to its folder
 * (`No files matched '~/src/a.rs'. Do you want to create /home/x/app/~/src/a.rs?`). */
const TILDE_CREATE = /^No files matched '(~[\\/][^']*)'\. Do you want to create (\S*[\\/]~[\\/]\S*?)\?/;

/**
 * aider's `/add` takes `~` for a folder's name, not the home folder: it offers to create the file
 * under a folder named `~` where it runs, and, answered yes (or under --yes), adds an empty file
 * there. The next session should give paths from the repository, or absolute ones.
 */
export function tildeDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hits = lines.map((l) => ({ l, m: TILDE_CREATE.exec(l.line) })).filter((x): x is { l: { line: string; event: number }; m: RegExpExecArray } => x.m !== null);
  if (hits.length === 0) return undefined;
  const { l, m } = hits[0]!;
  const created = lines.some((x) => x.event >= l.event && x.line === `Added ${m[1]} to the chat`);
  const version = bannerValue(lines, VERSION);
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `aider${version ? ` ${version}` : ''}: /add does not expand ~`,
    text:
      `Aider${version ? ` ${version}` : ''}'s ${code('/add')} takes ${code('~')} as a folder's name, not the home folder: ${code(`/add ${clip(m[1]!, 50)}`)} matched nothing and aider offered to create it under a folder named ${code('~')} where it ran` +
      `${created ? `, then added that new, empty file to the chat${hits.length > 1 ? ` (${hits.length} such files)` : ''}` : ''}. Give ${code('/add')} paths from the repository root, or absolute paths.`,
    confidence: CONFIDENCE.stated,
    event: l.event,
    tags: ['aider', 'add'],
    quotes: [clip(l.line, 160)],
    rule: 'aider-notice',
    signature: 'aider add does not expand tilde',
    score: 5,
  };
}

export function addDotDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  // each `/add .` and aider's refusal of it
  const refusals = view.prompts
    .filter((p) => ADD_DOT.test(p.text.trim()))
    .map((asked) => {
      const next = view.prompts.find((p) => p.index > asked.index)?.index ?? Infinity;
      return { asked, hit: lines.find((l) => l.event > asked.index && l.event < next && (DIR_NOT_IN_GIT.test(l.line) || NO_MATCH_DOT.test(l.line))) };
    })
    .filter((r): r is { asked: UserEvent; hit: { line: string; event: number } } => r.hit !== undefined);
  if (refusals.length === 0) return undefined;
  const { hit } = refusals[0]!;
  // a later `/add` that added files: what worked instead (not `/add *`, which takes the whole
  // checkout: a trap for a small model, no way to recommend)
  const worked = view.prompts.find((p) => {
    const t = p.text.trim();
    if (p.index <= hit.event || !/^\/add\s+\S/.test(t) || ADD_DOT.test(t) || ADD_ALL.test(t)) return false;
    const until = view.prompts.find((q) => q.index > p.index)?.index ?? Infinity;
    return lines.some((l) => l.event > p.index && l.event < until && ADDED.test(l.line));
  });
  // a refusal after the session's own `/git add` (or commit): tracking is not what it is about
  const tracked = refusals.some((r) => view.prompts.some((p) => p.index < r.asked.index && /^\/git\s+(?:add|commit)\b/.test(p.text.trim())));
  const version = bannerValue(lines, VERSION);
  // the banner's count of the files git tracks (`Git repo: .git with 545 files`): the message is
  // not about tracking, which reviewers found misleading
  const files = lines.map((l) => /^Git repo: \S+ with ([\d,]+) files\b/.exec(l.line)?.[1]).find((n) => n !== undefined && n !== '0');
  if (NO_MATCH_DOT.test(hit.line)) {
    // (where it was seen: that the missing repository is the cause, no session showed)
    const noRepo = lines.some((l) => /^Git repo: none\b/.test(l.line));
    // (`Git repo: none` where aider was told to leave git alone is that flag's doing, not the folder's)
    const noGitFlag = lines.some((l) => NO_GIT_LAUNCH.test(l.line));
    // (under --yes nobody answers aider's offer: it is taken, and "answer no" is no advice)
    const yes = lines.some((l) => YES_LAUNCH.test(l.line));
    // what the session then ran to add everything (`/add ./*`): it takes the whole folder, build
    // output and all, and how many files it added says so
    const all = view.prompts.find((p) => p.index > hit.event && ADD_ALL.test(p.text.trim()));
    const allUntil = all ? (view.prompts.find((q) => q.index > all.index)?.index ?? Infinity) : -1;
    const allAdded = all ? lines.filter((l) => l.event > all.index && l.event < allUntil && ADDED.test(l.line)).map((l) => ADDED.exec(l.line)![1]!) : [];
    const built = new Map<string, number>();
    for (const f of allAdded) {
      const dir = BUILD_DIR.exec(f)?.[1];
      if (dir !== undefined) built.set(dir, (built.get(dir) ?? 0) + 1);
    }
    const [builtDir, builtFiles] = [...built].sort((a, b) => b[1] - a[1])[0] ?? [];
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `aider${version ? ` ${version}` : ''}: /add . matched nothing${noGitFlag ? ' (started with --no-git)' : noRepo ? ' (in a folder with no git repo)' : ''}`,
      text:
        `${noGitFlag ? 'Started with `--no-git` (`Git repo: none`), aider' : noRepo ? 'In a folder with no git repository (`Git repo: none`), aider' : 'Aider'}${version ? ` ${version}` : ''} answered ${code('/add .')} with ${code("No files matched '.'")} and offered to create a file named as the folder${yes ? '' : ' (answer no)'}. ` +
        `${worked ? `${code(clip(worked.text.trim(), 50))} then added files. ` : ''}${allAdded.length > 1 ? `${code(clip(all!.text.trim(), 20))} added ${allAdded.length} files${builtDir ? `, ${builtFiles} of them build output under ${code(`${builtDir}/`)}` : ''}. ` : ''}Add the files the task needs by their names.`,
      confidence: CONFIDENCE.stated,
      event: hit.event,
      tags: ['aider', 'add'],
      quotes: ["No files matched '.'"],
      rule: 'aider-notice',
      signature: 'aider add dot adds nothing',
      score: 5,
    };
  }
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider's /add . adds nothing ('Directory … is not in git')",
    text:
      `Aider${version ? ` ${version}` : ''} answered ${code('/add .')} with ${code('Directory <checkout> is not in git.')} and added nothing, ${files ? `although git tracked ${files} files there` : 'whatever git tracks'}: the message is misleading${tracked ? `, and the session's ${code('/git add')} did not change it` : ''}. ` +
      `${worked ? `${code(clip(worked.text.trim(), 50))} then added files. ` : ''}Add the files the task needs by their paths from the repository root.`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'add'],
    quotes: [hit.line.replace(DIR_NOT_IN_GIT, 'Directory <checkout> is not in git.')],
    rule: 'aider-notice',
    signature: 'aider add dot adds nothing',
    score: 5,
  };
}

const REFLECTIONS_SPENT = /^Only (\d+) reflections allowed, stopping\.?\s*$/;

/** A round of aider's lint fixes: the linter's report (which the reader keeps as a step of its
 * own, `# Fix any errors below, if possible.`) or aider's question before it. */
const LINT_ASKED = /^# Fix any errors below, if possible\.|^Attempt to fix lint errors\?/m;

/** Aider hands an edit it could not apply back to the model a few times for one message, then
 * gives up: the reply's failed edit is then simply not applied. What a later session
 * needs is that limit and that the change is missing. */
export function reflectionsDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  // (the reader keeps the line with the failed edit's output when it follows one)
  // (a literal first: the line is rare, and splitting every output is not)
  const inOutput = view.steps.filter((s) => s.output.includes('reflections allowed')).flatMap((s) => s.output.split('\n').filter((l) => REFLECTIONS_SPENT.test(l.trim())).map((line) => ({ line, event: s.outputEvent })));
  const hit = [...lines.filter((l) => REFLECTIONS_SPENT.test(l.line)), ...inOutput].sort((a, b) => a.event - b.event)[0];
  if (!hit) return undefined;
  const n = REFLECTIONS_SPENT.exec(hit.line)![1]!;
  // the rounds may have been lint fixes (`Attempt to fix lint errors?` answered yes): then the
  // edits went in and what stopped is the chase of the linter's report (a reviewer found the
  // "not applied" of failed edits wrong there)
  const from = view.prompts.findLast((p) => p.index < hit.event)?.index ?? -1;
  const linted = lines.some((l) => l.event > from && l.event <= hit.event && LINT_ASKED.test(l.line)) || view.steps.some((s) => s.outputEvent > from && s.outputEvent <= hit.event && LINT_ASKED.test(s.output));
  const said = code(hit.line.trim());
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: linted ? `aider stops after ${n} rounds of fixing one message's lint errors` : `aider stops after ${n} retries of one message's failed edits`,
    // (the count is per message; asking the same again had hit the limit again)
    text: linted
      ? `After an edit aider runs its linter and, with \`Attempt to fix lint errors?\` answered yes, sends the report back to the model at most ${n} times for one message, then stops (${said}): the edits stay applied and the reported errors may remain. Check the file before going on; answer no where the linter's report is not a real error, or the model rewrites working code to chase it.`
      : `For one message aider hands a failed edit back to the model at most ${n} times, then stops (${said}): the failed edit is not applied (the reply's other blocks may be). After that line, check which change is missing before going on.`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', linted ? 'lint' : 'edit', 'reflections'],
    quotes: [hit.line.trim()],
    rule: 'aider-notice',
    signature: linted ? 'aider reflections limit lint' : 'aider reflections limit',
    score: 5,
  };
}

const UNDO_NEW_FILE = /^The file (.+?) was not in the repository in the previous commit\. Cannot undo safely\.?\s*$/;

/** `/undo` refused a commit that created a file: aider undoes by checking out each file as the
 * commit before had it, and a file that commit did not have cannot be brought back that way. The
 * way back is git's own, which keeps the history. */
export function undoNewFileDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const hit = lines.find((l) => UNDO_NEW_FILE.test(l.line));
  if (!hit) return undefined;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider's /undo refuses a commit that added a file",
    text: `Aider's ${code('/undo')} refuses to undo a commit that created a file (${code(clip(hit.line, 160))}): it undoes by restoring each file as the commit before had it, and a new file had no earlier version. ${code('/git revert HEAD')} undoes such a commit and keeps the history.`,
    confidence: CONFIDENCE.stated,
    event: hit.event,
    tags: ['aider', 'undo'],
    quotes: [hit.line],
    rule: 'aider-notice',
    signature: 'aider undo refuses a commit that added a file',
    score: 5,
  };
}

const UNABLE_TO_COMMIT = /^Unable to commit: /;

/** The line under git's stderr that says what failed, before git's closing `fatal:` (not a
 * signer's status lines, `[GNUPG:] …`): its last error, without a leading timestamp. */
function signerDetail(after: readonly string[]): string | undefined {
  const end = after.findIndex((l) => /^fatal:/.test(l));
  const said = (end < 0 ? after : after.slice(0, end)).filter((l) => !/^\[GNUPG:\]/.test(l) && /\b(?:error|denied|invalid|refused|forbidden|\d{3} \|)/i.test(l));
  const last = said[said.length - 1];
  const core = last?.replace(/^\d{4}[/-]\d\d[/-]\d\d[ T]\d\d:\d\d:\d\d\s*/, '').replace(/^error signing commit: (?:error signing commit: )?/, '').trim();
  // (a signer that repeats its error, comma-joined, says it once)
  return core ? [...new Set(core.split(/,\s+/))].join(', ') : undefined;
}

/** Aider commits each edit itself; when that `git commit` fails ("Unable to commit: Cmd('git')
 * failed …", then git's stderr) it says so and goes on: the edits stay applied, uncommitted,
 * and git's own first line says why (a signing failure, nothing staged, …). */
export function commitFailedDraft(lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => UNABLE_TO_COMMIT.test(l.line));
  if (at < 0) return undefined;
  const stderrAt = lines.slice(at + 1, at + 4).findIndex((l) => /^stderr:/.test(l.line)) + at + 1;
  const first = stderrAt > at ? lines[stderrAt]!.line.replace(/^stderr:\s*'?/, '').replace(/'$/, '').trim() : undefined;
  if (!first) return undefined;
  // a first line that ends in a colon ("error: gpg failed to sign the data:") is followed by
  // what failed: the signer's own error, without its timestamp ("… 403 | Author is invalid")
  const detail = first.endsWith(':') ? signerDetail(lines.slice(stderrAt + 1, stderrAt + 6).map((l) => l.line)) : undefined;
  const why = detail ? `${first} … ${detail}` : first;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: 'aider leaves its edits uncommitted when its own git commit fails',
    text: `Aider commits each applied edit itself; when that ${code('git commit')} fails it prints ${code('Unable to commit')} with git's error (${code(clip(why, 160))}) and goes on: the edits stay uncommitted until a later commit sweeps them in (aider commits pending changes before its next edit). Fix git's error and commit them.`,
    confidence: CONFIDENCE.stated,
    event: lines[at]!.event,
    tags: ['aider', 'git', 'commit'],
    quotes: [why],
    rule: 'aider-notice',
    signature: `aider unable to commit ${errorSignature(why)}`,
    score: 5,
  };
}
