/**
 * Streams a file as lines with bounded memory: a line longer than `maxLineBytes` is cut to that
 * length (flagged `truncated`) and the rest of it is skipped without being held in memory.
 * Invalid UTF-8 is decoded with replacement characters and flagged, never thrown.
 *
 * A file that read.ts already holds whole (small files: one open, one read) is split by
 * `forEachLine` without any I/O, giving exactly the lines `readLines` would give.
 */
import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export interface Line {
  text: string;
  /** 1-based line number. */
  lineNo: number;
  /** Byte offset of the first byte of the line. */
  offset: number;
  /** Full byte length of the line as it is in the file (without the newline). */
  bytes: number;
  truncated: boolean;
  invalidUtf8: boolean;
}

export interface LineOptions {
  /** Lines longer than this many bytes are cut (default 64 MiB). */
  maxLineBytes?: number;
  /** Start reading at this byte offset (for incremental reads of a grown file). */
  start?: number;
  /** Line number of the line that starts at `start` (default 1). */
  startLineNo?: number;
}

/**
 * What read.ts hands a reader along with its ReadOptions when it has read the whole file
 * already: the readers then split, size and decode these bytes instead of opening the file again.
 */
export interface Preloaded {
  /** The whole file, as read once by read.ts. */
  content?: Buffer;
  /** `content` decoded, given only when it is valid UTF-8; a leading BOM is kept. */
  text?: string;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false });
/** For input already known to be valid UTF-8: keeps a BOM (lines drop it themselves). */
const wholeDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

function decode(buf: Buffer): { text: string; invalid: boolean } {
  try {
    return { text: strictDecoder.decode(buf), invalid: false };
  } catch {
    return { text: lenientDecoder.decode(buf), invalid: true };
  }
}

export async function* readLines(file: string, options: LineOptions = {}): AsyncGenerator<Line> {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const stream = createReadStream(file, { start: options.start ?? 0, highWaterMark: 1 << 20 });
  let lineNo = options.startLineNo ?? 1;
  let lineStart = options.start ?? 0; // byte offset of the current line
  let parts: Buffer[] = [];
  let kept = 0; // bytes held in `parts`
  let seen = 0; // bytes of the current line seen so far (including skipped)
  let position = lineStart; // byte offset of chunk start

  const finish = (): Line => {
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, kept);
    let end = buf.length;
    if (end > 0 && buf[end - 1] === 0x0d) end--; // CRLF
    const { text, invalid } = decode(end === buf.length ? buf : buf.subarray(0, end));
    const line: Line = { text, lineNo, offset: lineStart, bytes: seen, truncated: seen > kept, invalidUtf8: invalid };
    parts = [];
    kept = 0;
    seen = 0;
    return line;
  };

  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      const piece = end - from;
      if (kept < maxLine && piece > 0) {
        const take = Math.min(piece, maxLine - kept);
        parts.push(chunk.subarray(from, from + take));
        kept += take;
      }
      seen += piece;
      if (nl === -1) break;
      yield finish();
      lineNo++;
      lineStart = position + nl + 1;
      from = nl + 1;
    }
    position += chunk.length;
  }
  if (seen > 0) yield finish();
}

/** One line of an in-memory file decoded the way `readLines` decodes it (per line, so a BOM
 * at the start of any line is dropped, as TextDecoder does). */
function bufferLine(buf: Buffer, start: number, end: number, maxLine: number, lineNo: number): Line {
  const seen = end - start;
  const kept = Math.min(seen, maxLine);
  let stop = start + kept;
  if (kept > 0 && buf[stop - 1] === 0x0d) stop--; // CRLF
  const { text, invalid } = decode(buf.subarray(start, stop));
  return { text, lineNo, offset: start, bytes: seen, truncated: seen > kept, invalidUtf8: invalid };
}

/**
 * Calls `onLine` for every line of `buf` (a whole file, or the part of it from `options.start`),
 * synchronously: the same Line values, in the same order, as `readLines` over that file.
 *
 * Valid UTF-8 (the usual case) is decoded once for the whole file (or `text` is that decoding
 * already) and each line is a slice of that string; the newline byte is a whole character in
 * UTF-8, so byte and character line boundaries match. Invalid files, and lines cut at the size
 * limit, are decoded line by line.
 */
export function splitLines(buf: Buffer, options: LineOptions & { text?: string }, onLine: (line: Line) => void): void {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let lineNo = options.startLineNo ?? 1;
  let pos = options.start ?? 0;
  const n = buf.length;
  if (pos >= n) return;
  if (pos > 0 || (options.text === undefined && !isUtf8(buf))) {
    while (pos < n) {
      let nl = buf.indexOf(0x0a, pos);
      if (nl === -1) nl = n;
      onLine(bufferLine(buf, pos, nl, maxLine, lineNo++));
      pos = nl + 1;
    }
    return;
  }
  const text = options.text ?? wholeDecoder.decode(buf);
  const ascii = text.length === n; // then character offsets are byte offsets
  let cpos = 0;
  while (pos < n) {
    let cnl = text.indexOf('\n', cpos);
    if (cnl === -1) cnl = text.length;
    let nl: number;
    if (ascii) nl = cnl;
    else {
      nl = buf.indexOf(0x0a, pos);
      if (nl === -1) nl = n;
    }
    const seen = nl - pos;
    if (seen > maxLine) onLine(bufferLine(buf, pos, nl, maxLine, lineNo));
    else {
      let cend = cnl;
      if (cend > cpos && text.charCodeAt(cend - 1) === 0x0d) cend--; // CRLF
      let cstart = cpos;
      if (cstart < cend && text.charCodeAt(cstart) === 0xfeff) cstart++; // TextDecoder drops a BOM
      onLine({ text: text.slice(cstart, cend), lineNo, offset: pos, bytes: seen, truncated: false, invalidUtf8: false });
    }
    lineNo++;
    pos = nl + 1;
    cpos = cnl + 1;
  }
}

/**
 * Calls `onLine` for every line of `file`: from `content` when the caller already holds the
 * whole file (no I/O, synchronous), else streamed by `readLines`.
 */
export async function forEachLine(file: string, options: LineOptions & Preloaded, onLine: (line: Line) => void): Promise<void> {
  if (options.content) {
    splitLines(options.content, options, onLine);
    return;
  }
  const lineOptions: LineOptions = {};
  if (options.maxLineBytes !== undefined) lineOptions.maxLineBytes = options.maxLineBytes;
  if (options.start !== undefined) lineOptions.start = options.start;
  if (options.startLineNo !== undefined) lineOptions.startLineNo = options.startLineNo;
  for await (const line of readLines(file, lineOptions)) onLine(line);
}
