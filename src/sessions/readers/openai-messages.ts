/**
 * OpenAI chat-completions messages ({role, content, tool_calls, tool_call_id}) → events. Shared by
 * the generic OpenAI-chat JSONL reader and both Hermes readers, which store the same dicts.
 * Agents built on the Anthropic Messages API log the same {role, content} lines with content
 * blocks instead: `tool_use` blocks in assistant messages and `tool_result` blocks in user
 * messages are calls and results, never text (a tool's output is not the user's words).
 */
import { pushCallOn, pushText, pushToolResult } from '../events.js';
import type { SessionEvent, SourceRef, ToolResultEvent } from '../model.js';
import { copyOf, injectedBase } from '../jsonl.js';
import { isRecord, ModelList, str } from './common.js';
import { looksFailed, statedExitCode } from './outcome.js';

export interface ChatState {
  events: SessionEvent[];
  models: ModelList;
  /** Model for assistant messages that name none (Hermes: session_meta.model). */
  defaultModel?: string;
  /** call id → tool name, to name the results. */
  callNames: Map<string, string>;
  /** call id → the shell command it ran, to read a plain-text result the way a terminal's is read. */
  callCommands: Map<string, string>;
}

export function newChatState(): ChatState {
  return { events: [], models: new ModelList(), callNames: new Map(), callCommands: new Map() };
}

/** Text of a content field: a string, or a list of parts ({type:"text", text}, image parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  const parts: string[] = [];
  for (const p of content) {
    if (typeof p === 'string') parts.push(p);
    else if (isRecord(p)) {
      const t = str(p.text) ?? str(p.content);
      if (t !== undefined) parts.push(t);
      else if (typeof p.type === 'string' && p.type.includes('image')) parts.push('[image]');
      else if (typeof p.type === 'string' && p.type.includes('audio')) parts.push('[audio]');
    }
  }
  return parts.join('\n');
}

/** The content blocks of one type (Anthropic Messages API), and the content without them. */
function splitBlocks(content: unknown, type: string): { blocks: Record<string, unknown>[]; rest: unknown } {
  if (!Array.isArray(content)) return { blocks: [], rest: content };
  const blocks = content.filter((p): p is Record<string, unknown> => isRecord(p) && p.type === type);
  return blocks.length === 0 ? { blocks, rest: content } : { blocks, rest: content.filter((p) => !(isRecord(p) && p.type === type)) };
}

function pushResult(state: ChatState, base: { source: SourceRef; time?: string }, callId: string | undefined, fallbackName: string | undefined, o: ToolOutcome): void {
  const name = (callId ? state.callNames.get(callId) : undefined) ?? fallbackName;
  // a command's output in plain text with no exit code in it is a terminal's text: failed when it
  // reads as a failure (`'ls' is not recognized as an internal or external command`)
  const command = callId ? state.callCommands.get(callId) : undefined;
  if (o.plain && !o.isError && o.exitCode === undefined && command !== undefined && looksFailed(o.output, command)) o.isError = true;
  const result = copyOf(base) as Omit<ToolResultEvent, 'index' | 'kind'>;
  if (callId) result.callId = callId;
  if (name) result.name = name;
  result.output = o.output;
  result.isError = o.isError;
  if (o.exitCode !== undefined) result.exitCode = o.exitCode;
  if (o.rejected) result.rejected = true;
  pushToolResult(state.events, result);
}

function pushCall(state: ChatState, base: { source: SourceRef; time?: string }, name: string, input: Record<string, unknown>, callId: string | undefined): void {
  const command = commandOf(input);
  if (callId) state.callNames.set(callId, name);
  if (callId && command !== undefined) state.callCommands.set(callId, command);
  pushCallOn(state.events, base, name, input, callId, command);
}

// Hermes injects these as user turns; they are not typed by the human.
const INJECTED_USER = /^\s*\[(?:System note|SYSTEM|System)[:\]]/;
const COMPACTION = /^\s*\[CONTEXT COMPACTION\b/;

/** Parses tool-call arguments: a JSON string (usual) or an object; anything else is kept raw. */
export function parseArguments(args: unknown): Record<string, unknown> {
  if (isRecord(args)) return args;
  if (typeof args === 'string') {
    const t = args.trim();
    if (t === '') return {};
    try {
      const v: unknown = JSON.parse(t);
      if (isRecord(v)) return v;
      return { value: v };
    } catch {
      return { arguments: args };
    }
  }
  return args === undefined || args === null ? {} : { value: args };
}

/** The shell command of a call, when its input names one. */
export function commandOf(input: Record<string, unknown>): string | undefined {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return (c as string[]).join(' ');
  return undefined;
}

export interface ToolOutcome {
  output: string;
  isError: boolean;
  exitCode?: number;
  rejected?: boolean;
  /** Plain text, not a JSON answer with fields that say how it went. */
  plain?: boolean;
}

/**
 * Reads what a tool message says about success. Hermes tools answer with a JSON string such as
 * {"output":…,"exit_code":1,"error":null} (terminal), {"success":false,…} or {"status":"blocked"}.
 * Plain text is judged only by an explicit exit code or a leading "Error".
 */
export function toolOutcome(content: string): ToolOutcome {
  const t = content.trimStart();
  if (t.startsWith('{')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      v = undefined;
    }
    if (isRecord(v)) return jsonOutcome(content, v);
  }
  const exitCode = statedExitCode(content);
  const isError = (exitCode !== undefined && exitCode !== 0) || /^\s*(?:Error|ERROR)\b/.test(content);
  const out: ToolOutcome = { output: content, isError, plain: true };
  if (exitCode !== undefined) out.exitCode = exitCode;
  return out;
}

