/**
 * The bytes the `yaml` package writes for the front matter this tool writes itself (see
 * stringifyFrontMatter), made without it for the usual values: a block mapping of plain scalars,
 * flow lists of plain scalars, and block lists of flow mappings (the sources). A harvest that
 * writes a thousand new items spent about 0.4 s building YAML documents for them, on one thread
 * at the end of the run (the 1 GB bench corpus's 1271 items: 510 ms with yaml, 45 ms here, ad
 * hoc). Strings yaml must quote (titles with `: `) are quoted as yaml quotes a one-line string.
 * Every rule below mirrors one in yaml's stringifier (plainString, quotedString, stringifyNumber,
 * the core schema's tag tests) or is stricter; a value no rule covers returns undefined, and the
 * caller asks `yaml` itself.
 */

/** yaml's stringifyString: these characters force double quotes. Surrogates (paired or not) are
 * left to yaml too. */
const FORCES_QUOTES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]/;
/** yaml's plainString quotes a string with a leading indicator, `: `, ` #`, a trailing space or colon. */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** Inside a flow collection, plainString also quotes these. */
const FLOW_INDICATOR = /[[\]{},]/;
/** yaml's containsDocumentMarker (for one line). */
const DOCUMENT_MARKER = /^(?:%|---|\.\.\.)/;
/** The core schema's tests of its default non-string tags (null, bool, int, float): a plain
 * string that one of them matches would read back as something else, so yaml quotes it. */
const OTHER_TAGS = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
/** Keys as this tool writes them (a plain implicit key none of the tag tests matches). */
const KEY = /^[a-z][a-z_]*$/;
const RESERVED_KEYS = new Set(['null', 'true', 'false']);

/** Whether yaml's plainString quotes a one-line string (see the tests above it). */
function needsQuotes(value: string, inFlow: boolean): boolean {
  if (value === '' || NOT_PLAIN.test(value) || (inFlow && FLOW_INDICATOR.test(value))) return true;
  for (const tag of OTHER_TAGS) if (tag.test(value)) return true;
  return false;
}

/**
 * A string as yaml writes it, or undefined for the ones this path leaves to yaml: control
 * characters, surrogates, newlines, tabs (escapes and block scalars), and a leading document
 * marker (yaml may write those as block scalars). A string yaml quotes is written as its
 * quotedString writes a one-line string: in single quotes when it holds a double quote and no
 * single one, else in double quotes, where JSON.stringify's escapes (for `"` and `\`, all such
 * a string can need) are yaml's too. lineWidth 0 folds no line.
 */
function stringScalar(value: string, inFlow: boolean): string | undefined {
  if (FORCES_QUOTES.test(value) || value.includes('\n') || value.includes('\t') || DOCUMENT_MARKER.test(value)) return undefined;
  if (!needsQuotes(value, inFlow)) return value;
  return value.includes('"') && !value.includes("'") ? `'${value}'` : JSON.stringify(value);
}

/** A string or finite number as yaml writes it inside a block mapping or a flow collection. */
function scalar(value: unknown, inFlow: boolean): string | undefined {
  if (typeof value === 'string') return stringScalar(value, inFlow);
  // stringifyNumber: JSON.stringify of a finite number (-0, written "-0", is left to yaml)
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return JSON.stringify(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** `{key: value, ...}` with flowCollectionPadding false. */
function flowMap(record: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const value = record[key];
    const s = KEY.test(key) && !RESERVED_KEYS.has(key) ? scalar(value, true) : undefined;
    if (s === undefined) return undefined;
    parts.push(`${key}: ${s}`);
  }
  return parts.length === 0 ? undefined : `{${parts.join(', ')}}`;
}

/** The value part of `key:` (with its leading space or newline), as stringifyFrontMatter lays it out. */
function valueText(value: unknown): string | undefined {
  if (!Array.isArray(value)) {
    const s = scalar(value, false);
    return s === undefined ? undefined : ` ${s}`;
  }
  // A list of scalars is one flow list; a list of records, one flow mapping per block entry.
  if (value.length === 0) return ' []';
  if (value.every(isRecord)) {
    let out = '';
    for (const record of value) {
      const s = flowMap(record);
      if (s === undefined) return undefined;
      out += `\n  - ${s}`;
    }
    return out;
  }
  const items: string[] = [];
  for (const item of value) {
    const s = scalar(item, true);
    if (s === undefined) return undefined;
    items.push(s);
  }
  return ` [${items.join(', ')}]`;
}

/** What `yaml` writes for `data` in stringifyFrontMatter, or undefined to let `yaml` decide. */
export function stringifySimpleFrontMatter(data: Record<string, unknown>): string | undefined {
  let out = '';
  for (const key in data) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (value === undefined || !KEY.test(key) || RESERVED_KEYS.has(key)) return undefined;
    const text = valueText(value);
    if (text === undefined) return undefined;
    out += `${key}:${text}\n`;
  }
  return out === '' ? undefined : out;
}
