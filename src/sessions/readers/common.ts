/**
 * Small helpers shared by the readers in this folder: warnings, ids derived from paths, session
 * assembly, and whole-file text reading with line/byte positions for pretty-printed JSON.
 */
import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AiderLaunches, ReadWarning, Session, SessionEvent, SessionFormat } from '../model.js';
import type { ReadOptions } from '../reader.js';
import { validUtf8Text, type Line, type LineOptions, type Preloaded } from '../lines.js';

/** Collects warnings for one file and forwards each to `options.onWarning` as it happens. */
export class Warnings {
  readonly list: ReadWarning[] = [];
  constructor(
    readonly file: string,
    private readonly options: ReadOptions | undefined,
  ) {}

  add(line: number | undefined, message: string): void {
    const w: ReadWarning = line === undefined ? { file: this.file, message } : { file: this.file, line, message };
    this.list.push(w);
    this.options?.onWarning?.(w);
  }
}

/** Line-reading options for a reader: its line limit, and the bytes read.ts already holds. */
export function lineOptionsFor(options: (ReadOptions & Preloaded) | undefined): LineOptions & Preloaded {
  const out: LineOptions & Preloaded = options?.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {};
  if (options?.content) {
    out.content = options.content;
    out.decoded = options.decoded;
    if (options.wholeText !== undefined) out.wholeText = options.wholeText;
  }
  return out;
}

/** Warns about a line that was not valid UTF-8 or was longer than the limit (`cut` or `skipped`). */
export function warnLineQuality(warnings: Warnings, line: Line, oversized: 'cut' | 'skipped'): void {
  if (line.invalidUtf8) warnings.add(line.lineNo, 'invalid UTF-8 (bytes replaced with U+FFFD)');
  if (line.truncated) warnings.add(line.lineNo, `line of ${line.bytes} bytes exceeds the line limit; ${oversized}`);
}

