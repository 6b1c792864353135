/**
 * Gemini CLI's markdown export (`/chat share <file>.md`): the chat's history as the Gemini API
 * holds it (what a `/chat save` checkpoint stores as JSON), one block per `{role, parts}` entry:
 *
 *   ## USER 🧑‍💻                   (versions of 2025: `🧑‍💻 ## USER`, `✨ ## MODEL`)
 *
 *   <the parts, joined with nothing between them>
 *
 *   ---
 *
 *   ## MODEL ✨
 *
 * A text part is written as it is; a function call as `**Tool Command**:` and a ```json fence
 * holding `{name, args, id?}`; a function response as `**Tool Response**:` and a fence holding
 * `{id, name, response}`. Parts are joined with nothing between them, so a marker may end a line
 * of text (`…first.**Tool Command**:`) and the next part may start on a fence's closing line
 * (```` ```**Tool Command**: ````). No session id, timestamps or model names. Each event cites the
 * line its part starts on (a tool call or response: its marker's line).
 */
import type { Session, SourceRef } from '../model.js';
import { isRecord, type TextFile, Warnings } from './common.js';
import { GeminiHistory, historySession, REFERENCED_FILES } from './gemini-history.js';

type Role = 'user' | 'model';

/** A block's first line; the user's icon is one emoji made of three code points. */
const HEADER = /^(?:## (USER|MODEL) (?:🧑\u200d?💻|✨)|(?:🧑\u200d?💻|✨) ## (USER|MODEL))[ \t]*$/u;
const MARKERS = { '**Tool Command**:': 'call', '**Tool Response**:': 'response' } as const;
type Marker = keyof typeof MARKERS;

/** The role a line opens a block for, if it is a block header. */
function headerRole(line: string): Role | undefined {
  const c = line.charCodeAt(0);
  // '#', or the first code unit of 🧑 or of ✨: every other line is ruled out without the regex
  if (c !== 0x23 && c !== 0xd83e && c !== 0x2728) return undefined;
  const m = HEADER.exec(line);
  return m ? ((m[1] ?? m[2]) === 'USER' ? 'user' : 'model') : undefined;
}

/** Whether a file's first non-blank line is a block header. */
export function detectMarkdownExport(head: string): number {
  const start = head.search(/\S/); // (\s takes a BOM too)
  if (start === -1) return 0;
  const nl = head.indexOf('\n', start);
  const first = head.slice(start, nl === -1 ? head.length : nl).replace(/\r$/, '');
  return headerRole(first) ? 0.9 : 0;
}

interface Block {
  role: Role;
  /** Index of the header line. */
  header: number;
  /** Index of the line after the block's last (the `---` before the next header). */
  end: number;
}

/** The blocks: a header opens one when it is the first non-blank line or follows a `---` line
 * (the separator the export writes), so a header quoted inside a text does not. */
function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let previous = -1; // the last non-blank line
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const role = previous === -1 || lines[previous]!.trim() === '---' ? headerRole(line) : undefined;
    if (role) {
      const last = blocks.at(-1);
      if (last) last.end = previous;
      blocks.push({ role, header: i, end: lines.length });
    }
    previous = i;
  }
  return blocks;
}

/** The marker a line ends with when a ```json fence opens on the next line. */
function markerAt(line: string, next: string | undefined): Marker | undefined {
  if (next !== '```json') return undefined;
  for (const marker of Object.keys(MARKERS) as Marker[]) if (line.endsWith(marker)) return marker;
  return undefined;
}

class ExportReader {
  readonly history = new GeminiHistory();
  /** The lines of the text part being read, with their indexes. */
  private run: { i: number; text: string }[] = [];

  constructor(
    private readonly file: string,
    private readonly tf: TextFile,
    private readonly warnings: Warnings,
    private readonly lines: readonly string[],
  ) {}

  private src(i: number): SourceRef {
    return { file: this.file, line: i + 1, offset: this.tf.byteOffsetOfLine(i + 1) };
  }

  readBlock(b: Block): void {
    for (let i = b.header + 1; i < b.end; i++) {
      let rest = this.lines[i]!;
      for (;;) {
        const marker = i + 1 < b.end ? markerAt(rest, this.lines[i + 1]) : undefined;
        if (!marker) {
          this.addText(b.role, rest, i);
          break;
        }
        const before = rest.slice(0, rest.length - marker.length);
        if (before !== '') this.addText(b.role, before, i);
        this.flushText(b.role);
        const close = this.readFence(marker, i, b.end);
        if (close >= b.end) {
          i = b.end;
          break;
        }
        // what follows the closing ``` is the next part
        i = close;
        rest = this.lines[close]!.slice(3);
        if (rest === '') break;
      }
    }
    this.flushText(b.role);
    this.history.endEntry();
  }

  private addText(role: Role, text: string, i: number): void {
    // the files a prompt's @paths pulled in: a part of their own (see gemini-history.ts)
    if (role === 'user' && text === REFERENCED_FILES) this.flushText(role);
    this.run.push({ i, text });
  }

  private flushText(role: Role): void {
    const run = this.run;
    this.run = [];
    let a = 0;
    let z = run.length;
    while (a < z && run[a]!.text.trim() === '') a++;
    while (z > a && run[z - 1]!.text.trim() === '') z--;
    if (a === z) return;
    const text = run.slice(a, z).map((l) => l.text).join('\n');
    this.history.text(role, text, this.src(run[a]!.i));
  }

  /** Reads the fence after the marker on line `at`; returns the index of its closing line (`end`
   * when the block ends first). */
  private readFence(marker: Marker, at: number, end: number): number {
    const open = at + 1;
    let close = open + 1;
    // JSON.stringify(…, null, 2) starts no line inside the value with ```
    while (close < end && !this.lines[close]!.startsWith('```')) close++;
    let value: unknown;
    try {
      value = JSON.parse(this.lines.slice(open + 1, close).join('\n'));
    } catch {
      value = undefined;
    }
    if (!isRecord(value)) {
      this.warnings.add(open + 1, `the \`\`\`json fence after ${marker} holds no valid JSON object${close >= end ? ' and is not closed' : ''}; skipped`);
    } else {
      if (close >= end) this.warnings.add(open + 1, `the \`\`\`json fence after ${marker} is not closed (file cut short?)`);
      if (MARKERS[marker] === 'call') this.history.call(value, this.src(at));
      else this.history.response(value, this.src(at));
    }
    return close;
  }
}

export function readMarkdownExport(file: string, warnings: Warnings, tf: TextFile): Session[] {
  const lines = tf.text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
  const reader = new ExportReader(file, tf, warnings, lines);
  for (const b of blocksOf(lines)) reader.readBlock(b);
  // the export records no session id: the path names it
  return [historySession(file, tf, warnings, reader.history)];
}
