/**
 * Requests: a session's view cut at event boundaries into parts that fit `max_input_tokens`
 * (with a small overlap, so a failure and its fix on either side of a cut stay together), each
 * with the session's header, the known items most relevant to it and, for later parts, the
 * titles already extracted. The request id hashes everything the model reads.
 */
import { createHash } from 'node:crypto';
import type { Session } from '../../sessions/model.js';
import type { KnownItem } from './known.js';
import type { ViewEvent } from './view.js';

/** Events repeated from the end of one part at the start of the next. */
export const OVERLAP_EVENTS = 3;
/** Tokens kept free for the header, the known items and the titles of earlier parts. */
export const HEADER_RESERVE = 1500;

export interface Chunk {
  /** Positions in the view's events: [start, end). */
  start: number;
  end: number;
}

/**
 * Cuts `tokens` (one count per shown event) into parts of at most `budget` tokens each, with
 * OVERLAP_EVENTS events of overlap. Pure; an event bigger than the budget is a part of its own.
 * Greedy from the start, so a session that grew keeps the cuts it had (its old parts are not
 * sent again: see the harvest's `from`).
 */
export function chunkEvents(tokens: readonly number[], budget: number): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < tokens.length) {
    let end = start;
    let sum = 0;
    while (end < tokens.length && (end === start || sum + tokens[end]! <= budget)) sum += tokens[end++]!;
    chunks.push({ start, end });
    if (end >= tokens.length) break;
    // the next part starts a little before this one ended, but always moves on
    const next = end - OVERLAP_EVENTS;
    start = next > start ? next : end;
  }
  return chunks;
}

/** Splits a part in two halves (for an answer cut off by the output limit). */
export function halves(chunk: Chunk): [Chunk, Chunk] | undefined {
  if (chunk.end - chunk.start < 2) return undefined;
  const mid = chunk.start + Math.ceil((chunk.end - chunk.start) / 2);
  return [
    { start: chunk.start, end: mid },
    { start: Math.max(chunk.start + 1, mid - 1), end: chunk.end },
  ];
}

export interface RequestInput {
  session: Session;
  events: readonly ViewEvent[];
  chunk: Chunk;
  part: number;
  parts: number;
  known: readonly KnownItem[];
  /** Titles written from earlier parts of this session. */
  earlier: readonly string[];
}

/** The user message: who and where, what is known, then the events. */
export function requestText(input: RequestInput): string {
  const { session, events, chunk, part, parts, known, earlier } = input;
  const first = events[chunk.start]!.index;
  const last = events[chunk.end - 1]!.index;
  const where = [`agent ${session.agent}`, session.repo ? `repository ${session.repo}` : 'repository unknown', session.branch ? `branch ${session.branch}` : ''].filter(Boolean).join(', ');
  const lines = [`Session: ${where}.`, parts > 1 ? `Part ${part} of ${parts}: events E${first} to E${last}.` : `Events E${first} to E${last}.`];
  if (earlier.length > 0) {
    lines.push('', 'Already extracted from earlier parts of this session (do not write these again):');
    for (const t of earlier) lines.push(`- ${t}`);
  }
  if (known.length > 0) {
    lines.push('', 'Known items of the team (answer {"same_as": "<id>", ...} when this session shows one again):');
    for (const k of known) lines.push(`- ${k.id} [${k.category}, ${k.scope === 'repo' ? `repo ${k.repo ?? ''}` : k.scope === 'agent' ? `agent ${k.agent ?? ''}` : 'global'}] ${k.title}`);
  }
  lines.push('', 'Transcript:');
  for (let i = chunk.start; i < chunk.end; i++) lines.push(events[i]!.text);
  return `${lines.join('\n')}\n`;
}

/** The id of a request (its cache key and batch custom_id): what the model reads, and which model. */
export function requestId(model: string, system: string, user: string): string {
  return createHash('sha256').update(model).update('\u0000').update(system).update('\u0000').update(user).digest('hex').slice(0, 32);
}
