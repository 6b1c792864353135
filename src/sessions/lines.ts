/**
 * Streams a file as lines with bounded memory: a line longer than `maxLineBytes` is cut to that
 * length (flagged `truncated`) and the rest of it is skipped without being held in memory.
 * Invalid UTF-8 is decoded with replacement characters and flagged, never thrown.
 *
 * A file that read.ts already holds whole (small files: one open, one read) is split by
 * `forEachLine` without any I/O, giving exactly the lines `readLines` would give.
 */
import { createReadStream } from 'node:fs';
import { isAscii, isUtf8, transcode } from 'node:buffer';

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
  /** `splitLines` may hand `onLine` the same Line object for every line, its fields overwritten
   * for the next one: for callers that keep no Line past the call (one object per line is a
   * measurable part of reading a file of short lines). */
  reuseLine?: boolean;
}

/**
 * What read.ts hands a reader along with its ReadOptions when it has read the whole file
 * already: the readers then split, size and decode these bytes instead of opening the file again.
 */
export interface Preloaded {
  /** The whole file, as read once by read.ts. */
  content?: Buffer;
  /** Given only when `content` is valid UTF-8: its first lines, decoded (see startLines); none
   * when `wholeText` is all of an ASCII file. */
  decoded?: readonly string[];
  /** Given only when `content` is valid UTF-8 and its lines are all in `decoded`, or when it is
   * ASCII: the whole file as TextDecoder decodes it (BOM dropped). */
  wholeText?: string;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false });

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
 * The start of a whole file known to be valid UTF-8, decoded once for two uses: `lines`, the
 * raw text (CR and BOM kept) of every line that ends within the first `limit` bytes, which
 * `splitLines` reuses; and the head, exactly what `decodeHead` gives for those `limit` bytes (BOM
 * dropped, a character cut at the limit becomes one U+FFFD), which `headOf` makes from the same
 * strings only when asked: detection often decides by the lines alone
 * (SessionReader.detectLines), and joining them is a copy of the head. Plain data, no closure:
 * it stays with the file while the file is read (a closure kept there doubled the GC time).
 */
export interface HeadLines {
  /** The complete lines (CR and BOM kept). */
  lines: string[];
  /** What the head holds after `lines`: the newline after the last of them (if any), then the
   * part of the next line within the head. */
  after: string;
  /** The head, once made. */
  head?: string;
}

export function startLines(buf: Buffer, limit: number): HeadLines {
  const n = buf.length;
  const end = Math.min(limit, n);
  if (manyShortLines(buf, end)) return startLinesOnce(buf, end);
  const lines: string[] = [];
  let after = '';
  let pos = 0;
  while (pos < end) {
    let nl = buf.indexOf(0x0a, pos);
    if (nl === -1) nl = n;
    if (nl < end || (nl === n && n === end)) {
      // the whole line is inside the head (the last line of a file may have no newline)
      lines.push(utf8Text(buf, pos, nl));
      after = nl < n ? '\n' : '';
      pos = nl + 1;
    } else {
      // the line runs past the head: its first bytes, with a cut character as one U+FFFD
      let cut = end;
      while (cut > pos && (buf[cut]! & 0xc0) === 0x80) cut--;
      after += buf.toString('utf8', pos, cut);
      if (cut < end) after += '\uFFFD';
      pos = end;
    }
  }
  return { lines, after };
}

/** The head of a HeadLines (made once, then kept in it). */
export function headOf(start: HeadLines): string {
  if (start.head === undefined) {
    let head = start.lines.length === 0 ? start.after : start.lines.join('\n') + start.after;
    if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
    start.head = head;
  }
  return start.head;
}

/** Average line shorter than this (pretty-printed JSON, markdown): decode the head in one go. */
const SHORT_LINE_BYTES = 128;

/**
 * Whether the first `end` bytes are better decoded in one call and then split: when they are
 * ASCII (the one-call string is as compact as per-line ones), or hold many short lines (one
 * call per line costs more than the decoding). Long non-ASCII lines (JSONL transcripts) are
 * decoded line by line, which keeps every ASCII-only line a compact one-byte string.
 */
function manyShortLines(buf: Buffer, end: number): boolean {
  const region = end === buf.length ? buf : buf.subarray(0, end);
  if (isAscii(region)) return true;
  const enough = end / SHORT_LINE_BYTES;
  let count = 0;
  for (let nl = buf.indexOf(0x0a); nl !== -1 && nl < end; nl = buf.indexOf(0x0a, nl + 1)) {
    if (++count > enough) return true;
  }
  return false;
}

