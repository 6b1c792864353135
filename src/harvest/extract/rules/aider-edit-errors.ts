/**
 * What the model wrote that aider's edit parser rejected. Aider's message names only the rule
 * ("Bad/missing filename", "No filename provided before ``` in file listing", "SEARCH/REPLACE
 * block failed to match"); the history also shows the line the model put where the file name
 * goes, the fenced block it left unnamed, or that the file it edited was never added to the chat.
 * That is what a later session (or its user) can act on, so it is stated with the rule.
 */
import { escapeRegExp } from '../../../core/regexp.js';
import { clip, code } from '../text.js';
import { editedFiles, fileName, replyBefore, type SessionView, type Step } from '../view.js';
import { COMMAND_LINE, CREATE_NEW_FILE, QUESTION, SHELL_LANG, YES_LAUNCH } from './aider-notice-lines.js';

const BAD_FILENAME = /^\^\^\^ Bad\/missing filename\b/;
const NO_FILENAME = /^No filename provided before `{3,}/;
const OPENING_FENCE = /^`{3,}/;
/** Aider's question before it applies an edit to a file the user had not added to the chat. */
const NOT_IN_CHAT = /^Allow edits to (.+?) which was not previously added to chat\?/;
/** Newer aider's words for it, the file named on the line above (`MMM-Miku.js` / `Allow edits to
 * file that has not been added to the chat? (Y)es/(N)o [Yes]: y`). */
const NOT_IN_CHAT_NEXT = /^Allow edits to file that has not been added to the chat\?/;
/** Aider's line naming the file a failed SEARCH block was meant for. */
const FAILED_IN = /failed to exactly match lines in (.+?)\s*$/;
/** Its udiff format's line naming the file a failed hunk was meant for. */
const HUNK_FAILED_IN = /^(.+?) does not contain lines that match the diff you provided!?$/;
/** Aider's note of a file added to the chat, by the path the chat knows it by. */
const ADDED_TO_CHAT = /^Added (.+?) to the chat\b/;

/** "# 2 SEARCH/REPLACE blocks failed to match!" → "SEARCH/REPLACE block failed to match": how
 * many blocks failed is this reply's count, not part of the behaviour. */
