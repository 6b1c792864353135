/**
 * Picks the sessions most worth harvesting without parsing them: each file's head and tail
 * (64 KiB each) are scanned for timestamps, the repository, failure signals and tool calls, and
 * the parts are weighted into one score. Recency is measured against the newest session in the
 * sample (never the wall clock or mtime), so the same files always give the same ranking.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ReadWarning, SessionFormat } from '../sessions/model.js';
import type { SessionReader } from '../sessions/reader.js';
import { decodeHead, detectFormat } from '../sessions/detect.js';
import { READERS } from '../sessions/registry.js';
import { repoFromCwd } from '../sessions/readers/claude-code.js';
import { repoFromUrl } from '../sessions/readers/codex.js';
import { comparePaths } from '../sessions/walk.js';

export const SAMPLE_WINDOW_BYTES = 64 * 1024;

/** How much each part counts; they sum to 1 so a score reads as a fraction. */
export const SAMPLE_WEIGHTS = {
  recency: 0.3,
  failures: 0.25,
  size: 0.15,
  firstForRepo: 0.15,
  toolCalls: 0.15,
} as const;

/** Recency halves every this many days behind the newest session. */
const RECENCY_HALF_LIFE_DAYS = 14;

export interface SampleOptions {
  /** Keep the best N rows. */
  count?: number;
  /** Keep sessions that were active on or after this date (ISO date or date-time). */
  since?: string;
  /** Keep sessions of this repository (case-insensitive). */
  repo?: string;
  /** Keep rows scoring at least this much (0..1). */
  minScore?: number;
  /** Bytes scanned at each end of a file (default 64 KiB). */
  windowBytes?: number;
  readers?: readonly SessionReader[];
  onWarning?: (warning: ReadWarning) => void;
}

/** Each part is 0..1 before weighting. */
export interface SampleParts {
  recency: number;
  failures: number;
  size: number;
  firstForRepo: number;
  toolCalls: number;
}

/** What the scan counted (extrapolated to the whole file when only its ends were read). */
export interface SampleSignals {
  errorFlags: number;
  nonZeroExits: number;
  tracebacks: number;
  errorStrings: number;
  toolCalls: number;
  /** True when the counts were scaled up from the head and tail of a larger file. */
  estimated: boolean;
}

export interface SampleRow {
  file: string;
  format: SessionFormat;
  repo?: string;
  startedAt?: string;
  endedAt?: string;
  bytes: number;
  score: number;
  parts: SampleParts;
  signals: SampleSignals;
}

interface Scan {
  file: string;
  format: SessionFormat;
  bytes: number;
  repo?: string;
  startedAt?: string;
  endedAt?: string;
  signals: SampleSignals;
}

// ---------------------------------------------------------------------------------------------
// scanning

/** Synchronous, like read.ts's loadFile: for files in the page cache a few direct reads cost
 * far less than the thread-pool round trips of five async calls per file. */
function readEnds(file: string, window: number): { head: Buffer; tail?: Buffer; size: number } {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    const readAt = (position: number, length: number): Buffer => {
      const buf = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const bytesRead = readSync(fd, buf, filled, length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === length ? buf : buf.subarray(0, filled);
    };
    if (size <= 2 * window) return { head: readAt(0, size), size };
    return { head: readAt(0, window), tail: readAt(size - window, window), size };
  } finally {
    closeSync(fd);
  }
}

const TIMESTAMP_KEY_RE = /"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]{8,40})"/y;
const TIMESTAMP_TEXT_RE = /\b(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d(?:\.\d+)?Z?)/g;
const EXIT_RE = /(?:exit_code\\?"\s*:\s*|exit code:?\s+|exited with code\s+)-?[1-9]/gi;
const ERROR_FLAG_RE = /"is_error"\s*:\s*true|"status"\s*:\s*"(?:error|failed)"|"success"\s*:\s*false/g;
const TRACEBACK_RE = /Traceback \(most recent call last\)/g;
const ERROR_STRING_RE = /error:/gi;
const TOOL_CALL_RE =
  /"type"\s*:\s*"(?:tool_use|function_call|custom_tool_call|local_shell_call)"|"tool_call_id"\s*:|"functionResponse"\s*:|^<<<<<<< SEARCH$/gm;
const CWD_RE = /"cwd"\s*:\s*"((?:[^"\\]|\\.)+)"/;
const REPO_URL_RE = /"repository_url"\s*:\s*"([^"]+)"/;
const AIDER_REPO_RE = /^> Git repo: (.+?)(?:\/\.git)? with /m;

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

