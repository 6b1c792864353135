/**
 * The session as the model reads it: one event per `[E<n>]` line (n = the event's index in the
 * normalized session, so an answer can cite it), redacted first and shortened afterwards (a cut
 * secret would no longer match its pattern), without injected text, bootstrap blocks,
 * compaction summaries or system lines. Long outputs and reasoning keep a head and a tail: the
 * command's first lines and its final error are what a reviewer reads too.
 */
import type { Session, SessionEvent, ToolCallEvent } from '../../sessions/model.js';
import { splitBootstrapBlocks } from '../../sessions/bootstrap-markers.js';
import { redact } from '../../redact/index.js';
import { calledPath, harvestable } from '../extract/view.js';
import { cleanText } from '../extract/text.js';

/** One shown event: what the model reads of it, and where it came from. */
export interface ViewEvent {
  /** Session.events index (the n of `[E<n>]`). */
  index: number;
  /** Transcript line of the event. */
  line: number;
  /** The whole `[E<n>] kind: text` line(s). */
  text: string;
}

export interface ModelView {
  events: ViewEvent[];
  /** Redaction findings replaced while building the view. */
  redactions: number;
}

/** Characters kept of each kind of text: a head and a tail (see cutMiddle). */
const LIMITS = {
  user: { head: 2400, tail: 800 },
  assistant: { head: 1200, tail: 500 },
  reasoning: { head: 400, tail: 200 },
  output: { head: 900, tail: 700 },
  errorOutput: { head: 1200, tail: 1000 },
  /** A project document or configuration file read whole: where its facts are written down. */
  docOutput: { head: 2400, tail: 800 },
  /** What a file edit wrote: the change, not the file. */
  editInput: { head: 240, tail: 120 },
  input: { head: 400, tail: 200 },
  /** The agent program's own short messages (aider's errors, a CLI's warnings). */
  system: { head: 600, tail: 300 },
} as const;

/** Tools that change a file: their result only acknowledges the change. */
const EDIT_TOOLS = /^(?:edit|multiedit|write|str_replace_based_edit_tool|apply_patch|write_file|replace|edit_file|create_file|notebookedit)$/i;
/** Tools that read a file. */
const READ_TOOLS = /^(?:read|read_file|view|cat|open_file)$/i;
/** Files whose text is the project's own documentation and configuration. */
const DOC_FILE = /(?:\.(?:md|mdx|mdc|txt|rst|json|jsonc|toml|ya?ml|ini|cfg|conf|env\.example)|(?:^|\/)(?:Makefile|Dockerfile|Justfile|Procfile|\.tool-versions|\.nvmrc))$/i;

/** The path a read or edit call names, when it names one. */
function pathOf(call: ToolCallEvent | undefined): string | undefined {
  return call ? calledPath(call.input) : undefined;
}

/** Keeps the first `head` and last `tail` characters, cut at line ends where one is near, with a
 * marker saying how many lines were cut. */
export function cutMiddle(text: string, head: number, tail: number): string {
  if (text.length <= head + tail + 80) return text;
  let headEnd = text.lastIndexOf('\n', head);
  if (headEnd < head * 0.6) headEnd = head;
  let tailStart = text.indexOf('\n', text.length - tail);
  if (tailStart === -1 || tailStart > text.length - tail * 0.6) tailStart = text.length - tail;
  const cut = text.slice(headEnd, tailStart);
  const lines = cut.split('\n').length - 1;
  const what = lines > 1 ? `${lines} lines` : `${cut.length} characters`;
  return `${text.slice(0, headEnd).trimEnd()}\n[... ${what} cut ...]\n${text.slice(tailStart).trimStart()}`;
}

/** Blank-line runs and trailing spaces cost tokens and say nothing. */
function tidy(text: string): string {
  return text.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** A tool call's input without bulky payloads: the command when it ran one, else its fields
 * with long strings (file contents, patches, old/new strings) shortened. */
function callText(call: ToolCallEvent, redactText: (s: string) => string): string {
  if (call.command) return `$ ${cutMiddle(redactText(call.command), 600, 200)}`;
  const limit = EDIT_TOOLS.test(call.name) ? LIMITS.editInput : LIMITS.input;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(call.input)) {
    if (value === undefined || value === null || value === '') continue;
    const raw = typeof value === 'string' ? value : JSON.stringify(value);
    parts.push(`${key}=${cutMiddle(redactText(raw), limit.head, limit.tail)}`);
  }
  return parts.join(' ');
}

