/**
 * An IDE runs the agent's commands through a wrapper of its own (Cursor saves and restores the
 * shell's state around each one), and a broken wrapper prints the same complaint after every
 * command, whatever the command: `zsh:1: command not found: dump_zsh_state`. It reads as a failure
 * and is none; the next session on that tool should read past it. Said only of a line that looks
 * like an error and that the outputs of at least three different commands, most of that tool's
 * commands, share, with the shell's own line numbers taken out. A wrapper that cannot save the
 * shell's state does not carry the working directory over either, which is what costs the next
 * session: the item says so. Where the same outputs say what the machine was short of (`no space
 * left on device`), the complaint is that state's effect, and the state passes: no item.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import type { SessionView } from '../view.js';

/** Lines of a shell complaining (`command not found`, `cannot create temp file for here-document`,
 * `Permission denied`); `mayComplain` looks for the same words in a whole output first. */
const COMPLAINT = /command not found|temp file for here|Permission denied/;
/** What a machine is short of is its state at that moment, not the wrapper's habit. */
const STATE = /no space left|out of memory|quota exceeded/i;
/** The shell's own place in its script (`zsh:1:`, `--: line 20:`, `(eval):8:`), which varies. */
const PLACE = /^(?:\S*:\s*)?(?:line\s+)?\d+:\s*/;
const MIN_COMMANDS = 3;

/** Whether an output holds a complaint at all (most do not, and are never split into lines). */
function mayComplain(output: string): boolean {
  return output.includes('command not found') || output.includes('temp file for here') || output.includes('Permission denied');
}

export function shellWrapperNoiseDrafts(view: SessionView): Draft[] {
  // the complaints each tool's commands printed, by the line without the shell's place in it
  const byTool = new Map<string, Map<string, { shown: string; commands: Set<string>; event: number }>>();
  const shortOf = new Set<string>();
  for (const s of view.steps) {
    if (s.command === undefined || s.rejected || s.result === undefined || !mayComplain(s.output)) continue;
    const lines = byTool.get(s.call.name) ?? new Map<string, { shown: string; commands: Set<string>; event: number }>();
    byTool.set(s.call.name, lines);
    if (STATE.test(s.output)) shortOf.add(s.call.name);
    for (const raw of new Set(s.output.split('\n'))) {
      const line = raw.trim();
      if (!COMPLAINT.test(line) || STATE.test(line) || line.length > 160) continue;
      const key = line.replace(PLACE, '');
      const seen = lines.get(key) ?? { shown: line, commands: new Set<string>(), event: s.outputEvent };
      seen.commands.add(s.command);
      lines.set(key, seen);
    }
  }
  const drafts: Draft[] = [];
  for (const [name, lines] of byTool) {
    if (shortOf.has(name)) continue;
    const candidates = [...lines.values()].filter((l) => l.commands.size >= MIN_COMMANDS);
    if (candidates.length === 0) continue;
    // (the tool's commands are counted only for a line that could be its wrapper's)
    const commands = new Set(view.steps.filter((x) => x.call.name === name && x.command !== undefined && !x.rejected && x.result !== undefined).map((x) => x.command!)).size;
    const shared = candidates
      .filter((l) => l.commands.size >= commands * 0.6)
      .sort((a, b) => b.commands.size - a.commands.size || a.event - b.event)
      .slice(0, 2);
    if (shared.length === 0) continue;
    const first = shared[0]!;
    // the wrapper's complaints: the second too when both fit beside the lesson
    const [one, two] = shared.map((l) => code(clip(l.shown, 80)));
    const shown = two !== undefined && one!.length + two.length < 100 ? `${one} and ${two}` : one!;
    drafts.push({
      category: 'tool-quirk',
      scope: 'agent',
      title: `${name} prints the same shell complaint whatever the command`,
      text:
        `${first.commands.size === commands ? 'Every command' : 'Commands'} run through ${code(name)} here also printed ${shown} (${first.commands.size} of ${commands} commands, whatever they were): ` +
        "the tool's shell wrapper failing, not the commands. A wrapper that cannot save the shell's state may not carry the working directory over either: start each command with `cd <absolute path> &&`.",
      confidence: CONFIDENCE.verified,
      event: first.event,
      tags: [name, 'shell', 'noise'],
      quotes: shared.map((l) => l.shown),
      rule: 'shell-wrapper-noise',
      signature: `shell wrapper noise ${name} ${first.shown.replace(PLACE, '').slice(0, 60)}`,
      score: 6,
    });
  }
  return drafts;
}

export const shellWrapperNoise: RuleExtractor = ruleExtractor('shell-wrapper-noise', shellWrapperNoiseDrafts);
