/**
 * Reports: the long structured texts a session ends turns with (a subagent's findings, the
 * agent's closing summary). Parsed into sections of heading + lines, and each line scored for
 * durable, concrete knowledge (paths, identifiers, versions, ports) against fluff, volatile
 * numbers, transient state and secret-looking values.
 */
import type { SessionEvent } from '../../sessions/model.js';
import { cleanText, concreteness, NARRATION, oneLine, plainApostrophes, stripMarkdown } from './text.js';
import { DELEGATE_TOOLS, isEdit, type SessionView } from './view.js';
import { perObject } from './per-object.js';

export interface ReportLine {
  text: string;
  score: number;
}

export interface Section {
  /** Heading chain, outermost first (may be empty for the text before the first heading). */
  headings: string[];
  lines: ReportLine[];
  /** The innermost heading is a sentence its list finishes ("The script reads its input and
   * displays:"): the list is one statement, whole or not at all. */
  leadIn?: boolean;
}

export interface Report {
  event: number;
  /** A subagent's result (tool output) or the agent's own closing message. */
  source: 'delegate' | 'closing';
  text: string;
  sections: Section[];
}

const FLUFF = /\b(?:comprehensive|excellent|perfect|professional|enterprise|production-grade|crown jewel|key innovation|beautiful|elegant|robust|powerful|seamless|world-class|best practices?|state-of-the-art|cutting-edge|impressive)\b/i;
/** "Created X", "Ran Y": what the agent did this time, worth less than how things are. */
const DID = /^(?:i'?ve|i have|we'?ve|i created|created|executed|ran|read|listed|added|updated|removed|fixed|wrote|implemented|changed|modified|deleted|renamed|moved|installed|verified|tested|checked|generated)\b/i;
const VOLATILE = /\b\d+(?:\.\d+)?(?:,\s*\d+(?:\.\d+)?){2,}\b|~?\b\d{1,3}(?:,\d{3})+\b|\b\d+\+? (?:lines|files|tests|tokens|commits|modules|issues)\b|\b\d+(?:\.\d+)?%|\b\d+ (?:passed|failed|failures)\b/i;
/** State of the day, including the working tree's ("untracked", "not committed", "git status
 * shows"): true when written, stale at the next commit. */
