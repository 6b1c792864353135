/**
 * What the harvest takes from one transcript file's sessions: redacted candidates and ledger
 * entries. It depends only on the ledger as it was before the run, never on other files of the
 * run, so the main thread and the harvest workers run the same code and get the same result.
 */
import { statSync } from 'node:fs';
import type { ReadWarning, Session } from '../sessions/model.js';
import type { LedgerSession } from '../knowledge/ledger.js';
import { redact } from '../redact/index.js';
import type { Candidate } from './candidate.js';
import type { OriginCandidate } from './merge.js';
import { redactCandidate, usersFromPath, usersShownIn, type RedactionStats } from './redact-candidate.js';
import { resolveRepo } from './repo-name.js';
import { quarantineReason } from './quarantine.js';

/** What an extractor may want to know of a session besides its events. */
export interface ExtractInfo {
  /** Events harvested before (a session that grew): evidence before this is dropped anyway. */
  from: number;
  /** Account names redaction removes from this session's text. */
  users: readonly string[];
  /** The session id as the ledger writes it (redacted). */
  label: string;
}

export type ExtractFn = (session: Session, info: ExtractInfo) => Candidate[];

/** Thrown by an extractor for a session it could not finish (a model request failed, the cost
 * cap was reached): the session gets no ledger entry, nor does its file, so the next run reads
 * it again. */
export class SessionPending extends Error {
  constructor() {
    super('session pending');
  }
}

/** Everything per-session harvesting needs besides the sessions (plain data: workers get a copy). */
export interface SessionContext {
  /** Events already harvested per session id, from the ledger before this run. */
  eventsSeen: Map<string, number>;
  repoAliases: Record<string, string>;
  /** Repo for sessions whose transcript records none. */
  repo?: string;
  redactUsers: readonly string[];
  /** Lines longer than this are skipped with a warning (the readers' default when unset). */
  maxLineBytes?: number;
}

export interface FileHarvest {
  sessions: number;
  sessionsSkipped: number;
  redactions: number;
  /** Redacted, in session then evidence order. */
  candidates: OriginCandidate[];
  ledger: LedgerSession[];
  /** Warnings about the sessions themselves (a session with no timestamps). */
  warnings?: ReadWarning[];
  /** Sessions the extractor left for the next run (see SessionPending). */
  pending?: number;
}

/** Scrubbed id: transcript ids are UUIDs, but derived ones must not carry a user name. */
function safeSessionId(id: string, users: readonly string[]): string {
  return redact(id, { users }).text;
}

/** When the evidence was seen: its event's time, else the session's; `undefined` when the
 * transcript records no time at all (Aider, some exports). */
function eventTime(session: Session, index: number): string | undefined {
  return session.events[index]?.time ?? session.startedAt ?? session.endedAt;
}

/** The transcript file's modification time (to the second), for sessions that record none:
 * never a 1970 date. */
function fileTime(file: string): string {
  try {
    return new Date(Math.floor(statSync(file).mtimeMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  } catch {
    return new Date(0).toISOString().replace('.000Z', 'Z');
  }
}

/** Harvests the sessions of one file (`hash`: the file's content hash, '' when unknown). */
export function harvestFileSessions(file: string, sessions: readonly Session[], hash: string, ctx: SessionContext, extract: ExtractFn): FileHarvest {
  const out: FileHarvest = { sessions: 0, sessionsSkipped: 0, redactions: 0, candidates: [], ledger: [] };
  const redaction: RedactionStats = { findings: 0 };
  for (const session of sessions) {
    out.sessions++;
    const users = [...ctx.redactUsers, ...usersFromPath(session.cwd), ...usersFromPath(file), ...usersShownIn(session)];
    const id = safeSessionId(session.id, users);
    const seen = ctx.eventsSeen.get(id);
    const from = seen ?? 0;
    if (seen !== undefined && seen >= session.events.length) {
      out.sessionsSkipped++; // already harvested, perhaps from another file
      continue;
    }
    const repo = resolveRepo(session, file, { aliases: ctx.repoAliases, users, ...(ctx.repo ? { fallback: ctx.repo } : {}) }).repo;
    // the repo the resolver decided, or none (a generic or home folder names no repo)
    const scoped = { ...session, repo } as Session;
    let drafts: Candidate[];
    try {
      drafts = extract(scoped, { from, users, label: id });
    } catch (err) {
      if (!(err instanceof SessionPending)) throw err;
      out.pending = (out.pending ?? 0) + 1;
      continue;
    }
    for (const raw of drafts) {
      if (raw.evidence.event < from) continue; // grown session: new events only
      const redacted = redactCandidate(raw.scope === 'repo' && !raw.repo && repo ? { ...raw, repo } : raw, users, redaction);
      // the reason names a tool or a path of the raw session: redacted like the rest
      const why = quarantineReason(redacted, session);
      const c = why ? { ...redacted, quarantine: redact(why, { users }).text } : redacted;
      if (c.scope === 'repo' && !c.repo) continue; // a repo item needs its repo
      let seen = eventTime(session, c.evidence.event);
      if (seen === undefined) {
        seen = fileTime(file);
        if (!(out.warnings ??= []).some((w) => w.message.includes(id))) {
          out.warnings.push({ file, message: `session ${id} records no timestamps: its items are dated by the file's modification time (${seen})` });
        }
      }
      out.candidates.push({ candidate: c, origin: { session: id, format: session.format, seen } });
    }
    out.ledger.push({ id, format: session.format, hash, bytes: session.bytes, events: session.events.length, ...(session.endedAt ? { last_event: session.endedAt } : {}) });
  }
  out.redactions = redaction.findings;
  return out;
}
