/**
 * A clone over https that fails with `could not read Username for 'https://github.com'`: the
 * words say credentials, but GitHub (GitLab, Bitbucket alike) answers a clone of a repository
 * that does not exist, or that the caller may not see, by asking for them, and a shell without a
 * terminal cannot answer. An agent reads it as an authentication problem and goes looking for
 * tokens; the address is what to check. When a clone from the same host worked in the session,
 * network and anonymous access are fine, and the item says so.
 *
 * A push, pull or fetch that asks the same of a remote the checkout already has is the other case:
 * the remote is there, and nothing in the agent's shell gives credentials for it (no helper, no
 * token), which a shell without a terminal cannot ask for. Said only when no later run of the same
 * git command got through in the session (then error-fix.ts tells what changed).
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { perObject } from '../per-object.js';
import { clip, code } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';

const ASKED_FOR_USER = /could not read Username for 'https:\/\/([^'/]+)'/;
const HTTPS_CLONE = /\bgit\s+clone\s+(?:-{1,2}[\w-]+(?:[= ]\S+)?\s+)*(https:\/\/([^/\s'"]+)\/[^\s'"]+)/g;

/** The address a failed clone asked credentials for, with its host. */
export const cloneAskedForCredentials: (s: Step) => { url: string; host: string } | undefined = perObject(askedOf);

/** The host a failed git command asked a username for (`could not read Username for 'https://github.com'`). */
function hostAskedFor(s: Step): string | undefined {
  if (!s.failed || s.command === undefined || !s.output.includes('could not read Username')) return undefined;
  return ASKED_FOR_USER.exec(s.output)?.[1];
}

function askedOf(s: Step): { url: string; host: string } | undefined {
  const host = hostAskedFor(s);
  const clone = host === undefined ? undefined : [...s.command!.matchAll(HTTPS_CLONE)].find((m) => m[2] === host);
  return clone === undefined ? undefined : { url: clone[1]!, host: host! };
}

/** `git push`, `git pull`, `git fetch` (with options and a remote), as the agent ran it. */
const REMOTE_COMMAND = /\bgit\s+(?:-C\s+\S+\s+)?(push|pull|fetch)\b/;

/** A push, pull or fetch that asked for a username for `host`, and its git command. */
export const remoteAskedForCredentials: (s: Step) => { host: string; verb: string } | undefined = perObject(remoteAskedOf);

function remoteAskedOf(s: Step): { host: string; verb: string } | undefined {
  const host = hostAskedFor(s);
  if (host === undefined || /\bgit\s+clone\b/.test(s.command!)) return undefined;
  const verb = REMOTE_COMMAND.exec(s.command!)?.[1];
  return verb === undefined ? undefined : { host, verb };
}

/** Whether a later run of the same git command got through: the session found the way, which
 * error-fix.ts tells. */
function gotThroughLater(view: SessionView, s: Step, verb: string): boolean {
  return view.steps.some((x) => x.pos > s.pos && x.command !== undefined && seenToSucceed(x) && REMOTE_COMMAND.exec(x.command)?.[1] === verb);
}

/** A push, pull or fetch that asked for credentials and never got through: this rule's, not an error item's. */
export function remoteCredentialsMissing(view: SessionView, s: Step): boolean {
  const asked = remoteAskedForCredentials(s);
  return asked !== undefined && !gotThroughLater(view, s, asked.verb);
}

function remoteDraft(s: Step, asked: { host: string; verb: string }): Draft {
  return {
    category: 'tool-quirk',
    // (this checkout's remote, from this machine's agent shell: what holds here, not everywhere)
    scope: 'repo',
    title: `git ${asked.verb} from the agent's shell asks for a username: no ${asked.host} credentials there`,
    text:
      `${code(`git ${asked.verb}`)} to this repository's https remote failed in the agent's shell with ${code(`could not read Username for 'https://${asked.host}'`)}: ` +
      `the shell had no credentials for ${asked.host} to give, and without a terminal git cannot ask for them. Commit, then ask the user to ${asked.verb} (or to set up a credential helper or an ssh remote for this shell).`,
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: ['git', asked.verb, asked.host],
    quotes: [`could not read Username for 'https://${asked.host}'`],
    rule: 'git-clone-credentials',
    signature: `git ${asked.verb} credentials ${asked.host}`,
    score: 5,
  };
}

/** A clone from `host` that worked, in a step of its own. */
function clonedFrom(view: SessionView, host: string): Step | undefined {
  return view.steps.find((x) => x.command !== undefined && seenToSucceed(x) && !cloneAskedForCredentials(x) && [...x.command.matchAll(HTTPS_CLONE)].some((m) => m[2] === host));
}

export function gitCloneCredentialDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!s.failed) continue;
    const remote = remoteAskedForCredentials(s);
    if (remote !== undefined) {
      if (remoteCredentialsMissing(view, s)) return [remoteDraft(s, remote)];
      continue;
    }
    const asked = cloneAskedForCredentials(s);
    if (asked === undefined) continue;
    const worked = clonedFrom(view, asked.host);
    return [
      {
        category: 'tool-quirk',
        scope: 'global',
        title: `git clone asks for a username when the ${asked.host} repository is not there`,
        text:
          `${code(`git clone ${clip(asked.url, 70)}`)} failed with ${code(`could not read Username for 'https://${asked.host}'`)}. ` +
          `A clone of a repository that does not exist under that name, or is private, makes ${asked.host} ask for credentials, which a shell without a terminal cannot give. ` +
          (worked ? `A clone from ${asked.host} worked in the same session, so the address is what to check: its owner and name. ` : 'Check the address (owner and name) before looking for tokens. '),
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['git', 'clone', asked.host],
        quotes: [`could not read Username for 'https://${asked.host}'`],
        rule: 'git-clone-credentials',
        signature: `git clone credentials ${asked.host}`,
        score: worked ? 7 : 5,
      },
    ];
  }
  return [];
}

export const gitCloneCredentials: RuleExtractor = ruleExtractor('git-clone-credentials', gitCloneCredentialDrafts);
