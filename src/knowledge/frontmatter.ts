/**
 * The one way front matter is read and written. gray-matter caches parse results by content and
 * hands back shared objects unless options are passed, so we always pass our own yaml engine
 * (the `yaml` package, YAML 1.2 core schema: timestamps stay strings, no Date surprises).
 */
import type GrayMatter from 'gray-matter';
import type * as YamlModule from 'yaml';
import { lazy } from '../core/lazy.js';
import { parseCanonicalFrontMatter, parseSimpleFrontMatter } from './frontmatter-fast.js';
import { stringifySimpleFrontMatter } from './frontmatter-write-fast.js';
import { escapeRegExp } from '../core/regexp.js';

export interface ParsedFrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based file line where the body starts. */
  bodyLine: number;
  /** The raw front matter text (between the fences). */
  matter: string;
}

export class FrontMatterSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const loadYaml = lazy<typeof YamlModule>('yaml');
const loadMatter = lazy<typeof GrayMatter>('gray-matter');

const engines = {
  yaml: {
    parse: (source: string): object => {
      const value: unknown = loadYaml().parse(source, { prettyErrors: true, uniqueKeys: true });
      return (value ?? {}) as object;
    },
    stringify: (value: object): string => loadYaml().stringify(value),
  },
};

/** Parses text that must begin with a `---` fenced YAML block. */
export function parseFrontMatter(text: string): ParsedFrontMatter {
  if (!text.startsWith('---\n') && !text.startsWith('---\r\n')) {
    throw new FrontMatterSyntaxError('the file does not start with a `---` front matter fence', 1);
  }
  const close = text.search(/\n---[ \t]*(\r?\n|$)/);
  if (close === -1) throw new FrontMatterSyntaxError('the front matter has no closing `---` fence', 1);
  const fast = parseFast(text, close);
  if (fast) return fast;
  let file;
  try {
    file = loadMatter()(text, { engines, language: 'yaml' });
  } catch (err) {
    const pos = (err as { linePos?: { line: number }[] }).linePos;
    // gray-matter hands YAML the text after the opening fence, so its line N is file line N
    const line = pos?.[0]?.line ?? 1;
    const message = err instanceof Error ? err.message.split('\n')[0] ?? 'invalid YAML' : 'invalid YAML';
    throw new FrontMatterSyntaxError(`invalid YAML in front matter: ${message.replace(/ at line \d+, column \d+:?$/, '')}`, line);
  }
  const data = file.data as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontMatterSyntaxError('the front matter is not a YAML mapping', 2);
  }
  const matterLines = file.matter.split('\n').length; // includes the line of the opening fence
  return { data: data as Record<string, unknown>, body: file.content, bodyLine: matterLines + 2, matter: file.matter };
}

function parseFast(text: string, close: number): ParsedFrontMatter | undefined {
  const matterText = text.slice(3, close); // from the end of the opening fence to before "\n---"
  let lineCount = 0; // lines of YAML between the fences
  let data = parseCanonicalFrontMatter(matterText.slice(1));
  if (data) for (let at = 0; at !== -1; at = matterText.indexOf('\n', at + 1)) lineCount++;
  else {
    const lines = matterText.split('\n').slice(1);
    lineCount = lines.length;
    data = parseSimpleFrontMatter(lines);
    if (!data) return undefined;
  }
  const afterFence = text.indexOf('\n', close + 1);
  const body = afterFence === -1 ? '' : text.slice(afterFence + 1);
  return { data, body, bodyLine: lineCount + 3, matter: matterText };
}

/**
 * Serialises data in the given key order: block style for the mapping, flow style for short
 * lists (tags, ids) and for each source record, so a diff shows one line per change.
 */
export function stringifyFrontMatter(data: Record<string, unknown>, body: string): string {
  // the usual values without building a YAML document: the same bytes (frontmatter-write-fast.ts)
  const simple = stringifySimpleFrontMatter(data);
  return `---\n${simple ?? stringifyWithYaml(data)}---\n${body}`;
}

/** The YAML between the fences as the `yaml` package writes it (the fast path must equal it). */
export function stringifyWithYaml(data: Record<string, unknown>): string {
  const { Document, isMap, isSeq } = loadYaml();
  const doc = new Document(data);
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      const value = pair.value;
      if (isSeq(value)) {
        const allScalars = value.items.every((x) => !isMap(x) && !isSeq(x));
        if (allScalars) value.flow = true;
        else for (const entry of value.items) if (isMap(entry)) entry.flow = true;
      }
    }
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** 1-based line of `key:` inside front matter (line 2 is the first key), for error messages. */
export function lineOfKey(matterText: string, key: string): number {
  const lines = matterText.split('\n');
  const re = new RegExp(`^${escapeRegExp(key)}\\s*:`);
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i]!)) return i + 1;
  return 2;
}
