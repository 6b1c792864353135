/**
 * Item file bytes <-> StoredItem. Parsing never throws: every defect becomes a Problem naming
 * the file and line. Serialising is canonical, and `raw` is kept so that an unchanged item is
 * written back byte for byte even if a reviewer formatted it differently.
 */
import { META_KEYS, type Item, type ItemMeta, type StoredItem } from './item.js';
import { FrontMatterSyntaxError, parseFrontMatter, stringifyFrontMatter } from './frontmatter.js';
import { validateMeta } from './schema.js';
import { composeBody, separatorLines, splitBody, titleFromText } from './body.js';
import type { Problem } from './problem.js';

/** Items are a few sentences; anything this large is not an item. */
export const MAX_ITEM_BYTES = 256 * 1024;
const MAX_TEXT_CHARS = 1200;

export interface ParseResult {
  item?: StoredItem;
  problems: Problem[];
  /** The decoded file text, when the bytes are valid UTF-8 (the same string as `item.raw`). */
  text?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function parseItemBytes(path: string, bytes: Uint8Array): ParseResult {
  const problems: Problem[] = [];
  const p = (code: string, line: number, what: string, why: string, fix: string) => problems.push({ code, file: path, line, what, why, fix });
  if (bytes.length === 0) {
    p('E_ITEM_EMPTY', 1, 'the file is empty', 'an item needs front matter and a body', 'delete the file or restore its content');
    return { problems };
  }
  if (bytes.length > MAX_ITEM_BYTES) {
    p('E_ITEM_TOO_LARGE', 1, `the file is ${bytes.length} bytes, over the ${MAX_ITEM_BYTES}-byte limit`, 'an item is one to three sentences; a huge file is a mistake or a paste', 'shorten it or split it into several items');
    return { problems };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    let line = 1;
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const bad = lenient.indexOf('\uFFFD');
    if (bad !== -1) line = lenient.slice(0, bad).split('\n').length;
    p('E_ITEM_ENCODING', line, 'the file is not valid UTF-8', 'items are UTF-8 text', 're-save the file as UTF-8');
    return { problems };
  }
  const raw = text;
  if (text.charCodeAt(0) === 0xfeff) {
    p('E_ITEM_BOM', 1, 'the file starts with a byte-order mark', 'it makes the front matter fence invisible to other tools and breaks byte-identical output', 're-save the file as UTF-8 without BOM');
    text = text.slice(1);
  }
  const crlf = text.indexOf('\r\n');
  if (crlf !== -1) {
    p('E_ITEM_CRLF', text.slice(0, crlf).split('\n').length, 'the file has CRLF line endings', 'items are written with LF and CRLF shows as a whole-file diff in review', 'convert the file to LF line endings (e.g. `dos2unix`)');
    text = text.replace(/\r\n/g, '\n');
  }
  let parsed;
  try {
    parsed = parseFrontMatter(text);
  } catch (err) {
    if (err instanceof FrontMatterSyntaxError) {
      p('E_ITEM_YAML', err.line, err.message, 'the front matter must be a valid YAML mapping between `---` fences', 'fix the YAML at that line');
      return { problems, text: raw };
    }
    throw err;
  }
  const schema = validateMeta(parsed.data, path, () => `\n${parsed.matter.replace(/^\n/, '')}`);
  problems.push(...schema.problems);
  for (const line of separatorLines(parsed.body)) {
    p('E_ITEM_BODY_SEPARATOR', parsed.bodyLine + line - 1, 'the body contains a `---` line', 'front-matter tools can read it as a second document fence', 'remove the line or use `***` for a rule');
  }
  const { text: knowledge } = splitBody(parsed.body);
  if (knowledge === '') {
    p('E_ITEM_BODY_EMPTY', parsed.bodyLine, 'the body has no knowledge text', 'the body is what an agent is given', 'write one to three sentences of knowledge');
  } else if (knowledge.length > MAX_TEXT_CHARS) {
    p('E_ITEM_BODY_LONG', parsed.bodyLine, `the knowledge text is ${knowledge.length} characters, over ${MAX_TEXT_CHARS}`, 'an item should be one to three sentences that fit a bootstrap budget', 'shorten it or split it into several items');
  }
  if (!schema.meta) return { problems, text: raw };
  const meta = schema.meta;
  return {
    item: { meta, body: parsed.body, path, text: knowledge, title: meta.title ?? titleFromText(knowledge), raw },
    problems,
    text: raw,
  };
}

/**
 * The StoredItem of a file known to be clean (see load-cache.ts): `meta` as parseItemBytes
 * validated it for these exact bytes, and where the body starts. Undefined when the bytes do not
 * decode (then the caller parses them the usual way).
 */
export function knownItem(path: string, bytes: Uint8Array, meta: ItemMeta, bodyStart: number): StoredItem | undefined {
  let raw: string;
  try {
    raw = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const body = raw.slice(bodyStart);
  const { text } = splitBody(body);
  return { meta, body, path, text, title: meta.title ?? titleFromText(text), raw };
}

/** Front matter in schema order, without undefined values or empty optional lists. */
export function orderedMeta(meta: ItemMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of META_KEYS) {
    const value = meta[key];
    if (value === undefined) continue;
    if ((key === 'supersedes' || key === 'conflicts_with') && Array.isArray(value) && value.length === 0) continue;
    if (key === 'sources') {
      out[key] = (value as ItemMeta['sources']).map((s) => {
        const rec: Record<string, unknown> = { session: s.session, format: s.format };
        if (s.event !== undefined) rec.event = s.event;
        if (s.line !== undefined) rec.line = s.line;
        if (s.extractor !== undefined) rec.extractor = s.extractor;
        return rec;
      });
      continue;
    }
    out[key] = value;
  }
  return out;
}

export function serializeItem(item: Item): string {
  const { text, evidence } = splitBody(item.body);
  return stringifyFrontMatter(orderedMeta(item.meta), composeBody(text, evidence));
}

/** True when two items mean the same (so the file need not be rewritten). */
export function sameItem(a: Item, b: Item): boolean {
  return JSON.stringify(orderedMeta(a.meta)) === JSON.stringify(orderedMeta(b.meta)) && a.body.trim() === b.body.trim();
}