function jsonOutcome(raw: string, v: Record<string, unknown>): ToolOutcome {
  const code = v.exit_code ?? v.exitCode ?? v.returncode;
  const exitCode = typeof code === 'number' && Number.isInteger(code) ? code : undefined;
  const err = v.error;
  const errText = typeof err === 'string' ? err.trim() : err && typeof err === 'object' ? JSON.stringify(err) : '';
  const status = typeof v.status === 'string' ? v.status.toLowerCase() : '';
  const rejected = status === 'blocked' || status === 'denied' || /denied by user/i.test(errText);
  const isError =
    (exitCode !== undefined && exitCode !== 0) ||
    errText !== '' ||
    v.success === false ||
    status === 'error' ||
    status === 'failed' ||
    rejected;
  let output = raw;
  if (typeof v.output !== 'string' && typeof v.stdout === 'string') {
    const stderr = typeof v.stderr === 'string' ? v.stderr : '';
    output = stderr ? `${v.stdout}\n${stderr}` : v.stdout;
  } else if (typeof v.output === 'string') {
    output = v.output;
    if (errText && !output.includes(errText)) output = output ? `${output}\n${errText}` : errText;
  }
  const out: ToolOutcome = { output, isError };
  if (exitCode !== undefined) out.exitCode = exitCode;
  if (rejected) out.rejected = true;
  return out;
}

/**
 * Appends the events of one message. Returns false when the record is not a chat message (no
 * known role), so the caller can warn with its line.
 */
export function pushChatMessage(state: ChatState, msg: Record<string, unknown>, source: SourceRef): boolean {
  const role = msg.role;
  const time = str(msg.timestamp);
  const base = time === undefined ? { source } : { source, time };
  const events = state.events;
  switch (role) {
    case 'system':
    case 'developer':
      pushText(events, 'system', contentText(msg.content), injectedBase(base));
      return true;
    case 'user': {
      const { blocks: results, rest } = splitBlocks(msg.content, 'tool_result');
      for (const r of results) {
        const o = toolOutcome(contentText(r.content));
        if (r.is_error === true) o.isError = true;
        pushResult(state, base, str(r.tool_use_id), undefined, o);
      }
      const text = contentText(rest);
      if (results.length > 0 && text.trim() === '') return true;
      if (COMPACTION.test(text)) pushText(events, 'summary', text, injectedBase(base));
      else pushText(events, 'user', text, INJECTED_USER.test(text) ? injectedBase(base) : base);
      return true;
    }
    case 'assistant': {
      const model = str(msg.model) ?? state.defaultModel;
      state.models.add(model);
      const reasoning = str(msg.reasoning) || str(msg.reasoning_content);
      if (reasoning) pushText(events, 'reasoning', reasoning, base);
      const { blocks: uses, rest } = splitBlocks(msg.content, 'tool_use');
      const { blocks: thinking, rest: said } = splitBlocks(rest, 'thinking');
      for (const t of thinking) if (str(t.thinking)) pushText(events, 'reasoning', str(t.thinking)!, base);
      const text = contentText(said);
      if (COMPACTION.test(text)) pushText(events, 'summary', text, injectedBase(base));
      else pushText(events, 'assistant', text, base, model);
      for (const u of uses) pushCall(state, base, str(u.name) ?? 'unknown', parseArguments(u.input), str(u.id));
      const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
      for (const tc of calls) {
        if (!isRecord(tc)) continue;
        const fn = isRecord(tc.function) ? tc.function : tc;
        const name = str(fn.name) ?? 'unknown';
        const callId = str(tc.id) ?? str(tc.call_id);
        pushCall(state, base, name, parseArguments(fn.arguments ?? fn.input), callId);
      }
      // the pre-tools API shape: one function_call on the message
      if (calls.length === 0 && isRecord(msg.function_call)) {
        const name = str(msg.function_call.name) ?? 'unknown';
        const input = parseArguments(msg.function_call.arguments);
        const command = commandOf(input);
        pushCallOn(events, base, name, input, undefined, command);
      }
      return true;
    }
    case 'tool':
    case 'function':
      pushResult(state, base, str(msg.tool_call_id), str(msg.name), toolOutcome(contentText(msg.content)));
      return true;
    default:
      return false;
  }
}