export function aiderErrorName(err: string): string {
  // (and "in file listing" adds nothing to a title that names the cause)
  return err.replace(/^#?\s*\d+ SEARCH\/REPLACE blocks? failed to match!?/, 'SEARCH/REPLACE block failed to match').replace(/^(No filename provided before `{3,}) in file listing$/, '$1');
}

/** A line that can be a file name alone: one path-like word. */
function pathLike(line: string): boolean {
  return /^[\w.@~/\\-]+$/.test(line) && /[./\\]/.test(line);
}

/** The file name a markup line was meant to be (`### app\styles\app.css` → `app\styles\app.css`). */
function bareName(line: string): string | undefined {
  const bare = line.replace(/^#+\s*|^[*_`]+|[*_`:]+$/g, '').trim();
  return bare !== line && pathLike(bare) ? bare : undefined;
}

/** Aider's system notice lines between the prompt before a step and the step. */
function noticesBefore(view: SessionView, s: Step): string[] {
  const prompt = [...view.prompts].reverse().find((p) => p.index < s.call.index)?.index ?? -1;
  const out: string[] = [];
  for (const e of view.session.events) {
    if (e.kind !== 'system' || e.index <= prompt || e.index > s.outputEvent) continue;
    for (const l of e.text.split('\n')) out.push(l.trim());
  }
  return out;
}

/** The first fenced block of a reply with a blank line right above it: aider's whole-file
 * parser names a block by that line, and with it blank writes the block over the last chat file
 * the reply's text named, or rejects the reply when it named none. A block that opens the text
 * is left alone: the reader may have cut the reply there. Returns the fence line and the
 * block's first line. */
function blockUnderBlank(reply: string): { fence: string; first: string } | undefined {
  const lines = reply.split('\n');
  let inside = false;
  for (let i = 0; i < lines.length; i++) {
    if (!OPENING_FENCE.test(lines[i]!)) continue;
    inside = !inside;
    if (inside && i > 0 && lines[i - 1]!.trim() === '') return { fence: lines[i]!.trim(), first: lines.slice(i + 1).find((l) => l.trim() !== '')?.trim() ?? '' };
  }
  return undefined;
}


/** A file name the reply fenced as a block of its own, right before the file's block
 * (```` ``` ```` / `manifest.json` / ```` ``` ```` / ```` ```json ````): the line above the file's
 * fence is then a fence, not its name. Returns the name. */
function nameInOwnFence(reply: string): string | undefined {
  const lines = reply.split('\n').map((l) => l.trim());
  for (let i = 0; i + 3 < lines.length; i++) {
    if (OPENING_FENCE.test(lines[i]!) && pathLike(lines[i + 1]!) && /^`{3,}$/.test(lines[i + 2]!) && OPENING_FENCE.test(lines[i + 3]!)) return lines[i + 1];
  }
  return undefined;
}

/** Why aider rejected an edit: a few words that name the kind (for the title and the item's
 * signature: one lesson per kind) and the sentences that tell it. */
export interface EditCause {
  label: string;
  text: string;
}

function cause(label: string, text: string): EditCause {
  return { label, text };
}

/** What the model did that aider rejected, as sentences to follow aider's rule, if the history shows it. */
export function aiderEditCause(view: SessionView, s: Step): EditCause | undefined {
  const lines = s.output.split('\n').map((l) => l.trim());
  const bad = lines.findIndex((l) => BAD_FILENAME.test(l));
  if (bad >= 0) {
    // aider quotes the reply up to the block it could not name: the line above its fence
    const fence = lines.slice(0, bad).findLastIndex((l) => OPENING_FENCE.test(l));
    const named = fence > 0 ? lines.slice(0, fence).reverse().find((l) => l !== '') : undefined;
    if (named === undefined || named.length > 120) return undefined;
    // (a blank line between the name and the fence is the slip, whatever the name's markup;
    // aider's quote of the reply may lose its blank lines: the reply itself says)
    const reply = replyBefore(view, s.call.index)?.split('\n').map((l) => l.trim()) ?? [];
    const gap = (fence > 0 && lines[fence - 1] === '') || reply.some((l, i) => l === named && reply[i + 1] === '' && OPENING_FENCE.test(reply[i + 2] ?? ''));
    const bare = bareName(named);
    const applied =
      bare !== undefined && view.steps.some((l) => l.pos > s.pos && l.call.name === s.call.name && !l.failed && editedFiles(l).includes(fileName(bare)))
        ? ` Resent with ${code(bare)} alone there, the edit applied.`
        : '';
    // (what made aider reject the line is its parser's business: the item says what the model
    // wrote and what then worked, and the rule aider states)
    return cause('name above the fence', `The reply named the file as ${code(named)}${gap ? ', with a blank line between it and the fence' : " right above the block's opening fence"}.${applied} Put the bare path alone on the line right before the fence.`);
  }
  if (lines.some((l) => NO_FILENAME.test(l))) {
    // the model's reply the failed step was read from
    const reply = replyBefore(view, s.call.index);
    const fenced = reply === undefined ? undefined : nameInOwnFence(reply);
    if (fenced !== undefined) return cause('file name fenced alone', `The reply put the file name ${code(fenced)} in a fenced block of its own, so in aider's whole edit format a fence, not the name, stood right above the file's block. Put the bare path alone on the line right above the fence, outside any block.`);
    const block = reply === undefined ? undefined : blockUnderBlank(reply);
    if (block === undefined) return undefined;
    const lang = block.fence.replace(/^`+/, '').trim();
    // what to do depends on what the block was: a command to run is no file at all
    // and a block in the answer to a question was an example, never meant as an edit: aider's
    // /ask mode reads no edits (the user's fix; the path above the fence is the model's)
    const asked = QUESTION.test(view.prompts.findLast((p) => p.index < s.call.index)?.text.trim() ?? '');
    const fix = SHELL_LANG.test(lang) || (lang === '' && COMMAND_LINE.test(block.first))
      ? 'Fence only whole files here: no commands, trees or diagrams.'
      : asked
        ? 'A question drew the reply: ask with `/ask`, whose answers are not read as edits.'
        : "Put the file's path alone on the line right above the fence (any other line there is taken for the name).";
    // (the rule in its general form: the item stands for every session it merges, whatever block
    // each one fenced)
    // (only what happened: a reviewer read "overwrites the last file the reply named" as
    // contradicted by a reply that named files and was rejected, and the item is cut at 400
    // characters)
    return cause('blank line above a fence', `In aider's whole edit format the line right above each fenced block names the file it writes; a block under a blank line names none, and aider rejected the whole reply. ${fix}`);
  }
  // (aider's words to the model for a failed hunk follow its notice as plain text: the history's next message)
  const next = view.session.events[s.outputEvent + 1];
  const reflection = next?.kind === 'assistant' ? next.text.split('\n').map((l) => l.trim()) : [];
  const hunkFailedIn = [...new Set([...lines, ...reflection].map((l) => HUNK_FAILED_IN.exec(l)?.[1]).filter((f): f is string => f !== undefined))];
  if (hunkFailedIn.length > 0) return newFileCause(view, s, hunkFailedIn);
  const failedIn = [...new Set(lines.map((l) => FAILED_IN.exec(l)?.[1]).filter((f): f is string => f !== undefined))];
  if (failedIn.length > 0) {
    // the model sees only the files added to the chat: for any other it guessed the SEARCH text
    const notices = noticesBefore(view, s);
    const allowed = new Set(notices.map((l, i) => NOT_IN_CHAT.exec(l)?.[1] ?? (NOT_IN_CHAT_NEXT.test(l) && i > 0 ? notices[i - 1] : undefined)).filter((f): f is string => f !== undefined));
    // (a file of that name the chat did hold, read-only or another copy, was seen: no blind edit)
    const inChat = (f: string): boolean => {
      const name = f.replace(/^.*[\\/]/, '');
      return view.session.events.some((e) => e.kind === 'system' && e.text.split('\n').some((l) => /^Added .+ to the chat\b/.test(l.trim()) && l.trim().replace(/ to the chat\b.*$/, '').replace(/^.*[\\/ ]/, '') === name));
    };
    const one = /^#\s*1 SEARCH\/REPLACE block failed/m.test(s.output);
    if (failedIn.every((f) => allowed.has(f) && !inChat(f))) {
      // the user had written `/add <file>` inside the message, where aider runs no command (only
      // a line that opens with `/` is one): why the file was not in the chat
      const asked = view.prompts.findLast((p) => p.index < s.call.index)?.text ?? '';
      const inline = failedIn.find((f) => new RegExp(String.raw`\S[^\n]*\s/add\s[^\n]*${escapeRegExp(f)}`).test(asked));
      const edited = `The failed ${one ? 'block' : 'blocks'} edited ${failedIn.map((f) => code(f)).join(', ')}, which had not been added to the chat`;
      if (inline) return cause('file not in the chat', `${edited}: the message's ${code(`/add ${clip(inline, 50)}`)} stood after its text, where aider runs no command, so the model wrote ${one ? 'its' : 'their'} SEARCH text without seeing the file. Send \`/add\` as a message of its own.`);
      return cause('file not in the chat', `${edited}: the model wrote ${one ? 'its' : 'their'} SEARCH text without seeing the file (aider asked whether to allow edits to a file not added to the chat). Add a file to the chat (\`/add\`) before asking for edits to it.`);
    }
    return searchMismatch(lines);
  }
  return undefined;
}


/** A line of a comment, in the common languages' forms. */
const COMMENT_LINE = /^(?:#|\/\/|--|\/\*|\*|;|<!--)/;

/**
 * How the failed SEARCH text differs from the lines aider offered as the nearest match ("Did you
 * mean to match some of these actual lines from x?"), when the difference is of one kind: the
 * file's comment lines left out between the SEARCH lines, or single quotes where the file has
 * double ones (or the other way). Each is a habit of the model's, not this file's bad luck.
 */
function searchMismatch(lines: readonly string[]): EditCause | undefined {
  const from = lines.findIndex((l) => /^<{5,} SEARCH$/.test(l));
  const to = lines.findIndex((l, i) => i > from && /^={5,}$/.test(l));
  const hint = lines.findIndex((l) => /^Did you mean to match some of these actual lines from /.test(l));
  if (from < 0 || to < 0 || hint < 0) return undefined;
  const open = lines.findIndex((l, i) => i > hint && /^`{3,}/.test(l));
  const close = lines.findIndex((l, i) => i > open && /^`{3,}$/.test(l));
  if (open < 0 || close < 0) return undefined;
  const search = lines.slice(from + 1, to).filter((l) => l !== '');
  const actual = lines.slice(open + 1, close).filter((l) => l !== '');
  if (search.length < 2 || actual.length === 0) return undefined;
  // the SEARCH lines in order among the actual ones, and what lies between them there
  let j = 0;
  const at: number[] = [];
  for (const l of search) {
    while (j < actual.length && actual[j] !== l) j++;
    if (j === actual.length) break;
    at.push(j++);
  }
  if (at.length === search.length) {
    const between = actual.slice(at[0], at[at.length - 1]! + 1).filter((_, k) => !at.includes(k + at[0]!));
    if (between.length > 0 && between.every((l) => COMMENT_LINE.test(l))) return cause('comment lines left out', `Its SEARCH text left out the comment lines the file has between those lines (${code(clip(between[0]!, 50))}): write SEARCH exactly as the file has it, comments included (aider's "Did you mean to match" shows the file's lines).`);
    return undefined;
  }
  // the same lines but for their quotes
  const unquoted = (l: string): string => l.replace(/["']/g, '"');
  const quotes = search.some((l) => !actual.includes(l) && actual.some((a) => a !== l && unquoted(a) === unquoted(l)));
  if (quotes && search.every((l) => actual.some((a) => unquoted(a) === unquoted(l)))) return cause('other quotes than the file', `Its SEARCH text quoted strings otherwise than the file does (${code("'")} for ${code('"')} or the reverse): write SEARCH exactly as the file has it.`);
  return undefined;
}

/**
 * A failed hunk whose file aider had just created at the model's word (`Create new file?` for that
 * path): the path named no file, so the hunk's lines could not match the empty file aider made.
 * Where the chat holds a file of that name under another path (aider started in a subfolder, or
 * outside git, lists files from its own folder), that is the file the model meant. Without that
 * question the failure is aider's reflection to the model, which resends the hunk: no cause.
 */
function newFileCause(view: SessionView, s: Step, files: string[]): EditCause | undefined {
  const notices = noticesBefore(view, s);
  const created = files.filter((f) => notices.some((l, i) => CREATE_NEW_FILE.test(l) && i > 0 && notices[i - 1] === f));
  if (created.length === 0) return undefined;
  const f = created[0]!;
  const name = f.replace(/^.*[\\/]/, '');
  // aider's notices before the edit: what the chat held, and how aider was started
  const lines = view.session.events.flatMap((e) => (e.kind === 'system' && e.index < s.call.index ? e.text.split('\n').map((l) => l.trim()) : []));
  const held = lines.map((l) => ADDED_TO_CHAT.exec(l)?.[1]).find((p): p is string => p !== undefined && p !== f && p.replace(/^.*[\\/]/, '') === name);
  // without git aider's chat paths start where it was started, not at the repository's root
  const noGit = lines.some((l) => /^Git repo: none\b/.test(l));
  const chat = held
    ? noGit
      ? ` The chat held it as ${code(held)} (${code('Git repo: none')}: without git the chat's paths start where aider started): start aider inside the repository.`
      : ` The chat held it as ${code(held)}: use the chat's paths.`
    : '';
  // (under --yes nobody answers aider's question: it creates the file unasked)
  const yes = lines.some((l) => YES_LAUNCH.test(l));
  const way = noGit && held ? '' : yes ? ` Under ${code('--yes')} aider creates such a file unasked.` : ` Answer no to ${code('Create new file?')} for a file that should exist.`;
  return cause('file did not exist', `The hunk was for ${code(f)}, where no file existed: aider ${yes ? 'created it' : `asked ${code('Create new file?')}, made it`} empty, so nothing could match.${chat}${way}`);
}
