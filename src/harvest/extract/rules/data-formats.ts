/**
 * The record layout of a JSON Lines file the agent read. Agents that work on a log viewer, an
 * importer or a metrics pipeline open the same sample file again every session to learn which
 * records it holds; what the first lines show (a header line, the discriminating `type` values)
 * is read straight from the tool output, so it is recorded as verified.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { tokens } from '../commands.js';
import { code } from '../text.js';
import { READ_TOOLS, type SessionView, type Step } from '../view.js';

const JSONL_FILE = /\.(?:jsonl|ndjson)$/i;
/** Programs that print a file's lines as they are. */
const PRINTERS = new Set(['sed', 'head', 'tail', 'cat', 'less', 'more', 'nl']);
/** Keys whose string values name the kind of a record. */
const DISCRIMINATORS = ['type', 'record_type', 'kind', 'event', 'event_type'] as const;
/** `{"type":"function_call_output",…` at the start of a line cut short by the tool's output limit. */
const CUT_RECORD = /^\{\s*"(type|record_type|kind|event|event_type)"\s*:\s*"([\w.:-]{1,40})"/;
/** Claude Code's Read output numbers each line: `    12→{…}`. */
const LINE_NUMBER = /^\s*\d+(?:→|\t)/;
const MIN_RECORDS = 3;
const MAX_VALUES = 8;
const MAX_ITEMS = 2;

/** The .jsonl file a step printed, when it printed one. */
function printedFile(s: Step): string | undefined {
  if (s.failed || s.rejected) return undefined;
  const path = s.call.input.file_path ?? s.call.input.path ?? s.call.input.target_file;
  if (READ_TOOLS.has(s.call.name)) return typeof path === 'string' && JSONL_FILE.test(path) ? path : undefined;
  if (!s.command) return undefined;
  const main = s.main;
  if (!PRINTERS.has(s.program)) return undefined;
  return tokens(main).find((t) => JSONL_FILE.test(t));
}

interface Layout {
  /** Keys of a first line that has no discriminator (a header record). */
  header?: string[];
  /** Discriminator key → its values in order of first appearance. */
  values: Map<string, string[]>;
  records: number;
}

function layoutOf(output: string): Layout | undefined {
  const values = new Map<string, string[]>();
  const note = (key: string, value: string) => {
    const list = values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    values.set(key, list);
  };
  let records = 0;
  let header: string[] | undefined;
  for (const raw of output.split('\n').slice(0, 400)) {
    const line = raw.replace(LINE_NUMBER, '').trim();
    if (!line.startsWith('{')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      const cut = CUT_RECORD.exec(line);
      if (cut) note(cut[1]!, cut[2]!);
      continue;
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
    const rec = record as Record<string, unknown>;
    const kinds = DISCRIMINATORS.filter((k) => typeof rec[k] === 'string' && /^[\w.:-]{1,40}$/.test(rec[k] as string));
    // header keys are shown in the item: plain identifiers only (no markup, no odd payloads)
    if (records === 0 && kinds.length === 0) header = Object.keys(rec).filter((k) => /^[\w.-]{1,40}$/.test(k)).slice(0, 8);
    for (const k of kinds) note(k, rec[k] as string);
    records++;
  }
  return records >= MIN_RECORDS && values.size > 0 ? { ...(header ? { header } : {}), values, records } : undefined;
}

function describe(file: string, layout: Layout): string {
  const name = file.replace(/^.*\//, '');
  const parts: string[] = [];
  if (layout.header) parts.push(`its first line is a header record {${layout.header.join(', ')}}`);
  const kinds = [...layout.values].map(([key, vals]) => {
    const shown = vals.slice(0, MAX_VALUES).join(', ');
    return `\`${key}\` ${shown}${vals.length > MAX_VALUES ? ', …' : ''}`;
  });
  parts.push(`${layout.header ? 'the records after it' : 'its records'} are told apart by ${kinds.join('; and ')}`);
  return `${code(name)} is JSON Lines (one JSON object per line): ${parts.join('; ')}.`;
}

export function dataFormatDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const s of view.steps) {
    const file = printedFile(s);
    if (!file || seen.has(file)) continue;
    const layout = layoutOf(s.output);
    if (!layout) continue;
    seen.add(file);
    const name = file.replace(/^.*\//, '');
    drafts.push({
      category: 'fact',
      title: `Record layout of ${name}`,
      text: describe(file, layout),
      confidence: CONFIDENCE.verified,
      event: s.outputEvent,
      tags: ['jsonl', 'format', ...layout.values.keys()],
      rule: 'data-format',
      signature: `data-format:${name}`,
      score: 5.5,
    });
    if (drafts.length >= MAX_ITEMS) break;
  }
  return drafts;
}

export const dataFormats: RuleExtractor = ruleExtractor('data-formats', dataFormatDrafts);
