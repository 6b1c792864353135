/**
 * The deterministic, zero-LLM extractor: a session in, the few candidates a reviewer would
 * merge out. Each rule reads one kind of signal; `extractSession` runs them all over one view of
 * the session and keeps the best within the session's budget. Same session, same output.
 */
import type { Session } from '../../sessions/model.js';
import type { Candidate, Extractor } from '../candidate.js';
import { type Draft, MAX_TEXT, makeCandidate, type RuleExtractor } from './build.js';
import { repoPathsOf, withRepoPaths } from './repo-paths.js';
import { depersonalize, fitWhole } from './text.js';
import { aiderNotices } from './rules/aider-notices.js';
import { aiderShellLines } from './rules/aider-shell-lines.js';
import { aiderEnvWarnings } from './rules/aider-env-warnings.js';
import { checkFindings } from './rules/check-findings.js';
import { commandPatterns } from './rules/command-patterns.js';
import { dataFormats } from './rules/data-formats.js';
import { errorFix } from './rules/error-fix.js';
import { missingFiles } from './rules/missing-files.js';
import { openQuestions } from './rules/open-questions.js';
import { outputNoise } from './rules/output-noise.js';
import { pager } from './rules/pager.js';
import { oversizedOutput } from './rules/oversized-output.js';
import { powershell } from './rules/powershell.js';
import { cmdShell } from './rules/cmd-shell.js';
import { zshGlob } from './rules/zsh-glob.js';
import { planMode } from './rules/plan-mode.js';
import { loginBanner } from './rules/login-banner.js';
import { unfilledPlaceholders } from './rules/unfilled-placeholders.js';
import { gitCloneCredentials } from './rules/git-clone-credentials.js';
import { sudoPassword } from './rules/sudo-password.js';
import { waitsForInput } from './rules/waits-for-input.js';
import { homeRepo } from './rules/home-repo.js';
import { cdBlocked } from './rules/cd-blocked.js';
import { scriptNotOnPath } from './rules/script-not-on-path.js';
import { pythonTooOld } from './rules/python-too-old.js';
import { sandboxKilled } from './rules/sandbox-killed.js';
import { aiderLocalServer } from './rules/aider-local-server.js';
import { agentStateInRepo } from './rules/agent-state-in-repo.js';
import { toolCannotStart } from './rules/tool-cannot-start.js';
import { projectCommands } from './rules/project-commands.js';
import { repoRules } from './rules/repo-rules.js';
import { reportFacts } from './rules/report-facts.js';
import { retiredCommands } from './rules/retired-commands.js';
import { shellCwd } from './rules/shell-cwd.js';
import { shellWrapperNoise } from './rules/shell-wrapper-noise.js';
import { slowCommands } from './rules/slow-commands.js';
import { testRunner } from './rules/test-runner.js';
import { toolQuirks } from './rules/tool-quirks.js';
import { toolchain } from './rules/toolchain.js';
import { userCorrections } from './rules/user-corrections.js';
import { workspace } from './rules/workspace.js';
import { select } from './select.js';
import { type SessionView, viewOf } from './view.js';

/** Every rule, in the order their candidates are made; each is also an Extractor of its own. */
export const EXTRACTORS: readonly RuleExtractor[] = [
  errorFix,
  checkFindings,
  toolQuirks,
  powershell,
  cmdShell,
  zshGlob,
  planMode,
  loginBanner,
  unfilledPlaceholders,
  gitCloneCredentials,
  sudoPassword,
  waitsForInput,
  homeRepo,
  cdBlocked,
  scriptNotOnPath,
  pythonTooOld,
  sandboxKilled,
  agentStateInRepo,
  toolCannotStart,
  shellCwd,
  pager,
  shellWrapperNoise,
  retiredCommands,
  aiderNotices,
  aiderShellLines,
  aiderEnvWarnings,
  aiderLocalServer,
  outputNoise,
  oversizedOutput,
  userCorrections,
  commandPatterns,
  reportFacts,
  repoRules,
  missingFiles,
  dataFormats,
  toolchain,
  projectCommands,
  testRunner,
  slowCommands,
  openQuestions,
  workspace,
];

/** Every candidate of every rule over one view, before selection. */
function draftAll(session: Session, view: SessionView): Candidate[] {
  const drafts = EXTRACTORS.flatMap((rule) => rule.drafts(view));
  const paths = drafts.length > 0 ? repoPathsOf(view) : undefined;
  return drafts.map((d) => makeCandidate(session, paths ? locateFiles(d, paths, session.cwd) : d));
}

/** The draft with the bare file names the session located shown with their paths. Not aider's
 * notices: they name a file as aider was given it, from the folder of that launch. A path never
 * costs the item a sentence (the text is cut to whole sentences at MAX_TEXT). */
function locateFiles(d: Draft, paths: ReadonlyMap<string, string | null>, cwd: string | undefined): Draft {
  if (d.rule === 'aider-notice') return d;
  const title = withRepoPaths(d.title, paths);
  const kept = fitWhole(depersonalize(d.text, cwd), MAX_TEXT);
  const located = withRepoPaths(kept, paths);
  const text = located === kept || located.length > MAX_TEXT ? d.text : located;
  return title === d.title && text === d.text ? d : { ...d, title, text };
}

/** All candidates of every rule, before selection (for debugging and --explain). */
export function allCandidates(session: Session): Candidate[] {
  return draftAll(session, viewOf(session));
}

/** The candidates worth a reviewer's time from one session, best few, in evidence order. */
export function extractSession(session: Session): Candidate[] {
  const view = viewOf(session);
  return select(view, draftAll(session, view));
}

/** The extractor as the harvest pipeline composes it. */
export const heuristicExtractor: Extractor = { name: 'heuristic', extract: extractSession };
