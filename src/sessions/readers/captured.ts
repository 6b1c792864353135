/**
 * Captured sessions (sessions/captured.ts): the redacted files `compound capture` delivers to the
 * inbox. One session per file; the events come back as they were captured (each file line is the
 * evidence line of its event); the session keeps its source format and agent.
 */
import { forEachLine, type Preloaded } from '../lines.js';
import type { AiderLaunch, AiderLaunches, Session, SessionEvent, SessionFormat } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import { errorMessage, fileSize, isRecord, lineOptionsFor, makeSession, str, warnLineQuality, Warnings } from './common.js';
import { pushText, pushToolCall, pushToolResult, type TextKind } from '../events.js';

const TEXT_KINDS = new Set(['user', 'assistant', 'reasoning', 'summary', 'system']);

function detect(head: string): number {
  return head.startsWith('{"compound_session":') ? 1 : 0;
}

async function read(file: string, options: ReadOptions & Preloaded = {}): Promise<Session[]> {
  const warnings = new Warnings(file, options);
  const events: SessionEvent[] = [];
  let header: Record<string, unknown> | undefined;
  const lineOptions = lineOptionsFor(options);
  await forEachLine(file, lineOptions, (line) => {
    warnLineQuality(warnings, line, 'skipped');
    if (line.truncated || line.text.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line.text);
    } catch (err) {
      warnings.add(line.lineNo, `invalid JSON (${errorMessage(err)}); line skipped`);
      return;
    }
    if (!isRecord(v)) return;
    if (!header) {
      if (v.compound_session !== 1) {
        warnings.add(line.lineNo, `captured session version ${String(v.compound_session)} is not one this compound reads (1); file skipped`);
        return;
      }
      header = v;
      return;
    }
    const base = { source: { file, line: line.lineNo, offset: line.offset }, ...(str(v.t) ? { time: str(v.t)! } : {}), ...(v.i === true ? { injected: true } : {}), ...(v.sc === true ? { sidechain: true } : {}) };
    const kind = str(v.k);
    if (kind && TEXT_KINDS.has(kind)) pushText(events, kind as TextKind, str(v.text) ?? '', base, str(v.model));
    else if (kind === 'tool_call') pushToolCall(events, { ...base, time: base.time, injected: base.injected, sidechain: base.sidechain, name: str(v.name) ?? 'tool', input: isRecord(v.input) ? v.input : {}, callId: str(v.callId), command: str(v.command) });
    else if (kind === 'tool_result')
      pushToolResult(events, {
        ...base,
        time: base.time,
        injected: base.injected,
        sidechain: base.sidechain,
        output: str(v.output) ?? '',
        isError: v.isError === true,
        exitCode: typeof v.exitCode === 'number' ? v.exitCode : undefined,
        cascade: v.cascade === true ? true : undefined,
        rejected: v.rejected === true ? true : undefined,
        truncated: v.truncated === true ? true : undefined,
        endTime: str(v.endTime),
        callId: str(v.callId),
        name: str(v.name),
      });
    else if (kind === 'bootstrap') events.push({ index: events.length, ...base, injected: true, kind: 'bootstrap', itemIds: Array.isArray(v.itemIds) ? v.itemIds.filter((x): x is string => typeof x === 'string') : [], text: str(v.text) ?? '' });
    else warnings.add(line.lineNo, `unknown event kind ${JSON.stringify(kind)}; line skipped`);
  });
  if (!header) return [];
  return [
    makeSession({
      id: str(header.id) ?? file,
      format: (str(header.format) ?? 'captured') as SessionFormat,
      agent: str(header.agent) ?? 'unknown',
      subagent: str(header.subagent),
      parentId: str(header.parentId),
      parentEditsAfter: Array.isArray(header.parentEditsAfter) ? header.parentEditsAfter.filter((f): f is string => typeof f === 'string') : undefined,
      aiderLaunches: aiderLaunchesOf(header.aiderLaunches),
      repo: str(header.repo),
      branch: str(header.branch),
      sandboxed: typeof header.sandboxed === 'boolean' ? header.sandboxed : undefined,
      declaredShell: str(header.declaredShell),
      agentVersion: str(header.agentVersion),
      models: Array.isArray(header.models) ? header.models.filter((m): m is string => typeof m === 'string') : [],
      startedAt: str(header.startedAt),
      endedAt: str(header.endedAt),
      file,
      bytes: await fileSize(file, options.content),
      events,
      warnings: warnings.list,
    }),
  ];
}

/** The launches of an aider history as a captured header carries them; anything malformed is none. */
function aiderLaunchesOf(v: unknown): AiderLaunches | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { at, all } = v as { at?: unknown; all?: unknown };
  if (typeof at !== 'number' || !Number.isInteger(at) || !Array.isArray(all) || at < 0 || at >= all.length) return undefined;
  const launches: AiderLaunch[] = [];
  for (const l of all) {
    const { model, outcome, missingTracked, committed, editFormat, edits } = (typeof l === 'object' && l !== null ? l : {}) as { model?: unknown; outcome?: unknown; missingTracked?: unknown; committed?: unknown; editFormat?: unknown; edits?: unknown };
    if (outcome !== 'answered' && outcome !== 'failed' && outcome !== 'idle') return undefined;
    const { applied, rejected } = (typeof edits === 'object' && edits !== null ? edits : {}) as { applied?: unknown; rejected?: unknown };
    const counted = Number.isInteger(applied) && Number.isInteger(rejected) ? { edits: { applied: applied as number, rejected: rejected as number } } : {};
    launches.push({ ...(typeof model === 'string' ? { model } : {}), outcome, ...(missingTracked === true ? { missingTracked: true } : {}), ...(committed === true ? { committed: true } : {}), ...(typeof editFormat === 'string' ? { editFormat } : {}), ...counted });
  }
  return { at, all: launches };
}

/** From the first complete line, without building the head: every file asks this reader first. */
function detectLines(lines: readonly string[]): number {
  return lines[0]?.startsWith('{"compound_session":') ? 1 : 0;
}

export const capturedReader: SessionReader & DetectBound = { format: 'captured', detect, detectLines, read, maxScore: 1 };
