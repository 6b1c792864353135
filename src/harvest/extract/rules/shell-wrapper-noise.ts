/**
 * An IDE runs the agent's commands through a wrapper of its own (Cursor saves and restores the
 * shell's state around each one), and a broken wrapper prints the same complaint after every
 * command, whatever the command: `zsh:1: command not found: dump_zsh_state`. It reads as a failure
 * and is none; the next session on that tool should read past it. Said only of a line that looks
 * like an error and that the outputs of at least three different commands, most of that tool's
 * commands, share, with the shell's own line numbers taken out. A wrapper that cannot save the
 * shell's state may not carry the working directory over either, which is what costs the next
 * session: where the session shows a `cd` lost, shell-cwd.ts's item tells both. Where the same
 * outputs say what the machine was short of (`no space left on device`), the complaint is that
 * state's effect, and the state passes: no item.
 */
import { CONFIDENCE } from '../../candidate.js';
import { MAX_TEXT, ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import type { SessionView } from '../view.js';
import { escalation } from '../escalation.js';
import { lostCd } from './shell-cwd.js';
import { PLACE, STARTUP_FILE, wrapperComplaints } from './shell-wrapper-complaints.js';

/** A startup file's line that runs a program it may not (`…/shellenv.sh: line 18: /bin/ps: Operation not permitted`). */
const FORBIDDEN_RUN = /^(\S+?):\s*line \d+:\s*(\S+?):\s*Operation not permitted/;

/** A startup file's line that runs a program the machine lacks (`~/.bashrc: line 1: gh: command not found`). */
const MISSING_RUN = /^(\S+?):\s*line \d+:\s*(\S+?):\s*command not found/;

/** zsh's own commands (completion, options, key bindings): a startup file that runs one in bash
 * (whose `file: line N: x: command not found` this is) was written for zsh, nothing is missing. */
const ZSH_ONLY = /^(?:compdef|compinit|compdump|autoload|setopt|unsetopt|zstyle|bindkey|zmodload|zle|add-zsh-hook)$/;

/** bash's own words when it cannot write its temp folder: here-documents need one. */
const NO_TEMP = /cannot create temp file for here-document/;

export function shellWrapperNoiseDrafts(view: SessionView): Draft[] {
  const complaints = wrapperComplaints(view);
  if (complaints.length === 0) return [];
  const drafts: Draft[] = [];
  const lost = lostCd(view)?.cd.call.name;
  for (const c of complaints) {
    // a lost `cd` with it: shell-cwd.ts's item says both
    if (c.tool === lost) continue;
    // every command that printed it failed with nothing else to say (`bwrap: loopback: Failed
    // RTM_NEWADDR …` alone): the complaint is the failure, the sandbox not starting, no noise
    // beside the commands (tool-quirks.ts tells it where escalated runs then worked)
    const printers = view.steps.filter((x) => x.call.name === c.tool && x.command !== undefined && x.output.includes(c.lines[0]!));
    if (printers.length > 0 && printers.every((x) => x.failed && x.output.split('\n').every((l) => l.trim() === '' || c.lines.some((cl) => l.includes(cl))))) continue;
    // the wrapper's complaints: the second too when both fit beside the lesson
    // (one line alone is shown whole, up to a long path's length)
    const [one, two] = c.lines.map((l) => code(clip(l, c.lines.length === 1 ? 130 : 80)));
    const shown = two !== undefined && one!.length + two.length < 150 ? `${one} and ${two}` : one!;
    // (what the complaint itself says of the machine, and nothing the session did not show)
    const noTemp = c.lines.some((l) => NO_TEMP.test(l)) ? ' The wrapper cannot write a temp file on this machine.' : '';
    // a complaint that names a startup file comes from the shell starting (a profile that runs
    // `ps` the sandbox forbids), not from a wrapper around each command
    // (`shellenv.sh: line 18: /bin/ps: Operation not permitted`: what the file runs that is not let run)
    const forbidden = c.lines.map((l) => FORBIDDEN_RUN.exec(l)).find((m) => m !== null);
    const startup = c.lines.some((l) => STARTUP_FILE.test(l));
    // the sandbox is what forbids it, not the machine, where the tool's commands that did not print
    // it all ran outside the agent's sandbox, or where every one printed it and the transcript
    // records that they all ran inside one
    const quiet = view.steps.filter((x) => x.call.name === c.tool && x.command !== undefined && !x.output.includes(c.lines[0]!));
    const escapedIt = quiet.length > 0 && quiet.every((x) => escalation(x.call.input) !== undefined);
    const allInside = quiet.length === 0 && view.session.sandboxed === true;
    const sandboxed = forbidden !== undefined && (escapedIt || allInside);
    const forbids = escapedIt ? 'the sandbox forbids: commands run outside it did not print this' : allInside ? "the agent's sandbox forbids: every command here ran inside it" : 'is not permitted here';
    // (`~/.bashrc: line 1: gh: command not found`: the file runs a program this machine lacks)
    const missing = forbidden ? undefined : c.lines.map((l) => MISSING_RUN.exec(l)).find((m) => m !== null);
    // the startup file that complains and the program it runs, by their names
    const file = (forbidden ?? missing)?.[1]!.replace(/^.*\//, '');
    const ran = (forbidden ?? missing)?.[2];
    const runs = forbidden
      ? ` (${code(file!)} runs ${code(ran!)}, which ${forbids})`
      : missing
        ? ZSH_ONLY.test(ran!)
          ? ` (${code(file!)} runs ${code(ran!)}, a zsh command, and bash, which runs the commands here, reads that file too)`
          : ` (${code(file!)} runs ${code(ran!)}, which is not installed here)`
        : '';
    const source = startup ? `the shell's startup files${runs}` : "the tool's shell wrapper";
    // (a count says something only when some commands did not print it; of the sandbox's doing,
    // which commands ran inside it is what counts, not how many there were)
    const who = sandboxed
      ? `Commands run through ${code(c.tool)} inside the agent's sandbox here also printed ${shown}`
      : `${c.printedBy === c.commands ? 'Every command' : 'Commands'} run through ${code(c.tool)} here also printed ${shown}${c.printedBy === c.commands ? '' : ` (${c.printedBy} of ${c.commands} commands)`}`;
    const lead =
      `${who}: ` +
      `${shown !== one ? 'lines' : 'a line'} of ${source}, not of the commands.${noTemp}`;
    // a command that printed it and still succeeded shows it is harmless, what the next session
    // needs: named, since not every command that printed it succeeded (where the item has room).
    // No writable temp folder is not called harmless: what it breaks, the session did not show.
    const unharmed = view.steps.find((x) => x.call.name === c.tool && !x.failed && !x.rejected && x.command !== undefined && x.output.includes(c.lines[0]!));
    const example = unharmed ? ` It is harmless (${code(clip(unharmed.command!, 30))} succeeded with it): judge each command by its own exit code.` : '';
    const advice = noTemp || !unharmed ? " The other lines are the command's own." : lead.length + example.length <= MAX_TEXT ? example : ' It is harmless: judge each command by its own exit code.';
    drafts.push({
      category: 'tool-quirk',
      // the machine's shell startup prints it, whatever tool runs the shell: this machine's
      // (unless the agent's sandbox is what forbids it: then the agent's)
      scope: startup && !sandboxed ? 'global' : 'agent',
      // (the startup file that complains, named: what prints it is that file on this machine,
      // not the tool on every machine)
      title:
        missing && startup
          ? ZSH_ONLY.test(ran!)
            ? `${clip(file!, 20)} runs zsh's ${clip(ran!, 20)} in bash: every ${c.tool} command complains`
            : `${clip(file!, 20)} runs ${clip(ran!, 20)}, which is not installed: every ${c.tool} command complains`
          : forbidden && startup && sandboxed
            ? `${clip(file!, 20)} runs ${clip(ran!, 20)}, which the sandbox forbids: sandboxed ${c.tool} commands complain`
            : `${c.tool} prints the same shell complaint whatever the command`,
      text: `${lead}${advice}`,
      confidence: CONFIDENCE.verified,
      event: c.event,
      tags: [c.tool, 'shell', 'noise'],
      quotes: c.lines,
      rule: 'shell-wrapper-noise',
      signature: `shell wrapper noise ${c.tool} ${c.lines[0]!.replace(PLACE, '').slice(0, 60)}`,
      score: 6,
    });
  }
  return drafts;
}

export const shellWrapperNoise: RuleExtractor = ruleExtractor('shell-wrapper-noise', shellWrapperNoiseDrafts);
