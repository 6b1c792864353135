/**
 * Gemini CLI's tool results as every Gemini layout records them: a function response's text, and
 * the shell tool's output without the tool's own framing.
 */
import { isRecord } from './common.js';

/** A function response's text (`{error}` or `{output}`, else the whole response) and whether it
 * is an error. */
export function functionResponseText(resp: unknown): { output: string; isError: boolean } | undefined {
  if (!isRecord(resp)) return undefined;
  const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  if (resp.error !== undefined && resp.error !== null && resp.error !== '') return { output: text(resp.error), isError: true };
  if (resp.output !== undefined) return { output: text(resp.output), isError: false };
  return { output: JSON.stringify(resp), isError: false };
}

/** Labels Gemini CLI's shell tool puts before and after a command's output: older versions write
 * `Command:` and `Directory:` first, then `Output:`, `Error:`, `Exit Code:`, `Signal:`,
 * `Background PIDs:` and `Process Group PGID:`; newer ones `Output:`, `Exit Code:` and
 * `Process Group PGID:`. */
const FRAME_HEAD = /^(?:Command|Directory): /;
const FRAME_TAIL = /^(?:Exit Code|Signal|Background PIDs|Process Group PGID): /;
const NO_TOOL_ERROR = /^Error: \(none\)\s*$/;

/**
 * What the program printed, without the shell tool's framing: the labels are the tool's words,
 * so an error quoted from the output must not read `Output: error: …`. Keeps the text the
 * `Output:` label holds (`(empty)` is nothing) and a tool error other than `(none)`; the exit
 * code is read from the framed text before. Text without the framing is returned as it is.
 */
export function unframedShellOutput(text: string): string {
  if (!text.startsWith('Output:') && !text.startsWith('Command: ')) return text;
  const lines = text.split('\n');
  let end = lines.length;
  while (end > 0 && FRAME_TAIL.test(lines[end - 1]!)) end--;
  if (end === lines.length) return text; // no closing labels: not the tool's framing
  if (end > 0 && NO_TOOL_ERROR.test(lines[end - 1]!)) end--;
  let start = 0;
  while (start < end && FRAME_HEAD.test(lines[start]!)) start++;
  const body = lines.slice(start, end);
  if (body.length > 0 && body[0]!.startsWith('Output:')) {
    const first = body[0]!.slice('Output:'.length).trim();
    if (first === '' || first === '(empty)') body.shift();
    else body[0] = first;
  }
  return body.join('\n');
}
