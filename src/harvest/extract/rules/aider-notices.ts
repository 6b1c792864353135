/**
 * Aider's own notices that what was asked did not happen, though nothing failed loudly: it skips
 * files that match .gitignore (an edit the model wrote, a file named on the command line) and a
 * read-only file it cannot find, it answers an in-chat command it does not have with `Invalid
 * command: /x`, a second command in one message becomes a file name of the first, a line of the
 * reply above a code block becomes a file's name, /undo refuses a commit aider did not make in
 * this chat, a traceback through its own code says aider itself crashed, and a launch whose model
 * requests failed before a launch with another model worked says which model names work; its own
 * commit can fail and leave the edits uncommitted, a launch in a subfolder still names files from
 * the repository root, and a tracked path gone from disk draws a repo-map warning. Its own install
 * shows too: its offer to upgrade itself fails where a package manager owns it, and a module its
 * model needs must go into its own Python. Command output added to the chat fills the model's
 * window; it commits a file's uncommitted changes before editing it; it makes an empty file of a
 * launch word that names none. The notice is aider's own words, so the item is what aider did,
 * not a guess.
 *
 * The drafts live next to this file: aider-launch-notices.ts (a launch, its model, account and
 * environment) and aider-chat-notices.ts (how aider applied the chat's edits and commands).
 */
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import type { SessionView } from '../view.js';
import { noticeLines } from './aider-notice-lines.js';
import { deletedTrackedDraft, missingReadDraft, formatSwitchDraft, modelSwitchDraft, overTpmDraft, quotaDraft, undecodableDraft, subfolderDraft, suggestedNameDraft, unsizedTokenLimitDraft, unwritableDraft, yesAlwaysDeclinesDraft, yesAlwaysDraft } from './aider-launch-notices.js';
import { ownModuleDraft, selfUpgradeDraft } from './aider-install.js';
import { contextFilledDraft } from './aider-context.js';
import { dirtyCommitDraft, strayArgumentDraft } from './aider-own-commits.js';
import { addDotDraft, autoCommitDraft, commandAsFileDraft, commitFailedDraft, crashDraft, gitignoreDrafts, invalidCommandDraft, reflectionsDraft, strayFileDraft, tildeDraft, undoDraft, undoNewFileDraft } from './aider-chat-notices.js';

export function aiderNoticeDrafts(view: SessionView): Draft[] {
  if (view.session.agent !== 'aider') return [];
  const lines = noticeLines(view);
  const found = [invalidCommandDraft(view, lines), commandAsFileDraft(lines), missingReadDraft(lines), crashDraft(view, lines), strayFileDraft(view, lines), modelSwitchDraft(view, lines), formatSwitchDraft(view), undoDraft(view, lines), undoNewFileDraft(lines), reflectionsDraft(view, lines), addDotDraft(view, lines), tildeDraft(lines), commitFailedDraft(lines), subfolderDraft(lines), deletedTrackedDraft(view, lines), unwritableDraft(view, lines), quotaDraft(view, lines), overTpmDraft(view, lines), undecodableDraft(view, lines), yesAlwaysDraft(view, lines), yesAlwaysDeclinesDraft(lines), unsizedTokenLimitDraft(lines), suggestedNameDraft(view, lines), autoCommitDraft(view), selfUpgradeDraft(lines), ownModuleDraft(lines), contextFilledDraft(view, lines), dirtyCommitDraft(view, lines), strayArgumentDraft(lines)].filter((d): d is Draft => d !== undefined);
  return [...gitignoreDrafts(lines), ...found];
}

export const aiderNotices: RuleExtractor = ruleExtractor('aider-notice', aiderNoticeDrafts);
