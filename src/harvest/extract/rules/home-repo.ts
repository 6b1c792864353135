/**
 * `git init` run in the home directory (`Initialized empty Git repository in /home/dev/.git/`):
 * agent sessions often start in `~` or `/root`, and asked to put "this" under git the agent
 * makes the whole home one repository. `git add .` there stages dotfiles and secrets, and every
 * folder under the home without its own `.git` lies inside it. Said of the machine, once per
 * session; not of a `git init` that ran in the home because the shell had lost a `cd`
 * (shell-cwd.ts tells that, the stray repository with it). A home found to be a repository
 * already (`git status` listing shell history) is left out: reviewers found the harm it had done
 * different each time, and no one lesson to state.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import { seenToSucceed, type SessionView } from '../view.js';
import { lostCd } from './shell-cwd.js';
import { isHomeFolder } from '../../../sessions/repo-identity.js';

/** git's word that it made (or made again) a repository, and where. */
const INIT = /^(Initialized empty|Reinitialized existing) Git repository in (.+?)[\\/]\.git[\\/]?\s*$/m;

export function homeRepoDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!s.command || !seenToSucceed(s) || !s.families.includes('git init') || lostCd(view)?.next === s) continue;
    const init = INIT.exec(s.output);
    if (init === null || !isHomeFolder(init[2]!)) continue;
    const message = `${init[1]} Git repository in ~/.git/`;
    return [
      {
        category: 'pitfall',
        scope: 'global',
        title: 'git init in the home directory makes the whole home one repository',
        text:
          `${code('git init')} ran in the home directory (${code(message)}): the whole home became one repository, so \`git add .\` there stages dotfiles and secrets (\`.ssh/\`, \`.env\`), and any folder under the home without its own \`.git\` lies inside it. ` +
          "Before `git init` or `git add`, check `pwd` and `git rev-parse --show-toplevel`; make a project's repository in its own folder.",
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['git', 'home'],
        quotes: [message],
        rule: 'home-repo',
        signature: 'git init home directory',
        score: 6,
      },
    ];
  }
  return [];
}

export const homeRepo: RuleExtractor = ruleExtractor('home-repo', homeRepoDrafts);
