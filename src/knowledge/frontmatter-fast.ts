/**
 * A fast path for the front matter this tool writes itself (block mapping of plain scalars,
 * flow lists, one flow mapping per source). It accepts only lines whose YAML meaning is
 * unambiguous and returns undefined for anything else, so the full YAML parser decides those;
 * `check` and `reindex` on 100,000 items would otherwise spend most of their time in YAML.
 */

const CORE_NUMBER = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const SAFE_FIRST = /^[A-Za-z0-9_.\/(]/; // no YAML indicator first
const UNSAFE_INSIDE = /: |:$| #|\t/; // would end the scalar or start a comment
const RISKY_PLAIN = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

type Scalar = string | number;

/** The lowercase spellings RISKY_PLAIN rejects. */
const RISKY_WORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/*
 * The common values, each recognised by one regex: a process reads up to 100,000 front matters
 * once, mostly before the JIT has warmed up, and a native regex beats a character loop there.
 * A lowercase word of `[a-z0-9_./-]` (`pitfall`, `claude-code`, `s-1585`) is not a number and has
 * no indicator, space, `:` or `#`; a date or UTC timestamp is a string in YAML 1.2 core; a plain
 * decimal without leading zeros is a number. Anything else takes the general path.
 */
const PLAIN_WORD = /^[a-z][a-z0-9_./-]*$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)?$/;
const SIMPLE_NUMBER = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** A plain or double-quoted scalar with the same meaning YAML 1.2 core would give it, or undefined. */
function scalar(raw: string): Scalar | undefined {
  if (PLAIN_WORD.test(raw)) return RISKY_WORDS.has(raw) ? undefined : raw;
  if (DATE_TIME.test(raw)) return raw;
  if (SIMPLE_NUMBER.test(raw)) return Number(raw);
  const s = raw.trim();
  if (s !== raw || s === '') return undefined;
  if (s.startsWith('"')) {
    if (s.length < 2 || !s.endsWith('"') || s.slice(1, -1).includes('"') || s.includes('\\')) return undefined;
    return s.slice(1, -1);
  }
  if (s.startsWith("'")) {
    const inner = s.slice(1, -1);
    if (s.length < 2 || !s.endsWith("'") || inner.replace(/''/g, '').includes("'")) return undefined;
    return inner.replace(/''/g, "'");
  }
  if (CORE_NUMBER.test(s)) return Number(s);
  if (RISKY_PLAIN.test(s) || !SAFE_FIRST.test(s) || UNSAFE_INSIDE.test(s)) return undefined;
  if (/^0[xo]/i.test(s)) return undefined;
  return s;
}

