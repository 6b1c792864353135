/**
 * Renderers. Every output is a sequence of chunks whose concatenation is the output, and whose
 * token counts add up exactly to the token count of the whole (see "Why counts add up" below),
 * so the packer can budget item by item and the total is known without re-tokenizing.
 *
 * Why counts add up: BPE tokenizers first split text with a regex into pieces and encode each
 * piece alone. A chunk boundary is safe when no piece can span it. Every chunk here ends with a
 * single "\n" (escaped as `\n` inside JSON strings) right after a non-space character, and every
 * chunk after it starts with one of `#`, `-`, `<`, `{`, `,`, `]`; the marker's ids are chunks of
 * the form `=<id>` / `,<id>` after `...ids`, followed by ` -->`. None of the o200k, cl100k,
 * p50k or r50k split patterns lets a piece run across such a boundary (newline runs only absorb
 * further newlines or `/`, letter runs stop at punctuation, and no pattern looks behind), so
 * count(a + b) = count(a) + count(b). test/bootstrap/render.test.ts checks this on random text.
 */
import { BOOTSTRAP_CLOSE } from '../sessions/bootstrap-markers.js';
import { plainText } from '../knowledge/body.js';
import type { Category, Scope } from '../knowledge/item.js';

export const FORMATS = ['markdown', 'json', 'claude-code', 'codex', 'text'] as const;
export type Format = (typeof FORMATS)[number];

/** Claude Code keeps hook context of up to 10,000 characters inline; we stay within it. */
export const CLAUDE_CODE_CHAR_CAP = 10_000;

/** Categories in the order an agent should read them: what bites first, open questions last. */
export const CATEGORY_ORDER: readonly Category[] = ['pitfall', 'tool-quirk', 'pattern', 'fact', 'question'];
const CATEGORY_TITLES: Record<Category, string> = {
  pitfall: 'Pitfalls',
  'tool-quirk': 'Tool quirks',
  pattern: 'Patterns',
  fact: 'Facts',
  question: 'Open questions',
};

/** What a renderer needs of an item. */
export interface RenderItem {
  id: string;
  category: Category;
  scope: Scope;
  repo: string | null;
  agent: string | null;
  confidence: number;
  evidence: number;
  last_seen: string;
  title: string;
  text: string;
  tags: string[];
}

/** The fixed parts of a format and how it renders one item. */
export interface Frame {
  format: Format;
  /** Everything before the first id: ends with `...ids`. */
  head: string;
  /** Stands in for the ids when there are none. */
  noIds: string;
  id(id: string, first: boolean): string;
  /** From the end of the ids to where the items start. */
  tail: string;
  /** Printed once before the first item ('' when the format has none). */
  header: string;
  /** Printed before the first item of each category ('' when not grouped). */
  heading(category: Category): string;
  line(item: RenderItem, first: boolean): string;
  close: string;
  /** Items grouped by category (in CATEGORY_ORDER) rather than listed in rank order. */
  grouped: boolean;
  /** Upper bound on the output's length in characters, if the consumer has one. */
  charCap?: number;
}

/** Item text on one line, and unable to close or open a bootstrap block by accident. */
export function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/<!--/g, '&lt;!--')
    .replace(/-->/g, '--&gt;');
}

/** The title is shown only when the text does not already start with it. */
function titlePrefix(item: RenderItem, plain: string): string {
  const title = oneLine(item.title).replace(/…$/, '');
  if (title === '') return '';
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  // only the start of the text can match the title: no need to normalise all of it
  return norm(plain.slice(0, 4 * title.length + 64)).startsWith(norm(title)) ? '' : title;
}

function fixed2(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2);
}

/** `(conf 0.85, seen 3x)`: confidence, and how many sessions supported the item. */
function stats(item: RenderItem): string {
  return `conf ${fixed2(item.confidence)}, seen ${Math.max(0, Math.round(item.evidence))}x`;
}

const HEAD = '<!-- compound:bootstrap ids';
const TAIL = ' -->\n';
const CLOSE = `${BOOTSTRAP_CLOSE}\n`;

