/**
 * Gemini CLI's conversation as the Gemini API holds it (`{role: "user"|"model", parts: [...]}`),
 * turned into events: the layouts that store that history (a `/chat save` checkpoint, a
 * `/chat share` markdown export) hand their parts here one by one, each with the line it cites.
 * - a user text that the CLI wrote is no prompt: the session context it opens every chat with,
 *   and the `<state_snapshot>` a compression leaves in place of the turns it summarised; the
 *   model's "Got it." answering either is none of its work;
 * - the files an `@path` in a prompt pulled in follow the typed words after
 *   `--- Content from referenced files ---`: they are the CLI's, not the user's;
 * - a function response answers the call with its id, else the oldest open call of its name
 *   (newer histories give the call no id).
 */
import { pushCallOn, pushText, pushToolResult } from '../events.js';
import type { Session, SessionEvent, SourceRef, ToolCallEvent, ToolResultEvent } from '../model.js';
import { injectedBase } from '../jsonl.js';
import { baseName, makeSession, pathHash, str, type TextFile, type Warnings } from './common.js';
import { commandOf, parseArguments } from './openai-messages.js';
import { statedExitCode } from './outcome.js';
import { functionResponseText, unframedShellOutput } from './gemini-shell-output.js';

/** The context Gemini CLI writes as a chat's first user message: older versions begin "This is
 * the Gemini CLI. We are setting up the context for our chat.", newer ones wrap it in
 * `<session_context>`. */
const CLI_CONTEXT = /^\s*(?:<session_context>|This is the Gemini CLI\. We are setting up the context for our chat\.)/;
const STATE_SNAPSHOT = /^\s*<state_snapshot>/;
const WORKING_DIR = /I'm currently working in the directory: ([^\n]+)/;
/** Newer contexts list the workspace's directories, the working directory first. */
const WORKSPACE_DIR = /^- \*\*Workspace Directories:\*\*\r?\n {2}- ([^\n]+)/m;
/** The line the CLI puts between a prompt and the files its `@path`s named. */
export const REFERENCED_FILES = '--- Content from referenced files ---';

/** Whether a user message's text is the context the CLI wrote, not something typed. */
export function isCliContext(text: string): boolean {
  return CLI_CONTEXT.test(text);
}

/** "Today's date is Tuesday, April 28, 2026 (formatted according to the user's locale)." */
const TODAY = /Today's date is (?:\w+, )?([A-Z][a-z]+) (\d{1,2}), (\d{4})\b/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The day a CLI context says it is (`2026-04-28`): the only time an export records. */
export function contextDate(text: string): string | undefined {
  const m = TODAY.exec(text);
  const month = m ? MONTHS.indexOf(m[1]!) + 1 : 0;
  return month > 0 ? `${m![3]}-${String(month).padStart(2, '0')}-${m![2]!.padStart(2, '0')}` : undefined;
}

/** The working directory a CLI context names. */
export function contextCwd(text: string): string | undefined {
  const dir = WORKING_DIR.exec(text)?.[1] ?? WORKSPACE_DIR.exec(text)?.[1];
  return dir?.trim().replace(/[.\s]+$/, '') || undefined;
}

