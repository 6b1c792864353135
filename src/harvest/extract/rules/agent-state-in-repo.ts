/**
 * An agent's own session state (Codex's `history.jsonl`, `log/`, `sessions/`; Claude Code's
 * `projects/`, `todos/`; Gemini CLI's `tmp/`) lying inside the repository, as git's output shows
 * it: untracked, it waits to be swept into a commit; tracked, every session changes it and git
 * refuses a checkout over those changes. Said only of the files an agent writes for itself, never
 * of the commands, skills and settings a team keeps in the same folders on purpose, and not when
 * the session itself then ignored or untracked the folder.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import { editedFiles, isEdit, seenToSucceed, type SessionView, type Step } from '../view.js';

/** A command that stages everything in the checkout. */
const SWEEPING_ADD = /\bgit\s+(?:add\s+(?:-A|--all|\.)(?=\s|$)|commit\s+(?:-\w*a\w*|--all)\b)/;

/** A path under an agent's folder, with what precedes the folder (`ECE493Lab2/`). */
const AGENT_PATH = /^(\S*?)(\.codex|\.claude|\.gemini)\/(\S*)$/;

/** What each agent writes for itself: its history, logs, sessions, caches, and the login it
 * keeps there (`credentials`: a secret, the part that most needs keeping out of a commit). */
const STATE: Record<string, { agent: string; parts: RegExp; credentials: RegExp }> = {
  // (its SQLite databases too, `state_5.sqlite` and `logs_2.sqlite` with their `-shm`/`-wal` files)
  '.codex': { agent: 'Codex', parts: /^(?:history\.jsonl|session_index\.jsonl|sessions\/|log\/|logs\/|models_cache\.json|tmp\/|version\.json|\.?lock$|(?:state|logs)(?:_\d+)?\.sqlite(?:-shm|-wal)?$|auth\.json$)/, credentials: /^auth\.json$/ },
  '.claude': { agent: 'Claude Code', parts: /^(?:projects\/|todos\/|statsig\/|shell-snapshots\/|history\.jsonl|debug\/|stats-cache\.json|session-env\/|file-history\/|\.credentials\.json$)/, credentials: /^\.credentials\.json$/ },
  '.gemini': { agent: 'Gemini CLI', parts: /^(?:tmp\/|installation_id|history\/|oauth_creds\.json$|google_accounts\.json$)/, credentials: /^(?:oauth_creds|google_accounts)\.json$/ },
};

/** The part of an agent's folder that holds its session transcripts. */
const TRANSCRIPTS = /^(?:projects|sessions)\/$/;

interface Found {
  folder: string;
  agent: string;
  credentials: RegExp;
  parts: Set<string>;
  tracked: boolean;
  /** git first listed the folder untracked (`?? .codex/`): whatever tracks it later, this session added */
  untrackedFirst: boolean;
  /** the step whose commit created files of it (`create mode 100644 .codex/auth.json`) */
  committedBy?: Step;
  blockedCheckout: boolean;
  step: Step;
}

/** The git output's entries for agent state: `?? .codex/`, ` M x/.codex/history.jsonl`, a tab-indented
 * entry under "Untracked files:" or under a refused checkout's list, and a commit's
 * ` create mode 100644 .codex/auth.json` (a file that commit put in git). */
function entriesOf(output: string): { path: string; tracked: boolean; blocked: boolean; created: boolean }[] {
  const out: { path: string; tracked: boolean; blocked: boolean; created: boolean }[] = [];
  let section: 'untracked' | 'tracked' | 'blocked' | undefined;
  for (const raw of output.split('\n')) {
    if (/^Untracked files:/.test(raw)) section = 'untracked';
    else if (/^Changes (?:not staged|to be committed)/.test(raw)) section = 'tracked';
    else if (/local changes to the following files would be overwritten by (?:checkout|merge|switch)/.test(raw)) section = 'blocked';
    else if (/untracked working tree files would be/.test(raw)) section = undefined;
    const porcelain = /^([ MADRCU?]{2}) (\S+)$/.exec(raw);
    if (porcelain) {
      out.push({ path: porcelain[2]!, tracked: porcelain[1] !== '??', blocked: false, created: false });
      continue;
    }
    const created = /^ create mode \d+ (\S+)$/.exec(raw);
    if (created) {
      out.push({ path: created[1]!, tracked: true, blocked: false, created: true });
      continue;
    }
    const listed = /^\t(?:(?:modified|deleted|new file|renamed):\s+)?(\S+)$/.exec(raw);
    if (listed && section !== undefined) out.push({ path: listed[1]!, tracked: section !== 'untracked', blocked: section === 'blocked', created: false });
  }
  return out;
}

