/**
 * Claude Code's Bash runs no command whose `cd` leaves the session's working directories (`cd to
 * '/var/www/app' was blocked. For security, Claude Code may only change directories to child
 * directories of the allowed working directories …`): the whole command line is refused, before
 * any of it runs. A session in the same setup meets it again wherever the work lives outside the
 * folder Claude Code started in, and the ways past it are the tool's own: add the folder
 * (`--add-dir` at start, `/add-dir` in the session) or name the folder as an argument instead of
 * changing into it (what the session then did, where it shows it worked). Said once per session,
 * of the agent.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';

const CD_BLOCKED = /^cd to '([^'\n]+)' was blocked\. For security, Claude Code may only change directories to child directories of the allowed working directories for this session(?: \(including '([^'\n]+)'\))?/m;

/** The same work done without changing into the folder: a later command that succeeded, runs the
 * blocked line's programs (its `cd` aside) and names the folder's last part as an argument. */
function doneWithoutCd(view: SessionView, blocked: Step, folder: string): Step | undefined {
  const wanted = blocked.families.filter((f) => f && f !== 'cd');
  const name = folder.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  if (wanted.length === 0 || name.length < 2) return undefined;
  return view.steps
    .slice(blocked.pos + 1, blocked.pos + 6)
    .find((s) => s.command !== undefined && seenToSucceed(s) && !s.families.includes('cd') && wanted.every((f) => s.families.includes(f)) && s.command.includes(name));
}

/** The refused folder lies inside the one the message says is allowed (`D:\x` and `D:\`; the
 * session's own folder reads `.` once its path is dropped from the text, and a folder inside it
 * is then a relative one). */
function inside(folder: string, allowed: string): boolean {
  const norm = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  if (norm(allowed) === '.') return !/^(?:[a-z]:|\/|~|\.\.)/.test(norm(folder));
  return norm(folder).startsWith(`${norm(allowed)}/`);
}

export function cdBlockedDrafts(view: SessionView): Draft[] {
  const blocked = view.steps.find((s) => s.command !== undefined && !s.rejected && CD_BLOCKED.test(s.output));
  if (blocked === undefined) return [];
  const [message, folder, allowed] = CD_BLOCKED.exec(blocked.output)!;
  // (a Windows drive's root named as allowed, its subfolder still refused: what the message says,
  // side by side; adding a folder that is already allowed is no way past it)
  const oddly = allowed !== undefined && inside(folder!, allowed);
  const instead = doneWithoutCd(view, blocked, folder!);
  const argument = instead ? `Pass the folder as an argument (${code(clip(oneLine(instead.command!), 60))} worked)` : 'Name the folder as an argument instead of changing into it';
  const way = oddly
    ? ` Here it refused a folder inside ${code(allowed!)}, which it named as allowed. ${argument}.`
    : instead
      ? `. ${argument} or add it with ${code('/add-dir')}.`
      : `. Add the folder to the session (${code('/add-dir')}, or ${code('--add-dir')} at start), or name it as an argument instead of changing into it.`;
  return [
    {
      category: 'tool-quirk',
      scope: 'agent',
      title: oddly ? `Bash refused a cd into a subfolder of the allowed ${clip(allowed!, 20)}` : "Bash refuses a cd outside the session's working directories",
      text: `Claude Code's ${code(blocked.call.name)} ran none of ${code(clip(oneLine(blocked.command!), 60))} (${code(`cd to '${folder!}' was blocked`)}): it changes only into the session's starting folders and their subfolders${oddly ? '.' : ''}${way}`,
      confidence: CONFIDENCE.stated,
      event: blocked.outputEvent,
      tags: ['claude-code', 'bash', 'cd', 'working-directory'],
      quotes: [clip(message!, 200)],
      rule: 'cd-blocked',
      signature: 'claude code cd outside working directories blocked',
      score: 6,
    },
  ];
}

export const cdBlocked: RuleExtractor = ruleExtractor('cd-blocked', cdBlockedDrafts);
