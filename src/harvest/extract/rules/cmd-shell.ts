/**
 * Windows cmd.exe as the agent's shell: it has none of the POSIX tools an agent reaches for
 * (`ls`, `cat`, `grep`), and its own `find` is a text search that reads `find src -name x` as
 * files to search. An agent that does not know which shell it has makes the same failed call in
 * every session on the machine. cmd names itself by its words (`'ls' is not recognized as an
 * internal or external command`; FIND's `File not found - -NAME`), so the item says which shell
 * it is, what it lacks, its own counterpart, and what worked in the session when it shows that.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { tokens } from '../commands.js';
import { perObject } from '../per-object.js';
import { clip, code } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';

/** cmd.exe's words for a program it cannot find (PowerShell's are "the name of a cmdlet"). */
const CMD_NOT_RECOGNIZED = /'([^'\n]+)' is not recognized as an internal or external command/;
/** Windows FIND given POSIX find's arguments: the folder read as a file, the options as files. */
const WINDOWS_FIND = /^(?:File not found - -\w+|Access denied - \S+|FIND: Parameter format not correct)\s*$/m;

/** POSIX tools and cmd's counterpart of each. */
const CMD_COUNTERPART = new Map<string, string>([
  ['ls', 'dir'],
  ['cat', 'type'],
  ['grep', 'findstr'],
  ['which', 'where'],
  ['rm', 'del'],
  ['cp', 'copy'],
  ['mv', 'move'],
  ['pwd', 'cd'],
  ['clear', 'cls'],
  ['touch', 'type nul > <file>'],
]);

export type CmdSlip = { kind: 'posix-tool'; name: string; error: string } | { kind: 'find'; error: string };

/** What cmd.exe rejected in a failed step, when its output shows cmd's own words. */
export const cmdSlip: (s: Step) => CmdSlip | undefined = perObject(slipOf);

function slipOf(s: Step): CmdSlip | undefined {
  if (s.command === undefined || s.rejected) return undefined;
  const missing = s.failed && s.output.includes('internal or external command') ? CMD_NOT_RECOGNIZED.exec(s.output) : null;
  if (missing && CMD_COUNTERPART.has(missing[1]!) && s.simple.some((c) => tokens(c)[0] === missing[1])) {
    return { kind: 'posix-tool', name: missing[1]!, error: missing[0] };
  }
  // (FIND's complaint is the whole of its output, whatever exit status the export kept)
  if (s.program !== 'find') return undefined;
  const find = WINDOWS_FIND.exec(s.output);
  if (find && tokens(s.main).some((t) => /^-(?:name|iname|type|maxdepth|path)$/.test(t))) return { kind: 'find', error: find[0].trim() };
  return undefined;
}

/** A later command that did the failed one's work the cmd way (`dir src` for `ls src -la`). */
function workedInstead(view: SessionView, s: Step, program: string): Step | undefined {
  return view.steps.slice(s.pos + 1, s.pos + 5).find((x) => x.command !== undefined && seenToSucceed(x) && x.program === program);
}

/** What the item says of one slip: the failed command, cmd's words and cmd's way. */
function clause(s: Step, slip: CmdSlip): string {
  const failed = code(clip(s.command!, 60));
  return slip.kind === 'find'
    ? `${failed} failed (${code(slip.error)}): cmd's \`find\` is Windows FIND, a search for text in files; list files with \`dir /s /b <pattern>\``
    : `${failed} failed (${code(slip.error)}): cmd has no ${code(slip.name)}, its counterpart is ${code(CMD_COUNTERPART.get(slip.name)!)}`;
}

/** One item a session: the shell is cmd.exe, with each thing it rejected (at most three) and the
 * first command that then did the work the cmd way. */
export function cmdShellDrafts(view: SessionView): Draft[] {
  const found: { step: Step; slip: CmdSlip }[] = [];
  const seen = new Set<string>();
  for (const s of view.steps) {
    // (only a failed step or a `find` can show one: the others are not asked, nor kept per step)
    if (!s.failed && s.program !== 'find') continue;
    const slip = cmdSlip(s);
    if (!slip) continue;
    const key = slip.kind === 'find' ? 'find' : slip.name;
    if (seen.has(key) || found.length === 3) continue;
    seen.add(key);
    found.push({ step: s, slip });
  }
  if (found.length === 0) return [];
  const instead = found.map(({ step, slip }) => workedInstead(view, step, slip.kind === 'find' ? 'dir' : CMD_COUNTERPART.get(slip.name)!.split(' ')[0]!)).find((x) => x !== undefined);
  const names = found.map(({ slip }) => (slip.kind === 'find' ? 'find' : slip.name));
  const first = found[0]!.step;
  return [
    {
      category: 'tool-quirk',
      scope: 'global',
      title: `cmd.exe is the shell here: no POSIX ${names.join(', ')}`,
      text: `The shell here is Windows cmd.exe, not a POSIX shell: ${found.map(({ step, slip }) => clause(step, slip)).join('; ')}.${instead ? ` ${code(clip(instead.command!, 60))} worked instead.` : ''}`,
      confidence: instead ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: first.outputEvent,
      tags: ['cmd', 'windows', first.call.name],
      quotes: found.map(({ slip }) => slip.error),
      rule: 'cmd-shell',
      signature: `cmd shell ${names.join(' ')}`,
      score: instead ? 9 : 7,
    },
  ];
}

export const cmdShell: RuleExtractor = ruleExtractor('cmd-shell', cmdShellDrafts);
