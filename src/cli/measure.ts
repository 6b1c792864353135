/**
 * `compound measure`: metrics that show whether the knowledge base pays off, written to
 * metrics/metrics.json and metrics/dashboard.md. Results on stdout (a summary, or the JSON with
 * --json); warnings and progress on stderr.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError, EXIT, type ExitCode } from '../core/errors.js';
import type { ReadWarning } from '../sessions/model.js';
import { parseFromList } from '../sessions/walk.js';
import { measure, DASHBOARD_FILE, METRICS_FILE } from '../measure/measure.js';
import type { Metric } from '../measure/metric.js';
import { parseDateFlag } from '../measure/time.js';
import { context, requireStore } from './context.js';
import { note, out, warn } from './io.js';
import { progressReporter } from './progress.js';
import { action } from './run.js';

interface MeasureFlags {
  sessions?: string[];
  from?: string;
  since?: string;
  asOf?: string;
  json?: boolean;
  history?: boolean;
}

const MAX_PRINTED_WARNINGS = 20;

export function register(program: Command): void {
  program
    .command('measure')
    .description('metrics from the store and sessions (velocity, hit rate, error recurrence, ...) into metrics/metrics.json and metrics/dashboard.md')
    .option('--sessions <paths...>', 'transcript files, directories or globs to measure')
    .option('--from <list>', 'add default transcript locations: claude,codex,hermes,gemini,specstory,aider')
    .option('--since <date>', 'measure only sessions that started on or after this date')
    .option('--as-of <date>', 'the date the metrics are as of (default: the newest date in the data; a bare date means the end of that day)')
    .option('--no-history', 'do not read git history for the review metric')
    .option('--json', 'print metrics.json to stdout')
    .action(action((flags: MeasureFlags) => runMeasure(flags)));
}

async function runMeasure(flags: MeasureFlags): Promise<ExitCode> {
  const { root, config } = context();
  requireStore(root);
  const from = flags.from !== undefined ? parseFromList(flags.from) : undefined;
  const inputs = flags.sessions ?? [];
  const since = flags.since !== undefined ? parseDateFlag(flags.since, '--since') : undefined;
  const asOf = flags.asOf !== undefined ? parseDateFlag(flags.asOf, '--as-of') : undefined;
  let shown = 0;
  const onWarning = (w: ReadWarning): void => {
    if (shown++ < MAX_PRINTED_WARNINGS) warn(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`);
  };
  // a mistyped --sessions path must not replace the dashboard with an empty one
  if (inputs.length > 0 && !from && inputs.every((p) => !/[*?[{]/.test(p) && !existsSync(p))) {
    throw new UsageError(`--sessions: ${inputs.join(', ')} ${inputs.length > 1 ? 'do' : 'does'} not exist`, { fix: 'name a transcript file or folder (the dashboard is left as it was)' });
  }
  const progress = progressReporter('measuring');
  const result = await measure({
    root,
    inputs,
    ...(from ? { from } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(asOf !== undefined ? { asOf } : {}),
    repoAliases: config.repo_aliases,
    noHistory: flags.history === false,
    onWarning,
    onProgress: progress,
  });
  progress.done();
  if (shown > MAX_PRINTED_WARNINGS) warn(`${shown - MAX_PRINTED_WARNINGS} more warnings not shown`);
  if (result.invalidItems > 0) warn(`${result.invalidItems} item files are invalid and were left out (run compound check)`);
  const c = result.counters;
  note(
    `measured ${c.sessionsMeasured + c.sessionsCached} sessions from ${c.files} files (${c.parsed} parsed, ${c.files - c.parsed - c.failed} from the cache${c.failed ? `, ${c.failed} unreadable` : ''}); ` +
      `${result.written.length ? `wrote ${result.written.join(', ')}` : 'nothing changed'}`,
  );
  if (flags.json) out(result.json);
  else {
    out(`${METRICS_FILE}, ${DASHBOARD_FILE} (as of ${result.report.as_of ?? 'no dated data'})`);
    for (const m of Object.values(result.report.metrics) as Metric<unknown>[]) out(`  ${m.title}: ${m.display}`);
  }
  // sessions were asked for but none could be measured: the dashboard exists, but say so
  const asked = inputs.length > 0 || (from?.length ?? 0) > 0;
  return asked && result.report.inputs.sessions === 0 && c.files - c.failed === 0 ? EXIT.problems : EXIT.ok;
}
