/**
 * Shared helpers for readers that build `Session.events`: they assign `index` (an event's
 * position), give every event of a kind the same keys (see textEvent), and split any
 * `compound:bootstrap` block out of a text into its own BootstrapEvent (injected, with its ids)
 * so that what the bootstrapper gave an agent is never harvested again as if the agent found it.
 */
import { splitBootstrapBlocks } from './bootstrap-markers.js';
import type { BootstrapEvent, SessionEvent, SourceRef, ToolCallEvent, ToolResultEvent } from './model.js';

/** Fields every event may carry; `index` is assigned by the helpers. */
export interface EventBaseInput {
  time?: string;
  source: SourceRef;
  injected?: boolean;
  sidechain?: boolean;
}

/** Kinds of events that carry plain text. */
export type TextKind = 'user' | 'assistant' | 'reasoning' | 'summary' | 'system';

const MARKER = 'compound:bootstrap';
/** Where "bootstrap" is in MARKER. */
const TAIL = MARKER.indexOf('bootstrap');

/** Cheap pre-check so the regex in splitBootstrapBlocks only runs on texts that may hold a block.
 * `text.includes(MARKER)`, every text of every session pays for it: the search for "bootstrap"
 * then a look at what precedes it was a quarter faster over the corpus's Claude Code and Aider
 * lines (a search starts at the first character, and "c" is common in text). */
export function hasBootstrapMarker(text: string): boolean {
  for (let i = text.indexOf('bootstrap', TAIL); i !== -1; i = text.indexOf('bootstrap', i + 1)) {
    if (text.startsWith(MARKER, i - TAIL)) return true;
  }
  return false;
}

/**
 * Every event of one kind is built with the same keys in the same order, the absent ones
 * undefined (JSON.stringify leaves them out): V8 then gives all events of a kind one hidden
 * class. Built with only the keys each had, text events alone came in eight shapes, tool calls
 * and results in dozens more (which keys a reader sets), and every function of the extractor
 * that reads events met a new shape with each format and each new combination of keys: its
 * optimized code was thrown away ("wrong map") and compiled again, several times per function.
 */
function textEvent(
  index: number,
  base: EventBaseInput,
  injected: boolean,
  kind: TextKind,
  text: string,
  model: string | undefined,
): SessionEvent {
  return {
    index,
    source: base.source,
    time: base.time,
    injected: injected ? true : undefined,
    sidechain: base.sidechain ? true : undefined,
    kind,
    text,
    model,
  } as SessionEvent;
}

/**
 * Pushes one BootstrapEvent per marker block found in `text` and returns the text outside the
 * blocks (the original string when there is no marker). Use it for tool output and other text
 * that is not pushed through pushText.
 */
export function splitOffBootstrap(events: SessionEvent[], text: string, base: EventBaseInput): string {
  if (!hasBootstrapMarker(text)) return text;
  const { rest, blocks } = splitBootstrapBlocks(text);
  if (blocks.length === 0) return text;
  for (const block of blocks) {
    const e: BootstrapEvent = {
      index: events.length,
      source: base.source,
      time: base.time,
      injected: true,
      sidechain: base.sidechain ? true : undefined,
      kind: 'bootstrap',
      itemIds: block.itemIds,
      text: block.text,
    };
    events.push(e);
  }
  return rest;
}

/**
 * Appends a text event of `kind`, first splitting off any bootstrap blocks. Text that is empty
 * (or only whitespace once the blocks are removed) adds no text event. `model` applies to
 * assistant events only. Returns the number of events added.
 */
export function pushText(
  events: SessionEvent[],
  kind: TextKind,
  text: string,
  base: EventBaseInput,
  model?: string,
): number {
  const before = events.length;
  const rest = splitOffBootstrap(events, text, base);
  const hadBlocks = events.length > before;
  if (hadBlocks ? rest.trim() === '' : rest === '') return events.length - before;
  const shown = hadBlocks ? rest.trim() : rest;
  events.push(textEvent(events.length, base, Boolean(base.injected), kind, shown, kind === 'assistant' && model ? model : undefined));
  return events.length - before;
}

/**
 * Appends a tool call on `base`, its keys in the order `{ ...base, callId?, name, input, command? }`
 * gives (built without the spread, see copyOf).
 */
export function pushCallOn(
  events: SessionEvent[],
  base: EventBaseInput,
  name: string,
  input: Record<string, unknown>,
  callId?: string,
  command?: string,
): ToolCallEvent {
  return pushToolCall(events, {
    source: base.source,
    time: base.time,
    injected: base.injected,
    sidechain: base.sidechain,
    callId: callId ? callId : undefined,
    name,
    input,
    command,
  });
}

/** Appends a tool call. */
export function pushToolCall(
  events: SessionEvent[],
  call: Omit<ToolCallEvent, 'index' | 'kind'>,
): ToolCallEvent {
  const stored: ToolCallEvent = {
    index: events.length,
    source: call.source,
    time: call.time,
    injected: call.injected,
    sidechain: call.sidechain,
    callId: call.callId,
    name: call.name,
    input: call.input,
    command: call.command,
    kind: 'tool_call',
  };
  events.push(stored);
  return stored;
}

/**
 * Appends a tool result, first splitting off bootstrap blocks from its output (hook and command
 * output can carry them). The result event is always added, even when its output is empty.
 */
export function pushToolResult(
  events: SessionEvent[],
  result: Omit<ToolResultEvent, 'index' | 'kind'>,
): ToolResultEvent {
  const output = splitOffBootstrap(events, result.output, result);
  const stored: ToolResultEvent = {
    index: events.length,
    source: result.source,
    time: result.time,
    injected: result.injected,
    sidechain: result.sidechain,
    callId: result.callId,
    name: result.name,
    output,
    isError: result.isError,
    exitCode: result.exitCode,
    cascade: result.cascade,
    rejected: result.rejected,
    truncated: result.truncated,
    endTime: result.endTime,
    kind: 'tool_result',
  };
  events.push(stored);
  return stored;
}