/** startLines for `manyShortLines`: one decode of the head, lines sliced from it. Newlines are
 * ASCII, so the lines are the same strings as decoding each line's bytes alone. */
function startLinesOnce(buf: Buffer, end: number): HeadLines {
  const n = buf.length;
  // a character cut at the limit is decoded as one U+FFFD, as decodeHead does
  let stop = end;
  if (end < n) while (stop > 0 && (buf[stop]! & 0xc0) === 0x80) stop--;
  const text = utf8Text(buf, 0, stop);
  const lines: string[] = [];
  let pos = 0;
  let lastEnd = 0; // where the last complete line ends in text
  for (;;) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) {
      // the last line is whole only when the file ends within the head
      if (end === n && pos < text.length) {
        lines.push(text.slice(pos));
        lastEnd = text.length;
      }
      break;
    }
    lines.push(text.slice(pos, nl));
    lastEnd = nl;
    pos = nl + 1;
  }
  const full = stop < end ? `${text}\uFFFD` : text;
  const head = full.charCodeAt(0) === 0xfeff ? full.slice(1) : full;
  return { lines, after: lines.length === 0 ? full : full.slice(lastEnd), head };
}

/**
 * Calls `onLine` for every line of `buf` (a whole file, or the part of it from `options.start`),
 * synchronously: the same Line values, in the same order, as `readLines` over that file.
 *
 * Valid UTF-8 (the usual case; `valid` says the caller checked) is decoded line by line with
 * Buffer's decoder, which gives a compact one-byte string for a line without wide characters;
 * `decoded` holds lines the caller decoded already (see startLines). Invalid files, and lines
 * cut at the size limit, are decoded as readLines decodes them.
 */
