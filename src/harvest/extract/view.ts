/**
 * A reviewer's view of a session: only what a human typed or the model wrote for the user
 * (never injected text, bootstrap blocks, compaction summaries or system lines), tool calls
 * paired with their results, and Codex unified-exec polls folded back into the command they poll.
 */
import type { Session, SessionEvent, ToolCallEvent, ToolResultEvent, UserEvent } from '../../sessions/model.js';
import { commandParts, shortenCommand } from './commands.js';
import { emptyList } from '../../core/elements-kind.js';
import { marksOf } from './marks.js';
import { didOnlyRetire } from './retired.js';
import { perObject } from './per-object.js';
import { cleanText } from './text.js';

export interface Step {
  call: ToolCallEvent;
  result?: ToolResultEvent;
  /** Position of this step in `SessionView.steps`. */
  pos: number;
  /** Shell command line, shortened (heredocs and long messages elided), when the tool ran one. */
  command?: string;
  /** `simpleCommands(command)`, `family` of each, and `mainCommand(command)` (empty without a
   * command): rules ask for them many times per step, and a field read is cheaper than the
   * string memo's lookup. */
  simple: readonly string[];
  families: readonly string[];
  main: string;
  /** `program(main)` and `family(main)` ('' without a command). */
  program: string;
  family: string;
  /** Output with ANSI codes, reminders and exec headers removed. */
  output: string;
  exitCode?: number;
  /** A real failure: flagged error or non-zero exit, not a cascade, rejection or pending poll. */
  failed: boolean;
  rejected: boolean;
  cascade: boolean;
  /** Still running when the log last shows it (a Codex unified exec whose polls never saw its exit). */
  running: boolean;
  /** Index of the event holding the final output (the result, or the last poll of a unified exec). */
  outputEvent: number;
  /** Size of the full output in tokens, when the tool reports it (Codex unified exec "Original token count"). */
  outputTokens?: number;
  /** Which of the literals some rules' regexes need the output holds (marks.ts). */
  marks: number;
  /** editedFiles(step), once asked for (undefined until then). */
  edited: string[] | undefined;
}

export interface SessionView {
  session: Session;
  /** Harvestable events in order. */
  events: SessionEvent[];
  steps: Step[];
  /** Steps by the event index of their call. */
  stepByCall: Map<number, Step>;
  /** Human prompts (not injected), in order. */
  prompts: UserEvent[];
}

/** (not frozen: a frozen array is of yet another kind, see emptyList) */
const NONE: readonly string[] = emptyList<string>();

/** True for events a harvester may read as knowledge sources. */
export function harvestable(e: SessionEvent): boolean {
  const kind = e.kind; // bootstrap blocks, compaction summaries and system lines are never knowledge
  return kind !== 'bootstrap' && kind !== 'summary' && kind !== 'system' && !e.injected;
}

/** Codex's envelope around a command's output: `Chunk ID`, `Wall time`, `Process exited with
 * code N` and `Original token count` (exec_command), or `Exit code: N`, `Wall time` (the older
 * shell tool), then `Output:`. */
const EXEC_HEADER = /^(?:Chunk ID: \S+\n)?(?:Exit code: (-?\d+)\n)?(?:Wall time: [^\n]*\n)?(?:Process (?:exited with code (-?\d+)|running with session ID \d+)\n)?(?:Original token count: \d+\n)?(?:Output:(?:\n|$))?/;
const RUNNING = /Process running with session ID (\d+)/;
/** A tool's status line after a command's output: `Exit code: 1` on the last line. */
const TRAILING_EXIT = /\nExit code: (-?\d+)\s*$/;

const TOKEN_COUNT = /^(?:Chunk ID: \S+\n)?(?:Wall time: [^\n]*\n)?(?:Process [^\n]*\n)?Original token count: (\d+)/;

function tokenCount(output: string): number | undefined {
  const m = TOKEN_COUNT.exec(output);
  return m ? Number(m[1]) : undefined;
}

