/**
 * The body is the reviewer's: one to three plain sentences of knowledge, optionally followed by
 * an `## Evidence` section. A line scanner (fence-aware) finds the section; it is exact for the
 * bodies we write and cheap enough to run over 100,000 items in `check`.
 */

const EVIDENCE_HEADING = /^#{1,6}[ \t]+evidence\b/i;
const FENCE = /^(```|~~~)/;

export interface BodyParts {
  /** The knowledge sentences. */
  text: string;
  /** The evidence section including its heading, or ''. */
  evidence: string;
}

export function splitBody(body: string): BodyParts {
  // line by line without splitting: only a line starting with `#`, a backtick or `~` can matter
  let inFence = false;
  for (let start = 0; start <= body.length; ) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const c = body.charCodeAt(start);
    if (c === 35 || c === 96 || c === 126) {
      const line = body.slice(start, end);
      if (FENCE.test(line)) inFence = !inFence;
      else if (!inFence && EVIDENCE_HEADING.test(line)) return { text: body.slice(0, start).trim(), evidence: body.slice(start).trim() };
    }
    start = end + 1;
  }
  return { text: body.trim(), evidence: '' };
}

/** Plain text of inline markdown: enough for titles and search (code spans keep their text). */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first sentence of the knowledge text, at most `max` characters, cut at a word. */
export function titleFromText(text: string, max = 100): string {
  const plain = plainText(text);
  const sentence = /^(.+?[.!?])(\s|$)/.exec(plain)?.[1] ?? plain;
  if (sentence.length <= max) return sentence.replace(/[.]$/, '');
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}…`;
}

/** Line numbers (1-based within the body) of bare `---` lines outside code fences. */
export function separatorLines(body: string): number[] {
  const out: number[] = [];
  if (!body.includes('---')) return out; // every separator line contains it
  let inFence = false;
  body.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) inFence = !inFence;
    else if (!inFence && /^---+\s*$/.test(line)) out.push(i + 1);
  });
  return out;
}

export function composeBody(text: string, evidence: string): string {
  const t = text.trim();
  const e = evidence.trim();
  return e === '' ? `${t}\n` : `${t}\n\n${e}\n`;
}