const TRANSIENT = /\b(?:currently|not yet|yet|for now|at the moment|in progress|todo|status:|pending|gaps?|so far|right now|this session|i was unable|i could not|untracked|uncommitted|not (?:been )?(?:committed|pushed)|not in (?:the )?git history|git status (?:shows|says|lists))\b/i;
const SECRET_VALUE = /\b\w*(?:salt|secret|password|passwd|token|key_base|api[_-]?key)\w*["']?\s*[:=]\s*["']?[\w./+-]{4,}/i;
const PERSONAL = /\b(?:Owner|Author|Assignee|Reporter|Created by|User):/;
/** Who did what in the repo's history ("authored by …", "merged by …"): git log has it, and it
 * names a person. */
const WHO_DID = /\b(?:authored|committed|pushed|merged|opened|reported|signed off) by\b/i;
const DURABLE = /\b(?:runs?|uses?|requires?|lives?|located|stored|configured|defaults?|must|never|always|only|instead|via|through|generated|registered|loaded|imports?|exports?|overrides?|priority|entry|output|writes?|reads?|calls?|returns?|inline|separate|hardcoded|static)\b/i;
/** "Docs: a.md, b.md, c.md": an inventory, not knowledge. */
const LIST_ONLY = /^[^:]{0,40}:?\s*(?:[\w./-]+,\s*){2,}[\w./-]+\.?$/;
const SPECIFIC = /(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|:\d{4,5}\b|\bport\b|>=\s*\d|\brequire[sd]?\b[^.]*\d/i;
/** Dependency inventories (`pkg@^1.2.3`, `dep ~> 1.0`): versions pinned elsewhere, not knowledge. */
const INVENTORY = /@\^?\d|~>\s*\d|\^\d+\.\d+/;
/** A command in a code span (`npm run ci`, `vitest run src`): how to run things. */
const COMMAND_SPAN = /`(?:npm|npx|yarn|pnpm|bun|mix|cargo|go|make|pytest|python3?|node|vitest|jest|eslint|tsc|git|docker|bundle|rake|gradle|mvn|dotnet|uv|poetry|pip)\s[^`]+`/;
/** A setting in a code span (`threshold: 0.9`, `PORT=3000`) or an environment variable by name
 * (`OPENCODE_CONFIG_CONTENT`). */
const SETTING = /`[\w.-]+\s*(?::|=)\s*[^`\s][^`]*`|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;

/** Whether a report line tells how to run or configure something (`npm run ci`, `threshold: 0.9`,
 * `DATABASE_URL`): how to use what is there. */
export function howToUse(line: string): boolean {
  return COMMAND_SPAN.test(line) || SETTING.test(line);
}

/** "`types.ts` - Core interfaces", "File: `x.ts`": a file listing, not what matters about the file. */
const FILE_PURPOSE = /^(?:`[^`]+`\s*(?:[-–:]|\(\w)|(?:file|location|located at|path):\s*`[^`]+`\.?$)/i;
/** "(lines 400-458)": positions that go stale with the next edit; the preposition that led to
 * them ("classes at lines 969-1168") goes with them. */
const LINE_REFS = /\s*\((?:lines?|L)\s*\d+(?:\s*[-–]\s*\d+)?(?:,\s*\d+(?:\s*[-–]\s*\d+)?)*\)|,?\s*\b(?:(?:at|in|on|from|see)\s+)?lines? \d+(?:\s*[-–]\s*\d+)?(?:,\s*\d+(?:\s*[-–]\s*\d+)?)*/g;

/** Removes stale line-number references from report text. */
export function withoutLineRefs(text: string): string {
  return text.replace(LINE_REFS, '').replace(/\(\s*,?\s*/g, '(').replace(/\(\s*\)/g, '').trim();
}

/** Score of one report line as standalone knowledge, or -Infinity when it must never be kept. */
export function lineScore(line: string): number {
  if (line.length < 20 || line.endsWith('?')) return -Infinity;
  if (SECRET_VALUE.test(line) || PERSONAL.test(line) || WHO_DID.test(line)) return -Infinity;
  if (NARRATION.test(line)) return -Infinity;
  let score = 1.5 * Math.min(3, concreteness(line));
  if (SPECIFIC.test(line)) score += 1.5;
  if (COMMAND_SPAN.test(line)) score += 1.5;
  if (DURABLE.test(line)) score += 1;
  if (FLUFF.test(line)) score -= 3;
  if (VOLATILE.test(line)) score -= 3;
  if (TRANSIENT.test(line)) score -= 4;
  if (line.length > 260) score -= 1;
  if (LIST_ONLY.test(line) && !DURABLE.test(line)) score -= 2;
  if (INVENTORY.test(line)) score -= 1;
  if (FILE_PURPOSE.test(line)) score -= 1.5;
  if (DID.test(line)) score -= 1.5;
  if (/:$/.test(line)) score -= 2; // a label whose content (a code block) was left out
  if (/\b(?:could|should|would|might|may want to)\b/i.test(line)) score -= 2; // a suggestion, not how things are
  return score;
}

const HEADING = /^\s{0,3}#{1,6}\s+(.+)$/;
const BOLD_LINE = /^\s*(?:[-*+•]\s+|\d+[.)]\s+)?\*\*([^*]{2,80})\*\*:?\s*$/;
const LABEL_LINE = /^\s*(?:[-*+•]\s+)?([A-Z][\w ()/.`-]{1,40}):\s*$/;

/** Pictographs in front of a heading ("📡 Ports"): the report's typography, not part of the name. */
const LEADING_PICTOGRAPHS = /^(?:[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\uFE0F\u200D]+\s*)+/u;

/** "Here is your current statusline configuration:": words that hand the reader what follows;
 * the heading's subject is what comes after them. */
