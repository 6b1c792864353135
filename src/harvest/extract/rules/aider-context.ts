/**
 * Command output that aider adds to the chat (`Add command output to the chat?` answered yes,
 * then `Added 611 lines of output to the chat.`) stays in the chat history and is sent with every
 * later message: where a model aider knows the window of then hit it (`Input tokens: ~127,266 of
 * 128,000 -- possibly exhausted context window!`) after hundreds of such lines, the lesson is how
 * the window filled, told with the largest output and the way out aider offers.
 */
import { CONFIDENCE } from '../../candidate.js';
import type { Draft } from '../build.js';
import { clip, code } from '../text.js';
import type { SessionView } from '../view.js';
import { TOKEN_LIMIT } from './aider-notice-lines.js';

const ADDED = /^Added (\d+) lines of output to the chat\./m;
const EXHAUSTED = /^Input tokens: ~([\d,]+) of ([\d,]+) -- possibly exhausted context window!/;
/** Output lines added before the window filled that make it the history's doing, not one message's. */
const MANY_LINES = 500;

export function contextFilledDraft(view: SessionView, lines: { line: string; event: number }[]): Draft | undefined {
  const at = lines.findIndex((l) => EXHAUSTED.test(l.line) && !/ of 0 /.test(l.line));
  if (at < 0) return undefined;
  // the runs aider added to the chat before the window filled (the reader keeps its count as the run's output)
  let total = 0;
  let largest: { lines: number; command?: string } = { lines: 0 };
  for (const s of view.steps) {
    if (s.outputEvent >= lines[at]!.event) break;
    const n = Number(ADDED.exec(s.output)?.[1] ?? 0);
    total += n;
    if (n > largest.lines) largest = { lines: n, ...(s.command !== undefined ? { command: s.command } : {}) };
  }
  if (total < MANY_LINES) return undefined;
  const [, used, size] = EXHAUSTED.exec(lines[at]!.line)!;
  const model = lines.slice(Math.max(0, at - 4), at).map((l) => TOKEN_LIMIT.exec(l.line)?.[1]).find((m) => m !== undefined);
  const biggest = largest.command ? ` (${code(clip(largest.command, 40))}'s ${largest.lines} among them)` : '';
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: "aider: command output added to the chat fills the model's context window",
    text:
      `Command output added to the chat (${code('Add command output to the chat?')} answered yes) stays in the chat history and goes with every later message: ${total} lines were added here${biggest} before ${model ? `${code(model)} hit its window` : 'the model hit its window'} (${code(`Input tokens: ~${used} of ${size}`)}). ` +
      `Answer no to long output and paste the lines that matter, or ${code('/clear')} the history.`,
    confidence: CONFIDENCE.verified,
    event: lines[at]!.event,
    tags: ['aider', 'context-window', 'token-limit'],
    quotes: [lines[at]!.line],
    rule: 'aider-notice',
    signature: 'aider command output fills the context window',
    score: 5,
  };
}
