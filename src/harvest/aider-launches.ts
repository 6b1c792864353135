/**
 * An aider chat history holds one session per launch, and a launch that only failed (a model
 * name litellm does not know, a quota) is often followed by a launch with another model that
 * worked: the lesson is the pair, and no launch alone can tell. This gives every aider session
 * of one file the list of the file's launches (model and how each went) and its place in it.
 * Pure: the answer depends only on the sessions of the file.
 */
import type { AiderLaunch, Session } from '../sessions/model.js';
import { CREATE_NEW_FILE, GIT_DIR } from './extract/rules/aider-notice-lines.js';

/** Aider's report of a failed model request (`litellm.NotFoundError: …`). */
export const LITELLM_ERROR = /^litellm\.\w+Error\b/m;

/** How one launch went: any reply means it worked, only litellm errors that it failed. */
export function launchOutcome(session: Session): AiderLaunch['outcome'] {
  if (session.events.some((e) => e.kind === 'assistant')) return 'answered';
  return session.events.some((e) => e.kind === 'system' && LITELLM_ERROR.test(e.text)) ? 'failed' : 'idle';
}

/** Aider's warning that its repo map cannot include a tracked path (gone from disk). */
export const REPO_MAP_MISSING = /^Repo-map can't include (.+?)\s*$/;

/** Whether a launch warned that a tracked path is no file on disk. */
function warnsMissingTracked(session: Session): boolean {
  return session.events.some((e) => e.kind === 'system' && e.text.split('\n').some((l) => REPO_MAP_MISSING.test(l.trim())));
}

/** The first capture of `re` on a line of the launch's own notices (its banner). */
function fromNotices(session: Session, re: RegExp): string | undefined {
  for (const e of session.events) {
    if (e.kind !== 'system') continue;
    for (const l of e.text.split('\n')) {
      const found = re.exec(l.trim())?.[1];
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Whether the launch committed an edit (the reader makes each of aider's commits a `commit` call). */
function committedIn(session: Session): boolean {
  return session.events.some((e) => e.kind === 'tool_call' && e.name === 'commit');
}

/** The edit format a launch's banner names. */
export const EDIT_FORMAT = /^(?:Main )?[Mm]odels?: .* with (\S+) edit format\b/;

/** The model's edits in a launch: the reader makes each an `edit` call, failed when aider rejected it. */
function editsOf(session: Session): AiderLaunch['edits'] {
  const edits = new Set<string>();
  for (const e of session.events) if (e.kind === 'tool_call' && e.name === 'edit' && e.callId) edits.add(e.callId);
  let applied = 0;
  let rejected = 0;
  // (a rejection after aider made the file at the model's word is the path's doing, not the format's)
  let created = false;
  for (const e of session.events) {
    if (e.kind === 'system' && CREATE_NEW_FILE.test(e.text)) created = true;
    if (e.kind !== 'tool_result' || e.callId === undefined || !edits.has(e.callId)) continue;
    if (!e.isError) applied++;
    else if (!created) rejected++;
    created = false;
  }
  return applied + rejected > 0 ? { applied, rejected } : undefined;
}

/** The sessions of one file, each aider launch with the file's launches (other sessions as they are). */
export function withAiderLaunches(sessions: readonly Session[]): Session[] {
  const launches = sessions.filter((s) => s.format === 'aider');
  if (launches.length < 2) return [...sessions];
  const all: AiderLaunch[] = launches.map((s) => {
    // (the repository root its banner names, `Git working dir: /srv/shop`, and its edit format)
    const gitRoot = fromNotices(s, GIT_DIR);
    const editFormat = fromNotices(s, EDIT_FORMAT);
    const edits = editsOf(s);
    return { ...(s.models[0] ? { model: s.models[0] } : {}), outcome: launchOutcome(s), ...(warnsMissingTracked(s) ? { missingTracked: true } : {}), ...(gitRoot !== undefined ? { gitRoot } : {}), ...(committedIn(s) ? { committed: true } : {}), ...(editFormat !== undefined ? { editFormat } : {}), ...(edits !== undefined ? { edits } : {}) };
  });
  return sessions.map((s) => (s.format === 'aider' ? { ...s, aiderLaunches: { at: launches.indexOf(s), all } } : s));
}