function flowList(raw: string): Scalar[] | undefined {
  if (!raw.startsWith('[') || !raw.endsWith(']')) return undefined;
  const inner = raw.slice(1, -1);
  if (inner === '') return [];
  if (/[[\]{}"']/.test(inner)) return undefined;
  const out: Scalar[] = [];
  for (const part of inner.split(',')) {
    const v = scalar(part.trim());
    if (v === undefined || part.trim() === '') return undefined;
    out.push(v);
  }
  return out;
}

/** `key: value` inside a flow mapping, value not empty. */
const FLOW_PAIR = /^([a-z_]+): (.+)$/;
/** `key:` (a block list follows) or `key: value`. */
const KEY_LINE = /^([a-z_]+):(?:$| (.*)$)/;

function flowMap(inner: string): Record<string, Scalar> | undefined {
  if (/[[\]{}"']/.test(inner)) return undefined;
  const out: Record<string, Scalar> = {};
  for (const part of inner.split(', ')) {
    const m = FLOW_PAIR.exec(part);
    if (!m) return undefined;
    const key = m[1]!;
    const v = scalar(m[2]!);
    if (v === undefined || key in out) return undefined;
    out[key] = v;
  }
  return out;
}

/** Line terminators other than `\n`: `.` in a regex would not match them, YAML decides. */
const OTHER_TERMINATOR = /[\r\u2028\u2029]/;

/** Parses the lines between the fences; undefined means "let the YAML parser decide". */
export function parseSimpleFrontMatter(lines: readonly string[]): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let list: Record<string, Scalar>[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (OTHER_TERMINATOR.test(line)) return undefined;
    if (list) {
      // `  - {…}`
      if (line.length >= 6 && line.startsWith('  - {') && line.endsWith('}')) {
        const rec = flowMap(line.slice(5, -1));
        if (!rec) return undefined;
        list.push(rec);
        continue;
      }
      list = undefined;
    }
    const m = KEY_LINE.exec(line);
    if (!m) return undefined;
    const key = m[1]!;
    if (key in data) return undefined; // duplicate keys: the YAML parser reports them
    const value = m[2];
    if (value === undefined) {
      list = [];
      data[key] = list;
      continue;
    }
    const parsed = value.startsWith('[') ? flowList(value) : scalar(value);
    if (parsed === undefined) return undefined;
    data[key] = parsed;
  }
  return data;
}

/**
 * The front matter exactly as serializeItem lays it out (keys in schema order, one per line,
 * sources as flow mappings), matched by one regex instead of one per line: loading 10,000 items
 * runs this mostly before the JIT has warmed up, where every line of JavaScript costs. Each value
 * still goes through `scalar`, `flowList` or `flowMap`, so the result is what
 * parseSimpleFrontMatter gives for the same lines; anything else returns undefined and takes
 * the line-by-line path.
 */
const CANONICAL = new RegExp(
  [
    '^id: ([^\\n]*)\\n',
    '(?:title: ([^\\n]*)\\n)?',
    'category: ([^\\n]*)\\n',
    'scope: ([^\\n]*)\\n',
    '(?:repo: ([^\\n]*)\\n)?',
    '(?:agent: ([^\\n]*)\\n)?',
    'confidence: ([^\\n]*)\\n',
    'evidence: ([^\\n]*)\\n',
    'first_seen: ([^\\n]*)\\n',
    'last_seen: ([^\\n]*)\\n',
    'status: ([^\\n]*)\\n',
    'tags: (\\[[^\\n]*)\\n',
    'sources:(?: (\\[\\])|((?:\\n  - \\{[^\\n]*\\})*))',
    '(?:\\nsupersedes: (\\[[^\\n]*))?',
    '(?:\\nconflicts_with: (\\[[^\\n]*))?$',
  ].join(''),
);
const SCALAR_KEYS = ['id', 'title', 'category', 'scope', 'repo', 'agent', 'confidence', 'evidence', 'first_seen', 'last_seen', 'status'] as const;

/** Parses the text between the fences (without the newline after the opening fence). */
export function parseCanonicalFrontMatter(matter: string): Record<string, unknown> | undefined {
  if (OTHER_TERMINATOR.test(matter)) return undefined;
  const m = CANONICAL.exec(matter);
  if (!m) return undefined;
  const data: Record<string, unknown> = {};
  for (let i = 0; i < SCALAR_KEYS.length; i++) {
    const raw = m[i + 1];
    if (raw === undefined) continue; // an optional key that is absent
    const v = scalar(raw);
    if (v === undefined) return undefined;
    data[SCALAR_KEYS[i]!] = v;
  }
  const tags = flowList(m[12]!);
  if (tags === undefined) return undefined;
  data.tags = tags;
  if (m[13] !== undefined) data.sources = [];
  else {
    const sources: Record<string, Scalar>[] = [];
    const block = m[14]!;
    // each line is "\n  - {…}"
    for (let from = 0; from < block.length; ) {
      let end = block.indexOf('\n', from + 1);
      if (end === -1) end = block.length;
      const rec = flowMap(block.slice(from + 6, end - 1));
      if (!rec) return undefined;
      sources.push(rec);
      from = end;
    }
    data.sources = sources;
  }
  for (const [key, group] of [['supersedes', 15], ['conflicts_with', 16]] as const) {
    const raw = m[group];
    if (raw === undefined) continue;
    const list = flowList(raw);
    if (list === undefined) return undefined;
    data[key] = list;
  }
  return data;
}