export function splitLines(
  buf: Buffer,
  options: LineOptions & { valid?: boolean; decoded?: readonly string[]; wholeText?: string },
  onLine: (line: Line) => void,
): void {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let lineNo = options.startLineNo ?? 1;
  let pos = options.start ?? 0;
  const n = buf.length;
  if (pos >= n) return;
  const scratch: Line | undefined = options.reuseLine
    ? { text: '', lineNo: 0, offset: 0, bytes: 0, truncated: false, invalidUtf8: false }
    : undefined;
  // As long as the bytes, the decoded text is ASCII (valid UTF-8 decodes wider characters from
  // more than one byte): its offsets are byte offsets, so the buffer need not be searched too.
  const whole = options.wholeText;
  if (pos === 0 && whole !== undefined && whole.length === n) {
    while (pos < n) {
      let nl = whole.indexOf('\n', pos);
      if (nl === -1) nl = n;
      const seen = nl - pos;
      if (seen > maxLine) onLine(bufferLine(buf, pos, nl, maxLine, lineNo));
      else {
        const stop = seen > 0 && whole.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl; // CRLF
        onLine(validLine(scratch, whole.slice(pos, stop), lineNo, pos, seen));
      }
      lineNo++;
      pos = nl + 1;
    }
    return;
  }
  if (pos > 0 || !(options.valid || isUtf8(buf))) {
    while (pos < n) {
      let nl = buf.indexOf(0x0a, pos);
      if (nl === -1) nl = n;
      onLine(bufferLine(buf, pos, nl, maxLine, lineNo++));
      pos = nl + 1;
    }
    return;
  }
  const decoded = options.decoded ?? [];
  let i = 0;
  // Past the decoded head of a file of short lines (markdown, pretty-printed JSON), the rest is
  // copied in one call to a one-byte string, byte for character (latin1), and each line is a
  // slice of it: one call per line would cost more than the copy. A line with a byte past ASCII
  // (`wide` is the next one) is decoded as UTF-8 instead; the others stay compact one-byte
  // strings, which a whole-file UTF-8 decode would have made two-byte ones.
  let latin: string | undefined;
  let base = 0; // byte offset of latin's first character
  let wide = Infinity; // byte offset of the next non-ASCII byte
  while (pos < n) {
    if (latin === undefined && i === decoded.length && decoded.length >= 64 && pos < decoded.length * SHORT_LINE_BYTES) {
      latin = buf.toString('latin1', pos);
      base = pos;
      wide = nextWideByte(buf, pos);
    }
    let nl: number;
    if (latin !== undefined) {
      nl = latin.indexOf('\n', pos - base);
      nl = nl === -1 ? n : nl + base;
    } else {
      nl = buf.indexOf(0x0a, pos);
      if (nl === -1) nl = n;
    }
    const seen = nl - pos;
    if (seen > maxLine) onLine(bufferLine(buf, pos, nl, maxLine, lineNo));
    else {
      let text: string;
      if (i < decoded.length) {
        text = decoded[i]!;
        // (each charCodeAt guarded by the length: one past the end, on an empty line, would throw
        // the optimized loop away the first time it happens)
        if (text.length !== 0 && text.charCodeAt(text.length - 1) === 0x0d) text = text.slice(0, -1); // CRLF
      } else {
        const stop = seen > 0 && buf[nl - 1] === 0x0d ? nl - 1 : nl; // CRLF
        if (latin !== undefined && wide >= stop) text = latin.slice(pos - base, stop - base);
        else text = stop > pos ? utf8Text(buf, pos, stop) : '';
      }
      if (text.length !== 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // TextDecoder drops a BOM
      onLine(validLine(scratch, text, lineNo, pos, seen));
    }
    if (wide < nl) wide = nextWideByte(buf, nl + 1);
    i++;
    lineNo++;
    pos = nl + 1;
  }
}

/** Lines at least this long are checked for ASCII before they are decoded (see utf8Text). */
const LONG_LINE_BYTES = 1024;

/**
 * `buf.toString('utf8', start, end)` for bytes known to be valid UTF-8, faster for long lines:
 * an ASCII line is copied byte for character, and one with wider characters is converted to
 * UTF-16 by ICU and copied, which over the non-ASCII lines of the 1 GB corpus's Claude Code part
 * (220 MB) took 0.40 s where V8's UTF-8 decoder took 0.60 s. The same string either way.
 */
export function utf8Text(buf: Buffer, start: number, end: number): string {
  if (end - start < LONG_LINE_BYTES) return buf.toString('utf8', start, end);
  const bytes = buf.subarray(start, end);
  if (isAscii(bytes)) return buf.toString('latin1', start, end);
  const utf16 = transcode(bytes, 'utf8', 'ucs2');
  return utf16.toString('ucs2');
}

/** What TextDecoder gives for bytes known to be valid UTF-8 (a leading BOM dropped), made as
 * utf8Text makes a line. */
export function validUtf8Text(buf: Buffer): string {
  const text = utf8Text(buf, 0, buf.length);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A whole, valid line: `scratch` overwritten when the caller reuses one Line, else a new one. */
function validLine(scratch: Line | undefined, text: string, lineNo: number, offset: number, bytes: number): Line {
  if (!scratch) return { text, lineNo, offset, bytes, truncated: false, invalidUtf8: false };
  scratch.text = text;
  scratch.lineNo = lineNo;
  scratch.offset = offset;
  scratch.bytes = bytes;
  return scratch;
}

/**
 * Offset of the first byte past ASCII in `buf` at or after `from` (Infinity when there is none).
 * Four bytes at a time through a Uint32Array over the same memory: the regex /[\x80-\xff]/ over
 * a latin1 copy cost about as much as the rest of splitting a markdown file into lines (it is
 * tried at every character), and Buffer has no search for a byte range.
 */
export function nextWideByte(buf: Uint8Array, from: number): number {
  const n = buf.length;
  let i = from;
  // byte by byte up to a 4-byte boundary of the underlying memory
  while (i < n && ((buf.byteOffset + i) & 3) !== 0) {
    if (buf[i]! >= 0x80) return i;
    i++;
  }
  const words = i < n ? (n - i) >>> 2 : 0;
  if (words > 0) {
    const u32 = new Uint32Array(buf.buffer, buf.byteOffset + i, words);
    let w = 0;
    while (w < words && (u32[w]! & 0x80808080) === 0) w++;
    i += w << 2;
  }
  for (; i < n; i++) if (buf[i]! >= 0x80) return i;
  return Infinity;
}

/**
 * Calls `onLine` for every line of `file`: from `content` when the caller already holds the
 * whole file (no I/O, synchronous), else streamed by `readLines`.
 */
export async function forEachLine(file: string, options: LineOptions & Preloaded, onLine: (line: Line) => void): Promise<void> {
  if (options.content) {
    splitLines(options.content, { ...options, valid: options.decoded !== undefined }, onLine);
    return;
  }
  const lineOptions: LineOptions = {};
  if (options.maxLineBytes !== undefined) lineOptions.maxLineBytes = options.maxLineBytes;
  if (options.start !== undefined) lineOptions.start = options.start;
  if (options.startLineNo !== undefined) lineOptions.startLineNo = options.startLineNo;
  for await (const line of readLines(file, lineOptions)) onLine(line);
}
