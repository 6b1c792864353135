/**
 * Aider's `<repo>/.aider.chat.history.md`: append-only markdown, one session per
 * `# aider chat started at <local time>` header, so one file yields many Sessions.
 *   `#### text`   the human's input (a multi-line input is consecutive `####` lines)
 *   `> text`      aider's own output: launch banner, "Applied edit to x", "Commit abc msg",
 *                 lint/test output, errors, confirmation prompts with their answers
 *   anything else the model's reply, with SEARCH/REPLACE edit blocks inside code fences
 * Aider records no tool-call objects and no per-message times; tools are reconstructed from
 * that text: each SEARCH/REPLACE block is an `edit` call answered by "Applied edit to <file>"
 * (or by a "failed to match" error), `/run`, `/test`, `!cmd` and "Running <cmd>" are shell calls,
 * aider's auto-lint ("# Fix any errors below") is a `lint` call, "Commit <hash>" a `commit`.
 * Aider does not copy shell output into the file (older versions did), so a shell call fails
 * only when the file says so: "Added N lines of output" after /test (added on non-zero exit
 * only), "Attempt to fix test errors?", or output text that reads like a failure.
 */
import path from 'node:path';
import { pushText, pushToolCall, pushToolResult } from '../events.js';
import { forEachLine, type Preloaded } from '../lines.js';
import type { Session, SessionEvent, SourceRef, ToolCallEvent, ToolResultEvent } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import { errorMessage, fileSize, lineOptionsFor, makeSession, ModelList, opensAsJson, pathHash, warnLineQuality, Warnings } from './common.js';
import { FenceTracker, outsideFences } from './md-fence.js';
import { looksFailed, statedExitCode } from './outcome.js';

/** Aider's note that a run's output went to the chat (the output itself is not in the history). */
export const ADDED_OUTPUT = /^Added \d+ lines? of output to the chat\.?$/;
const HEADER = /^# aider chat started at (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\s*$/;

function detect(head: string): number {
  if (opensAsJson(head)) return 0;
  // the literal check is cheap and rules out almost every head before the multiline regex
  if (!head.includes('# aider chat started at ')) return 0;
  // a header inside a code block is an example in some document (FORMATS.md), not a session
  return /^# aider chat started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/m.test(outsideFences(head)) ? 0.95 : 0;
}

/** Where a line is: its 1-based number and byte offset. */
interface At {
  lineNo: number;
  offset: number;
}

/** Consecutive lines of one kind (their texts trimmed at the end, the user marker cut), kept as
 * parallel arrays: a reply's lines need no object each. The arrays are the session's, reused by
 * every block (its first `count` entries are this block's): a pair of new arrays per block, grown
 * push by push, was a fifth of what reading an Aider file allocated. */
interface Block {
  kind: 'user' | 'text';
  firstLineNo: number;
  count: number;
  texts: string[];
  offsets: number[];
}

/** A call whose result is still being collected from the notes that follow it. */
interface OpenCall {
  call: ToolCallEvent;
  kind: 'shell' | 'test' | 'lint' | 'edit-failure';
  lines: string[];
  at: At;
  failed: boolean;
}

type NewCall = Omit<ToolCallEvent, 'index' | 'kind'>;
type NewResult = Omit<ToolResultEvent, 'index' | 'kind'>;