const HAND_OVER = /^(?:here(?:'s| is| are)|below (?:is|are)|these are|this is)\s+(?:(?:your|the|a|an|our)\s+)?(?:current\s+)?(?=\S)/i;

function headingText(raw: string): string {
  const text = withoutLineRefs(oneLine(stripMarkdown(raw).replace(/^\d+(?:\.\d+)*[.)]?\s+/, '').replace(LEADING_PICTOGRAPHS, '').replace(/:$/, '')));
  const subject = text.replace(HAND_OVER, '');
  return subject === text ? text : subject.charAt(0).toUpperCase() + subject.slice(1);
}

const LIST_ITEM = /^(\s*)(?:[-*+•]|\d+[.)])\s+\S/;
/** A short line that reads as a heading: a capital, a few words, no sentence punctuation. */
const PLAIN_HEADING = /^[A-Z][\w '’/&()-]{1,48}[\w)]$/;

/** A label that is a sentence the list after it finishes ("The script reads JSON from stdin and
 * displays:", "Each worker checks these before it starts:"), not a name ("Build Script
 * (`build.js`)"): five words or more, one of them a verb. */
const LEAD_IN_SENTENCE = /^(?=(?:\S+\s+){4}\S)(?=.*\b(?:is|are|was|were|has|have|does|do|will|can|should|must|shows?|displays?|reads?|includes?|contains?|uses?|runs?|provides?|supports?|returns?|takes?|prints?|needs?|requires?|follows?|works?|handles?|gives?|sets?|creates?|checks?|looks? like)\b)/i;

/** Splits a report into sections; code blocks and tables are skipped. */
export function parseReport(text: string): Section[] {
  const sections: Section[] = [];
  let stack: { level: number; text: string }[] = [];
  let current: Section = { headings: [], lines: [] };
  const open = (level: number, title: string, leadIn = false): void => {
    if (current.lines.length > 0) sections.push(current);
    stack = stack.filter((h) => h.level < level);
    stack.push({ level, text: title });
    current = { headings: stack.map((h) => h.text), lines: [], ...(leadIn ? { leadIn } : {}) };
  };
  let inFence = false;
  const rows = joinWrapped(plainApostrophes(cleanText(text)).split('\n'));
  rows.forEach((raw, at) => {
    if (/^\s*```/.test(raw)) {
      inFence = !inFence;
      return;
    }
    if (inFence || /^\s*\|/.test(raw) || /^\s*[-=_*]{3,}\s*$/.test(raw)) return;
    const h = HEADING.exec(raw);
    if (h) {
      open(raw.trim().indexOf(' '), headingText(h[1]!));
      return;
    }
    const indent = raw.length - raw.trimStart().length;
    const bold = BOLD_LINE.exec(raw) ?? LABEL_LINE.exec(raw);
    if (bold) {
      // a bold list item ("1. **Streaming updates**") ranks as list items do: under the bold
      // heading above its list ("**Recommendations:**") and under the item it is nested in
      open((LIST_ITEM.test(raw) ? 20 : 10) + indent, headingText(bold[1]!));
      return;
    }
    // "Build Script (`assets/build.js`):" labels the lines that follow.
    const label = oneLine(stripMarkdown(raw));
    const following = rows.slice(at + 1).find((r) => r.trim().length > 0);
    if (label.length <= 80 && label.endsWith(':') && following !== undefined && !/^\s*```/.test(following)) {
      // (a list item that labels what follows, "2. Why you get thousands of logs:", is one of its list)
      const title = headingText(raw);
      open((LIST_ITEM.test(raw) ? 20 : 30) + indent, title, LEAD_IN_SENTENCE.test(title));
      return;
    }
    // "What changed" / "How to check" on a line of their own, a list right under them: Codex
    // writes its closing summary's headings as plain lines
    if (PLAIN_HEADING.test(raw) && (at === 0 || rows[at - 1]!.trim() === '') && rows[at + 1] !== undefined && LIST_ITEM.test(rows[at + 1]!) && !LIST_ITEM.test(raw)) {
      open(2, headingText(raw));
      return;
    }
    // A list item with deeper items under it heads them ("6. logger.ts - Logging" → its bullets).
    const item = LIST_ITEM.exec(raw);
    const next = rows.slice(at + 1).find((r) => r.trim().length > 0);
    const nextItem = next ? LIST_ITEM.exec(next) : null;
    if (item && nextItem && nextItem[1]!.length > item[1]!.length) {
      open(20 + indent, headingText(raw));
      return;
    }
    const line = withoutLineRefs(oneLine(stripMarkdown(raw)));
    if (line) current.lines.push({ text: line, score: lineScore(line) });
  });
  if (current.lines.length > 0) sections.push(current);
  return sections;
}

/** Joins hard-wrapped paragraph and list-item continuation lines (code fences left as they are). */
function joinWrapped(lines: string[]): string[] {
  const out: string[] = [];
  let inFence = false;
  let open = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      out.push(line);
      open = false;
      continue;
    }
    if (inFence || line.trim() === '') {
      out.push(line);
      open = false;
      continue;
    }
    const structural = HEADING.test(line) || BOLD_LINE.test(line) || LABEL_LINE.test(line) || /^\s*(?:[-*+•]|\d+[.)])\s|^\s*\||^\s*[-=_*]{3,}\s*$/.test(line);
    if (open && !structural) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    open = !HEADING.test(line) && !BOLD_LINE.test(line) && !LABEL_LINE.test(line) && !/^\s*\|/.test(line);
  }
  return out;
}

