/**
 * The bootstrapper wraps what it gives an agent in these markers; readers turn the wrapped text
 * into one BootstrapEvent so it is never harvested again and the measurer knows what was given.
 */

export const BOOTSTRAP_OPEN_RE = /<!--\s*compound:bootstrap\s+ids=([^\s>]*)\s*-->/;
export const BOOTSTRAP_CLOSE = '<!-- /compound:bootstrap -->';

export function bootstrapOpenMarker(ids: readonly string[]): string {
  return `<!-- compound:bootstrap ids=${ids.join(',')} -->`;
}

export interface BootstrapSplit {
  /** Text outside any bootstrap block (may be empty). */
  rest: string;
  blocks: { itemIds: string[]; text: string }[];
}

/** Splits a text into bootstrap blocks and the remaining text. A block without its closing
 * marker runs to the end of the text (an agent may have truncated it). */
export function splitBootstrapBlocks(text: string): BootstrapSplit {
  const blocks: { itemIds: string[]; text: string }[] = [];
  let rest = '';
  let cursor = 0;
  const open = new RegExp(BOOTSTRAP_OPEN_RE.source, 'g');
  for (;;) {
    open.lastIndex = cursor;
    const m = open.exec(text);
    if (!m) break;
    rest += text.slice(cursor, m.index);
    const bodyStart = m.index + m[0].length;
    const close = text.indexOf(BOOTSTRAP_CLOSE, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    const ids = (m[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    blocks.push({ itemIds: ids, text: text.slice(bodyStart, bodyEnd).trim() });
    cursor = close === -1 ? text.length : close + BOOTSTRAP_CLOSE.length;
  }
  rest += text.slice(cursor);
  return { rest, blocks };
}
