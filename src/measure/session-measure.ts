/**
 * What the measurer keeps of one session: a few counts, the hashed signatures of its tool
 * errors, and what it was given and whether it used it. Small enough to cache for 20,000
 * sessions, free of transcript text (hashes only), and a pure function of the session and the
 * key terms of the items it was given.
 */
import { createHash } from 'node:crypto';
import type { Session, SessionEvent } from '../sessions/model.js';
import { identifyRepo, witnessOf } from '../sessions/repo-identity.js';
import { localGitProbe } from '../sessions/git-config.js';
import { signaturesInOutput } from './signature.js';
import { toMs } from './time.js';

/** The verdict on one item a session was given. */
export interface GivenItem {
  id: string;
  /** Fingerprint of the item's key terms the verdict was made with ('missing' when the item
   * was not in the store): a different fingerprint means the session is measured again. */
  fp: string;
  used: boolean;
}

export interface SessionMeasure {
  /** Hash of the session id (ids derived from paths can hold user names). */
  key: string;
  format: string;
  agent: string;
  /** Repository as the transcript names it; aliases are applied when metrics are computed. */
  repo?: string;
  /** First and last timestamps of the session (epoch ms, from the transcript). */
  start?: number;
  end?: number;
  subagent?: boolean;
  events: number;
  calls: number;
  /** Failing tool results (not cascades, not calls the user rejected). */
  errors: number;
  /** Error signature hash -> failing tool results that show it. */
  sigs?: Record<string, number>;
  /** The same, counted only after the first bootstrap block (sessions that were given one). */
  sigsAfter?: Record<string, number>;
  /** Items named in the session's bootstrap markers, in first-seen order. */
  given?: GivenItem[];
}

/** What measuring needs to know about an item a session was given. */
export interface ItemProbe {
  terms: readonly string[];
  fp: string;
}

export type ProbeLookup = (id: string) => ItemProbe | undefined;

export const MISSING_FP = 'missing';

/** Caps on how much of a session's later text the "used" test searches. */
const MAX_PIECE = 4_000;
const MAX_HAYSTACK = 2_000_000;

export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 16);
}

function sortedRecord(map: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of [...map.keys()].sort()) out[k] = map.get(k)!;
  return out;
}

function stringsOf(value: unknown, out: string[], depth = 0): void {
  if (depth > 4) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out, depth + 1);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out, depth + 1);
}

/** Text the agent produced after the bootstrap: tool-call commands and inputs, its own words. */
function laterText(events: readonly SessionEvent[], after: number): string {
  const pieces: string[] = [];
  let size = 0;
  for (const e of events) {
    if (e.index <= after || size > MAX_HAYSTACK) continue;
    let text = '';
    if (e.kind === 'tool_call') {
      const parts: string[] = e.command ? [e.command] : [];
      stringsOf(e.input, parts);
      text = parts.join('\n');
    } else if (e.kind === 'assistant' && !e.injected) {
      text = e.text;
    }
    if (text === '') continue;
    const piece = text.length > MAX_PIECE ? text.slice(0, MAX_PIECE) : text;
    pieces.push(piece.toLowerCase());
    size += piece.length;
  }
  return pieces.join('\n');
}

function firstTime(session: Session): string | undefined {
  if (session.startedAt) return session.startedAt;
  for (const e of session.events) if (e.time) return e.time;
  return session.endedAt;
}

function lastTime(session: Session): string | undefined {
  if (session.endedAt) return session.endedAt;
  for (let i = session.events.length - 1; i >= 0; i--) if (session.events[i]!.time) return session.events[i]!.time;
  return undefined;
}

export function measureSession(session: Session, probe: ProbeLookup): SessionMeasure {
  let calls = 0;
  let errors = 0;
  let bootstrapAt = -1;
  const givenIds: string[] = [];
  const sigs = new Map<string, number>();
  const sigsAfter = new Map<string, number>();
  for (const e of session.events) {
    if (e.kind === 'tool_call') calls++;
    else if (e.kind === 'bootstrap') {
      if (bootstrapAt < 0) bootstrapAt = e.index;
      for (const id of e.itemIds) if (!givenIds.includes(id)) givenIds.push(id);
    } else if (e.kind === 'tool_result' && e.isError && !e.cascade && !e.rejected) {
      errors++;
      for (const sig of signaturesInOutput(e.output)) {
        sigs.set(sig, (sigs.get(sig) ?? 0) + 1);
        if (bootstrapAt >= 0) sigsAfter.set(sig, (sigsAfter.get(sig) ?? 0) + 1);
      }
    }
  }
  const m: SessionMeasure = { key: sessionKey(session.id), format: session.format, agent: session.agent, events: session.events.length, calls, errors };
  // the repository as the harvest decides it (aliases are applied later, to the name found)
  const repo = identifyRepo(witnessOf(session), { aliases: {}, users: [], probe: localGitProbe }).repo;
  if (repo) m.repo = repo;
  const start = toMs(firstTime(session));
  const end = toMs(lastTime(session));
  if (start !== undefined) m.start = start;
  if (end !== undefined) m.end = end;
  if (session.parentId) m.subagent = true;
  if (sigs.size > 0) m.sigs = sortedRecord(sigs);
  if (givenIds.length > 0) {
    if (sigsAfter.size > 0) m.sigsAfter = sortedRecord(sigsAfter);
    const haystack = laterText(session.events, bootstrapAt);
    m.given = givenIds.map((id) => {
      const p = probe(id);
      if (!p) return { id, fp: MISSING_FP, used: false };
      return { id, fp: p.fp, used: p.terms.some((t) => haystack.includes(t)) };
    });
  }
  return m;
}

/** True when every verdict in a cached measure was made with the items as they are now. */
export function verdictsCurrent(m: SessionMeasure, probe: ProbeLookup): boolean {
  for (const g of m.given ?? []) if ((probe(g.id)?.fp ?? MISSING_FP) !== g.fp) return false;
  return true;
}