/**
 * The matches of `sticky` (flag y) that a global regex of the same pattern finds, left to right,
 * for a pattern whose every match starts with one of `openings` (exactly as written): each
 * opening is found by a search and the pattern tried there only, where the regex engine tries it
 * at every character. Over the heads and tails of the 1 GB corpus's files the timestamp scan
 * took 0.99 s so, where the global regex took 1.87 s (ad hoc); for the error-flag and tool-call
 * patterns, whose openings ("status", "type") are everywhere in JSON, it was slower.
 */
export function eachMatchAt(sticky: RegExp, openings: readonly string[], text: string, onMatch: (m: RegExpExecArray) => void): void {
  const next = openings.map((o) => text.indexOf(o));
  let from = 0;
  for (;;) {
    let at = -1;
    for (let k = 0; k < next.length; k++) {
      if (next[k] !== -1 && next[k]! < from) next[k] = text.indexOf(openings[k]!, from);
      if (next[k] !== -1 && (at === -1 || next[k]! < at)) at = next[k]!;
    }
    if (at === -1) return;
    sticky.lastIndex = at;
    const m = sticky.exec(text);
    if (m) {
      onMatch(m);
      from = Math.max(sticky.lastIndex, at + 1);
    } else from = at + 1;
  }
}

/** Earliest and latest timestamp in a text; JSON `timestamp` keys first, bare dates otherwise. */
function timeRange(text: string): { first?: string; last?: string } {
  let first: string | undefined;
  let last: string | undefined;
  const see = (t: string): void => {
    if (first === undefined || t < first) first = t;
    if (last === undefined || t > last) last = t;
  };
  eachMatchAt(TIMESTAMP_KEY_RE, ['"timestamp"'], text, (m) => see(m[1]!));
  if (first === undefined) {
    TIMESTAMP_TEXT_RE.lastIndex = 0;
    for (let m = TIMESTAMP_TEXT_RE.exec(text); m; m = TIMESTAMP_TEXT_RE.exec(text)) see(`${m[1]}T${m[2]}`);
  }
  return first === undefined ? {} : { first, last: last ?? first };
}

function findRepo(text: string): string | undefined {
  const url = REPO_URL_RE.exec(text);
  if (url) return repoFromUrl(url[1]!);
  const cwd = CWD_RE.exec(text);
  if (cwd) {
    const decoded = tryDecodeJsonString(cwd[1]!);
    if (decoded) return repoFromCwd(decoded);
  }
  const aider = AIDER_REPO_RE.exec(text);
  return aider ? repoFromCwd(aider[1]!) : undefined;
}

