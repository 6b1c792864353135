/**
 * Streams a file as lines with bounded memory: a line longer than `maxLineBytes` is cut to that
 * length (flagged `truncated`) and the rest of it is skipped without being held in memory.
 * Invalid UTF-8 is decoded with replacement characters and flagged, never thrown.
 */
import { createReadStream } from 'node:fs';

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