/** The first line of a text, shortened: all a successful edit's acknowledgement needs. */
function firstLine(text: string): string {
  const line = text.trimStart().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)} [...]` : line;
}

/** The agent program's own message worth showing: short, and not an instruction block the
 * agent was given (AGENTS.md, permissions, skills, rules: they start with a tag or a heading). */
function programMessage(text: string): boolean {
  const t = text.trimStart();
  return t !== '' && text.length <= 4000 && !/^[<#]/.test(t);
}

function label(e: SessionEvent): string {
  switch (e.kind) {
    case 'tool_call':
      return `tool_call ${e.name}`;
    case 'tool_result': {
      const flags = [e.exitCode !== undefined ? `exit ${e.exitCode}` : '', e.isError && !e.rejected ? 'error' : '', e.rejected ? 'rejected by user' : ''].filter(Boolean);
      return `tool_result${e.name ? ` ${e.name}` : ''}${flags.length ? ` (${flags.join(', ')})` : ''}`;
    }
    default:
      return e.kind;
  }
}

/** The text of one event after redaction and shortening, or '' when nothing is worth showing. */
function eventText(e: SessionEvent, redactText: (s: string) => string, callOf: (id: string | undefined) => ToolCallEvent | undefined): string {
  switch (e.kind) {
    case 'user': {
      // a prompt may carry a bootstrap block the agent was given: never knowledge of this session
      const rest = e.text.includes('compound:bootstrap') ? splitBootstrapBlocks(e.text).rest : e.text;
      return cutMiddle(tidy(redactText(cleanText(rest))), LIMITS.user.head, LIMITS.user.tail);
    }
    case 'assistant':
      return cutMiddle(tidy(redactText(cleanText(e.text))), LIMITS.assistant.head, LIMITS.assistant.tail);
    case 'reasoning':
      return cutMiddle(tidy(redactText(cleanText(e.text))), LIMITS.reasoning.head, LIMITS.reasoning.tail);
    case 'tool_call':
      return tidy(callText(e, redactText));
    case 'tool_result': {
      const failed = e.isError || (e.exitCode !== undefined && e.exitCode !== 0);
      const name = e.name ?? callOf(e.callId)?.name ?? '';
      const text = tidy(redactText(cleanText(e.output)));
      if (!failed && EDIT_TOOLS.test(name)) return firstLine(text);
      const path = READ_TOOLS.test(name) ? pathOf(callOf(e.callId)) : undefined;
      const limit = failed ? LIMITS.errorOutput : path !== undefined && DOC_FILE.test(path) ? LIMITS.docOutput : LIMITS.output;
      return cutMiddle(text, limit.head, limit.tail);
    }
    case 'system':
      return programMessage(e.text) ? cutMiddle(tidy(redactText(cleanText(e.text))), LIMITS.system.head, LIMITS.system.tail) : '';
    default:
      return '';
  }
}

/** Events the model reads: what the rules read (no injected text, bootstrap blocks or compaction
 * summaries), and also the agent program's own messages (system events): aider's errors and a
 * CLI's warnings are often the very pitfall, where the rules find too much noise in them. */
function shown(e: SessionEvent): boolean {
  return harvestable(e) || (e.kind === 'system' && !e.text.includes('compound:bootstrap'));
}

/**
 * Builds the view of `session` (pure: the same session and users give the same view). `users`:
 * account names to remove besides those redaction finds in home paths.
 */
export function modelView(session: Session, users: readonly string[]): ModelView {
  let redactions = 0;
  const redactText = (s: string): string => {
    const r = redact(s, { users });
    redactions += r.findings.length;
    return r.text;
  };
  const events: ViewEvent[] = [];
  const calls = new Map<string, ToolCallEvent>();
  for (const e of session.events) if (e.kind === 'tool_call' && e.callId !== undefined) calls.set(e.callId, e);
  const callOf = (id: string | undefined): ToolCallEvent | undefined => (id === undefined ? undefined : calls.get(id));
  for (const e of session.events) {
    if (!shown(e)) continue;
    const text = eventText(e, redactText, callOf);
    if (text === '' && e.kind !== 'tool_result') continue; // an empty result still shows the call ended
    // (continuation lines are not indented: two spaces a line were 4% of the tokens)
    events.push({ index: e.index, line: e.source.line, text: `[E${e.index}] ${label(e)}: ${text}` });
  }
  return { events, redactions };
}
