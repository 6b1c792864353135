/**
 * `compound sample`: rank transcripts by harvest value from a quick head/tail scan, so a harvest
 * (or a person) can start with the sessions that teach the most.
 */
import type { Command } from 'commander';
import { EXIT, UsageError, type ExitCode } from '../core/errors.js';
import { sampleSessions, sinceKey, type SampleRow } from '../harvest/sample.js';
import type { ReadWarning } from '../sessions/model.js';
import { parseFromList, walkInputs } from '../sessions/walk.js';
import { action } from './run.js';
import { note, out, printJson, style, warn } from './io.js';
import { humanBytes, parsePositiveInt, renderTable, shortTime } from './format.js';

interface SampleFlags {
  json?: boolean;
  count?: string;
  since?: string;
  repo?: string;
  minScore?: string;
  format?: string;
  from?: string;
}

const OUTPUT_FORMATS = ['table', 'json', 'paths'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function register(program: Command): void {
  program
    .command('sample')
    .description('rank transcripts by harvest value (recency, size, first session of a repo, failures, tool calls)')
    .argument('[paths...]', 'transcript files, directories or globs')
    .option('--count <n>', 'keep the best N')
    .option('--since <date>', 'keep sessions active on or after this date (YYYY-MM-DD or ISO date-time)')
    .option('--repo <name>', 'keep sessions of this repository')
    .option('--min-score <s>', 'keep sessions scoring at least this (0..1)')
    .option('--format <format>', 'output: table, json or paths', 'table')
    .option('--json', 'the same as --format json')
    .option('--from <list>', 'add default locations: claude,codex,hermes,gemini,specstory,aider')
    .action(action((paths: string[], flags: SampleFlags) => sample(paths, flags)));
}

interface ParsedFlags {
  count?: number;
  since?: string;
  repo?: string;
  minScore?: number;
  output: OutputFormat;
}

function parseFlags(flags: SampleFlags): ParsedFlags {
  const parsed: ParsedFlags = { output: 'table' };
  const format = flags.json ? 'json' : flags.format ?? 'table';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown output format "${format}"`, { fix: `use one of: ${OUTPUT_FORMATS.join(', ')}` });
  }
  parsed.output = format as OutputFormat;
  if (flags.count !== undefined) {
    try {
      parsed.count = parsePositiveInt(flags.count, '--count');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (flags.since !== undefined) {
    try {
      sinceKey(flags.since);
    } catch {
      throw new UsageError(`invalid --since date "${flags.since}"`, { fix: 'use YYYY-MM-DD or an ISO date-time' });
    }
    parsed.since = flags.since;
  }
  if (flags.minScore !== undefined) {
    const n = Number(flags.minScore);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--min-score must be a number from 0 to 1, got "${flags.minScore}"`);
    parsed.minScore = n;
  }
  if (flags.repo !== undefined) parsed.repo = flags.repo;
  return parsed;
}

function renderRows(rows: readonly SampleRow[]): string {
  return renderTable(rows, [
    { header: 'SCORE', value: (r) => r.score.toFixed(3), align: 'right' },
    { header: 'RECENT', value: (r) => r.parts.recency.toFixed(2), align: 'right' },
    { header: 'FAIL', value: (r) => r.parts.failures.toFixed(2), align: 'right' },
    { header: 'SIZE', value: (r) => r.parts.size.toFixed(2), align: 'right' },
    { header: 'FIRST', value: (r) => r.parts.firstForRepo.toFixed(0), align: 'right' },
    { header: 'TOOLS', value: (r) => r.parts.toolCalls.toFixed(2), align: 'right' },
    { header: 'FORMAT', value: (r) => r.format },
    { header: 'REPO', value: (r) => r.repo ?? '-' },
    { header: 'ENDED', value: (r) => shortTime(r.endedAt) },
    { header: 'BYTES', value: (r) => humanBytes(r.bytes), align: 'right' },
    { header: 'FILE', value: (r) => r.file },
  ]);
}

async function sample(paths: string[], flags: SampleFlags): Promise<ExitCode> {
  const parsed = parseFlags(flags);
  const from = flags.from !== undefined ? parseFromList(flags.from) : undefined;
  if (paths.length === 0 && !from) {
    throw new UsageError('no transcripts given', { fix: 'pass files, directories or globs, or --from claude,codex' });
  }
  const warnings: ReadWarning[] = [];
  const report = (w: ReadWarning): void => {
    warnings.push(w);
    warn(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`);
  };
  const walked = await walkInputs(paths, from ? { from } : {});
  walked.warnings.forEach(report);

  let failed = 0;
  const rows = await sampleSessions(walked.files, {
    ...(parsed.count !== undefined ? { count: parsed.count } : {}),
    ...(parsed.since !== undefined ? { since: parsed.since } : {}),
    ...(parsed.repo !== undefined ? { repo: parsed.repo } : {}),
    ...(parsed.minScore !== undefined ? { minScore: parsed.minScore } : {}),
    onWarning: (w) => {
      failed++;
      report(w);
    },
  });

  if (parsed.output === 'json') printJson(rows);
  else if (parsed.output === 'paths') {
    if (rows.length > 0) out(rows.map((r) => r.file).join('\n'));
  } else if (rows.length > 0) out(renderRows(rows));

  const scanned = walked.files.length - failed;
  note(style.dim(`scanned ${scanned} of ${walked.files.length} files, ${rows.length} selected, ${warnings.length} warnings`));
  return scanned > 0 ? EXIT.ok : EXIT.problems;
}
