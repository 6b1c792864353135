/**
 * A Claude Code subagent's transcript (`<dir>/<parent id>/subagents/agent-*.jsonl`) ends before
 * its parent session does, and what the parent changes afterwards can make the subagent's report
 * stale (a section about a file the parent then rewrote). The subagent's file alone cannot tell:
 * this reads the parent transcript beside it, when it is there, and gives each subagent session
 * the base names of the files the parent edited after the subagent's last event. The answer
 * depends only on the files on disk, never on which other files a run harvests or in what order.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Session } from '../sessions/model.js';
import { readSessionFile } from '../sessions/read.js';
import { editedFiles, isEdit, viewOf } from './extract/view.js';

/** One edit of the parent session: when, and the base names of the files it changed. */
interface TimedEdit {
  time: string;
  files: string[];
}

/** The parent transcript a subagent file sits under, or undefined for any other layout. */
export function parentTranscript(file: string, parentId: string): string | undefined {
  const sessionDir = dirname(dirname(file));
  if (basename(dirname(file)) !== 'subagents' || basename(sessionDir) !== parentId) return undefined;
  const parent = join(dirname(sessionDir), `${parentId}.jsonl`);
  return existsSync(parent) ? parent : undefined;
}

/** The parent's successful edits with their times (a parent read once per worker and file). */
const editsOf = new Map<string, Promise<TimedEdit[]>>();

async function parentEdits(parentFile: string, parentId: string): Promise<TimedEdit[]> {
  let edits = editsOf.get(parentFile);
  if (!edits) {
    edits = readSessionFile(parentFile, { format: 'claude-code' })
      .then((r) => {
        const parent = r.sessions.find((s) => s.id === parentId);
        if (!parent) return [];
        return viewOf(parent).steps.flatMap((s) => (s.call.time && !s.failed && !s.rejected && isEdit(s) ? [{ time: s.call.time, files: editedFiles(s) }] : []));
      })
      // an unreadable parent says nothing about later edits; the subagent is harvested as it is
      .catch((): TimedEdit[] => []);
    // a harvest visits a parent's subagent files together; older parents need not stay in memory
    if (editsOf.size >= 8) editsOf.delete(editsOf.keys().next().value!);
    editsOf.set(parentFile, edits);
  }
  return edits;
}

/** The sessions of `file`, each subagent session with the files its parent edited after it ended. */
export async function withParentEdits(file: string, sessions: Session[]): Promise<Session[]> {
  const out: Session[] = [];
  for (const s of sessions) {
    const parentFile = s.format === 'claude-code' && s.parentId && s.endedAt ? parentTranscript(file, s.parentId) : undefined;
    if (!parentFile) {
      out.push(s);
      continue;
    }
    const ended = Date.parse(s.endedAt!);
    const later = (await parentEdits(parentFile, s.parentId!)).filter((e) => Date.parse(e.time) > ended).flatMap((e) => e.files);
    out.push(later.length > 0 ? { ...s, parentEditsAfter: [...new Set(later)].sort() } : s);
  }
  return out;
}