/** File name without directory and last extension. */
export function baseName(file: string): string {
  const b = path.basename(file);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** Short stable hash of the absolute path: two files with the same name in different places differ. */
export function pathHash(file: string, length = 10): string {
  return createHash('sha1').update(path.resolve(file)).digest('hex').slice(0, length);
}

/** Byte size of a file, 0 when it cannot be read (`content`: the whole file, already read). */
export async function fileSize(file: string, content?: Buffer): Promise<number> {
  if (content) return content.length;
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** The first `bytes` bytes of a file decoded leniently ('' when unreadable): for readers that
 * handle two shapes and must pick one before reading. `content`: the whole file, already read. */
export async function readHead(file: string, bytes: number, content?: Buffer): Promise<string> {
  if (content) return lenientDecoder.decode(content.length > bytes ? content.subarray(0, bytes) : content);
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return lenientDecoder.decode(buf.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Keeps the first occurrence of each model name, in order of appearance. */
export class ModelList {
  readonly names: string[] = [];
  add(name: string | undefined): void {
    if (name && !this.names.includes(name)) this.names.push(name);
  }
}

/**
 * Whether a head opens like a JSON document or JSON Lines (first non-blank character `{` or `[`).
 * Every line of such a file is JSON structure, so no line of it can be a markdown heading or
 * marker: the markdown readers rule it out without scanning 64 KiB for their markers.
 */
export function opensAsJson(head: string): boolean {
  return isJsonOpening(firstNonBlank(head));
}

/** `{` or `[`. */
export function isJsonOpening(c: number): boolean {
  return c === 0x7b || c === 0x5b;
}

/** The code of the first character of `text` from `from` on that is not a space, tab, CR or
 * LF, or -1 when there is none. */
export function firstNonBlank(text: string, from = 0): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
  }
  return -1;
}

export interface SessionInit {
  id: string;
  format: SessionFormat;
  agent: string;
  file: string;
  bytes: number;
  events: SessionEvent[];
  warnings: ReadWarning[];
  models?: string[];
  subagent?: string | undefined;
  parentId?: string | undefined;
  parentEditsAfter?: string[] | undefined;
  aiderLaunches?: AiderLaunches | undefined;
  repo?: string | undefined;
  remoteRepo?: string | undefined;
  cwd?: string | undefined;
  cwdFromFile?: boolean | undefined;
  branch?: string | undefined;
  sandboxed?: boolean | undefined;
  declaredShell?: string | undefined;
  agentVersion?: string | undefined;
  startedAt?: string | undefined;
  endedAt?: string | undefined;
}

/** Builds a Session with every key of the type in a fixed order, an absent (or empty) optional
 * one undefined: JSON output of the same input is byte-identical (JSON leaves undefined out),
 * and every session has one hidden class, whichever reader made it (see sessions/events.ts). */
export function makeSession(init: SessionInit): Session {
  return {
    id: init.id,
    format: init.format,
    agent: init.agent,
    subagent: init.subagent || undefined,
    parentId: init.parentId || undefined,
    parentEditsAfter: init.parentEditsAfter?.length ? init.parentEditsAfter : undefined,
    aiderLaunches: init.aiderLaunches,
    repo: init.repo || undefined,
    remoteRepo: init.remoteRepo || undefined,
    cwd: init.cwd || undefined,
    cwdFromFile: init.cwdFromFile || undefined,
    branch: init.branch || undefined,
    sandboxed: init.sandboxed,
    declaredShell: init.declaredShell || undefined,
    agentVersion: init.agentVersion || undefined,
    models: init.models ?? [],
    startedAt: init.startedAt || undefined,
    endedAt: init.endedAt || undefined,
    file: init.file,
    bytes: init.bytes,
    events: init.events,
    warnings: init.warnings,
  };
}

/** A whole file decoded as text, with a mapping from character offsets to 1-based lines and
 * from lines to byte offsets (for formats that are one pretty-printed JSON document). */
export interface TextFile {
  text: string;
  bytes: number;
  /** The bytes `text` was decoded from. */
  buffer: Buffer;
  /** Character offset in `text` where each line starts (line 1 at index 0); found when first
   * asked for (a reader that knows its lines by other means never pays for them). */
  readonly lineStarts: readonly number[];
  /** 1-based line of a character offset in `text`. */
  lineAt(charOffset: number): number;
  /** Byte offset of the start of a 1-based line. */
  byteOffsetOfLine(line: number): number;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false });

/** Reads a file as UTF-8. Invalid bytes become U+FFFD and each affected line gets a warning.
 * `preloaded`: the whole file, already read (then there is no I/O) and maybe decoded. */
export async function readTextFile(file: string, warnings: Warnings, preloaded?: Preloaded): Promise<TextFile | undefined> {
  let buf: Buffer;
  try {
    buf = preloaded?.content ?? (await readFile(file));
  } catch (err) {
    warnings.add(undefined, `cannot read file: ${errorMessage(err)}`);
    return undefined;
  }
  const byteLineStarts = (): number[] => {
    const starts = [0];
    for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) starts.push(i + 1);
    return starts;
  };
  let byteStarts: number[] | undefined;
  let text: string;
  try {
    // read.ts hands `decoded` only with content it found valid UTF-8: no check needed again
    const valid = preloaded?.content !== undefined && preloaded.decoded !== undefined;
    text = (preloaded?.content ? preloaded.wholeText : undefined) ?? (valid ? validUtf8Text(buf) : strictDecoder.decode(buf));
  } catch {
    text = lenientDecoder.decode(buf);
    byteStarts = byteLineStarts();
    for (let l = 0; l < byteStarts.length; l++) {
      const end = l + 1 < byteStarts.length ? byteStarts[l + 1]! - 1 : buf.length;
      try {
        strictDecoder.decode(buf.subarray(byteStarts[l]!, end));
      } catch {
        warnings.add(l + 1, 'invalid UTF-8 (bytes replaced with U+FFFD)');
      }
    }
  }
  // Newlines are ASCII, so text and bytes have the same line breaks; when every character is
  // one byte (as long as the bytes), they are also at the same offsets.
  let charStarts: number[] | undefined;
  const starts = (): number[] => {
    if (charStarts === undefined) {
      charStarts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) charStarts.push(i + 1);
    }
    return charStarts;
  };
  let lineBytes = byteStarts;
  return {
    text,
    bytes: buf.length,
    buffer: buf,
    get lineStarts(): readonly number[] {
      return starts();
    },
    lineAt(charOffset: number): number {
      const charStarts = starts();
      let lo = 0;
      let hi = charStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (charStarts[mid]! <= charOffset) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    },
    byteOffsetOfLine(line: number): number {
      lineBytes ??= text.length === buf.length ? starts() : byteLineStarts();
      return lineBytes[Math.min(Math.max(line, 1), lineBytes.length) - 1]!;
    },
  };
}

/** "2025-01-05 10:00:00" / "2025-01-05 10:00Z" → ISO-like "2025-01-05T10:00:00" / "...T10:00:00Z".
 * The zone is kept as written (naive stays naive): we never guess a local offset. */
export function isoFromSpaced(s: string): string | undefined {
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d)(:\d\d(?:\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d)?$/.exec(s.trim());
  if (!m) return undefined;
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}${m[4] ?? ''}`;
}
