/**
 * The repo's toolchain contract, as the session saw it: which Node.js version the project
 * requires, and which git hooks every commit passes through (husky or simple-git-hooks, lint-staged, commitlint,
 * Gitleaks). An agent that does not know them commits into a failing hook or runs the wrong
 * runtime; they are read from a package.json the tools printed (verified) or from a subagent's
 * report on the repo (stated). Never from the agent's own edits or closing claims.
 */
import { CONFIDENCE } from '../../candidate.js';
import { MARK } from '../marks.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { reportsOf } from '../report.js';
import { isEdit, type SessionView } from '../view.js';
import { escapeRegExp } from '../../../core/regexp.js';

/** `"engines": { "node": ">=20.0.0" }` in a printed package.json. */
const ENGINES_NODE = /"engines"\s*:\s*\{[^}]*?"node"\s*:\s*"([^"\n]{1,30})"/;
/** `Node.js: >=24.0.0`, `Node.js Version: >=24.0.0`, `**Required**: `>=24.0.0`` under a Node heading. */
const REPORTED_NODE = /\bnode(?:\.js)?\b(?:\*\*)?(?:\s+version)?(?:\*\*)?\s*[:=]?\s*(?:\*\*)?(?:required|requires|minimum)?(?:\*\*)?\s*[:=]?\s*`?(>=?\s*v?\d{1,2}(?:\.\d+){0,2})/i;
const NODE_HEADING_THEN_REQUIRED = /#+\s*node(?:\.js)?\s+version\s*\n+\s*(?:\*\*)?required(?:\*\*)?\s*:\s*`?(>=?\s*v?\d{1,2}(?:\.\d+){0,2})/i;
/** A package.json: what else has both of these. */
export const PACKAGE_JSON = /"(?:dev)?[dD]ependencies"\s*:\s*\{/;

interface Hooks {
  /** The tool that installs the hooks (husky, simple-git-hooks, lefthook), or ''. */
  manager: string;
  lintStaged: boolean;
  commitlint: boolean;
  conventional: boolean;
  gitleaks: boolean;
}

function hooksIn(text: string, fromPackageJson: boolean): Hooks {
  // In a report the names must come with hook or commit context; a package.json is context enough.
  const hookContext = fromPackageJson || /\b(?:pre-commit|git hooks?|commit hooks?|commit-msg)\b/i.test(text);
  const has = (re: RegExp) => hookContext && re.test(text);
  // a package.json that only lists a hook tool among its dependencies installs no hook: its
  // install script (`"prepare": "husky"`) or its hook config must be there too, and lint-staged
  // checks nothing with an empty config (`"lint-staged": {}`)
  const installs = (tool: string): boolean => !fromPackageJson || installedBy(text, tool);
  return {
    manager: has(/\bhusky\b/i) && installs('husky') ? 'husky' : has(/\bsimple-git-hooks\b/i) && installs('simple-git-hooks') ? 'simple-git-hooks' : has(/\blefthook\b/i) && installs('lefthook') ? 'lefthook' : '',
    lintStaged: has(/\blint-staged\b/i) && (!fromPackageJson || lintStagedTasks(text) !== undefined || /"lint-staged"\s*:\s*"/.test(text) || /\.lintstagedrc|lint-staged\.config/.test(text)),
    // commitlint among a package.json's dependencies checks nothing by itself: a commit-msg hook
    // (or a script for one, `commitlint --edit`) must run it; a report on the hooks says so itself
    commitlint: has(/\bcommitlint\b/i) && (!fromPackageJson || /\bcommit-msg\b|\bcommitlint\s+(?:--edit|-e)\b/i.test(text)),
    conventional: has(/\bconfig-conventional\b|\bconventional commits?\b/i),
    // Gitleaks counts only where it is said to run on commit.
    gitleaks: /\b(?:pre-commit|commit hooks?)\b[^\n]{0,80}\bgitleaks\b|\bgitleaks\b[^\n]{0,80}\bpre-commit\b/i.test(text),
  };
}

/** Whether a printed package.json sets `tool` up to install hooks: a script that runs it
 * (`"prepare": "husky install"`, `"postinstall": "simple-git-hooks"`) or its own hook config
 * (`"simple-git-hooks": {…}`, husky 4's `"husky": { "hooks": … }`). */
function installedBy(text: string, tool: string): boolean {
  const name = escapeRegExp(tool);
  return new RegExp(`"(?:prepare|postinstall|preinstall|install)"\\s*:\\s*"[^"\\n]*\\b${name}\\b`).test(text) || new RegExp(`"${name}"\\s*:\\s*\\{\\s*"`).test(text);
}

/** What lint-staged runs, per file pattern, from the `"lint-staged"` object of a printed
 * package.json (`*.ts`: `eslint --max-warnings=0`, `vitest related --run`): "the same checks"
 * named, so a session can run them before it commits. */
export function lintStagedTasks(text: string): string | undefined {
  const at = /"lint-staged"\s*:\s*\{/.exec(text);
  if (!at) return undefined;
  const from = at.index + at[0].length - 1;
  let depth = 0;
  let end = -1;
  for (let i = from; i < text.length && i < from + 4000; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      end = i + 1;
      break;
    }
  }
  if (end < 0) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(text.slice(from, end));
  } catch {
    return undefined;
  }
  if (config === null || typeof config !== 'object') return undefined;
  const parts: string[] = [];
  for (const [glob, tasks] of Object.entries(config as Record<string, unknown>)) {
    const list = (Array.isArray(tasks) ? tasks : [tasks]).filter((t): t is string => typeof t === 'string' && t.length <= 80);
    if (list.length > 0) parts.push(`${list.map((t) => `\`${t}\``).join(', ')} on staged \`${glob}\``);
  }
  return parts.length > 0 ? parts.slice(0, 4).join('; ') : undefined;
}