function stripExecHeader(output: string): { text: string; exit?: number } {
  const m = EXEC_HEADER.exec(output);
  if (!m || m[0].length === 0) return { text: output };
  const exit = m[1] ?? m[2];
  return exit !== undefined ? { text: output.slice(m[0].length), exit: Number(exit) } : { text: output.slice(m[0].length) };
}

function commandOf(call: ToolCallEvent): string | undefined {
  if (call.command) return call.command;
  const input = call.input;
  for (const key of ['command', 'cmd']) {
    const v = input[key];
    if (typeof v === 'string' && v.trim()) return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      const argv = v as string[];
      const shell = argv.length >= 3 && /^(?:ba|z)?sh$/.test(argv[0]!.replace(/^.*\//, '')) && /^-l?c$/.test(argv[1]!);
      // Multi-line arguments (patch bodies, scripts) are data, not part of the command.
      const args = argv.map((a) => (a.includes('\n') ? (a.startsWith('*** Begin Patch') ? a : '<…>') : a));
      return shell ? args.slice(2).join(' ') : args.join(' ');
    }
  }
  return undefined;
}

function pollSession(call: ToolCallEvent): number | undefined {
  if (call.name !== 'write_stdin') return undefined;
  const id = call.input.session_id;
  const chars = call.input.chars;
  return typeof id === 'number' && (chars === '' || chars === undefined) ? id : undefined;
}

/** The process each write_stdin poll reads. A rendered transcript (SpecStory) shows the call
 * without its arguments: write_stdin only ever reads a process an earlier command started, so
 * such a poll reads the latest one still running; its output is that command's, not the tool's. */
function polledSessions(calls: readonly ToolCallEvent[], resultFor: ReadonlyMap<number, ToolResultEvent>): Map<number, number> {
  const polled = new Map<number, number>();
  let latest: number | undefined;
  for (const c of calls) {
    const own = pollSession(c);
    const bare = c.name === 'write_stdin' && c.input.session_id === undefined && c.input.chars === undefined;
    const id = own ?? (bare ? latest : undefined);
    if (id !== undefined) polled.set(c.index, id);
    const output = resultFor.get(c.index)?.output ?? '';
    const running = output.includes('Process running with session ID') ? RUNNING.exec(output) : null;
    if (running) latest = Number(running[1]);
    else if (id !== undefined && id === latest && /^(?:Chunk ID: \S+\n)?(?:Wall time: [^\n]*\n)?Process exited with code/.test(output)) latest = undefined;
  }
  return polled;
}

/** Builds the view. Pure: the same session gives the same view. */
export function viewOf(session: Session): SessionView {
  const events = session.events.filter(harvestable);
  const prompts = events.filter((e): e is UserEvent => e.kind === 'user' && e.text.trim().length > 0);

  // Pair calls with results: by call id; without one, the call right before the result when it
  // is still unanswered (a rendered transcript puts each result under its call; a call shown
  // without its output must not take the next call's), else the oldest unanswered call of the
  // same name.
  const calls: ToolCallEvent[] = [];
  const resultFor = new Map<number, ToolResultEvent>();
  const openById = new Map<string, ToolCallEvent>();
  const open: ToolCallEvent[] = [];
  for (const e of session.events) {
    if (e.kind === 'tool_call') {
      calls.push(e);
      open.push(e);
      if (e.callId) openById.set(e.callId, e);
    } else if (e.kind === 'tool_result') {
      let call = e.callId ? openById.get(e.callId) : undefined;
      const last = calls[calls.length - 1];
      if (!call && !e.callId && last && !last.callId && !resultFor.has(last.index) && (e.name === undefined || last.name === e.name)) call = last;
      if (!call) call = open.find((c) => !resultFor.has(c.index) && (e.name === undefined || c.name === e.name));
      if (call && !resultFor.has(call.index)) {
        resultFor.set(call.index, e);
        const at = open.indexOf(call);
        if (at >= 0) open.splice(at, 1);
      }
    }
  }

  // Codex unified exec: "Process running with session ID N", then write_stdin polls carry the output.
  const polledBy = polledSessions(calls, resultFor);
  const pollsBySession = new Map<number, ToolCallEvent[]>();
  for (const c of calls) {
    const id = polledBy.get(c.index);
    if (id !== undefined) pollsBySession.set(id, [...(pollsBySession.get(id) ?? []), c]);
  }

  const steps: Step[] = [];
  const stepByCall = new Map<number, Step>();
  for (const call of calls) {
    if (call.injected) continue;
    const polled = polledBy.get(call.index);
    const result = resultFor.get(call.index);
    // folded into the command it polls (an id-less poll only when it reports on the process)
    const inferred = polled !== undefined && pollSession(call) === undefined;
    if (polled !== undefined && (inferred ? EXEC_HEADER.exec(result?.output ?? '')![0].length > 0 : !(result?.isError ?? false))) continue;
    let raw = result ? cleanText(result.output) : '';
    let { text, exit } = stripExecHeader(raw);
    // (a status line a tool appends after the output, `Exit code: 1`, is the tool's report, not
    // the command's output)
    const trailing = text.includes('Exit code: ') ? TRAILING_EXIT.exec(text) : null;
    if (trailing) {
      text = text.slice(0, trailing.index);
      exit ??= Number(trailing[1]);
    }
    let exitCode = exit ?? result?.exitCode;
    let outputEvent = result?.index ?? call.index;
    let pending = false;
    let tokens = tokenCount(raw);
    const running = raw.includes('Process running with session ID') ? RUNNING.exec(raw) : null;
    if (running) {
      pending = true;
      const polls = (pollsBySession.get(Number(running[1])) ?? []).filter((p) => p.index > call.index);
      for (const p of polls) {
        const r = resultFor.get(p.index);
        if (!r) continue;
        const cleaned = cleanText(r.output);
        const part = stripExecHeader(cleaned);
        const n = tokenCount(cleaned);
        if (n !== undefined) tokens = Math.max(tokens ?? 0, n);
        text += part.text;
        outputEvent = r.index;
        if (part.exit !== undefined) {
          exitCode = part.exit;
          pending = false;
          break;
        }
      }
    }
    raw = text;
    const rejected = result?.rejected ?? false;
    const cascade = result?.cascade ?? false;
    const errored = running ? exitCode !== undefined && exitCode !== 0 : (result?.isError ?? false) || (exitCode !== undefined && exitCode !== 0);
    const command = commandOf(call);
    // Every key in the same order for every step, absent ones undefined: one hidden class for
    // all steps (see sessions/events.ts).
    const short = command ? shortenCommand(command) : undefined;
    const parts = short !== undefined ? commandParts(short) : undefined;
    const step: Step = {
      call,
      result,
      pos: steps.length,
      command: short,
      simple: parts ? parts.simple : NONE,
      families: parts ? parts.families : NONE,
      main: parts ? parts.main : '',
      program: parts ? parts.program : '',
      family: parts ? parts.family : '',
      output: raw,
      exitCode,
      failed: errored && !rejected && !cascade && !pending,
      rejected,
      cascade,
      running: pending,
      outputEvent,
      outputTokens: tokens,
      marks: raw === '' ? 0 : marksOf(raw),
      edited: undefined,
    };
    steps.push(step);
    stepByCall.set(call.index, step);
  }
  // A poll whose output repeats a command's output (the reader already gave the command its full
  // result) still tells how large that output was.
  const lead = (t: string): string => t.replace(/^Total output lines: \d+\n+/, '').slice(0, 120);
  const leads: string[] = []; // lead of each step's output, by position, computed once when asked
  for (const call of calls) {
    if (pollSession(call) === undefined) continue;
    const r = resultFor.get(call.index);
    const cleaned = r ? cleanText(r.output) : '';
    const n = r ? tokenCount(cleaned) : undefined;
    if (!r || n === undefined) continue;
    const head = lead(stripExecHeader(cleaned).text);
    if (head.trim().length < 40) continue;
    const owner = steps.find((st) => st.call.index < call.index && (leads[st.pos] ??= lead(st.output)) === head);
    if (owner) owner.outputTokens = Math.max(owner.outputTokens ?? 0, n);
  }
  return { session, events, steps, stepByCall, prompts };
}

/** Whether `view.events` is in increasing index order (it is when readers number events in order). */
const ordered = perObject((events: readonly SessionEvent[]): boolean => {
  for (let i = 1; i < events.length; i++) if (events[i]!.index <= events[i - 1]!.index) return false;
  return true;
});

/** Harvestable events with `from < index <= to`, in order (a binary search instead of a scan). */
export function eventsBetween(view: SessionView, from: number, to: number): SessionEvent[] {
  const events = view.events;
  if (!ordered(events)) return events.filter((e) => e.index > from && e.index <= to);
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.index <= from) lo = mid + 1;
    else hi = mid;
  }
  const out: SessionEvent[] = [];
  for (let i = lo; i < events.length && events[i]!.index <= to; i++) out.push(events[i]!);
  return out;
}

