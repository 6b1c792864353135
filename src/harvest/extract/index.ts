/**
 * The deterministic, zero-LLM extractor: a session in, the few candidates a reviewer would
 * merge out. Each rule reads one kind of signal; `extractSession` runs them all over one view of
 * the session and keeps the best within the session's budget. Same session, same output.
 */
import type { Session } from '../../sessions/model.js';
import type { Candidate, Extractor } from '../candidate.js';
import { makeCandidate, type Draft } from './build.js';
import { checkFindingDrafts, checkFindings } from './rules/check-findings.js';
import { commandPatternDrafts, commandPatterns } from './rules/command-patterns.js';
import { confirmedStatementDrafts, confirmedStatements } from './rules/confirmed-statements.js';
import { dataFormatDrafts, dataFormats } from './rules/data-formats.js';
import { errorFix, errorFixDrafts } from './rules/error-fix.js';
import { missingFileDrafts, missingFiles } from './rules/missing-files.js';
import { openQuestionDrafts, openQuestions } from './rules/open-questions.js';
import { outputNoise, outputNoiseDrafts } from './rules/output-noise.js';
import { oversizedOutput, oversizedOutputDrafts } from './rules/oversized-output.js';
import { projectCommandDrafts, projectCommands } from './rules/project-commands.js';
import { repoRuleDrafts, repoRules } from './rules/repo-rules.js';
import { reportFactDrafts, reportFacts } from './rules/report-facts.js';
import { slowCommandDrafts, slowCommands } from './rules/slow-commands.js';
import { testRunner, testRunnerDrafts } from './rules/test-runner.js';
import { toolQuirkDrafts, toolQuirks } from './rules/tool-quirks.js';
import { toolchain, toolchainDrafts } from './rules/toolchain.js';
import { userCorrectionDrafts, userCorrections } from './rules/user-corrections.js';
import { workspace, workspaceDrafts } from './rules/workspace.js';
import { select } from './select.js';
import { type SessionView, viewOf } from './view.js';

/** Every rule, each usable on its own as an Extractor. */
export const EXTRACTORS: readonly Extractor[] = [
  errorFix,
  checkFindings,
  toolQuirks,
  outputNoise,
  oversizedOutput,
  userCorrections,
  commandPatterns,
  reportFacts,
  repoRules,
  confirmedStatements,
  missingFiles,
  dataFormats,
  toolchain,
  projectCommands,
  testRunner,
  slowCommands,
  openQuestions,
  workspace,
];

const DRAFTERS: readonly ((view: SessionView) => Draft[])[] = [
  errorFixDrafts,
  checkFindingDrafts,
  toolQuirkDrafts,
  outputNoiseDrafts,
  oversizedOutputDrafts,
  userCorrectionDrafts,
  commandPatternDrafts,
  reportFactDrafts,
  repoRuleDrafts,
  confirmedStatementDrafts,
  missingFileDrafts,
  dataFormatDrafts,
  toolchainDrafts,
  projectCommandDrafts,
  testRunnerDrafts,
  slowCommandDrafts,
  openQuestionDrafts,
  workspaceDrafts,
];

/** All candidates of every rule, before selection (for debugging and --explain). */
export function allCandidates(session: Session): Candidate[] {
  const view = viewOf(session);
  return DRAFTERS.flatMap((draft) => draft(view)).map((d) => makeCandidate(session, d));
}

/** The candidates worth a reviewer's time from one session, best few, in evidence order. */
export function extractSession(session: Session): Candidate[] {
  const view = viewOf(session);
  const candidates = DRAFTERS.flatMap((draft) => draft(view)).map((d) => makeCandidate(session, d));
  return select(view, candidates);
}

/** The extractor as the harvest pipeline composes it. */
export const heuristicExtractor: Extractor = { name: 'heuristic', extract: extractSession };
