/**
 * A program the agent's sandbox kills on every run (`sandbox error: command was killed by a
 * signal`), even `--version`: the message is the sandbox's, not the program's, and retrying the
 * same line with other arguments only repeats it. Told of the agent where it happened at least
 * twice to one program and never let it run, with the other way of running it that then worked
 * in the session (`python3 -m pytest` for `pytest`), else with leaving the sandbox.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import type { SessionView, Step } from '../view.js';
import { escapeRegExp } from '../../../core/regexp.js';

const KILLED = 'sandbox error: command was killed by a signal';

/** A later command that ran the same tool another way: as a module (`python3 -m pytest`), through
 * a runner (`npx jest`, `uv run pytest`) or by a path (`./node_modules/.bin/jest`), each the
 * program of one of its simple commands (not an argument: `head /opt/homebrew/bin/pytest`). */
function otherWay(view: SessionView, program: string, after: Step): Step | undefined {
  const name = escapeRegExp(program);
  const another = new RegExp(`^(?:\\S*python[\\d.]*\\s+-m\\s+${name}|(?:npx|uv run|poetry run|pipx run|bunx)\\s+${name}|\\S*/${name})(?:\\s|$)`);
  return view.steps.find((s) => s.pos > after.pos && s.command !== undefined && !s.failed && !s.rejected && !s.output.includes(KILLED) && s.simple.some((c) => another.test(c)));
}

export function sandboxKilledDrafts(view: SessionView): Draft[] {
  const killed = new Map<string, Step[]>();
  for (const s of view.steps) {
    if (s.command === undefined || s.program === '' || !s.output.includes(KILLED)) continue;
    killed.set(s.program, [...(killed.get(s.program) ?? []), s]);
  }
  const drafts: Draft[] = [];
  for (const [program, steps] of killed) {
    if (steps.length < 2) continue;
    // a run of the program by its name that was not killed: the kill is not the program's every run
    if (view.steps.some((s) => s.program === program && !s.output.includes(KILLED) && !s.failed && !s.rejected && s.command !== undefined)) continue;
    const first = steps[0]!;
    const version = steps.find((s) => /\s--version\b/.test(s.command!));
    const other = otherWay(view, program, first);
    const agent = view.session.agent;
    const runs = `${steps.length} of ${steps.length} runs${version ? `, even ${code(clip(oneLine(version.command!), 50))}` : ''}`;
    const then = other
      ? ` ${code(clip(oneLine(other.command!), 60))} then ran: run it that way (its interpreter or runner may differ from the script's), or ask to run it outside the sandbox.`
      : ' Ask to run it outside the sandbox, or run the tool another way (as a module, through its runner).';
    drafts.push({
      category: 'tool-quirk',
      scope: 'agent',
      title: `The sandbox kills every \`${program}\` run ("killed by a signal")`,
      text: `In ${agent === 'codex' ? "Codex's" : "the agent's"} sandbox ${code(program)} was killed before it did anything (${runs}: ${code(KILLED)}); the message is the sandbox's, not ${code(program)}'s, and other arguments only repeat it.${then}`,
      confidence: CONFIDENCE.verified,
      event: steps[1]!.outputEvent,
      tags: ['sandbox', program],
      quotes: [KILLED, first.command!],
      rule: 'sandbox-killed',
      signature: `sandbox killed:${program}`,
      score: 5,
    });
  }
  return drafts;
}

export const sandboxKilled: RuleExtractor = ruleExtractor('sandbox-killed', sandboxKilledDrafts);