/** The text of the agent's last reply before event `index`. */
export function replyBefore(view: SessionView, index: number): string | undefined {
  let text: string | undefined;
  for (const e of view.events) {
    if (e.index >= index) break;
    if (e.kind === 'assistant') text = e.text;
  }
  return text;
}

/** The human prompt in force at event `index` (the last prompt before it). */
export function promptBefore(view: SessionView, index: number): UserEvent | undefined {
  let found: UserEvent | undefined;
  for (const p of view.prompts) {
    if (p.index < index) found = p;
    else break;
  }
  return found;
}

const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

/** A path's last part, whichever separator it uses (`C:\\app\\a.ts`, `src/a.ts`). */
export function fileName(path: string): string {
  return path.replace(/^.*[\\/]/, '');
}

/** Base names of the files a step edits (edit tools, or apply_patch bodies in a shell call or custom tool). */
export function editedFiles(step: Step): string[] {
  // Rules ask for a step's edited files many times (some once per step per prompt or line); a
  // step never changes once the view is built, so the answer is kept on it (`edited`, set to
  // undefined by viewOf so every step has the same shape).
  return (step.edited ??= editedFilesOf(step));
}

function editedFilesOf(step: Step): string[] {
  const paths = editedPaths(step);
  return paths.length === 0 ? [] : [...new Set(paths.map(fileName))];
}

