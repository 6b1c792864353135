/**
 * The home directory is a git repository: `git init` run in it (`Initialized empty Git repository
 * in /home/dev/.git/`), or `git status` listing the home's own files as untracked (shell
 * history, `.claude.json`, Windows' `NTUSER.DAT`). Every folder under the home that has no `.git`
 * of its own then lies inside that repository: git commands there act on it, a folder looks like
 * a checkout when it is none, and `git add .` stages the whole home (keys, `.env` files, history).
 * Said of the machine, once per session; not of a `git init` that ran in the home because the
 * shell had lost a `cd` (shell-cwd.ts tells that, the stray repository with it).
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';
import { lostCd } from './shell-cwd.js';

/** A home folder: `/home/dev`, `/Users/dev`, `/root`, `C:\Users\dev` (and Git Bash's `/c/Users/dev`). */
const HOME = String.raw`(?:/home/[^/\s]+|/Users/[^/\s]+|/root|[A-Za-z]:[\\/]Users[\\/][^\\/\s]+|/[a-z]/Users/[^/\s]+)`;
const INIT_IN_HOME = new RegExp(String.raw`^(?:Initialized empty|Reinitialized existing) Git repository in (${HOME})[\\/]\.git[\\/]?\s*$`, 'm');

/** Files only a home folder holds (history, the agent's own state, Windows' profile), never a
 * project's or a dotfiles repository's (which keeps `.bashrc`, not `.bash_history`). */
const HOME_ONLY = ['NTUSER.DAT', 'AppData', '.bash_history', '.zsh_history', '.claude.json', '.bash_logout', '.python_history', '.node_repl_history', '.viminfo', '.lesshst', '.wget-hsts', '.sudo_as_admin_successful', '.claude.json.backup', '.cache'];

/** The home's own files among the untracked entries a `git status` listed, the most telling first. */
function homeFilesListed(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    const entry = /^(?:\t|\?\? )(.+?)\/?\s*$/.exec(line)?.[1];
    if (entry !== undefined) names.add(entry.replace(/^(?:\.\.\/)+/, ''));
  }
  return HOME_ONLY.filter((f) => names.has(f));
}

const isStatus = (s: Step): boolean => s.families.includes('git status');

export function homeRepoDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!s.command || !seenToSucceed(s)) continue;
    const init = s.families.includes('git init') && lostCd(view)?.next !== s ? INIT_IN_HOME.exec(s.output) : null;
    const listed = init === null && isStatus(s) ? homeFilesListed(s.output) : [];
    if (init === null && listed.length < 2) continue;
    const initLine = init !== null ? `${init[0].trim().split(' in ')[0]} in ~/.git/` : '';
    const shown = listed.slice(0, 3).map((f) => code(f)).join(', ');
    const how = init !== null ? `${code('git init')} ran in the home directory (${code(initLine)}): the whole home became one repository` : `${code(s.command)} listed the home's own files (${shown}) as untracked: the home directory is a git repository`;
    return [
      {
        category: 'pitfall',
        scope: 'global',
        title: init !== null ? 'git init in the home directory makes the whole home one repository' : 'The home directory is a git repository here',
        text:
          `${how}, so \`git add .\` there stages dotfiles and secrets (\`.ssh/\`, \`.env\`), and any folder under the home without its own \`.git\` lies inside it. ` +
          (init !== null ? "Before `git init` or `git add`, check `pwd` and `git rev-parse --show-toplevel`; make a project's repository in its own folder." : 'Before `git add`, check `git rev-parse --show-toplevel`.'),
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['git', 'home'],
        quotes: [init !== null ? initLine : listed.slice(0, 3).join(', ')],
        rule: 'home-repo',
        signature: 'home directory git repository',
        score: 6,
      },
    ];
  }
  return [];
}

export const homeRepo: RuleExtractor = ruleExtractor('home-repo', homeRepoDrafts);
