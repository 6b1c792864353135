/**
 * Output conventions: results on stdout, progress and notes on stderr, colour only on a TTY
 * and never when NO_COLOR is set.
 */
import { EXIT, type ExitCode } from '../core/errors.js';

export function colorEnabled(stream: NodeJS.WriteStream = process.stderr): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

function paint(code: number, text: string, stream: NodeJS.WriteStream): string {
  return colorEnabled(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;
}

export const style = {
  red: (t: string, s: NodeJS.WriteStream = process.stderr) => paint(31, t, s),
  yellow: (t: string, s: NodeJS.WriteStream = process.stderr) => paint(33, t, s),
  green: (t: string, s: NodeJS.WriteStream = process.stderr) => paint(32, t, s),
  dim: (t: string, s: NodeJS.WriteStream = process.stderr) => paint(2, t, s),
  bold: (t: string, s: NodeJS.WriteStream = process.stderr) => paint(1, t, s),
};

/** A result line for scripts and people: stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Progress, warnings and notes: stderr. */
export function note(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function warn(text: string): void {
  note(`${style.yellow('warning')}: ${text}`);
}

export function printJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Commands return an exit code; the runner sets it after stdout drains. */
export type CommandResult = ExitCode | void;

export function resultCode(result: CommandResult): ExitCode {
  return result ?? EXIT.ok;
}