/** The keys under which file tools name their file (Claude Code, Codex, Gemini CLI, Cursor). */
const PATH_KEYS = ['file_path', 'path', 'filePath', 'absolute_path', 'target_file', 'notebook_path'] as const;

/** The path a read or edit call names, when it names one. */
export function calledPath(input: Record<string, unknown>): string | undefined {
  for (const key of PATH_KEYS) {
    const v = input[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

/** Paths, as the call gave them, of the files a step edits (edit tools, or apply_patch bodies). */
export function editedPaths(step: Step): string[] {
  const out: string[] = [];
  const input = step.call.input;
  const named = EDIT_TOOLS.has(step.call.name) ? calledPath(input) : undefined;
  if (named !== undefined) out.push(named);
  const patched = (body: string): void => {
    if (body.includes('*** ')) for (const m of body.matchAll(PATCH_FILE)) out.push(m[1]!.trim());
  };
  patched(step.call.command ?? '');
  for (const v of Object.values(input)) if (typeof v === 'string') patched(v);
  return [...new Set(out)];
}

/** The command line as the call gave it: the shown `command` may leave out a redirection or the
 * pipe into `head` that says how its output was treated. */
export function callCommandLine(step: Step): string | undefined {
  return typeof step.call.input.command === 'string' ? step.call.input.command : step.command;
}

/** An output that is nothing but the shell's prompt (`PS E:\app> `): an export that kept none of
 * what the command printed. */
const PROMPT_ONLY = /^\s*(?:PS [^\n>]*>|[\w.-]+@[\w.-]+[^\n$#%]*[$#%]|[$>❯])\s*$/;

/** Programs that ask a server over HTTP. */
const HTTP_CLIENT = /^(?:curl|wget|http|https|httpie|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)$/i;
/** A server's answer that it did not do what was asked: Express's `Cannot POST /mcp`, an error
 * page's title, a last status line 4xx or 5xx (`curl -i`), a JSON body that is an error; or the
 * client's own report that it got none (`curl: (7) Failed to connect`, wget's `ERROR 404`). */
const HTTP_ERROR_ANSWER = /^curl: \(\d+\) |\bERROR [45]\d\d: |<pre>Cannot (?:GET|POST|PUT|PATCH|DELETE) \/|<title>\s*(?:Error|[45]\d\d\b[^<]*)<\/title>|^\s*\{\s*"(?:error|detail)"\s*:\s*(?:\{|"(?:Not Found|Method Not Allowed))/im;
const HTTP_STATUS_LINE = /^HTTP\/[\d.]+ (\d{3})\b/gm;

/** A request whose server answered with an error: curl exits 0 on a 404 page unless told `-f`, so
 * the exit status does not say the request did what it asked. */
function answeredWithError(step: Step): boolean {
  if (!step.command || !step.families.some((f) => HTTP_CLIENT.test(f.split(' ')[0]!))) return false;
  const statuses = [...step.output.matchAll(HTTP_STATUS_LINE)];
  const last = statuses[statuses.length - 1]?.[1];
  return (last !== undefined && /^[45]/.test(last)) || HTTP_ERROR_ANSWER.test(step.output);
}

/** A command seen to end well: not failed, and the transcript shows how it ended. An export
 * without exit codes (SpecStory) that kept no output for a command, or only the shell's prompt,
 * shows nothing of it: a server left running, a command still waiting, or a failure. A command
 * whose tool only said it is retired (and what to run instead) did nothing either, nor did a
 * request the server refused. */
export function seenToSucceed(step: Step): boolean {
  return !step.failed && !step.rejected && step.result !== undefined && !PROMPT_ONLY.test(step.output) && !didOnlyRetire(step) && !answeredWithError(step);
}

/** True when a step changed files. */
export function isEdit(step: Step): boolean {
  return EDIT_TOOLS.has(step.call.name) || editedFiles(step).length > 0;
}

/** Names of tools that edit files on the agent's behalf (their refusals are agent tool quirks). */
export const EDIT_TOOLS = new Set([
  'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'apply_patch', 'edit_file', 'write_file', 'replace', 'str_replace',
  'str_replace_editor', 'create_file', 'search_replace', 'patch',
  // Cursor's newer whole-file tool, as SpecStory exports it (a `diff` from an empty file)
  'write',
  // Cursor's and Copilot's newer edit tools, as SpecStory exports name them
  'edit_file_v2', 'copilot_replaceString', 'copilot_createFile', 'copilot_insertEdit',
  'replace_string_in_file', 'multi_replace_string_in_file', 'insert_edit_into_file',
  // aider's reader names each SEARCH/REPLACE or whole-file block the model wrote an `edit`
  'edit',
]);

/** Names of tools that read files or search on the agent's behalf. */
export const READ_TOOLS = new Set([
  'Read', 'read_file', 'Glob', 'Grep', 'LS', 'list_directory', 'search_file_content', 'glob', 'grep', 'codebase_search',
  'file_search', 'view', 'read_many_files',
  // Cursor's and Copilot's newer read and search tools (SpecStory exports)
  'read_file_v2', 'list_dir', 'grep_search', 'glob_file_search', 'ripgrep_raw_search', 'semantic_search_full', 'copilot_readFile',
  'semantic_search',
  // Gemini CLI's panel titles in a copied terminal (console-md)
  'ReadFile', 'ReadManyFiles', 'ReadFolder', 'FindFiles', 'SearchText',
]);

/** Names of tools that hand work to a subagent; their results are reports. */
export const DELEGATE_TOOLS = new Set(['Task', 'Agent', 'delegate_to_agent', 'spawn_agent', 'dispatch_agent', 'subagent']);
