/**
 * The complaint an IDE's broken shell wrapper prints after every command of a tool, whatever the
 * command (`zsh:1: command not found: dump_zsh_state` from Cursor's wrapper, which saves and
 * restores the shell's state around each one). Found here once for the two rules that tell it:
 * shell-wrapper-noise.ts (the complaint is no failure) and shell-cwd.ts (a `cd` lost with it).
 */
import type { SessionView } from '../view.js';
import { perObject } from '../per-object.js';

/** A line that names the shell's startup file it comes from (`~/.zshrc`, Homebrew's `shellenv.sh`). */
export const STARTUP_FILE = /(?:^|[\/\s])(?:\.(?:zshrc|zshenv|zprofile|bashrc|bash_profile|profile)|shellenv\.sh|profile\.d\/[\w.-]+)(?=[:\s]|$)/;

/** Lines of a shell complaining (`command not found`, `cannot create temp file for here-document`,
 * `Permission denied`, a startup file's `/bin/ps: Operation not permitted` in a sandbox);
 * `mayComplain` looks for the same words in a whole output first. */
const COMPLAINT = /command not found|temp file for here|Permission denied|Operation not permitted/;
/** What a machine is short of is its state at that moment, not the wrapper's habit. */
const STATE = /no space left|out of memory|quota exceeded/i;
/** The shell's own place in its script (`zsh:1:`, `--: line 20:`, `(eval):8:`), which varies. */
export const PLACE = /^(?:\S*:\s*)?(?:line\s+)?\d+:\s*/;
const MIN_COMMANDS = 3;

/** Whether an output holds a complaint at all (most do not, and are never split into lines). */
function mayComplain(output: string): boolean {
  return output.includes('command not found') || output.includes('temp file for here') || output.includes('Permission denied') || output.includes('Operation not permitted');
}

export interface WrapperComplaint {
  tool: string;
  /** The complaint lines, as first printed, most widely shared first (at most two). */
  lines: string[];
  /** How many of the tool's commands printed the first line, and how many it ran. */
  printedBy: number;
  commands: number;
  event: number;
}

/** Per tool, the complaint lines that the outputs of at least three different commands, and most
 * of that tool's commands, share (the shell's line numbers taken out). Where the same outputs say
 * what the machine was short of (`no space left on device`), the complaint is that state's
 * effect, and the state passes: none. (Asked by both rules: found once per session.) */
export const wrapperComplaints: (view: SessionView) => WrapperComplaint[] = perObject(findComplaints);

/** Claude Code's own guard refusing a call before running it (`cd to '…' was blocked. For security, Claude Code may only …`). */
const BLOCKED_BY_TOOL = /^\S.{0,300}? was blocked\. For security, Claude Code\b/;

function findComplaints(view: SessionView): WrapperComplaint[] {
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
  const found: WrapperComplaint[] = [];
  for (const [tool, lines] of byTool) {
    if (shortOf.has(tool)) continue;
    const candidates = [...lines.values()].filter((l) => l.commands.size >= MIN_COMMANDS);
    if (candidates.length === 0) continue;
    // (the tool's commands are counted only for a line that could be its wrapper's)
    // (nor a call the tool itself stopped before any shell ran: no startup file printed anything there)
    const commands = new Set(view.steps.filter((x) => x.call.name === tool && x.command !== undefined && !x.rejected && x.result !== undefined && !BLOCKED_BY_TOOL.test(x.output)).map((x) => x.command!)).size;
    const shared = candidates
      .filter((l) => l.commands.size >= commands * 0.6)
      .sort((a, b) => b.commands.size - a.commands.size || a.event - b.event)
      .slice(0, 2);
    if (shared.length === 0) continue;
    found.push({ tool, lines: shared.map((l) => l.shown), printedBy: shared[0]!.commands.size, commands, event: shared[0]!.event });
  }
  return found;
}
