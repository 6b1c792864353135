/**
 * `compound sessions list` and `compound sessions show`: read transcripts into the normalized
 * model and print them. Results on stdout (table or --json), warnings and the summary on stderr.
 */
import type { Command } from 'commander';
import { EXIT, UsageError, type ExitCode } from '../core/errors.js';
import { sessionStats, type ReadWarning, type Session, type SessionEvent, type SessionFormat } from '../sessions/model.js';
import { isSessionFormat } from '../sessions/detect.js';
import { forEachSessionFile, readSessionFile, type ReadSummary } from '../sessions/read.js';
import { parseFromList } from '../sessions/walk.js';
import { SESSION_FORMATS } from '../sessions/model.js';
import { action } from './run.js';
import { note, out, printJson, style, warn } from './io.js';
import { humanBytes, oneLine, parseMaxLineBytes, renderTable, shortTime } from './format.js';

interface ListFlags {
  json?: boolean;
  format?: string;
  inputFormat?: string;
  from?: string;
  strict?: boolean;
  maxLineBytes?: string;
}

interface ShowFlags {
  json?: boolean;
  format?: string;
  inputFormat?: string;
  maxLineBytes?: string;
}

/** One row of `sessions list`. */
export interface SessionRow {
  id: string;
  format: SessionFormat;
  agent: string;
  repo?: string;
  branch?: string;
  parentId?: string;
  subagent?: string;
  events: number;
  prompts: number;
  toolCalls: number;
  toolErrors: number;
  startedAt?: string;
  endedAt?: string;
  bytes: number;
  file: string;
}

/** Warnings beyond this many are counted, not printed, so a huge bad directory stays readable. */
const MAX_PRINTED_WARNINGS = 100;

export function register(program: Command): void {
  const sessions = program.command('sessions').description('read agent transcripts (Claude Code, Codex, Hermes, Aider, ...) into one session model');

  sessions
    .command('list')
    .description('one row per session: id, format, agent, repo, events, tool calls, errors, start, size')
    .argument('[paths...]', 'transcript files, directories (searched recursively) or globs')
    .option('--json', 'print JSON for scripts')
    .option('--input-format <format>', `read every file as this format instead of detecting it (${SESSION_FORMATS.join(', ')})`)
    .option('--format <format>', 'deprecated: use --input-format')
    .option('--from <list>', 'add default locations: claude,codex,hermes,gemini,specstory,aider')
    .option('--strict', 'exit 1 when anything produced a warning')
    .option('--max-line-bytes <n>', 'skip (with a warning) lines longer than this (default 16 MiB)')
    .exitOverride()
    .action(action((paths: string[], flags: ListFlags) => listSessions(paths, flags)));

  sessions
    .command('show')
    .description('a readable timeline of the normalized events of one transcript')
    .argument('<file>', 'transcript file')
    .option('--json', 'print the normalized sessions as JSON')
    .option('--input-format <format>', 'read the file as this format instead of detecting it')
    .option('--format <format>', 'deprecated: use --input-format')
    .option('--max-line-bytes <n>', 'skip (with a warning) lines longer than this (default 16 MiB)')
    .exitOverride()
    .action(action((file: string, flags: ShowFlags) => showSessions(file, flags)));
}

function parseFormat(value: string | undefined): SessionFormat | undefined {
  if (value === undefined) return undefined;
  if (!isSessionFormat(value)) {
    throw new UsageError(`unknown format "${value}"`, { fix: `use one of: ${SESSION_FORMATS.join(', ')}` });
  }
  return value;
}


export function sessionRow(s: Session): SessionRow {
  const stats = sessionStats(s);
  const row: SessionRow = {
    id: s.id,
    format: s.format,
    agent: s.agent,
    events: stats.events,
    prompts: stats.prompts,
    toolCalls: stats.toolCalls,
    toolErrors: stats.toolErrors,
    bytes: s.bytes,
    file: s.file,
  };
  if (s.repo) row.repo = s.repo;
  if (s.branch) row.branch = s.branch;
  if (s.parentId) row.parentId = s.parentId;
  if (s.subagent) row.subagent = s.subagent;
  if (s.startedAt) row.startedAt = s.startedAt;
  if (s.endedAt) row.endedAt = s.endedAt;
  return row;
}

