/**
 * Project commands: a repo that ships its own agent command (`.claude/commands/hi.md`,
 * `.gemini/commands/x.toml`) has a ritual the next session should know exists and what it does.
 * When the session reads the command file and then carries it out, the steps it took right
 * after (the commands it ran, the files it read) say what the command is for.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import { isEdit, READ_TOOLS, type SessionView, type Step } from '../view.js';

const COMMAND_FILE = /(?:^|\/)\.(?:claude|gemini|cursor|codex|opencode)\/commands\/([\w.-]{1,40})\.(?:md|toml)$/;
/** Read tools of TUI copies name their path in `args`; several files as backticked patterns. */
const BACKTICKED_PATH = /`([\w./-]+\.\w{1,6})`/g;
const MAX_STEPS = 4;

/** The file paths a read step names. */
function readPaths(s: Step): string[] {
  const input = s.call.input;
  const direct = input.file_path ?? input.path ?? input.target_file;
  if (typeof direct === 'string') return [direct];
  const args = input.args;
  if (typeof args !== 'string') return [];
  const listed = [...args.matchAll(BACKTICKED_PATH)].map((m) => m[1]!);
  return listed.length > 0 ? listed : /^\S+\.\w{1,6}$/.test(args.trim()) ? [args.trim()] : [];
}

function stepSummary(s: Step): string | undefined {
  if (s.command) return `ran ${code(s.command)}`;
  if (READ_TOOLS.has(s.call.name)) {
    const paths = readPaths(s);
    if (paths.length === 0) return undefined;
    const shown = paths.slice(0, 3).map(code);
    return `read ${shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown[0]}`;
  }
  return undefined;
}

export function projectCommandDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!READ_TOOLS.has(s.call.name) || s.failed) continue;
    const file = readPaths(s).find((p) => COMMAND_FILE.test(p));
    if (!file) continue;
    const name = COMMAND_FILE.exec(file)![1]!;
    // the steps the command led to: same turn, before any edit (then the session's own task began)
    const nextPrompt = view.prompts.find((p) => p.index > s.call.index)?.index ?? Number.MAX_SAFE_INTEGER;
    // a turn that reads other command files too surveys them (an audit of `.cursor/commands/`):
    // a command is read there, not carried out
    const turnStart = [...view.prompts].reverse().find((p) => p.index < s.call.index)?.index ?? -1;
    const inTurn = view.steps.filter((x) => x !== s && x.call.index > turnStart && x.call.index < nextPrompt);
    if (inTurn.some((x) => READ_TOOLS.has(x.call.name) && readPaths(x).some((p) => COMMAND_FILE.test(p) && p !== file))) continue;
    const done: string[] = [];
    for (const next of view.steps.slice(s.pos + 1)) {
      if (next.call.index > nextPrompt || isEdit(next) || next.rejected || done.length >= MAX_STEPS) break;
      const summary = stepSummary(next);
      if (summary && !done.includes(summary)) done.push(summary);
    }
    if (done.length < 2) continue;
    const rel = file.replace(/^.*?(\.(?:claude|gemini|cursor|codex|opencode)\/)/, '$1');
    return [
      {
        category: 'fact',
        title: `The /${name} project command`,
        text: `The repo defines a \`/${name}\` agent command (${code(rel)}). Carrying it out, the agent ${done.join(', then ')}.`,
        confidence: CONFIDENCE.stated,
        event: s.call.index,
        tags: ['command', name],
        rule: 'project-command',
        signature: `project-command:${name}`,
        // below what the session found out: a ritual is worth a slot only when there is room
        score: 4.5,
      },
    ];
  }
  return [];
}

export const projectCommands: RuleExtractor = ruleExtractor('project-commands', projectCommandDrafts);