function tryDecodeJsonString(body: string): string | undefined {
  try {
    const v: unknown = JSON.parse(`"${body}"`);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function scanFile(file: string, options: SampleOptions): Scan | undefined {
  const window = options.windowBytes ?? SAMPLE_WINDOW_BYTES;
  const ends = readEnds(file, window);
  // decoded once, for detection and for the scan
  const head = decodeHead(ends.head);
  const outcome = detectFormat({ bytes: ends.head, size: ends.size, text: head }, file, options.readers ?? READERS);
  if (!outcome.ok) {
    options.onWarning?.({ file, message: outcome.message });
    return undefined;
  }
  const tail = ends.tail ? decodeHead(ends.tail) : '';
  const text = tail ? `${head}\n${tail}` : head;
  const sampled = ends.head.length + (ends.tail?.length ?? 0);
  const scale = sampled > 0 && sampled < ends.size ? ends.size / sampled : 1;
  const est = (n: number): number => Math.round(n * scale);

  const headRange = timeRange(head);
  const tailRange = tail ? timeRange(tail) : headRange;
  const scan: Scan = {
    file,
    format: outcome.reader.format,
    bytes: ends.size,
    signals: {
      errorFlags: est(count(ERROR_FLAG_RE, text)),
      nonZeroExits: est(count(EXIT_RE, text)),
      tracebacks: est(count(TRACEBACK_RE, text)),
      errorStrings: est(count(ERROR_STRING_RE, text)),
      toolCalls: est(count(TOOL_CALL_RE, text)),
      estimated: scale > 1,
    },
  };
  const repo = findRepo(head);
  if (repo) scan.repo = detach(repo);
  const started = headRange.first ?? tailRange.first;
  const ended = tailRange.last ?? headRange.last;
  if (started) scan.startedAt = detach(started);
  if (ended) scan.endedAt = detach(ended);
  return scan;
}

/**
 * A copy of `s` that does not keep the text it was cut from alive. A regex capture of 13 or more
 * characters is a slice of its subject in V8, so every scan kept its file's 64 KiB head (and
 * tail) through its times and repo: sampling the 21,891 files of the bench corpus peaked at
 * 1.5 GB of memory.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

// ---------------------------------------------------------------------------------------------
// scoring

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Transcript times without a zone (Hermes, Aider) are read as UTC, never as the local zone,
 * so the ranking does not depend on the machine. */
function parseTime(t: string): number {
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(t) ? t : `${t}Z`);
}

function daysBetween(later: string, earlier: string): number {
  const a = parseTime(later);
  const b = parseTime(earlier);
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.POSITIVE_INFINITY;
  return Math.max(0, (a - b) / 86_400_000);
}

function sizePart(bytes: number): number {
  // 4 KiB is a trivial session, 16 MiB a very long one; log scale in between
  const lo = Math.log(4 * 1024);
  const hi = Math.log(16 * 1024 * 1024);
  return Math.min(1, Math.max(0, (Math.log(Math.max(bytes, 1)) - lo) / (hi - lo)));
}

function failurePart(s: SampleSignals): number {
  const weight = s.errorFlags + s.nonZeroExits + 2 * s.tracebacks + 0.5 * s.errorStrings;
  return 1 - Math.exp(-weight / 5);
}

function toolPart(s: SampleSignals): number {
  return 1 - Math.exp(-s.toolCalls / 30);
}

function score(scans: Scan[]): SampleRow[] {
  let newest: string | undefined;
  for (const s of scans) if (s.endedAt && (newest === undefined || s.endedAt > newest)) newest = s.endedAt;

  // the first session seen for a repository teaches the most about it
  const firstByRepo = new Map<string, Scan>();
  for (const s of scans) {
    if (!s.repo) continue;
    const key = s.repo.toLowerCase();
    const cur = firstByRepo.get(key);
    if (!cur || isEarlier(s, cur)) firstByRepo.set(key, s);
  }

  return scans.map((s) => {
    const parts: SampleParts = {
      recency: s.endedAt && newest ? 0.5 ** (daysBetween(newest, s.endedAt) / RECENCY_HALF_LIFE_DAYS) : 0,
      failures: failurePart(s.signals),
      size: sizePart(s.bytes),
      firstForRepo: s.repo && firstByRepo.get(s.repo.toLowerCase()) === s ? 1 : 0,
      toolCalls: toolPart(s.signals),
    };
    let total = 0;
    for (const k of Object.keys(SAMPLE_WEIGHTS) as (keyof SampleParts)[]) {
      parts[k] = round3(parts[k]);
      total += SAMPLE_WEIGHTS[k] * parts[k];
    }
    const row: SampleRow = { file: s.file, format: s.format, bytes: s.bytes, score: round3(total), parts, signals: s.signals };
    if (s.repo) row.repo = s.repo;
    if (s.startedAt) row.startedAt = s.startedAt;
    if (s.endedAt) row.endedAt = s.endedAt;
    return row;
  });
}

function isEarlier(a: Scan, b: Scan): boolean {
  const ta = a.startedAt ?? '\uffff';
  const tb = b.startedAt ?? '\uffff';
  return ta !== tb ? ta < tb : comparePaths(a.file, b.file) < 0;
}

function compareRows(a: SampleRow, b: SampleRow): number {
  if (a.score !== b.score) return b.score - a.score;
  const ea = a.endedAt ?? '';
  const eb = b.endedAt ?? '';
  if (ea !== eb) return ea < eb ? 1 : -1;
  return comparePaths(a.file, b.file);
}

/** Normalises `--since` (a date or date-time) for comparison with transcript timestamps. */
export function sinceKey(since: string): string {
  const t = parseTime(since.length === 10 ? `${since}T00:00:00` : since);
  if (Number.isNaN(t)) throw new RangeError(`invalid date "${since}"`);
  return new Date(t).toISOString();
}

/**
 * Scores `files` for harvest value and returns them best first, with each score's parts so a
 * person can see why. Files that are not transcripts are skipped with a warning.
 */
export async function sampleSessions(files: readonly string[], opts: SampleOptions = {}): Promise<SampleRow[]> {
  const scans: Scan[] = [];
  for (const file of [...files].sort(comparePaths)) {
    try {
      const scan = scanFile(file, opts);
      if (scan) scans.push(scan);
    } catch (err) {
      opts.onWarning?.({ file, message: `cannot read: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  let rows = score(scans).sort(compareRows);
  if (opts.since) {
    const since = sinceKey(opts.since);
    rows = rows.filter((r) => {
      const t = r.endedAt ?? r.startedAt;
      if (!t) return false;
      const parsed = parseTime(t);
      return !Number.isNaN(parsed) && new Date(parsed).toISOString() >= since;
    });
  }
  if (opts.repo) {
    const repo = opts.repo.toLowerCase();
    rows = rows.filter((r) => r.repo?.toLowerCase() === repo);
  }
  if (opts.minScore !== undefined) {
    const min = opts.minScore;
    rows = rows.filter((r) => r.score >= min);
  }
  if (opts.count !== undefined) rows = rows.slice(0, Math.max(0, opts.count));
  return rows;
}