/** Whether a later step of the session ignored or untracked the folder (it fixed what the item would say). */
function settledLater(view: SessionView, s: Step, folder: string): boolean {
  // (`.codex` of `ECE493Lab2/.codex/`: a .gitignore line or an untracking names it either way)
  const name = folder.replace(/\/$/, '').split('/').pop()!;
  return view.steps.some(
    (x) =>
      x.pos > s.pos &&
      !x.failed &&
      !x.rejected &&
      ((x.command !== undefined && /\brm\b[^|;&]*--cached/.test(x.command) && x.command.includes(name)) ||
        (isEdit(x) && editedFiles(x).includes('.gitignore') && JSON.stringify(x.call.input).includes(name))),
  );
}

export function agentStateDrafts(view: SessionView): Draft[] {
  const found = new Map<string, Found>();
  for (const s of view.steps) {
    if (s.command === undefined || s.rejected || !s.families.some((f) => f.startsWith('git'))) continue;
    if (!/\.(?:codex|claude|gemini)\//.test(s.output)) continue;
    for (const e of entriesOf(s.output)) {
      const m = AGENT_PATH.exec(e.path);
      if (!m) continue;
      const state = STATE[m[2]!]!;
      // `?? .codex/`: git shows the untracked folder whole; what is in it shows only once tracked
      if (m[3] !== '' && !state.parts.test(m[3]!)) continue;
      const folder = `${m[1]}${m[2]}/`;
      const f = found.get(folder) ?? { folder, agent: state.agent, credentials: state.credentials, parts: new Set<string>(), tracked: false, untrackedFirst: !e.tracked, blockedCheckout: false, step: s };
      if (m[3] !== '') f.parts.add(m[3]!.replace(/\/.*$/, '/'));
      if (e.created) f.committedBy ??= s;
      f.tracked ||= e.tracked;
      f.blockedCheckout ||= e.blocked;
      found.set(folder, f);
    }
  }
  const drafts: Draft[] = [];
  for (const f of found.values()) {
    // a bare `?? .codex/` says nothing of what is in it: a team's prompts live there as well
    if (f.parts.size === 0 || settledLater(view, f.step, f.folder)) continue;
    // a SQLite database's `-shm`/`-wal` companions are one entry, as `.gitignore` globs them (the
    // database itself only where git lists it)
    // (the login first, then the transcripts: what is cut past five must not be either)
    const all = [...new Set([...f.parts].map((p) => p.replace(/\.sqlite-(?:shm|wal)$/, '.sqlite-*')))];
    const rank = (p: string): number => (f.credentials.test(p) ? 0 : TRANSCRIPTS.test(p) ? 1 : 2);
    const parts = [0, 1, 2].flatMap((r) => all.filter((p) => rank(p) === r)).slice(0, 5);
    const what = parts.map((p) => code(p)).join(', ');
    // (git prints paths from the repository root, which the agent's folder may lie below)
    const where = f.folder.indexOf('/') < f.folder.length - 1 ? `${code(f.folder)} (from the repository root)` : code(f.folder);
    // the folder's transcripts are what must never reach a commit: say which part holds them
    const transcripts = parts.find((p) => TRANSCRIPTS.test(p));
    const login = parts.find((p) => f.credentials.test(p));
    const holding = `${login ? `; ${code(login)} holds its login credentials` : ''}${transcripts ? `; ${code(transcripts)} holds its session transcripts` : ''}`;
    // a later `git add -A` / `git add .` / `git commit -a` sweeps it in
    const sweep = view.steps.find((x) => x.pos > f.step.pos && !x.rejected && x.command !== undefined && SWEEPING_ADD.test(x.command));
    // (staged only where the transcript shows it ran: a last call may have no result)
    const them = f.tracked || parts.length === 1 ? 'it' : 'them';
    const add = sweep ? code(SWEEPING_ADD.exec(sweep.command!)![0]) : '';
    // (what this session's own add did comes first: the advice after it is what an item cut to
    // length may lose)
    // (untracked until this session's add, what to check and undo is the advice; tracked, the
    // text below gives it)
    const staged = sweep !== undefined && seenToSucceed(sweep);
    const untrack = `untrack ${staged ? them : 'what it lists'} (${code('git rm -r --cached')}, with the user's consent) and ignore ${them}`;
    const swept = !sweep
      ? ''
      : f.tracked
        ? staged
          ? ` This session's ${add} staged ${them}.`
          : ` This session ran ${add}: check its commit for ${them} before pushing.`
        : staged
          ? ` This session's ${add} staged ${them}: ${untrack}.`
          : ` This session ran ${add} with ${them} untracked: check ${code(`git ls-files ${f.folder}`)}, ${untrack}.`;
    const staging = `stage files by name (never ${code('git add -A')} or ${code('git add .')})`;
    // untracked until this session's own add put it in a commit (git listed it untracked first, or
    // the commit's `create mode` lines show it): the session did that, not the repository; and a
    // login in that commit is what must not be pushed
    const adder = f.committedBy?.command !== undefined && SWEEPING_ADD.test(f.committedBy.command) ? f.committedBy : staged ? sweep : undefined;
    const addedHere = f.tracked && (f.committedBy !== undefined || f.untrackedFirst) && adder !== undefined;
    const text = addedHere
      ? `${where} holds ${f.agent}'s own session state (${what}${holding}); it was untracked until this session's ${code(SWEEPING_ADD.exec(adder.command!)![0])} put it in a commit. Untrack it with the user's consent (${code(`git rm -r --cached ${f.folder}`)}, then ignore it)${login ? '; the login is in that commit: push no commit that holds it, and renew the login if one was pushed' : ''}.`
      : f.tracked
      ? // tracked, it stays in every commit until untracked (the user's history: with their consent);
        `${where} holds ${f.agent}'s own session state (${what}${holding}) and git tracks it here, so every session changes it${f.blockedCheckout ? `, and git refused a checkout over those changes (${code('Your local changes to the following files would be overwritten')})` : ''}.${swept} Untrack it with the user's consent (${code(`git rm -r --cached ${f.folder}`)}, then ignore it); until then ${staging}.`
      : // git lists the state folders one by one when the folder also holds tracked files (a team's settings): ignore those, not the folder
        // (after an add that may have swept it in, what to check and undo is the advice)
        `${f.agent}'s own session state lies inside this repository, untracked: ${parts.map((p) => code(f.folder + p)).join(', ')}${holding}.${swept}${sweep ? '' : ` Keep it out of commits: list ${parts.length > 1 ? 'them' : 'it'} in ${code('.gitignore')}, or ${staging}.`}`;
    drafts.push({
      category: f.tracked || sweep !== undefined ? 'pitfall' : 'fact',
      scope: 'repo',
      title: `${f.agent}'s session state in ${f.folder} ${addedHere ? 'was committed by a git add of everything' : f.tracked ? 'is tracked by git here' : 'lies inside this repository'}`,
      text,
      // (git's own listing shows it)
      confidence: CONFIDENCE.verified,
      event: f.step.outputEvent,
      tags: [f.agent, 'git', f.folder],
      quotes: [],
      rule: 'agent-state-in-repo',
      signature: `agent state in repo ${f.folder}`,
      score: f.tracked ? 7 : 5,
    });
  }
  return drafts;
}

export const agentStateInRepo: RuleExtractor = ruleExtractor('agent-state-in-repo', agentStateDrafts);
