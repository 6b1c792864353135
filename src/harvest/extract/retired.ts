/**
 * A command a tool has retired: it prints that the command (or its package) is deprecated and
 * names the one to run instead (`✖ The init command is deprecated. Use npx convex dev --once
 * --configure=new instead.`, `The 'shadcn-ui' package is deprecated. Please use the 'shadcn'
 * package instead:` over the command line). Such a run did none of the work it was asked for when
 * the notice is all it printed. Only a notice about what the command line itself names counts:
 * a library's `DeprecationWarning` or npm's `WARN deprecated` for a dependency is about other code.
 */
import type { Step } from './view.js';
import { tokens } from './commands.js';
import { MARK } from './marks.js';

export interface Retired {
  /** The notice line, trimmed. */
  notice: string;
  /** The simple command that named what was retired. */
  command: string;
  /** The command the notice says to run instead. */
  replacement: string;
}

/** `The init command is deprecated`, `The 'shadcn-ui' package is deprecated`: what it names. */
export const NOTICE = /\b(?:the\s+)?[`'"]?([\w@./:-]+)[`'"]?\s+(?:command|subcommand|package|cli)\s+(?:is|has been)\s+deprecated\b/i;
/** Another program's warning about code it loads, not about the command line. */
const NOT_ABOUT_COMMAND = /^\s*(?:npm (?:WARN|warn)|\(node:\d+\)|[\w.]*DeprecationWarning|warning )/;
/** `Use \`npx convex dev --once --configure=new\` instead` on the notice's own line. */
const USE_INSTEAD = /\b[Uu]se\s+`([^`]+)`\s+instead\b/;
/** A command line the notice prints under it (`  npx shadcn@latest add input`). */
const COMMAND_LINE = /^\s{2,}((?:npx|npm|pnpm|yarn|bunx|pip|uv|cargo|go|docker|git)\s+\S.*?)\s*$/;
/** The shell's prompt and a notice's pointer to its docs: no work done. */
const NOT_WORK = /^\s*$|^\s*(?:For more information|See|More info|Learn more)\b|^\S+@\S+ .*[%$#](?:\s|$)|^[❯$>]\s|^PS [^>]*>/i;

/** The name as the command line writes it: `shadcn-ui@latest` names `shadcn-ui`. */
const bareName = (word: string): string => word.replace(/^[`'"]|[`'"]$/g, '').replace(/(?<=.)@[^/]*$/, '');

/** The retired command a step ran and what to run instead, when its output says so. */
export function retiredCommand(step: Step): Retired | undefined {
  if (step.command === undefined || (step.marks & MARK.deprecated) === 0) return undefined;
  const lines = step.output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const named = NOTICE.exec(line)?.[1];
    if (named === undefined || NOT_ABOUT_COMMAND.test(line)) continue;
    const command = step.simple.find((c) => tokens(c).some((t) => bareName(t) === named));
    if (command === undefined) continue;
    const replacement = USE_INSTEAD.exec(line)?.[1] ?? lines.slice(i + 1, i + 4).map((l) => COMMAND_LINE.exec(l)?.[1]).find((c) => c !== undefined);
    if (replacement === undefined || replacement.trim() === command.trim()) continue;
    return { notice: line.trim(), command, replacement };
  }
  return undefined;
}

/** A run that printed nothing but the retirement notice: before it only the echo of the command
 * line (a terminal wraps it, so a piece of it per line), after it only the replacement, a link to
 * the docs and the prompt. It did no work. */
function onlyRetired(step: Step, retired: Retired): boolean {
  const lines = step.output.split('\n');
  const at = lines.findIndex((l) => l.trim() === retired.notice);
  const echo = (l: string): boolean => NOT_WORK.test(l) || l.trim().length < 20 || step.simple.some((c) => sharesPiece(l, c));
  return at >= 0 && lines.slice(0, at).every(echo) && lines.slice(at + 1).every((l) => NOT_WORK.test(l) || l.includes(retired.replacement));
}

/** Whether a line holds 12 characters in a row of a command (a wrapped echo of it). */
function sharesPiece(line: string, command: string): boolean {
  for (let i = 0; i + 12 <= command.length; i += 6) if (line.includes(command.slice(i, i + 12))) return true;
  return false;
}

/** Whether a step's run was only a retirement notice (so it did not do what it was run for). */
export function didOnlyRetire(step: Step): boolean {
  const retired = retiredCommand(step);
  return retired !== undefined && onlyRetired(step, retired);
}
