/**
 * sudo that stops for a password (`sudo: a terminal is required to read the password`, older
 * `sudo: no tty present and no askpass program specified`): sudo on this machine asks for the
 * user's password, and the agent's shell has no terminal to ask on, so a command run with sudo
 * fails before it starts, whatever it was. Nothing the agent runs gets past it (a password piped
 * to `sudo -S` would be written into the transcript); the user runs such commands. Said of the
 * machine, once, and only when no later sudo got through in the session (credentials cached by
 * the user, or a rule that needs none: then sudo works here).
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';
import { escalation } from '../escalation.js';

const NEEDS_PASSWORD = /^sudo: (?:a terminal is required to read the password|no tty present and no askpass program specified)\b/m;
const RUNS_SUDO = /(?:^|[;&|(]\s*|\s)sudo\s/;

/** A step whose sudo stopped for a password the shell could not ask for (`yay -S x` runs sudo
 * itself). sudo's own line says it ran nothing, also where the transcript keeps no exit code. */
export function sudoWantedPassword(s: Step): boolean {
  return s.command !== undefined && !s.rejected && NEEDS_PASSWORD.test(s.output);
}

export function sudoPasswordDrafts(view: SessionView): Draft[] {
  const first = view.steps.find(sudoWantedPassword);
  if (first === undefined) return [];
  if (view.steps.some((x) => x.pos > first.pos && x.command !== undefined && RUNS_SUDO.test(x.command) && seenToSucceed(x) && !sudoWantedPassword(x))) return [];
  const message = NEEDS_PASSWORD.exec(first.output)![0];
  // the command up to its first quoted argument: what it was given (a proxy's address, a file's
  // text) is this task's, and the lesson is sudo's
  const line = oneLine(first.command!);
  const quote = line.search(/['"]/);
  const shown = quote > 0 ? `${line.slice(0, quote + 1)}…` : clip(line, 90);
  return [
    {
      category: 'fact',
      scope: 'global',
      title: "sudo asks for a password here, which the agent's shell cannot give",
      text:
        `On this machine \`sudo\` asks for the user's password, and the agent's shell has no terminal to ask on: ${code(shown)} failed with ${code(message)} before it ran${escalation(first.call.input) !== undefined ? ', outside the sandbox too' : ''}. ` +
        'Ask the user to run commands that need root in their own terminal (a password piped to `sudo -S` would be written into the transcript).',
      confidence: CONFIDENCE.stated,
      event: first.outputEvent,
      tags: ['sudo', 'password', 'root'],
      quotes: [message],
      rule: 'sudo-password',
      signature: 'sudo password no terminal',
      score: 6,
    },
  ];
}

export const sudoPassword: RuleExtractor = ruleExtractor('sudo-password', sudoPasswordDrafts);