/** Every text `note` looks for anywhere in a line, not only at its start. */
const UNANCHORED_NOTES = /did not conform to the edit format|failed to match|es\/\(|\[Yes\]:|\[No\]:/;

/** Whether `c` is the first character of a text `note` looks for at the start of a line:
 * Tokens, Cost/Commit, Applied/Attempt/Added/Add, Running/Run, #, Malformed/malformed, Unable. */
function opensAnchoredNote(c: number): boolean {
  switch (c) {
    case 0x54 /* T */:
    case 0x43 /* C */:
    case 0x41 /* A */:
    case 0x52 /* R */:
    case 0x23 /* # */:
    case 0x4d /* M */:
    case 0x6d /* m */:
    case 0x55 /* U */:
      return true;
    default:
      return false;
  }
}

const slashed = (p: string): string => p.replace(/\\/g, '/');

/** Lines of aider's message about a failed edit: the rule it states, the note that other blocks
 * applied (written only when some did), and the line that then ends the message. */
const MATCH_RULE_LINE = /^The SEARCH section must exactly match\b/;
export const OTHERS_APPLIED = /^# The other \d+ SEARCH\/REPLACE blocks? (?:were|was) applied/;
/** A line that opens or closes the model's reasoning in a reply: aider wraps it in its
 * `<thinking-content-…>` tag (its REASONING_TAG), and models that think in the open (qwen3,
 * deepseek-r1 served as is) write `<think>`. What is inside is the model's thinking, not its reply. */
const REASONING_TAG_LINE = /^<(\/?)(?:think|thinking-content-[0-9a-f]{32})>\s*$/;
const REFLECTION_END = /^Just reply with fixed versions of the blocks? above that failed to match\b/;

const CONFIRM = /\((?:Y)es\/\(N\)o|\(Y\)es\/\(n\)o|\[Yes\]:|\[No\]:/;

class AiderSession {
  readonly events: SessionEvent[] = [];
  readonly models = new ModelList();
  readonly fence = new FenceTracker();
  block: Block | undefined;
  /** Every block's lines (see Block). */
  private readonly blockTexts: string[] = [];
  private readonly blockOffsets: number[] = [];
  banner: string[] = [];
  bannerAt: At | undefined;
  seenUser = false;
  /** Aider printed its `Aider v…` line: the launch's start-up is over. */
  announced = false;
  open: OpenCall | undefined;
  pendingEdits: ToolCallEvent[] = [];
  echo: string | undefined;
  lastReply = '';
  endOffset = 0;
  fenceLine = 0;
  gitRepo: string | undefined;
  callCount = 0;
  /** Aider ends its own lines with two spaces; a history whose trailing spaces were stripped (an
   * editor, a whitespace hook on commit) shows none, from its first banner line on. */
  stripped: boolean | undefined;

  constructor(
    readonly file: string,
    readonly startedAt: string | undefined,
    readonly startOffset: number,
    readonly firstWarning: number,
  ) {}

  src(l: At): SourceRef {
    return this.ref(l.lineNo, l.offset);
  }

  ref(lineNo: number, offset: number): SourceRef {
    return { file: this.file, line: lineNo, offset };
  }

  /** Where line `i` of a block is. */
  private blockAt(b: Block, i: number): At {
    return { lineNo: b.firstLineNo + i, offset: b.offsets[i]! };
  }

  /** Adds a line to the block of `kind`, starting that block when another one is open. */
  addLine(kind: Block['kind'], text: string, lineNo: number, offset: number): void {
    let b = this.block;
    if (b?.kind !== kind) {
      this.flushBlock();
      b = this.block = { kind, firstLineNo: lineNo, count: 0, texts: this.blockTexts, offsets: this.blockOffsets };
    }
    const i = b.count++;
    if (i < b.texts.length) {
      b.texts[i] = text;
      b.offsets[i] = offset;
    } else {
      b.texts.push(text);
      b.offsets.push(offset);
    }
  }

  // ---- blocks -------------------------------------------------------------------------------

  flushBlock(): void {
    const b = this.block;
    this.block = undefined;
    if (!b) return;
    if (b.kind === 'user') this.userBlock(b);
    else this.textBlock(b);
  }

  private flushBanner(): void {
    if (this.banner.length === 0) return;
    const texts = this.banner;
    this.banner = [];
    pushText(this.events, 'system', texts.join('\n'), { source: this.src(this.bannerAt!), injected: true });
  }

  private userBlock(b: Block): void {
    this.closeOpen();
    this.flushBanner();
    this.seenUser = true;
    const text = (b.count === 1 ? b.texts[0]! : b.texts.slice(0, b.count).join('\n')).trim();
    if (text === '') return;
    const first = this.blockAt(b, 0);
    // `/ask X` is logged again as `#### X`; architect mode hands its plan to the editor as a
    // user message; `/help` logs a prompt stuffed with docs. None of these were typed.
    const injected =
      (this.echo !== undefined && text === this.echo) ||
      (this.lastReply !== '' && sameWords(text, this.lastReply)) ||
      text.includes('# Announcement lines from when this session of aider was launched:');
    this.echo = undefined;
    pushText(this.events, 'user', text, injected ? { source: this.src(first), injected: true } : { source: this.src(first) });
    if (injected) return;
    const c0 = text.charCodeAt(0);
    if (c0 !== 0x2f /* / */ && c0 !== 0x21 /* ! */) return; // neither a chat-mode, shell nor lint command
    const chat = /^\/(?:ask|code|architect|context)\s+([\s\S]+)$/.exec(text);
    if (chat) this.echo = chat[1]!.trim();
    const shell = /^(?:\/(run|test)|!)\s*([\s\S]*)$/.exec(text);
    if (shell) {
      const command = shell[2]!.trim();
      const kind = shell[1] === 'test' ? 'test' : 'shell';
      const call = this.newCall(first, kind === 'test' ? 'test' : 'run', command ? { command } : {}, command);
      this.open = { call, kind, lines: [], at: first, failed: false };
    } else if (/^\/lint\b/.test(text)) {
      const call = this.pushCall({ source: this.src(first), name: 'lint', input: {} });
      this.open = { call, kind: 'lint', lines: [], at: first, failed: false };
    }
  }

  private textBlock(block: Block): void {
    const lines = block.texts;
    let a = 0;
    let b = block.count;
    while (a < b && lines[a]!.trim() === '') a++;
    while (b > a && lines[b - 1]!.trim() === '') b--;
    if (a === b) return;
    // Aider hands a failed edit back to the model in an unquoted message ("## SearchReplaceNoExactMatch:
    // …" through "Just reply with fixed versions of the block above that failed to match."): the
    // edit's error output, not the model's words (its SEARCH block is no edit of the model's).
    if (lines[a]!.startsWith('## SearchReplaceNoExactMatch')) {
      // it ends at aider's rule line, or, when other blocks of the reply applied ("# The other 1
      // SEARCH/REPLACE block were applied successfully."), at "Just reply with fixed versions …"
      let end = a;
      while (end < b - 1 && !MATCH_RULE_LINE.test(lines[end]!)) end++;
      let k = end + 1;
      while (k < b && lines[k]!.trim() === '') k++;
      if (k < b && OTHERS_APPLIED.test(lines[k]!)) for (end = k; end < b - 1 && !REFLECTION_END.test(lines[end]!); end++);
      const at = this.blockAt(block, a);
      if (this.open?.kind !== 'edit-failure') this.startCall(at, 'edit', 'edit-failure', {});
      this.open!.lines.push(lines.slice(a, end + 1).join('\n'));
      a = end + 1;
      while (a < b && lines[a]!.trim() === '') a++;
      if (a === b) return;
    }
    this.closeOpen();
    // before aider announced itself (`Aider v0.86.2`) no model has answered: unquoted text there
    // is aider's own (`--verbose` prints its settings, "Defaults:\n  --set-env: []", without the
    // `> ` of its notes); after it, a reply may come before any prompt (`--watch-files`' AI! comments)
    if (!this.seenUser && !this.announced && this.startedAt !== undefined) {
      pushText(this.events, 'system', lines.slice(a, b).join('\n'), { source: this.src(this.blockAt(block, a)), injected: true });
      return;
    }
    // the reply, with its reasoning sections apart (an unclosed one runs to the block's end)
    let from = a;
    for (let i = a; i < b; i++) {
      const tag = REASONING_TAG_LINE.exec(lines[i]!);
      if (!tag || tag[1]) continue;
      this.replyPart(block, from, i);
      let end = i + 1;
      while (end < b && !REASONING_TAG_LINE.exec(lines[end]!)?.[1]) end++;
      const thought = lines.slice(i + 1, end).join('\n').trim();
      if (thought) pushText(this.events, 'reasoning', thought, { source: this.src(this.blockAt(block, i + 1)) });
      from = i = end + 1;
      i--;
    }
    this.replyPart(block, from, b);
  }

  /** Lines [a, b) of a reply as the model's words, and the edits they hold. */
  private replyPart(block: Block, a: number, b: number): void {
    const lines = block.texts;
    while (a < b && lines[a]!.trim() === '') a++;
    while (b > a && lines[b - 1]!.trim() === '') b--;
    if (a >= b) return;
    const text = b - a === 1 ? lines[a]! : lines.slice(a, b).join('\n');
    this.lastReply = text;
    pushText(this.events, 'assistant', text, { source: this.src(this.blockAt(block, a)) }, this.models.names[0]);
    this.editBlocks(block, a, b);
  }

  /** SEARCH/REPLACE blocks in lines [from, to) of a reply: the file path is the line before the
   * fence (diff format) or the line before `<<<<<<< SEARCH` inside it (diff-fenced format). */
  private editBlocks(block: Block, from: number, to: number): void {
    const lines = block.texts;
    for (let i = from; i < to; i++) {
      const text = lines[i]!;
      if (text.charCodeAt(0) !== 0x3c /* < */ || !/^<{5,9} SEARCH\s*$/.test(text)) continue;
      let p = i - 1;
      while (p >= from && /^(?:```|~~~)/.test(lines[p]!.trim())) p--;
      const filePath = p >= from ? lines[p]!.trim().replace(/^`|`$/g, '') : '';
      const search: string[] = [];
      const replace: string[] = [];
      let j = i + 1;
      for (; j < to && !/^={5,9}\s*$/.test(lines[j]!); j++) search.push(lines[j]!);
      for (j++; j < to && !/^>{5,9} REPLACE\s*$/.test(lines[j]!); j++) replace.push(lines[j]!);
      const call = this.pushCall({
        source: this.src(this.blockAt(block, p >= from ? p : i)),
        name: 'edit',
        input: { path: filePath, search: search.join('\n'), replace: replace.join('\n') },
      });
      this.pendingEdits.push(call);
      i = j;
    }
  }

  // ---- notes --------------------------------------------------------------------------------

  private closeOpen(): void {
    const o = this.open;
    this.open = undefined;
    if (!o) return;
    const output = o.lines.join('\n').trim();
    const exitCode = statedExitCode(output);
    let isError = o.failed || (exitCode !== undefined && exitCode !== 0);
    if (!isError && (o.kind === 'shell' || o.kind === 'test')) isError = looksFailed(output, o.call.command);
    if (o.kind === 'edit-failure') {
      // the message names the files whose blocks failed ("… failed to exactly match lines in
      // src\\a.ts"): only their edits failed; without a name, every pending edit did
      const named = new Set([...output.matchAll(/failed to exactly match lines in (.+)$/gm)].map((m) => slashed(m[1]!.trim())));
      const failed = this.pendingEdits.filter((c) => named.has(slashed(String(c.input.path ?? ''))));
      const targets = failed.length > 0 ? failed : this.pendingEdits.length > 0 ? this.pendingEdits : [o.call];
      for (const call of targets) this.result(call, o.at, output, true);
      this.pendingEdits = this.pendingEdits.filter((c) => !targets.includes(c));
      return;
    }
    this.result(o.call, o.at, output, isError, exitCode);
  }

  private result(call: ToolCallEvent, at: At, output: string, isError: boolean, exitCode?: number): void {
    // built key by key, in the order the keys always had: optional keys spread into a literal
    // take V8's slow path (see copyOf in jsonl.ts)
    const r: Record<string, unknown> = { source: this.src(at) };
    if (call.callId) r.callId = call.callId;
    r.name = call.name;
    r.output = output;
    r.isError = isError;
    if (exitCode !== undefined) r.exitCode = exitCode;
    pushToolResult(this.events, r as unknown as NewResult);
  }

  /** Every call gets an id its result carries: aider answers edits out of order (an edit block
   * of an earlier reply can fail after later ones applied), and pairing by order would give one
   * edit another's outcome. */
  private pushCall(c: NewCall): ToolCallEvent {
    c.callId = `aider-${++this.callCount}`;
    return pushToolCall(this.events, c);
  }

  /** `{ source, name, input, command? }`, without a spread (see result). */
  private newCall(l: At, name: string, input: Record<string, unknown>, command: string | undefined): ToolCallEvent {
    const c: NewCall = { source: this.src(l), name, input };
    if (command) c.command = command;
    return this.pushCall(c);
  }

  private startCall(l: At, name: string, kind: OpenCall['kind'], input: Record<string, unknown>, command?: string): void {
    this.closeOpen();
    const call =
      kind === 'edit-failure' && this.pendingEdits.length > 0
        ? this.pendingEdits[0]!
        : this.newCall(l, name, input, command);
    this.open = { call, kind, lines: [], at: l, failed: kind === 'edit-failure' };
  }

  /** A note line of aider's (`> text`): `text` is what follows the marker. */
  note(text: string, lineNo: number, offset: number): void {
    const t = text.trim();
    if (!this.seenUser) {
      if (this.banner.length === 0) this.bannerAt = { lineNo, offset };
      if (t.startsWith('Aider v')) this.announced = true;
      this.banner.push(text);
      this.bannerModels(t);
      return;
    }
    // Each regex below is tried only on a line with its literal opening (or, unanchored, its
    // literal text): the same tests in the same order, without a regex run per note line. The
    // unanchored texts are looked for by one search first, which most lines (call output) fail
    // (and which costs about half of searching for the five texts one by one).
    // Where the line is ({ lineNo, offset }) is made only by the branches that cite it.
    if (t === '') return;
    const loose = UNANCHORED_NOTES.test(t);
    // Most notes are call output, which opens with none of the anchored texts' first letters:
    // they skip the dozen checks below, which cannot match them (a fifth of reading the part).
    if (!loose && !opensAnchoredNote(t.charCodeAt(0))) {
      this.otherNote(text, t, lineNo, offset);
      return;
    }
    if ((t.startsWith('Tokens: ') && /^Tokens: .* sent/.test(t)) || t.startsWith('Cost: $')) return;
    let m: RegExpExecArray | null;
    if (t.startsWith('Applied edit to ') && (m = /^Applied edit to (.+?)\s*$/.exec(t))) {
      this.closeOpen();
      const file = m[1]!;
      // aider on Windows names the file with backslashes where the model wrote slashes
      const mine = this.pendingEdits.filter((c) => slashed(String(c.input.path ?? '')) === slashed(file));
      if (mine.length === 0) {
        const call = this.pushCall({ source: this.ref(lineNo, offset), name: 'edit', input: { path: file } });
        this.result(call, { lineNo, offset }, t, false);
      }
      for (const call of mine) this.result(call, { lineNo, offset }, t, false);
      this.pendingEdits = this.pendingEdits.filter((c) => !mine.includes(c));
      return;
    }
    if (t.startsWith('Unable to commit: ')) {
      // aider's own commit after an edit failed ("Unable to commit: Cmd('git') failed …", then
      // git's cmdline and stderr): its notice, not output of the lint or command still open
      this.closeOpen();
      this.otherNote(text, t, lineNo, offset);
      return;
    }
    if (t.startsWith('Commit ') && (m = /^Commit ([0-9a-f]{7,40}) (.*)$/.exec(t))) {
      this.closeOpen();
      const call = this.pushCall({ source: this.ref(lineNo, offset), name: 'commit', input: { hash: m[1], message: m[2] } });
      this.result(call, { lineNo, offset }, t, false);
      return;
    }
    if (
      (loose && (t.includes('did not conform to the edit format') || (t.includes('failed to match') && /SEARCH\/REPLACE blocks? failed to match/.test(t)))) ||
      t.startsWith('## SearchReplaceNoExactMatch') ||
      ((t.charCodeAt(0) | 0x20) === 0x6d /* m, M */ && /^Malformed (?:response|edit)/i.test(t))
    ) {
      if (this.open?.kind === 'edit-failure') this.open.lines.push(t);
      else {
        this.startCall({ lineNo, offset }, 'edit', 'edit-failure', {});
        this.open!.lines.push(t);
      }
      return;
    }
    if (t.startsWith('Running ') && (m = /^Running (.+)$/.exec(t))) {
      this.startCall({ lineNo, offset }, 'shell', 'shell', { command: m[1] }, m[1]);
      return;
    }
    if (t.startsWith('# Fix any errors below, if possible.')) {
      this.startCall({ lineNo, offset }, 'lint', 'lint', {});
      this.open!.lines.push(t);
      return;
    }
    if (t.startsWith('## Running: ') && (m = /^## Running: (.+)$/.exec(t)) && this.open?.kind === 'lint') {
      this.open.call.input.command = m[1];
      this.open.call.command = m[1];
      this.open.lines.push(t);
      return;
    }
    if (t.startsWith('Attempt to fix lint errors?')) {
      if (this.open?.kind === 'lint') this.open.failed = true;
      this.closeOpen();
      return;
    }
    if (t.startsWith('Attempt to fix test errors?')) {
      if (this.open && (this.open.kind === 'test' || this.open.kind === 'shell')) this.open.failed = true;
      else {
        this.startCall({ lineNo, offset }, 'test', 'test', {});
        this.open!.failed = true;
      }
      this.closeOpen();
      return;
    }
    if (t.startsWith('Added ') && ADDED_OUTPUT.test(t)) {
      if (this.open) {
        this.open.lines.push(t);
        if (this.open.kind === 'test') this.open.failed = true; // /test adds output only on failure
      }
      return;
    }
    if (t.startsWith('Run shell command') && /^Run shell commands?\?/.test(t)) {
      // the commands echoed just before the question are the model's proposal, not output; where
      // aider noted that the run's output went to the chat (newer versions keep only that note,
      // not the output), what came after the note is the proposal (older versions logged the
      // output itself: without a note nothing is cut)
      if (this.open && this.open.kind === 'shell') {
        const note = this.open.lines.findLastIndex((l) => ADDED_OUTPUT.test(l.trim()));
        if (note >= 0) this.open.lines.length = note + 1;
        this.closeOpen();
      }
      // a no (typed, or `--yes-always`'s own answer to this prompt) is kept as a note: what the
      // model proposed was never run
      if (DECLINED.test(t)) this.otherNote(text, t, lineNo, offset);
      return;
    }
    if (
      // (a question that says a file was not in the chat stays: the model wrote that file's edit
      // blind; so does one to create a file: the model's path named none; and `/add`'s answer
      // that nothing matched its name, with its offer to create it)
      (loose && (t.includes('es/(') || t.includes('[Yes]:') || t.includes('[No]:')) && CONFIRM.test(t) && !t.startsWith('Allow edits to ') && !t.startsWith('Create new file?') && !t.startsWith('No files matched ')) ||
      (t.startsWith('Add ') && /^Add (?:[\d.]+k tokens of )?(?:command )?output to the chat\?/.test(t))
    ) {
      return;
    }
    this.otherNote(text, t, lineNo, offset);
  }

  /** A note that is none of aider's own messages: output of the open call, else aider's text. */
  private otherNote(text: string, t: string, lineNo: number, offset: number): void {
    if (this.open) {
      this.open.lines.push(text);
      return;
    }
    pushText(this.events, 'system', t, { source: this.ref(lineNo, offset), injected: true });
  }

  private bannerModels(t: string): void {
    let m: RegExpExecArray | null;
    if ((m = /^(?:Main model|Model): (\S+)/.exec(t))) this.models.add(m[1]);
    else if ((m = /^Models: (\S+) with .*?(?:, weak model (\S+))?$/.exec(t))) {
      this.models.add(m[1]);
      this.models.add(m[2]);
    }
    if ((m = /^(?:Editor model|Weak model): (\S+)/.exec(t))) this.models.add(m[1]);
    if ((m = /^Git repo: (.+?)(?: with \d+ files)?$/.exec(t))) this.gitRepo = m[1];
  }

  finish(): void {
    this.flushBlock();
    this.closeOpen();
    this.flushBanner();
  }
}

/** aider's shell-command prompt answered no (`Run shell command? (Y)es/(N)o/… [Yes]: n`). */
export const DECLINED = /^Run shell commands?\?.*:\s*n(?:o)?\s*$/i;

/**
 * What `^<marker>(?: (.*))?$` captures from `text.trimEnd()` (given as `text` and its trimmed
 * length `end`) when it starts with a `length`-character marker: '' when the line is the marker
 * alone, undefined when it does not match. One slice, no regex run and no match array per line.
 * Like `.`, the text after the space holds no line terminator; `terminators` false says the file
 * holds none, which spares every line the three searches (a twentieth of reading the part).
 */
function afterMarker(text: string, length: number, end: number, terminators: boolean): string | undefined {
  if (end === length) return '';
  if (text.charCodeAt(length) !== 0x20) return undefined;
  const rest = text.slice(length + 1, end);
  return terminators && (rest.includes('\r') || rest.includes('\u2028') || rest.includes('\u2029')) ? undefined : rest;
}

const LINE_SEPARATOR = Buffer.from('\u2028');
const PARAGRAPH_SEPARATOR = Buffer.from('\u2029');

/** Whether a file's bytes may hold a line terminator other than \n (false only when they surely
 * do not: a file that is not in memory may). Invalid UTF-8 decodes to U+FFFD, never to one. */
function mayHoldTerminators(content: Buffer | undefined): boolean {
  return !content || content.includes(0x0d) || content.includes(LINE_SEPARATOR) || content.includes(PARAGRAPH_SEPARATOR);
}

/** Whether `c` is a character of the regex class `\s`. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/**
 * `norm(a) === norm(b)` for `norm = (s) => s.replace(/\s+/g, ' ').trim()`: the same words in the
 * same order. Compared in place: a user block is checked against the reply before it, and the
 * two normalised copies were a measurable share of reading a file.
 */
export function sameWords(a: string, b: string): boolean {
  let i = skipSpaces(a, 0);
  let j = skipSpaces(b, 0);
  for (;;) {
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    // one word of each, character by character
    let c = a.charCodeAt(i);
    while (!isSpace(c) && c === b.charCodeAt(j)) {
      i++;
      j++;
      if (i === a.length) break;
      c = a.charCodeAt(i);
    }
    const aEnds = i === a.length || isSpace(a.charCodeAt(i));
    const bEnds = j === b.length || isSpace(b.charCodeAt(j));
    if (!aEnds || !bEnds) return false;
    i = skipSpaces(a, i);
    j = skipSpaces(b, j);
  }
}

/** `text.trimEnd().length`, without making the trimmed string. */
function trimmedLength(text: string): number {
  let end = text.length;
  while (end > 0) {
    const c = text.charCodeAt(end - 1);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) end--;
    else if (c < 0x80) return end;
    else return text.trimEnd().length; // Unicode spaces: as trimEnd has them
  }
  return 0;
}

/** `/ {2,}$/.test(text)`, without a regex run per line. */
function endsWithTwoSpaces(text: string): boolean {
  const n = text.length;
  return n >= 2 && text.charCodeAt(n - 1) === 0x20 && text.charCodeAt(n - 2) === 0x20;
}

async function read(file: string, options?: ReadOptions & Preloaded): Promise<Session[]> {
  const warnings = new Warnings(file, options);
  const sessions: Session[] = [];
  const ids = new Map<string, number>();
  const hash = pathHash(file);
  const cwd = path.dirname(path.resolve(file));
  let s: AiderSession | undefined;
  let lineCount = 0;

  const close = (endOffset: number): void => {
    if (!s) return;
    s.finish();
    if (s.fence.inside) warnings.add(s.fenceLine, 'session ends inside a code block (cut short?)');
    const stamp = s.startedAt ? s.startedAt.replace(/[-:]/g, '') : 'preamble';
    const base = `aider-${hash}-${stamp}`;
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    sessions.push(
      makeSession({
        id: n === 1 ? base : `${base}-${n}`,
        format: 'aider',
        agent: 'aider',
        file,
        bytes: endOffset - s.startOffset,
        events: s.events,
        warnings: warnings.list.slice(s.firstWarning),
        models: s.models.names,
        cwd,
        cwdFromFile: true,
        repo: path.basename(cwd),
        startedAt: s.startedAt,
      }),
    );
    s = undefined;
  };

  let readFailed = false;
  try {
    const lineOptions = lineOptionsFor(options);
    lineOptions.reuseLine = true; // no Line is kept past its call (see Block)
    const terminators = mayHoldTerminators(options?.content);
    await forEachLine(file, lineOptions, (raw) => {
      lineCount++;
      if (raw.invalidUtf8 || raw.truncated) warnLineQuality(warnings, raw, 'cut');
      // the line object is not kept: blocks keep the texts and offsets (see Block)
      const rawText = raw.text;
      // the trimmed text is made only for reply lines: a marker line slices what follows its marker
      const end = trimmedLength(rawText);
      const { lineNo, offset } = raw;
      // a first-character check before each startsWith: most lines open with neither `#` nor `>`
      const c0 = rawText.charCodeAt(0);
      const header = c0 === 0x23 /* # */ && rawText.startsWith('# aider') ? HEADER.exec(rawText) : null;
      if (header) {
        close(offset);
        s = new AiderSession(file, `${header[1]}T${header[2]}`, offset, warnings.list.length);
        return;
      }
      if (!s) {
        if (end === 0) return;
        s = new AiderSession(file, undefined, offset, warnings.list.length); // text before any header
      }
      const block = s.block;
      // A reply cut short (^C) leaves its fence open; aider's next input line ("#### …" with
      // aider's hard break, after a blank line) still ends it.
      if (block?.kind === 'text' && s.fence.inside && c0 === 0x23 && rawText.startsWith('#### ') && endsWithTwoSpaces(rawText) && block.count > 0 && block.texts[block.count - 1] === '') s.fence.reset();
      // inside a fence of the reply, every line is reply text
      if (block?.kind === 'text' && s.fence.inside) {
        const text = end === rawText.length ? rawText : rawText.slice(0, end);
        s.fence.update(text);
        s.addLine('text', text, lineNo, offset);
        return;
      }
      // Aider ends its own lines with a markdown hard break ("  "); inside a reply that is what
      // tells its notes and the next input from a "#### heading" or "> quote" of the model.
      // (In a history whose trailing spaces were stripped, a `> ` or `#### ` line outside a fence
      // is aider's, whatever the reply before it: a model's own quote or heading reads as aider's.)
      const own = block?.kind !== 'text' || endsWithTwoSpaces(rawText) || s.stripped === true;
      // the first-character checks spare most lines the regexes, which are anchored on them
      const user = own && end >= 4 && c0 === 0x23 && rawText.startsWith('####') ? afterMarker(rawText, 4, end, terminators) : undefined;
      if (user !== undefined) {
        s.addLine('user', user, lineNo, offset);
        return;
      }
      const note = own && end >= 1 && c0 === 0x3e /* > */ ? afterMarker(rawText, 1, end, terminators) : undefined;
      if (note !== undefined) {
        if (s.stripped === undefined && !s.seenUser) s.stripped = !endsWithTwoSpaces(rawText);
        s.flushBlock();
        s.note(note, lineNo, offset);
        return;
      }
      if (end === 0) {
        if (block?.kind === 'text') s.addLine('text', '', lineNo, offset);
        else s.flushBlock();
        return;
      }
      const text = end === rawText.length ? rawText : rawText.slice(0, end);
      s.addLine('text', text, lineNo, offset);
      if (s.fence.update(text).delimiter && s.fence.inside) s.fenceLine = lineNo;
    });
  } catch (err) {
    readFailed = true;
    warnings.add(undefined, `cannot read file: ${errorMessage(err)}`);
  }
  close(await fileSize(file, options?.content));
  if (lineCount === 0 && !readFailed) warnings.add(undefined, 'file is empty');
  // a history's part before its first `# aider chat started at` line records no time; it ended
  // before that launch, whose time dates it better than the file's (a copy's mtime is the day it
  // was copied)
  const first = sessions[0];
  if (first !== undefined && first.startedAt === undefined && sessions[1]?.startedAt !== undefined) first.endedAt = sessions[1].startedAt;
  return sessions;
}

export const aiderReader: SessionReader & DetectBound = { format: 'aider', detect, read, maxScore: 0.95 };
