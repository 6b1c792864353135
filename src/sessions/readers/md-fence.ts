/**
 * Tracks fenced code blocks (``` / ~~~, up to three spaces of indent) while a markdown file is
 * read line by line, so section markers inside code are not taken for structure.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export interface FenceLine {
  /** The line opens or closes a fence. */
  delimiter: boolean;
  /** Info string of an opening fence (e.g. "bash"), lowercased. */
  lang?: string;
  /** The line closes a fence. */
  closes?: boolean;
}

const NOT_A_FENCE: FenceLine = Object.freeze({ delimiter: false });

export class FenceTracker {
  private open: { ch: string; len: number } | undefined;

  get inside(): boolean {
    return this.open !== undefined;
  }

  /** Feeds one line; says whether it is a fence delimiter. */
  update(line: string): FenceLine {
    // most lines cannot be fences: skip the regex unless the line starts with a space, ` or ~
    const c = line.charCodeAt(0);
    if (c !== 0x60 && c !== 0x7e && c !== 0x20) return NOT_A_FENCE;
    const m = FENCE.exec(line);
    if (!m) return NOT_A_FENCE;
    const marks = m[1]!;
    const rest = m[2]!;
    if (this.open) {
      // a closing fence: same character, at least as long, nothing after it
      if (marks[0] === this.open.ch && marks.length >= this.open.len && rest.trim() === '') {
        this.open = undefined;
        return { delimiter: true, closes: true };
      }
      return NOT_A_FENCE;
    }
    if (marks[0] === '`' && rest.includes('`')) return NOT_A_FENCE; // inline code, not a fence
    this.open = { ch: marks[0]!, len: marks.length };
    return { delimiter: true, lang: rest.trim().split(/\s+/)[0]!.toLowerCase() };
  }

  /** Forgets an open fence (for exports that never close one). */
  reset(): void {
    this.open = undefined;
  }
}

/** The text with its fenced code blocks blanked out (the lines stay, empty): a document that
 * shows a transcript format in an example (FORMATS.md, a README) is not that format. */
export function outsideFences(text: string): string {
  if (!text.includes('```') && !text.includes('~~~')) return text;
  const fence = new FenceTracker();
  return text
    .split('\n')
    .map((line) => {
      const was = fence.inside;
      const f = fence.update(line);
      return was || f.delimiter ? '' : line;
    })
    .join('\n');
}