/** Long string values of a JSON report (some agents return their findings as JSON). */
function jsonProse(output: string): string | undefined {
  const start = output.indexOf('{');
  const end = output.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const parsed: unknown = JSON.parse(output.slice(start, end + 1));
    const out: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') {
        if (v.length >= 200) out.push(v);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(parsed);
    return out.length > 0 ? `${output.slice(0, start)}\n${out.join('\n\n')}` : undefined;
  } catch {
    return undefined;
  }
}

const MIN_REPORT = 500;

function isStructured(text: string): boolean {
  let n = 0;
  for (const l of text.split('\n')) if (HEADING.test(l) || /^\s*(?:[-*+•]|\d+[.)])\s+/.test(l) || BOLD_LINE.test(l)) n++;
  return n >= 3;
}

/** A closing message is a report only when the turn did real work (several successful tool calls). */
function workedBefore(view: SessionView, index: number): boolean {
  const prompt = [...view.prompts].reverse().find((p) => p.index < index);
  const from = prompt?.index ?? -1;
  return view.steps.filter((s) => s.call.index > from && s.call.index < index && !s.failed && !s.rejected).length >= 3;
}

/**
 * The reports of a session: subagent results, and the assistant messages that close a turn
 * (the last assistant text before the next human prompt or the end) when they are long and structured.
 */
export const reportsOf: (view: SessionView) => readonly Report[] = perObject(reportsIn);

function reportsIn(view: SessionView): Report[] {
  const reports: Report[] = [];
  for (const s of view.steps) {
    if (!DELEGATE_TOOLS.has(s.call.name) || s.failed || s.rejected) continue;
    const text = jsonProse(s.output) ?? s.output;
    if (text.length >= MIN_REPORT) reports.push({ event: s.outputEvent, source: 'delegate', text, sections: parseReport(text) });
  }
  // A turn's summary: its last long, structured assistant message, unless files were edited after it
  // (then it was a plan, not a summary). Usually the turn's last message; sometimes a little chat
  // (reading a late background result) follows it.
  const closing: SessionEvent[] = [];
  let last: SessionEvent | undefined;
  let turn: SessionEvent[] = [];
  const closeTurn = (end: number): void => {
    const long = turn.filter((e) => e.kind === 'assistant' && e.text.length >= MIN_REPORT && isStructured(e.text));
    const summary = long[long.length - 1];
    const editedAfter = summary !== undefined && view.steps.some((s) => s.call.index > summary.index && s.call.index < end && isEdit(s));
    if (summary && !editedAfter) closing.push(summary);
    else if (last) closing.push(last);
    turn = [];
    last = undefined;
  };
  for (const e of view.events) {
    if (e.kind === 'user') closeTurn(e.index);
    else if (e.kind === 'assistant') {
      last = e;
      turn.push(e);
    }
  }
  closeTurn(Number.MAX_SAFE_INTEGER);
  // A subagent's last message is its report to the parent: findings read from code, like a delegate's result.
  const subagent = view.session.parentId !== undefined || view.session.subagent !== undefined || view.events.every((e) => e.sidechain);
  for (const e of closing) {
    if (e.kind !== 'assistant' || e.text.length < MIN_REPORT || !isStructured(e.text)) continue;
    if (!workedBefore(view, e.index)) continue;
    const source = subagent && e === last ? 'delegate' : 'closing';
    reports.push({ event: e.index, source, text: e.text, sections: parseReport(e.text) });
  }
  return reports.sort((a, b) => a.event - b.event);
}