function makeWarningPrinter(): { print: (w: ReadWarning) => void; finish: () => void } {
  let printed = 0;
  let hidden = 0;
  return {
    print: (w) => {
      if (printed >= MAX_PRINTED_WARNINGS) {
        hidden++;
        return;
      }
      printed++;
      warn(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`);
    },
    finish: () => {
      if (hidden > 0) warn(`${hidden} more warnings not shown (use --json to see all)`);
    },
  };
}

/** On a terminal, a self-overwriting "reading N/T files" line for big inputs; silent otherwise. */
function progressLine(): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done, total) => {
    if (total < 200) return;
    if (done % 100 === 0 || done === total) process.stderr.write(`\rreading ${done}/${total} files`);
    if (done === total) process.stderr.write('\r\u001b[K');
  };
}

function summaryLine(s: ReadSummary): string {
  const failed = s.filesFailed > 0 ? ` (${s.filesFailed} failed)` : '';
  return `read ${s.filesRead} of ${s.files} files${failed}, ${s.sessions} sessions, ${s.warnings} warnings`;
}

export function exitCodeFor(summary: ReadSummary, strict: boolean | undefined): ExitCode {
  if (summary.filesRead === 0) return EXIT.problems;
  if (strict && summary.warnings > 0) return EXIT.problems;
  return EXIT.ok;
}

async function listSessions(paths: string[], flags: ListFlags): Promise<ExitCode> {
  const format = parseFormat(inputFormatOf(flags));
  const from = flags.from !== undefined ? parseFromList(flags.from) : undefined;
  if (paths.length === 0 && !from) {
    throw new UsageError('no transcripts given', { fix: 'pass files, directories or globs, or --from claude,codex' });
  }
  const printer = makeWarningPrinter();
  const rows: SessionRow[] = [];
  const { warnings, summary } = await forEachSessionFile(
    paths,
    {
      ...(format ? { format } : {}),
      ...(from ? { from } : {}),
      ...(flags.maxLineBytes !== undefined ? { maxLineBytes: parseMaxLineBytes(flags.maxLineBytes) } : {}),
      onWarning: printer.print,
      onProgress: progressLine(),
    },
    (file) => {
      // only the row is kept: a big directory does not hold every event in memory
      for (const s of file.sessions) rows.push(sessionRow(s));
    },
  );
  printer.finish();

  if (flags.json) {
    // how many files were read ahead is scheduling, not a result: the same input prints the same
    const { filesPrefetched: _scheduling, ...shown } = summary;
    printJson({ sessions: rows, summary: shown, warnings });
  } else if (rows.length > 0) {
    out(
      renderTable(rows, [
        { header: 'ID', value: (r) => r.id },
        { header: 'FORMAT', value: (r) => r.format },
        { header: 'AGENT', value: (r) => (r.subagent ? `${r.agent}:${r.subagent}` : r.agent) },
        { header: 'REPO', value: (r) => r.repo ?? '-' },
        { header: 'EVENTS', value: (r) => String(r.events), align: 'right' },
        { header: 'TOOLS', value: (r) => String(r.toolCalls), align: 'right' },
        { header: 'ERRORS', value: (r) => String(r.toolErrors), align: 'right' },
        { header: 'START', value: (r) => shortTime(r.startedAt) },
        { header: 'SIZE', value: (r) => humanBytes(r.bytes), align: 'right' },
      ]),
    );
  }
  note(style.dim(summaryLine(summary)));
  return exitCodeFor(summary, flags.strict);
}

// ---------------------------------------------------------------------------------------------
// show

function flagsOf(e: SessionEvent): string[] {
  const f: string[] = [];
  if (e.kind === 'tool_result') {
    if (e.isError) f.push('error');
    if (e.exitCode !== undefined) f.push(`exit=${e.exitCode}`);
    if (e.cascade) f.push('cascade');
    if (e.rejected) f.push('rejected');
    if (e.truncated) f.push('truncated');
  }
  if (e.injected) f.push('injected');
  if (e.sidechain) f.push('sidechain');
  return f;
}

function eventText(e: SessionEvent): string {
  switch (e.kind) {
    case 'tool_call':
      return `${e.name}: ${e.command ?? JSON.stringify(e.input)}`;
    case 'tool_result':
      return `${e.name ? `${e.name} → ` : ''}${e.output}`;
    case 'bootstrap':
      return `[${e.itemIds.join(', ')}] ${e.text}`;
    default:
      return e.text;
  }
}

function timeOfDay(time: string | undefined): string {
  const m = time ? /T(\d\d:\d\d:\d\d)/.exec(time) : null;
  return m ? m[1]! : '        ';
}

function renderTimeline(s: Session): string {
  const head = [
    `session ${s.id}`,
    `  format ${s.format}, agent ${s.agent}${s.subagent ? ` (subagent ${s.subagent})` : ''}${s.parentId ? `, parent ${s.parentId}` : ''}`,
    `  repo ${s.repo ?? '-'}, branch ${s.branch ?? '-'}, models ${s.models.join(', ') || '-'}`,
    `  ${s.startedAt ?? '?'} → ${s.endedAt ?? '?'}, ${s.events.length} events, ${humanBytes(s.bytes)}, ${s.file}`,
    '',
  ];
  const width = String(Math.max(0, s.events.length - 1)).length;
  const lines = s.events.map((e) => {
    const flags = flagsOf(e);
    return `${String(e.index).padStart(width)}  ${timeOfDay(e.time)}  ${e.kind.padEnd(11)} ${flags.length ? `[${flags.join(',')}] ` : ''}${oneLine(eventText(e), 120)}`;
  });
  return [...head, ...lines].join('\n');
}

async function showSessions(file: string, flags: ShowFlags): Promise<ExitCode> {
  const format = parseFormat(inputFormatOf(flags));
  const printer = makeWarningPrinter();
  const result = await readSessionFile(file, {
    ...(format ? { format } : {}),
    ...(flags.maxLineBytes !== undefined ? { maxLineBytes: parseMaxLineBytes(flags.maxLineBytes) } : {}),
    onWarning: printer.print,
  });
  printer.finish();
  if (flags.json) printJson(result.sessions);
  else out(result.sessions.map(renderTimeline).join('\n\n'));
  return result.ok ? EXIT.ok : EXIT.problems;
}

/** --input-format, or the deprecated --format it replaces (for one release, with a warning:
 * --format means the output format everywhere else). */
function inputFormatOf(flags: { format?: string; inputFormat?: string }): string | undefined {
  if (flags.format !== undefined && flags.inputFormat === undefined) warn('--format is deprecated here: use --input-format (--format names the output format everywhere else)');
  return flags.inputFormat ?? flags.format;
}
