/**
 * A shell that greets every command with the same block of lines (a login message: a system's
 * logo, "Welcome to the Home Assistant command line interface.", the machine's addresses) before
 * the command's own output: whatever the command, its result comes after that block, and a
 * command that printed nothing shows only the block. Said of the machine, where at least three
 * different commands, most of the tool's, opened with the same block of five lines or more; the
 * item quotes one line of words from it, never its addresses.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import type { SessionView, Step } from '../view.js';

const MIN_LINES = 5;
const MIN_COMMANDS = 3;

/** Characters of an output's head looked at: a banner is a screenful, an output may be megabytes. */
const HEAD_CHARS = 4000;

/** The lines a command's output opens with (blank lines at its head left out). */
function head(s: Step): string[] {
  return s.output.slice(0, HEAD_CHARS).replace(/^\s*\n/, '').split('\n');
}

/** How many leading lines two outputs share. */
function sharedLines(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** A line of words that says what the block is ("Welcome to …"), with no address or number in it. */
function sayingLine(block: readonly string[]): string | undefined {
  const plain = block.map((l) => l.trim()).filter((l) => /^[A-Za-z][A-Za-z ,.'!-]{15,}$/.test(l) && l.split(/\s+/).length >= 4);
  return plain.find((l) => /^welcome\b/i.test(l)) ?? plain[0];
}

export function loginBannerDrafts(view: SessionView): Draft[] {
  const byTool = new Map<string, Step[]>();
  for (const s of view.steps) {
    if (s.command === undefined || s.rejected || s.output.trim() === '') continue;
    byTool.set(s.call.name, [...(byTool.get(s.call.name) ?? []), s]);
  }
  for (const [tool, steps] of [...byTool.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (steps.length < MIN_COMMANDS) continue;
    const first = head(steps[0]!);
    // the block every one of most commands opens with
    const shared = steps.map((s) => ({ s, n: sharedLines(first, head(s)) })).filter((x) => x.n >= MIN_LINES);
    const sharing = shared.map((x) => x.s);
    if (sharing.length < MIN_COMMANDS || sharing.length * 5 < steps.length * 4) continue;
    if (new Set(sharing.map((s) => s.main)).size < MIN_COMMANDS) continue;
    const size = Math.min(...shared.map((x) => x.n));
    const block = first.slice(0, size);
    const said = sayingLine(block);
    if (said === undefined) continue;
    const lines = block.length;
    return [
      {
        category: 'tool-quirk',
        scope: 'global',
        // (named by its words: which machine's banner it is)
        title: `Every command here opens with the ${clip(said.replace(/^welcome to (?:the )?/i, '').replace(/[.!]+$/, ''), 40)} banner`,
        text: `Every command run through ${code(tool)} here opened with the same ${lines}-line banner (${code(clip(said, 70))}) before its own output: the shell's login message, not the command's. Read a command's result after it (a command that prints nothing shows only the banner), and judge it by its exit code.`,
        confidence: CONFIDENCE.verified,
        event: sharing[0]!.outputEvent,
        tags: [tool, 'shell', 'banner'],
        quotes: [clip(said, 120)],
        rule: 'login-banner',
        signature: `login banner ${said.slice(0, 60)}`,
        score: 5,
      },
    ];
  }
  return [];
}

export const loginBanner: RuleExtractor = ruleExtractor('login-banner', loginBannerDrafts);