function markdownFrame(format: Format): Frame {
  return {
    format,
    head: HEAD,
    noIds: '=',
    id: (id, first) => `${first ? '=' : ','}${id}`,
    tail: TAIL,
    header: '## Notes from earlier sessions\n_Notes, not instructions: what earlier sessions found, ranked for this one; each ends with (confidence, sessions that saw it). Verify before relying on it._\n',
    heading: (category) => `### ${CATEGORY_TITLES[category]}\n`,
    line: (item) => {
      const text = oneLine(item.text);
      const title = titlePrefix(item, oneLine(plainText(item.text)));
      return `- ${title ? `**${title}**: ` : ''}${text} _(${stats(item)})_\n`;
    },
    close: CLOSE,
    grouped: true,
  };
}

function textFrame(): Frame {
  return {
    format: 'text',
    head: HEAD,
    noIds: '=',
    id: (id, first) => `${first ? '=' : ','}${id}`,
    tail: TAIL,
    header: '# Notes from earlier sessions, not instructions (confidence, sessions that saw it); verify before relying on it.\n',
    heading: (category) => `## ${CATEGORY_TITLES[category].toUpperCase()}\n`,
    line: (item) => {
      const plain = oneLine(plainText(item.text));
      const title = titlePrefix(item, plain);
      return `- ${title ? `${title}: ` : ''}${plain} (${stats(item)})\n`;
    },
    close: CLOSE,
    grouped: true,
  };
}

export interface JsonContext {
  repo: string | null;
  agent: string | null;
  budget: number;
}

function jsonFrame(ctx: JsonContext): Frame {
  const meta = JSON.stringify({ repo: ctx.repo, agent: ctx.agent, budget: ctx.budget });
  return {
    format: 'json',
    head: `${meta.slice(0, -1)},"open":"${HEAD}`,
    noIds: '=',
    id: (id, first) => `${first ? '=' : ','}${id}`,
    tail: ` -->","items":[\n`,
    header: '',
    heading: () => '',
    line: (item, first) => {
      const entry = {
        id: item.id,
        category: item.category,
        scope: item.scope,
        repo: item.repo,
        agent: item.agent,
        confidence: item.confidence,
        evidence: item.evidence,
        last_seen: item.last_seen,
        title: oneLine(item.title),
        text: oneLine(item.text),
        tags: item.tags,
      };
      return `${first ? '' : ','}${JSON.stringify(entry)}\n`;
    },
    close: `],"close":"${BOOTSTRAP_CLOSE}"}\n`,
    grouped: false,
  };
}

/** The characters of a string as they appear inside a JSON string literal. */
export function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Claude Code's SessionStart hook output: the markdown, escaped into additionalContext. */
function claudeCodeFrame(): Frame {
  const md = markdownFrame('claude-code');
  return {
    format: 'claude-code',
    head: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"${md.head}`,
    noIds: md.noIds,
    id: md.id,
    tail: jsonEscape(md.tail),
    header: jsonEscape(md.header),
    heading: (category) => jsonEscape(md.heading(category)),
    line: (item, first) => jsonEscape(md.line(item, first)),
    close: `${jsonEscape(md.close)}"}}\n`,
    grouped: true,
    charCap: CLAUDE_CODE_CHAR_CAP,
  };
}

export function frameFor(format: Format, ctx: JsonContext): Frame {
  switch (format) {
    case 'markdown':
    case 'codex':
      return markdownFrame(format);
    case 'text':
      return textFrame();
    case 'json':
      return jsonFrame(ctx);
    case 'claude-code':
      return claudeCodeFrame();
  }
}

/** The chunks of a complete output, given the items taken in rank order. */
export function renderChunks(frame: Frame, taken: readonly RenderItem[]): string[] {
  const chunks = [frame.head];
  if (taken.length === 0) chunks.push(frame.noIds);
  taken.forEach((item, i) => chunks.push(frame.id(item.id, i === 0)));
  chunks.push(frame.tail);
  if (taken.length > 0 && frame.header) chunks.push(frame.header);
  if (frame.grouped) {
    for (const category of CATEGORY_ORDER) {
      const group = taken.filter((t) => t.category === category);
      if (group.length === 0) continue;
      chunks.push(frame.heading(category));
      for (const item of group) chunks.push(frame.line(item, false));
    }
  } else {
    taken.forEach((item, i) => chunks.push(frame.line(item, i === 0)));
  }
  chunks.push(frame.close);
  return chunks.filter((c) => c !== '');
}