/** A task that rewrites files (`eslint --fix`, `prettier --write`, `format`): it fails only on what it cannot fix. */
const FIXER = /--fix\b|--write\b|\bformat\b/;

function describeHooks(h: Hooks, tasks: string | undefined): string | undefined {
  const parts: string[] = [];
  if (h.manager) parts.push(`${h.manager} installs the git hooks`);
  if (h.lintStaged) parts.push(tasks ? `lint-staged runs ${tasks} before each commit` : 'lint-staged checks the staged files before each commit');
  if (h.commitlint) parts.push(`commitlint checks each commit message${h.conventional ? ' (conventional commits: `type(scope): subject`)' : ''}`);
  if (h.gitleaks) parts.push('the pre-commit hook also runs Gitleaks secret detection');
  if (parts.length < 2) return undefined; // one tool alone says little about what a commit goes through
  // fixers (`eslint --fix`, `prettier --write`) rewrite the staged files and fail only on what they cannot fix
  const fixers = tasks !== undefined && [...tasks.matchAll(/`([^`]+)`(?= on staged|, )/g)].every((m) => FIXER.test(m[1]!));
  const expect = fixers ? 'they rewrite the staged files and stop a commit only on what they cannot fix' : 'expect a commit to fail when they do';
  return `Commits pass through git hooks: ${parts.join('; ')}. Run the same checks before committing; ${expect}.`;
}

interface Evidence {
  text: string;
  event: number;
  verified: boolean;
}

function evidenceOf(view: SessionView): Evidence[] {
  const out: Evidence[] = [];
  for (const s of view.steps) {
    if (s.failed || s.rejected || !(s.marks & MARK.dependencies) || isEdit(s) || !PACKAGE_JSON.test(s.output)) continue;
    out.push({ text: s.output, event: s.outputEvent, verified: true });
  }
  for (const r of reportsOf(view)) if (r.source === 'delegate') out.push({ text: r.text, event: r.event, verified: false });
  return out;
}

/** End of life of each Node.js LTS major (nodejs.org release schedule). */
const NODE_LTS_END: readonly [major: number, end: string][] = [
  [16, '2023-09-11'],
  [18, '2025-04-30'],
  [20, '2026-04-30'],
  [22, '2027-04-30'],
  [24, '2028-04-30'],
];

/** A minimum every Node.js release still maintained when the session ran meets (">=18" in
 * mid-2026) restates the manifest and asks nothing of a machine: no item. The session's own date
 * decides, so the same transcript always gives the same answer; without a date it is kept. */
export function demandingNodeRange(range: string, sessionDate: string | undefined): boolean {
  const m = /^(>=?|\^|~)?v?(\d{1,2})/.exec(range);
  if (!m || !sessionDate) return true;
  const major = Number(m[2]) + (m[1] === '>' ? 1 : 0);
  const day = sessionDate.slice(0, 10);
  const oldestMaintained = NODE_LTS_END.find(([, end]) => end > day)?.[0];
  return oldestMaintained === undefined || major > oldestMaintained;
}

export function toolchainDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const evidence = evidenceOf(view);
  // the required Node.js version
  for (const e of evidence) {
    const m = e.verified ? ENGINES_NODE.exec(e.text) : (NODE_HEADING_THEN_REQUIRED.exec(e.text) ?? REPORTED_NODE.exec(e.text));
    if (!m) continue;
    const version = m[1]!.replace(/\s+/g, '');
    if (!demandingNodeRange(version, view.session.startedAt)) break;
    drafts.push({
      category: 'fact',
      title: `Node.js ${version} required`,
      text: `The project requires Node.js ${version} (${e.verified ? '`engines` in package.json' : 'as a report on the repository states'}); check \`node --version\` before you install, build or test.`,
      confidence: e.verified ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: e.event,
      tags: ['node', 'runtime', 'version'],
      rule: 'toolchain',
      signature: `toolchain:node:${version}`,
      // above architecture notes from reports: the first thing a session needs to run anything
      score: e.verified ? 6.5 : 6,
    });
    break;
  }
  // the git hooks, from every piece of evidence together
  const all: Hooks = { manager: '', lintStaged: false, commitlint: false, conventional: false, gitleaks: false };
  let first: Evidence | undefined;
  let verified = false;
  for (const e of evidence) {
    const h = hooksIn(e.text, e.verified);
    const any = Object.values(h).some(Boolean);
    if (!any) continue;
    first ??= e;
    verified ||= e.verified;
    all.manager ||= h.manager;
    all.lintStaged ||= h.lintStaged;
    all.commitlint ||= h.commitlint;
    all.conventional ||= h.conventional;
    all.gitleaks ||= h.gitleaks;
  }
  const tasks = evidence.filter((e) => e.verified).map((e) => lintStagedTasks(e.text)).find((t) => t !== undefined);
  const hooks = describeHooks(all, tasks);
  if (hooks && first) {
    drafts.push({
      category: 'fact',
      title: 'Commits run git hooks',
      text: hooks,
      confidence: verified ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: first.event,
      tags: ['git', 'hooks', 'commit'],
      rule: 'toolchain',
      signature: 'toolchain:hooks',
      score: verified ? 6.5 : 6,
    });
  }
  if (!hooks) {
    const seen = lintStagedRun(view);
    if (seen) drafts.push(seen);
  }
  return drafts;
}

