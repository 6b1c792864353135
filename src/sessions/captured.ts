/**
 * The captured-session format (version 1): what `compound capture` writes on a developer's machine
 * so that raw transcripts never leave it. JSON lines: a header
 *   {"compound_session":1,"id":…,"format":<the source format>,"agent":…,"repo"?,"remoteRepo"?,
 *    "branch"?,"sandboxed"?,"declaredShell"?,"agentVersion"?,"models":[…],"startedAt"?,"endedAt"?,"subagent"?,
 *    "parentId"?,"parentEditsAfter"?,"aiderLaunches"?}
 * (`parentEditsAfter`: for a subagent, the base names of the files its parent session edited
 * after it ended, read on the machine where the parent transcript is; `aiderLaunches`: for an
 * aider launch, {at, all:[{model?, outcome, missingTracked?, committed?, editFormat?, edits?}]}, every launch of its chat history and its place)
 * then one line per normalized event, every text redacted whole and then shortened (a tool output
 * keeps a head and a tail): {"k":kind,"t"?:time,"i"?:injected,"sc"?:sidechain, and the kind's
 * fields: text/model, or name/input/command/callId, or output/isError/exitCode/cascade/rejected/
 * truncated/endTime/callId/name, or itemIds/text}. The working directory is not written (the repo is, as
 * the resolver decided it where the session ran). `harvest` reads it like any transcript.
 */
import type { Session, SessionEvent } from './model.js';

export const CAPTURED_VERSION = 1;
/** Characters of a tool output kept: a head and a tail (the command and its final error). */
const OUTPUT_HEAD = 4000;
const OUTPUT_TAIL = 3000;

type Redact = (text: string) => string;

function shorten(text: string): string {
  if (text.length <= OUTPUT_HEAD + OUTPUT_TAIL + 100) return text;
  return `${text.slice(0, OUTPUT_HEAD)}\n[... ${text.length - OUTPUT_HEAD - OUTPUT_TAIL} characters cut by compound capture ...]\n${text.slice(-OUTPUT_TAIL)}`;
}

/** Every string inside a tool input, redacted (keys and structure kept). */
function redactValue(value: unknown, r: Redact): unknown {
  if (typeof value === 'string') return shorten(r(value));
  if (Array.isArray(value)) return value.map((v) => redactValue(v, r));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, r)]));
  return value;
}

function eventLine(e: SessionEvent, r: Redact): Record<string, unknown> {
  const base: Record<string, unknown> = { k: e.kind };
  if (e.time !== undefined) base.t = e.time;
  if (e.injected) base.i = true;
  if (e.sidechain) base.sc = true;
  switch (e.kind) {
    case 'tool_call':
      return { ...base, name: e.name, input: redactValue(e.input, r), ...(e.command !== undefined ? { command: shorten(r(e.command)) } : {}), ...(e.callId !== undefined ? { callId: e.callId } : {}) };
    case 'tool_result':
      return {
        ...base,
        output: shorten(r(e.output)),
        isError: e.isError,
        ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
        ...(e.cascade ? { cascade: true } : {}),
        ...(e.rejected ? { rejected: true } : {}),
        ...(e.truncated ? { truncated: true } : {}),
        ...(e.endTime !== undefined ? { endTime: e.endTime } : {}),
        ...(e.callId !== undefined ? { callId: e.callId } : {}),
        ...(e.name !== undefined ? { name: e.name } : {}),
      };
    case 'bootstrap':
      return { ...base, itemIds: e.itemIds, text: r(e.text) };
    case 'assistant':
      return { ...base, text: shorten(r(e.text)), ...(e.model !== undefined ? { model: e.model } : {}) };
    default:
      return { ...base, text: shorten(r(e.text)) };
  }
}

/** The captured file of a session (`repo`: as the resolver decided it on this machine). */
export function renderCaptured(session: Session, repo: string | undefined, r: Redact): string {
  const header: Record<string, unknown> = { compound_session: CAPTURED_VERSION, id: r(session.id), format: session.format, agent: session.agent };
  if (session.subagent) header.subagent = session.subagent;
  if (session.parentId) header.parentId = r(session.parentId);
  if (session.parentEditsAfter?.length) header.parentEditsAfter = session.parentEditsAfter.map(r);
  if (session.aiderLaunches) header.aiderLaunches = { at: session.aiderLaunches.at, all: session.aiderLaunches.all.map((l) => ({ ...(l.model ? { model: r(l.model) } : {}), outcome: l.outcome, ...(l.missingTracked ? { missingTracked: true } : {}), ...(l.committed ? { committed: true } : {}), ...(l.editFormat ? { editFormat: r(l.editFormat) } : {}), ...(l.edits ? { edits: { applied: l.edits.applied, rejected: l.edits.rejected } } : {}) })) };
  if (repo) header.repo = repo;
  if (session.branch) header.branch = r(session.branch);
  // (what the agent's environment was: the rules say of a sandbox or a declared shell what they
  // would say of the raw transcript)
  if (session.sandboxed !== undefined) header.sandboxed = session.sandboxed;
  if (session.declaredShell) header.declaredShell = r(session.declaredShell);
  if (session.agentVersion) header.agentVersion = r(session.agentVersion);
  header.models = session.models;
  if (session.startedAt) header.startedAt = session.startedAt;
  if (session.endedAt) header.endedAt = session.endedAt;
  return `${[header, ...session.events.map((e) => eventLine(e, r))].map((l) => JSON.stringify(l)).join('\n')}\n`;
}
