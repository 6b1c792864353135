/**
 * Shared helpers for readers that build `Session.events`: they assign `index`, and split any
 * `compound:bootstrap` block out of a text into its own BootstrapEvent (injected, with its ids)
 * so that what the bootstrapper gave an agent is never harvested again as if the agent found it.
 */
import { splitBootstrapBlocks } from './bootstrap-markers.js';
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

/** Cheap pre-check so the regex in splitBootstrapBlocks only runs on texts that may hold a block. */
export function hasBootstrapMarker(text: string): boolean {
  return text.includes('compound:bootstrap');
}

/** Appends an event, assigning its `index`. Returns the stored event. */
export function pushEvent<E extends NewEvent>(events: SessionEvent[], event: E): E & { index: number } {
  // index first, so JSON output reads naturally and keys keep a stable order
  const stored = { index: events.length, ...event } as E & { index: number };
  events.push(stored as unknown as SessionEvent);
  return stored;
}

function cleanBase(base: EventBaseInput): EventBaseInput {
  const out: EventBaseInput = { source: base.source };
  if (base.time !== undefined) out.time = base.time;
  if (base.injected) out.injected = true;
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
  const b = cleanBase(base);
  for (const block of blocks) {
    pushEvent(events, { ...b, injected: true, kind: 'bootstrap', itemIds: block.itemIds, text: block.text });
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
  const body = hadBlocks ? rest.trim() : rest;
  const b = cleanBase(base);
  if (kind === 'assistant') {
    pushEvent(events, model ? { ...b, kind, text: body, model } : { ...b, kind, text: body });
  } else {
    pushEvent(events, { ...b, kind, text: body });
  }
  return events.length - before;
}

/** Appends a tool call. */
export function pushToolCall(
  events: SessionEvent[],
  call: Omit<ToolCallEvent, 'index' | 'kind'>,
): ToolCallEvent {
  return pushEvent(events, { ...call, kind: 'tool_call' });
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
  return pushEvent(events, { ...result, output, kind: 'tool_result' });
}
