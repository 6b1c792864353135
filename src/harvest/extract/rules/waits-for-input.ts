/**
 * A command that stopped to ask a question (a sign-in code, a password, "Continue? [y/N]") in the
 * agent's shell, which has nobody at its keyboard: it waits until the tool kills it at its
 * timeout. The lesson is the agent's shell's, whatever the command: give the answer on the
 * command line (a flag such as `--yes` or `--quiet`), or leave the command to the user's terminal.
 * Read from the tool's own words that it killed the command for time and from the output's last
 * line being a question; one per session, of the agent.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import type { SessionView, Step } from '../view.js';

/** The tool killing a command for time: Gemini CLI's cancellation, Claude Code's and Codex's
 * "timed out", SIGTERM's exit code. */
const KILLED_FOR_TIME = /\bautomatically cancelled because it exceeded the timeout\b(?:[^\n.]|\.(?=\d))*|\bcommand timed out\b[^\n]*|^Exit code 143\b/im;

/** A last line that asks for input: it names what to type or answer, and ends where the answer goes. */
const ASKS = /\b(?:enter|type|input|paste|password|passphrase|passcode|verification code|username|confirm|continue|proceed|overwrite|are you sure)\b[^\n]*(?:[:?]|\[[yYnN]\/[yYnN]\]|\([yYnN]\/[yYnN]\))\s*$/i;

/** The question a step's output ends with, when the tool killed it for time. */
export function askedAtTimeout(s: Step): string | undefined {
  if (s.command === undefined || s.rejected) return undefined;
  // (a literal first: most outputs hold none of the tool's words, and the regex scans all of them)
  const out = s.output;
  if (!out.includes('timed out') && !out.includes('cancelled because') && !out.includes('Exit code 143')) return undefined;
  if (!KILLED_FOR_TIME.test(out)) return undefined;
  // (the tool's own line may come first, as Gemini CLI's, or last)
  const last = out.split('\n').filter((l) => l.trim() !== '' && !KILLED_FOR_TIME.test(l)).at(-1)?.trim();
  return last !== undefined && last.length <= 160 && ASKS.test(last) ? last : undefined;
}

export function waitsForInputDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    const question = askedAtTimeout(s);
    if (question !== undefined) return [waitDraft(s, question)];
  }
  return [];
}

function waitDraft(s: Step, question: string): Draft {
  const killed = clip(KILLED_FOR_TIME.exec(s.output)![0].trim(), 90);
  const tool = s.call.name;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `A command that asks for input hangs in ${tool} until its timeout`,
    text:
      `In ${code(tool)} the agent cannot answer a command's question: ${code(clip(oneLine(s.command!), 50))} asked ${code(clip(question, 80))} and waited until the tool's timeout${/without output/.test(killed) ? ' for a command that prints nothing' : ''} killed it. ` +
      'Pass the answer on the command line (`--yes`, `--quiet`); leave a sign-in or a password to the user.',
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: [tool, 'interactive', 'timeout'],
    quotes: [question, killed],
    rule: 'waits-for-input',
    signature: `waits for input ${tool}`,
    score: 6,
  };
}

export const waitsForInput: RuleExtractor = ruleExtractor('waits-for-input', waitsForInputDrafts);
