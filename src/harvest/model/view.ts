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
import { harvestable } from '../extract/view.js';
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
  assistant: { head: 1600, tail: 600 },
  reasoning: { head: 500, tail: 300 },
  output: { head: 900, tail: 700 },
  errorOutput: { head: 1200, tail: 1000 },
  input: { head: 400, tail: 200 },
} as const;

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
  const parts: string[] = [];
  for (const [key, value] of Object.entries(call.input)) {
    if (value === undefined || value === null || value === '') continue;
    const raw = typeof value === 'string' ? value : JSON.stringify(value);
    parts.push(`${key}=${cutMiddle(redactText(raw), LIMITS.input.head, LIMITS.input.tail)}`);
  }
  return parts.join(' ');
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
function eventText(e: SessionEvent, redactText: (s: string) => string): string {
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
      const limit = e.isError || (e.exitCode !== undefined && e.exitCode !== 0) ? LIMITS.errorOutput : LIMITS.output;
      return cutMiddle(tidy(redactText(cleanText(e.output))), limit.head, limit.tail);
    }
    default:
      return '';
  }
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
  for (const e of session.events) {
    if (!harvestable(e)) continue;
    const text = eventText(e, redactText);
    if (text === '' && e.kind !== 'tool_result') continue; // an empty result still shows the call ended
    // continuation lines are indented so that every event visibly starts its own line
    const body = text.replace(/\n/g, '\n  ');
    events.push({ index: e.index, line: e.source.line, text: `[E${e.index}] ${label(e)}: ${body}` });
  }
  return { events, redactions };
}
