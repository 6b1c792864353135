/**
 * A tool that retires a command says so and names the one to use (`The init command is
 * deprecated. Use npx convex dev --once --configure=new instead.`). An agent's knowledge is older
 * than the tool, so the next session runs the retired command again: the item gives the command,
 * the tool's own notice and its replacement, and says whether the replacement then ran well.
 * Only where the notice did not stop the agent at once (it ran a retired form again): a notice
 * read and followed costs one call, which the notice itself saves the next time too.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { program } from '../commands.js';
import { retiredCommand } from '../retired.js';
import { clip, code, errorSignature } from '../text.js';
import { seenToSucceed, type SessionView } from '../view.js';

/** A command's first three words: what a later run of the replacement shares with it
 * (`npx shadcn@latest add`), whatever arguments this task gave it. */
function head(command: string): string {
  return command.trim().split(/\s+/).slice(0, 3).join(' ');
}

/** The two commands without the arguments they end with in common (this task's `input textarea
 * card`), which say nothing of the tool: `npx shadcn-ui@latest add …`, `npx shadcn@latest add …`. */
function withoutTaskArgs(retired: string, replacement: string): [string, string] {
  const a = retired.trim().split(/\s+/);
  const b = replacement.trim().split(/\s+/);
  let same = 0;
  while (same < Math.min(a.length, b.length) - 3 && a[a.length - 1 - same] === b[b.length - 1 - same]) same++;
  return same === 0 ? [a.join(' '), b.join(' ')] : [`${a.slice(0, -same).join(' ')} …`, `${b.slice(0, -same).join(' ')} …`];
}

export function retiredCommandDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const s of view.steps) {
    const retired = retiredCommand(s);
    if (!retired || seen.has(retired.command)) continue;
    seen.add(retired.command);
    const again = view.steps.slice(s.pos + 1).some((x) => {
      const other = x.command !== undefined ? retiredCommand(x) : undefined;
      return other !== undefined && head(other.command) === head(retired.command);
    });
    if (!again) continue;
    const later = view.steps.slice(s.pos + 1, s.pos + 5).find((x) => x.command !== undefined && x.command.includes(head(retired.replacement)));
    const worked = later !== undefined && seenToSucceed(later);
    const name = program(retired.command) || retired.command.split(/\s+/)[0]!;
    const [was, use] = withoutTaskArgs(retired.command, retired.replacement);
    drafts.push({
      category: 'tool-quirk',
      scope: 'global',
      title: `${clip(was.replace(/ …$/, ''), 36)} is deprecated: use ${clip(use.replace(/ …$/, ''), 40)}`,
      text:
        `${code(clip(was, 60))} is retired: it prints ${code(clip(retired.notice, 110))}. ` +
        `Run ${code(clip(use, 70))} instead${worked ? ', which worked here' : ''}.`,
      confidence: worked ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: s.outputEvent,
      tags: [name, 'deprecated'],
      quotes: [retired.notice],
      rule: 'retired-command',
      signature: errorSignature(`retired ${retired.notice}`),
      score: worked ? 8 : 6,
    });
  }
  return drafts;
}

export const retiredCommands: RuleExtractor = ruleExtractor('retired-command', retiredCommandDrafts);
