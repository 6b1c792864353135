/**
 * Plain-text table and value formatting shared by the session and sample commands. No colour:
 * tables go to stdout, where scripts may read them.
 */
import { UsageError } from '../core/errors.js';

export interface Column<R> {
  header: string;
  value: (row: R) => string;
  align?: 'left' | 'right';
}

export function renderTable<R>(rows: readonly R[], columns: readonly Column<R>[]): string {
  const cells = rows.map((r) => columns.map((c) => c.value(r)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => (columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** 1536 → "1.5K", 2636063 → "2.5M". */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G', 'T'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)}${units[unit]}`;
}

/** "2026-02-12T16:02:25.284Z" → "2026-02-12 16:02"; other text passes through. */
export function shortTime(time: string | undefined): string {
  if (!time) return '-';
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)/.exec(time);
  return m ? `${m[1]} ${m[2]}` : time;
}

/** ANSI escape sequences and other control characters: transcripts carry terminal output, and
 * printing it raw would let a transcript drive the reader's terminal. */
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** The text on one line: control characters dropped, whitespace collapsed, cut to `max`. */
export function oneLine(text: string, max: number): string {
  const collapsed = text.replace(CONTROL_RE, '').replace(/\s+/g, ' ').trim();
  return collapsed.length > max ? `${collapsed.slice(0, max - 1)}…` : collapsed;
}

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${flag} must be a positive whole number, got "${value}"`);
  return n;
}

/** `--max-line-bytes` of the commands that read transcripts (harvest, sessions). */
export function parseMaxLineBytes(value: string): number {
  try {
    return parsePositiveInt(value, '--max-line-bytes');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
