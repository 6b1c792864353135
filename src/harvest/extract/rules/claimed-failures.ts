/**
 * Failures another rule tells whole, so error-fix.ts writes no "`cmd` fails" item beside theirs:
 * a tool quirk (a missing command or module, a refused edit, the sandbox), a prompt's placeholder
 * left unfilled, a clone or a push that asked for credentials, sudo that asked for a password, a
 * command killed at the timeout while it asked a question, a tool that could not start any
 * command. One list, so a new rule's claim is added in one place.
 */
import type { SessionView, Step } from '../view.js';
import { cloneAskedForCredentials, remoteCredentialsMissing } from './git-clone-credentials.js';
import { inBrokenRun } from './tool-cannot-start.js';
import { sudoWantedPassword } from './sudo-password.js';
import { askedAtTimeout } from './waits-for-input.js';
import { quirkKind } from './tool-quirks.js';
import { unfilledFailure } from './unfilled-placeholders.js';

export function claimedElsewhere(view: SessionView, s: Step): boolean {
  return quirkKind(s) !== undefined || unfilledFailure(view, s) !== undefined || cloneAskedForCredentials(s) !== undefined || remoteCredentialsMissing(view, s) || sudoWantedPassword(s) || askedAtTimeout(s) !== undefined || inBrokenRun(view, s);
}
