/**
 * A command tool that fails every command before the command runs: each call, whatever its
 * command, came back with one and the same error and nothing else (Claude Code's Bash answering
 * `EACCES: permission denied, mkdir '/tmp/claude-10603'` where /tmp is not writable). The agent
 * retries variants of its command; the lesson is that the tool itself cannot start here, and
 * that the user must repair it outside the session. Said only of three or more
 * different command lines that printed nothing but that error, an error that names none of their
 * arguments, with no command of the tool getting through in between or after.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { tokens } from '../commands.js';
import { perObject } from '../per-object.js';
import { clip, code, errorSignature } from '../text.js';
import type { SessionView, Step } from '../view.js';

const MIN_COMMANDS = 3;

/** A runner's own status line before the output (Claude Code's `Exit code 1`), not what the
 * command printed (Codex's envelopes the view takes off). */
const STATUS_LINE = /^exit code:? -?\d+$/i;

/** A sandbox that cannot start commands is tool-quirks.ts's (it names the way out of the sandbox). */
const SANDBOX = /\bbwrap\b|\bsandbox\b/i;

/** The one line a failed call printed, when it printed nothing else. */
function onlyLine(s: Step): string | undefined {
  const lines = s.output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !STATUS_LINE.test(l));
  return lines.length === 1 && lines[0]!.length <= 200 ? lines[0] : undefined;
}

/** Whether the error names one of the command's own arguments (a file, a folder, a package): then
 * it may be the command's failure, however alike the lines. */
function namesAnArgument(err: string, command: string): boolean {
  const args = tokens(command).filter((t, i, all) => i > 0 && all[i - 1] !== '&&' && all[i - 1] !== ';' && all[i - 1] !== '|' && !t.startsWith('-') && t.length >= 3 && /[a-z]/i.test(t));
  return args.some((a) => err.includes(a));
}

/** A tool's calls that all failed with one error and nothing else, whatever the command. */
interface BrokenRun {
  tool: string;
  err: string;
  steps: Step[];
  /** The tool ran commands before it broke. */
  ranBefore: boolean;
}

/** Per tool, the run of its calls that shows it cannot start commands (see the top of this file);
 * found once per session for this rule and for error-fix.ts, which writes no item for them. */
export const brokenToolRuns: (view: SessionView) => BrokenRun[] = perObject(findBrokenRuns);

function findBrokenRuns(view: SessionView): BrokenRun[] {
  const byTool = new Map<string, Step[]>();
  for (const s of view.steps) {
    if (s.command === undefined || s.rejected) continue;
    const list = byTool.get(s.call.name) ?? [];
    list.push(s);
    byTool.set(s.call.name, list);
  }
  const runs: BrokenRun[] = [];
  for (const [tool, steps] of byTool) {
    // the longest run of the tool's calls that all failed with one line and nothing else
    let run: { err: string; steps: Step[] } | undefined;
    let best: { err: string; steps: Step[] } | undefined;
    for (const s of steps) {
      const err = s.failed ? onlyLine(s) : undefined;
      if (err !== undefined && run !== undefined && errorSignature(err) === errorSignature(run.err)) run.steps.push(s);
      else run = err !== undefined ? { err, steps: [s] } : undefined;
      if (run && (!best || run.steps.length > best.steps.length)) best = run;
    }
    if (!best || SANDBOX.test(best.err)) continue;
    const commands = new Set(best.steps.map((s) => s.command!));
    if (commands.size < MIN_COMMANDS || best.steps.some((s) => namesAnArgument(best!.err, s.command!))) continue;
    // a command of the tool that got through afterwards: the state passed (or the session
    // changed something the item cannot name), so the lesson does not hold
    const last = best.steps[best.steps.length - 1]!;
    if (steps.some((s) => s.pos > last.pos && !s.failed)) continue;
    runs.push({ tool, err: best.err, steps: best.steps, ranBefore: steps.some((s) => s.pos < best!.steps[0]!.pos && !s.failed) });
  }
  return runs;
}

/** Whether a failed step is one of a tool's calls that could not start (this rule's to tell). */
export function inBrokenRun(view: SessionView, s: Step): boolean {
  return brokenToolRuns(view).some((r) => r.steps.includes(s));
}

/** A refusal to make a folder right under /tmp. */
const TEMP_DIR_REFUSED = /\b(?:EACCES|EPERM|permission denied)\b.*\bmkdir '\/tmp\/[^/']+'/i;

export function toolCannotStartDrafts(view: SessionView): Draft[] {
  return brokenToolRuns(view).map((run) => {
    const { tool, err } = run;
    const commands = new Set(run.steps.map((s) => s.command!));
    // (after commands that ran, the tool broke during the session: "every" holds from then on)
    const since = run.ranBefore ? ' from then on' : '';
    // the agent's other tools that failed with the same error (a file reader, a search): the
    // cause is below them all
    const core = err.replace(/^[^:]{0,40}failed:\s*/i, '').replace(/^\w+Error:\s*/, '');
    const others = [...new Set(view.steps.filter((x) => x.call.name !== tool && x.failed && x.output.includes(core)).map((x) => x.call.name))].slice(0, 3);
    const alsoOthers = others.length > 0 ? `; ${others.map((o) => code(o)).join(', ')} failed with it too` : '';
    // the kind of machine, where the session's folder says it (Termux's home, a Windows drive, Git
    // Bash's `/c/Users/…`) or the error does: `nul` is Windows' null device, a file nowhere else
    const cwd = view.session.cwd ?? '';
    const machine = cwd.startsWith('/data/data/com.termux/') ? ' (Termux)' : /^(?:[A-Za-z]:[\\/]|\/[a-z]\/Users\/)/.test(cwd) || /'nul'/.test(err) ? ' (Windows)' : '';
    // a folder of its own it could not make under /tmp (`mkdir '/tmp/claude-10603'`): that is why
    // (Termux has no writable /tmp: its temp folder is $PREFIX/tmp)
    const tempDir = TEMP_DIR_REFUSED.test(err);
    const why = tempDir ? `: the tool cannot make its temp folder in ${code('/tmp')}${machine === ' (Termux)' ? ` (Termux's is ${code('$PREFIX/tmp')})` : ''}, so it starts nothing` : ': the tool cannot start them';
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `${tool} fails every command on this machine before it runs`,
      // (within the 400 characters an item keeps: the error, the lesson, the other tools)
      text: `Every command run through ${code(tool)} on this machine${machine}${since} printed nothing but ${code(clip(err, 110))} (${commands.size} different commands${alsoOthers})${why}. Stop after the first such failure and ask the user to repair this outside the session.`,
      confidence: CONFIDENCE.verified,
      event: run.steps[0]!.outputEvent,
      tags: [tool, 'shell'],
      quotes: [err],
      rule: 'tool-cannot-start',
      signature: `tool cannot start ${tool} ${errorSignature(err).slice(0, 60)}`,
      score: 6,
    };
  });
}

export const toolCannotStart: RuleExtractor = ruleExtractor('tool-cannot-start', toolCannotStartDrafts);
