/**
 * The change an edit made, when it is small enough to say in an item: the words that differ
 * between the edit's old and new text (`f"{name}_reportfile.xls"` → `f"{name}_reportfile.xlsx"`).
 * A fix that was an edit is told by its change; the file's name alone says nothing a later
 * session can apply.
 */
import type { Step } from './view.js';

export interface SmallChange {
  before: string;
  after: string;
}

const MAX_LINE = 160;
const MAX_SHOWN = 60;

/** The replaced text and its replacement, as the edit tools name them (Claude Code's Edit,
 * Gemini CLI's replace: `old_string`/`new_string`; others: `oldString`/`newString`,
 * `old_str`/`new_str`, `oldText`/`newText`), the names report-facts reads an edit's old text by. */
function replacement(step: Step): [string, string] | undefined {
  const input = step.call.input;
  const before = input.old_string ?? input.oldString ?? input.old_str ?? input.oldText;
  const after = input.new_string ?? input.newString ?? input.new_str ?? input.newText;
  return typeof before === 'string' && typeof after === 'string' ? [before, after] : undefined;
}

/** A token's edge: whitespace, quotes, brackets and separators end one. */
const EDGE = /[\s"'`()[\]{},;:=]/;

/** The one line an edit changed, and the words of it that differ, when they are short; undefined
 * for an edit of several lines, an insertion or a deletion. */
export function smallChange(step: Step): SmallChange | undefined {
  const pair = replacement(step);
  if (!pair) return undefined;
  const a = pair[0].split('\n');
  const b = pair[1].split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const oldLines = a.slice(head, a.length - tail);
  const newLines = b.slice(head, b.length - tail);
  if (oldLines.length !== 1 || newLines.length !== 1) return undefined;
  const x = oldLines[0]!.trim();
  const y = newLines[0]!.trim();
  if (x === '' || y === '' || x.length > MAX_LINE || y.length > MAX_LINE) return undefined;
  // the differing middle, widened to whole tokens on both sides
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  while (p > 0 && !EDGE.test(x[p - 1]!)) p--;
  while (s > 0 && !EDGE.test(x[x.length - s]!)) s--;
  const before = x.slice(p, x.length - s).trim();
  const after = y.slice(p, y.length - s).trim();
  if (before === '' || after === '' || before.length > MAX_SHOWN || after.length > MAX_SHOWN) return undefined;
  return { before, after };
}