/** A prompt's typed words and the referenced files' content after them (undefined: none). */
function splitReferenced(text: string): [string, string | undefined] {
  if (text.startsWith(REFERENCED_FILES)) return ['', text];
  const at = text.indexOf(`\n${REFERENCED_FILES}`);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

interface OpenCall {
  id?: string;
  name: string;
  event: ToolCallEvent;
}

export class GeminiHistory {
  readonly events: SessionEvent[] = [];
  cwd: string | undefined;
  /** The day the CLI's context gives, for files that record no time. */
  day: string | undefined;
  /** Calls whose responses have not come yet, oldest first. */
  private readonly open: OpenCall[] = [];
  /** The entry read last held only text the CLI wrote (context, snapshot). */
  private afterCliText = false;
  /** The entry being read: what it held so far. */
  private entry = { parts: 0, cliOnly: true };

  /** Ends one `{role, parts}` entry (a markdown block). */
  endEntry(): void {
    this.afterCliText = this.entry.parts > 0 && this.entry.cliOnly;
    this.entry = { parts: 0, cliOnly: true };
  }

  text(role: 'user' | 'model', text: string, source: SourceRef, thought = false): void {
    const first = this.entry.parts++ === 0;
    if (role === 'user') {
      this.userText(text, source);
      return;
    }
    this.entry.cliOnly = false;
    if (first && this.afterCliText && /^\s*Got it\./.test(text)) {
      // the model's answer to the context or the snapshot, which nobody asked a question of
      pushText(this.events, 'system', text, injectedBase({ source }));
    } else {
      pushText(this.events, thought ? 'reasoning' : 'assistant', text, { source });
    }
  }

  private userText(text: string, source: SourceRef): void {
    if (isCliContext(text)) {
      this.cwd ??= contextCwd(text);
      this.day ??= contextDate(text);
      pushText(this.events, 'system', text, injectedBase({ source }));
      return;
    }
    if (STATE_SNAPSHOT.test(text)) {
      pushText(this.events, 'summary', text, injectedBase({ source }));
      return;
    }
    this.entry.cliOnly = false;
    const [typed, referenced] = splitReferenced(text);
    pushText(this.events, 'user', typed, { source });
    if (referenced !== undefined) pushText(this.events, 'system', referenced, injectedBase({ source }));
  }

  /** A `functionCall` part: `{name, args, id?}`. */
  call(fc: Record<string, unknown>, source: SourceRef): void {
    this.entry.parts++;
    this.entry.cliOnly = false;
    const name = str(fc.name) ?? 'unknown';
    const input = parseArguments(fc.args);
    const id = str(fc.id);
    const event = pushCallOn(this.events, { source }, name, input, id, commandOf(input));
    this.open.push({ ...(id ? { id } : {}), name, event });
  }

  /** A `functionResponse` part: `{id, name, response: {output} | {error}}`. */
  response(fr: Record<string, unknown>, source: SourceRef): void {
    this.entry.parts++;
    this.entry.cliOnly = false;
    const name = str(fr.name) ?? 'unknown';
    const id = str(fr.id);
    const k = this.open.findIndex((c) => (id !== undefined && c.id === id) || (c.name === name && (c.id === undefined || id === undefined)));
    const call = k >= 0 ? this.open.splice(k, 1)[0] : undefined;
    // a call stored without an id takes its response's, so the two are linked as in a chat file
    if (call && call.id === undefined && id !== undefined) call.event.callId = id;
    const { output: framed, isError: failed } = functionResponseText(fr.response) ?? { output: '', isError: false };
    const exitCode = statedExitCode(framed);
    const result = { source } as Omit<ToolResultEvent, 'index' | 'kind'>;
    const callId = call?.id ?? id;
    if (callId) result.callId = callId;
    result.name = name;
    result.output = unframedShellOutput(framed);
    result.isError = failed || (exitCode !== undefined && exitCode !== 0);
    if (exitCode !== undefined) result.exitCode = exitCode;
    // "[Operation Cancelled] Reason: User did not allow tool call": the user said no
    if (failed && /^\[Operation Cancelled\]/.test(framed)) result.rejected = true;
    pushToolResult(this.events, result);
  }
}

/** The session of a file that records no session id (a checkpoint, an export): its path tells two
 * apart, and stays the same when the file is written again. */
export function historySession(file: string, tf: TextFile, warnings: Warnings, history: GeminiHistory): Session {
  return makeSession({
    id: `gemini-${baseName(file)}-${pathHash(file)}`,
    format: 'gemini-cli',
    agent: 'gemini-cli',
    file,
    bytes: tf.bytes,
    events: history.events,
    warnings: warnings.list.slice(),
    cwd: history.cwd,
    startedAt: history.day,
  });
}