/** lint-staged's own steps in its listing (`[STARTED] Backing up original state...`), and a
 * file group's line (`[STARTED] *.ts — 3 files`): what is left are the tasks it ran. */
const LINT_STAGED_OWN = /^(?:Preparing lint-staged|Backing up original state|Backed up original state|Running tasks for staged files|Applying modifications from tasks|Cleaning up temporary files|Hiding unstaged changes|Restoring unstaged changes|Restoring original state|Reverting to original state)|\s—\s\d+ files?$/;

/** A commit whose output shows lint-staged at work (`[STARTED] Running tasks for staged files...`)
 * says what a pre-commit hook runs, from the commit itself, where no package.json the session
 * printed said it: the tasks it ran on the staged files. */
function lintStagedRun(view: SessionView): Draft | undefined {
  for (const s of view.steps) {
    if (s.rejected || s.command === undefined || !s.families.includes('git commit') || !s.output.includes('Running tasks for staged files')) continue;
    const tasks = [...new Set([...s.output.matchAll(/^\[(?:STARTED|COMPLETED|FAILED)\] (.+?)\s*$/gm)].map((m) => m[1]!).filter((t) => !LINT_STAGED_OWN.test(t) && t.length <= 60))].slice(0, 3);
    if (tasks.length === 0) continue;
    const fixers = tasks.every((t) => FIXER.test(t));
    return {
      category: 'fact',
      // (what the hook runs names it in an index: "git hooks" alone says nothing to pick it by)
      title: `Commits run a pre-commit hook: ${tasks[0]} on the staged files`,
      // (what runs it is not always lint-staged itself: vite-plus prints the same listing)
      text: `Commits here pass through a pre-commit hook that runs ${tasks.map((t) => `\`${t}\``).join(', ')} on the staged files (the commit printed \`Running tasks for staged files...\`)${fixers ? ', which rewrites them before they are committed' : ', and a commit fails when it does'}. Run the same before committing.`,
      confidence: CONFIDENCE.verified,
      event: s.outputEvent,
      tags: ['git', 'hooks', 'commit', 'lint-staged'],
      rule: 'toolchain',
      signature: 'toolchain:hooks',
      score: 6.5,
    };
  }
  return undefined;
}

export const toolchain: RuleExtractor = ruleExtractor('toolchain', toolchainDrafts);
