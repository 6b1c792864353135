/**
 * Shared helpers for readers that build `Session.events`: they assign `index`, and split any
 * `compound:bootstrap` block out of a text into its own BootstrapEvent (injected, with its ids)
 * so that what the bootstrapper gave an agent is never harvested again as if the agent found it.
 */
import { splitBootstrapBlocks } from './bootstrap-markers.js';
import { copyOf } from './jsonl.js';
import type { SessionEvent, SourceRef, ToolCallEvent, ToolResultEvent } from './model.js';

/** Fields every event may carry; `index` is assigned by the helpers. */
export interface EventBaseInput {
  time?: string;
  source: SourceRef;
  injected?: boolean;
  sidechain?: boolean;
}

/** Kinds of events that carry plain text. */
export type TextKind = 'user' | 'assistant' | 'reasoning' | 'summary' | 'system';

/** Distributes Omit over the union so each member keeps its own fields. */
type WithoutIndex<T> = T extends unknown ? Omit<T, 'index'> : never;
export type NewEvent = WithoutIndex<SessionEvent>;

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

/** Appends an event, assigning its `index`. Returns the stored event. */
export function pushEvent<E extends NewEvent>(events: SessionEvent[], event: E): E & { index: number } {
  // index first, so JSON output reads naturally and keys keep a stable order. Object.assign
  // rather than `{ index, ...event }`: in Node 20's V8 that spread takes a slow runtime path
  // (about 1 µs per event; see copyOf in jsonl.ts), Object.assign copies the same keys fast.
  const stored = Object.assign({ index: events.length }, event) as E & { index: number };
  events.push(stored as unknown as SessionEvent);
  return stored;
}

/** A new event record: `index`, then the base fields of `base` that are set (the key order
 * every event had when it was built as `{ index, ...cleanBase(base), kind, ... }`). Callers add
 * `kind` and the rest by assignment, which stays on V8's fast path, unlike spreads. */
function startEvent(events: SessionEvent[], base: EventBaseInput, injected: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { index: events.length, source: base.source };
  if (base.time !== undefined) out.time = base.time;
  if (injected) out.injected = true;
  if (base.sidechain) out.sidechain = true;
  return out;
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
    // was `{ ...cleanBase(base), injected: true, ... }`: `injected` keeps its place when the base
    // had it, and otherwise comes after `sidechain`
    const e = startEvent(events, base, Boolean(base.injected));
    e.injected = true;
    e.kind = 'bootstrap';
    e.itemIds = block.itemIds;
    e.text = block.text;
    events.push(e as unknown as SessionEvent);
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
  const e = startEvent(events, base, Boolean(base.injected));
  e.kind = kind;
  e.text = hadBlocks ? rest.trim() : rest;
  if (kind === 'assistant' && model) e.model = model;
  events.push(e as unknown as SessionEvent);
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
  const call = copyOf(base) as Omit<ToolCallEvent, 'index' | 'kind'>;
  if (callId) call.callId = callId;
  call.name = name;
  call.input = input;
  if (command !== undefined) call.command = command;
  return pushToolCall(events, call);
}

/** Appends a tool call. */
export function pushToolCall(
  events: SessionEvent[],
  call: Omit<ToolCallEvent, 'index' | 'kind'>,
): ToolCallEvent {
  // the keys of `{ index, ...call, kind }`, built without spreads (see pushEvent)
  const stored = Object.assign({ index: events.length }, call) as ToolCallEvent;
  stored.kind = 'tool_call';
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
  // the keys of `{ index, ...result, output, kind }`, built without spreads (see pushEvent)
  const stored = Object.assign({ index: events.length }, result) as ToolResultEvent;
  stored.output = output;
  stored.kind = 'tool_result';
  events.push(stored);
  return stored;
}
