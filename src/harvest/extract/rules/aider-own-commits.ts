/**
 * What aider does on its own around the user's work, from its notices. Before it applies an edit
 * to a file with uncommitted changes it commits those changes under a message it writes
 * (`Committing src/Wiki.jsx before applying edits.`, its "dirty commits"): the user's own work
 * lands in a commit they did not write. And every word on its command line that is no option is a
 * file to edit, a missing one created empty (`aider $` → `Creating empty file …/$`): a stray word
 * leaves a junk file. Both are aider's defaults, told with the switch or habit that avoids them.
 */
import { CONFIDENCE } from '../../candidate.js';
import type { Draft } from '../build.js';
import { clip, code } from '../text.js';
import { fileName, type SessionView } from '../view.js';
import { namesAFile } from './aider-chat-notices.js';
import { launchLine } from './aider-notice-lines.js';

const DIRTY = /^Committing (\S+) before applying edits\.?\s*$/;
/** Aider's commit line, its hash left out of what is shown (a transient id). */
const COMMIT = /^Commit [0-9a-f]{7,40} (.+?)\s*$/;
const NO_DIRTY = launchLine(String.raw`--no-(?:dirty|auto)-commits\b`);

export function dirtyCommitDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => DIRTY.test(l.line));
  if (at < 0 || lines.some((l) => NO_DIRTY.test(l.line))) return undefined;
  // (the reader keeps aider's commit as a step of its own, right after the notice)
  const commit = view.steps.find((x) => x.call.name === 'commit' && x.call.index > lines[at]!.event);
  const message = COMMIT.exec(commit?.output.trim() ?? '')?.[1];
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider commits a file's uncommitted changes before it edits the file",
    text:
      `Before it applies an edit to a file with uncommitted changes, aider commits those changes under a message it writes (${code(clip(lines[at]!.line, 80))}${message ? `, then a commit ${code(clip(message, 60))}` : ''}): uncommitted work in that file goes into a commit nobody wrote. ` +
      `Commit or stash it first, or start aider with ${code('--no-dirty-commits')}.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'commit', 'dirty-commits'],
    quotes: [lines[at]!.line],
    rule: 'aider-notice',
    signature: 'aider dirty commits',
    score: 5,
  };
}

const CREATED_EMPTY = /^Creating empty file (.+?)\s*$/;

/** A word of the launch line aider made a file of that names no file (`$`, an editor's
 * `term://…` buffer): the junk file, and what aider does with such words. */
export function strayArgumentDraft(lines: { line: string; event: number }[]): Draft | undefined {
  for (const l of lines) {
    const path = CREATED_EMPTY.exec(l.line)?.[1];
    if (path === undefined) continue;
    const name = fileName(path.replace(/[\\/]+$/, ''));
    if (namesAFile(name)) continue;
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: 'aider creates an empty file for a launch word that names no file',
      text: `Aider takes each word on its command line that is no option for a file to edit, and creates a missing one empty: a word that names no file made ${code(`Creating empty file …/${clip(name, 40)}`)}, a junk file in the repository. Check the words aider is started with (what launches it may pass its own), and delete the file it made.`,
      confidence: CONFIDENCE.verified,
      event: l.event,
      tags: ['aider', 'launch', 'files'],
      quotes: [`Creating empty file …/${name}`],
      rule: 'aider-notice',
      signature: 'aider empty file from a stray argument',
      score: 5,
    };
  }
  return undefined;
}
