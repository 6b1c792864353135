/**
 * An agent's plan mode (Gemini CLI's Plan Mode) refuses edits of the project and takes its shell
 * away until a plan is approved: the way out is the agent's own tool (`exit_plan_mode` with the
 * plan's file), which the user approves. One refusal is the mode doing its job; an agent that
 * tried to edit again and again in it, and got through only by that tool, shows a lesson of the
 * agent: the item says what the mode refuses and the way out the session took.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import { seenToSucceed, type SessionView } from '../view.js';

/** `Tool execution denied by policy. You are in Plan Mode and cannot modify source code. …`. */
const PLAN_MODE_REFUSAL = /\bYou are in Plan Mode\b[^.\n]*\./;
/** The shell tool offered no more (`Tool "run_shell_command" not found. Did you mean …`). */
const SHELL_GONE = /^Tool "(run_shell_command)" not found\b/;
const EXIT_TOOLS = new Set(['exit_plan_mode', 'ExitPlanMode']);
const APPROVED = /^Plan approved\b|\bapproved your plan\b/i;

export function planModeDrafts(view: SessionView): Draft[] {
  const refused = view.steps.filter((s) => s.failed && PLAN_MODE_REFUSAL.test(s.output));
  // (once is the mode doing its job, not a lesson)
  if (refused.length < 2) return [];
  const exit = view.steps.find((s) => s.pos > refused[0]!.pos && EXIT_TOOLS.has(s.call.name) && APPROVED.test(s.output.trim()));
  if (!exit) return [];
  // the edit the approval let through: the same tool that was refused, now working
  const edited = view.steps.some((s) => s.pos > exit.pos && refused.some((r) => r.call.name === s.call.name) && seenToSucceed(s) && !s.failed);
  if (!edited) return [];
  const said = clip(PLAN_MODE_REFUSAL.exec(refused[0]!.output)![0], 90);
  const shell = view.steps.find((s) => s.failed && SHELL_GONE.test(s.output.trim()));
  const tools = [...new Set(refused.map((r) => r.call.name))].map(code).join(' and ');
  return [
    {
      category: 'tool-quirk',
      scope: 'agent',
      title: 'Plan Mode refuses edits until a plan is approved with exit_plan_mode',
      text:
        `In Plan Mode edits of project files (${tools}) are refused (${code(said)})${shell ? ` and the shell tool is not offered (${code(SHELL_GONE.exec(shell.output.trim())![0])})` : ''}; ` +
        `here ${refused.length} edits were refused. Write the plan as a \`.md\` file in the plans folder and call ${code(exit.call.name)} with it: once the user approves, edits run.`,
      confidence: CONFIDENCE.verified,
      event: refused[0]!.outputEvent,
      tags: ['plan-mode', exit.call.name, ...new Set(refused.map((r) => r.call.name))],
      quotes: [said],
      rule: 'plan-mode',
      signature: 'plan mode refuses edits until exit_plan_mode',
      score: 5,
    },
  ];
}

export const planMode: RuleExtractor = ruleExtractor('plan-mode', planModeDrafts);
