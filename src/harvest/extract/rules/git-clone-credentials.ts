/**
 * A clone over https that fails with `could not read Username for 'https://github.com'`: the
 * words say credentials, but GitHub (GitLab, Bitbucket alike) answers a clone of a repository
 * that does not exist, or that the caller may not see, by asking for them, and a shell without a
 * terminal cannot answer. An agent reads it as an authentication problem and goes looking for
 * tokens; the address is what to check. When a clone from the same host worked in the session,
 * network and anonymous access are fine, and the item says so.
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

function askedOf(s: Step): { url: string; host: string } | undefined {
  if (!s.failed || s.command === undefined || !s.output.includes('could not read Username')) return undefined;
  const host = ASKED_FOR_USER.exec(s.output)?.[1];
  const clone = host === undefined ? undefined : [...s.command.matchAll(HTTPS_CLONE)].find((m) => m[2] === host);
  return clone === undefined ? undefined : { url: clone[1]!, host: host! };
}

/** A clone from `host` that worked, in a step of its own. */
function clonedFrom(view: SessionView, host: string): Step | undefined {
  return view.steps.find((x) => x.command !== undefined && seenToSucceed(x) && !cloneAskedForCredentials(x) && [...x.command.matchAll(HTTPS_CLONE)].some((m) => m[2] === host));
}

export function gitCloneCredentialDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!s.failed) continue;
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
