/**
 * Small pieces shared by the JSONL readers: warnings that name file and line, JSON parsing that
 * never throws, and the default line-size limit. Kept synchronous and allocation-light because
 * it runs once per line.
 */
import type { EventBaseInput } from './events.js';
import type { Line } from './lines.js';
import type { ReadWarning, SourceRef } from './model.js';
import type { ReadOptions } from './reader.js';

/** Default cut for one line: big enough for any real transcript line (~180 KB seen), small
 * enough that a corrupt 100 MB line cannot exhaust memory. */
export const DEFAULT_READ_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Collects a file's warnings and forwards each to `onWarning`. */
export class WarningSink {
  readonly warnings: ReadWarning[] = [];
  constructor(
    readonly file: string,
    private readonly onWarning?: (warning: ReadWarning) => void,
  ) {}

  warn(line: number | undefined, message: string): void {
    const w: ReadWarning = line === undefined ? { file: this.file, message } : { file: this.file, line, message };
    this.warnings.push(w);
    this.onWarning?.(w);
  }
}

export function maxLineBytes(options: ReadOptions | undefined): number {
  return options?.maxLineBytes ?? DEFAULT_READ_MAX_LINE_BYTES;
}

export function sourceOf(file: string, line: Line): SourceRef {
  return { file, line: line.lineNo, offset: line.offset };
}

// ---------------------------------------------------------------------------------------------
// Lines parsed by detection, kept for the reader. Detectors parse a file's first lines (Codex's
// its first, Claude Code's until one decides, OpenAI-chat's up to 20) and the reader then parsed
// the same lines again: over the 1 GB corpus's Claude Code part the detectors' parses were 3% of
// reading it. A detector keeps what it parsed here; the reader of a file takes a value whose text
// is the same as its line's (the same text gives the same value), at most once, since a reader
// may change what it is given; detectors only look. Emptied before each file is detected; a
// value another file left can only be taken for the same text, and is then the same value.

/** Head lines kept at most (the OpenAI-chat detector parses 20). */
const HEAD_PARSES_MAX = 24;
/** Only a line this early in a file is looked up (a detector reads no further). */
const HEAD_PARSE_LINES = 64;
const headParses: { text: string; value: unknown }[] = [];

/** Forgets every kept head line (before a file is detected). */
export function clearHeadParses(): void {
  headParses.length = 0;
}

/** tryParse for a detector: the kept value when a detector parsed this text already, else a
 * new parse, kept for the reader when it is an object or array. */
export function parseHeadLine(text: string): unknown {
  for (const p of headParses) if (p.text === text) return p.value;
  const value = tryParse(text);
  if (typeof value === 'object' && value !== null && headParses.length < HEAD_PARSES_MAX) headParses.push({ text, value });
  return value;
}

/** What a detector parsed from `text` of line `lineNo`, taken out of the store; undefined when
 * none did. */
export function takeHeadParse(text: string, lineNo: number): unknown {
  if (headParses.length === 0 || lineNo > HEAD_PARSE_LINES) return undefined;
  for (let i = 0; i < headParses.length; i++) {
    const p = headParses[i]!;
    if (p.text !== text) continue;
    headParses.splice(i, 1);
    return p.value;
  }
  return undefined;
}

/**
 * Reports what lines.ts flagged (cut or undecodable) and parses the line as JSON. Returns
 * undefined, after a warning, when the line cannot be used; blank lines are skipped silently.
 */
export function parseJsonLine(sink: WarningSink, line: Line): unknown {
  const text = line.text;
  if (line.truncated) {
    sink.warn(line.lineNo, `line is ${line.bytes} bytes, over the line-size limit; skipped (harvest and sessions read it with a higher --max-line-bytes)`);
    return undefined;
  }
  if (text.length === 0 || isBlank(text)) return undefined;
  if (line.invalidUtf8) sink.warn(line.lineNo, 'invalid UTF-8 bytes were replaced with U+FFFD');
  const kept = takeHeadParse(text, line.lineNo);
  if (kept !== undefined) return kept;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    sink.warn(line.lineNo, `invalid JSON, line skipped (truncated or corrupt): ${why}`);
    return undefined;
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/**
 * `{ ...o }` for a plain object: the same keys, in the same order, copied one by one. Readers
 * build events with this instead of `{ ...base, key: value }`: in Node 20's V8 every key added to
 * an object made by a spread (in the literal or by a later assignment) goes through a slow runtime
 * path, about 1 µs each, which made event building a hotspot; a copy made this way grows normally.
 */
export function copyOf<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

/** `{ ...base, injected: true }`, built without the slow spread (see copyOf). */
export function injectedBase(base: EventBaseInput): EventBaseInput {
  const out = copyOf(base);
  out.injected = true;
  return out;
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Splits a decoded head into its first `max` non-blank lines (the last may be cut short). */
export function headLines(head: string, max: number): string[] {
  return [...eachHeadLine(head, max)];
}

/** headLines one line at a time, for a caller that may stop at the first line or two. */
export function* eachHeadLine(head: string, max: number): Generator<string> {
  let found = 0;
  let from = 0;
  while (found < max && from < head.length) {
    let nl = head.indexOf('\n', from);
    if (nl === -1) nl = head.length;
    const line = head.slice(from, nl).trim();
    if (line) {
      found++;
      yield line;
    }
    from = nl + 1;
  }
}

/**
 * The head's first non-blank line, parsed, when it is a whole JSON object; undefined when it is
 * not (or not whole within the head). Detectors use it to turn a file away by its first line
 * instead of searching the 64 KiB head for keys it never holds (an OpenAI-chat or Hermes file
 * was searched by three detectors so), and it is parsed once per file (see parseHeadLine).
 */
export function firstLineObject(head: string): Record<string, unknown> | undefined {
  let from = 0;
  while (from < head.length) {
    let nl = head.indexOf('\n', from);
    if (nl === -1) nl = head.length;
    const line = head.slice(from, nl).trim();
    from = nl + 1;
    if (!line) continue;
    // only a line from `{` to `}` can parse to an object; skip the thrown error of any other
    if (line.charCodeAt(0) !== 0x7b || line.charCodeAt(line.length - 1) !== 0x7d) return undefined;
    const value = parseHeadLine(line);
    return isRecord(value) ? value : undefined;
  }
  return undefined;
}

/** JSON.parse that returns undefined instead of throwing. */
export function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Tracks the earliest and latest ISO timestamps seen (ISO-8601 UTC strings sort as text). */
export class TimeSpan {
  first?: string;
  last?: string;
  see(time: string | undefined): void {
    if (!time) return;
    if (this.first === undefined || time < this.first) this.first = time;
    if (this.last === undefined || time > this.last) this.last = time;
  }
}
