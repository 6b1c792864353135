/**
 * metrics/dashboard.md: every metric with its definition, value, 7- and 30-day trends and raw
 * counts, plus Mermaid `xychart-beta` charts GitHub renders. Built only from the report, so the
 * same report gives the same bytes.
 */
import type { MetricName, MetricsReport } from './compute.js';
import type { Counts, Metric, TrendPoint } from './metric.js';
import type { ErrorRateDay } from './metrics/first-try.js';
import type { SideCounts } from './metrics/recurrence.js';
import type { VelocityDay } from './metrics/velocity.js';

type Unit = 'per-day' | 'count' | 'ratio' | 'tokens';

const UNITS: Record<MetricName, Unit> = {
  velocity: 'per-day',
  composition: 'count',
  coverage: 'ratio',
  hit_rate: 'ratio',
  error_recurrence: 'ratio',
  first_try_success: 'ratio',
  age_staleness: 'count',
  cost: 'tokens',
  review_outcome: 'count',
};

/** How many rows a detail table shows; metrics.json has them all. */
const TOP = 20;

function fmt(x: number | null, unit: Unit): string {
  if (x === null) return 'n/a';
  if (unit === 'ratio') return `${(x * 100).toFixed(1)}%`;
  if (unit === 'per-day') return x.toFixed(2);
  if (unit === 'tokens') return x.toFixed(1);
  return String(x);
}

function fmtDelta(x: number, unit: Unit): string {
  const sign = x > 0 ? '+' : x < 0 ? '−' : '±';
  const abs = Math.abs(x);
  if (unit === 'ratio') return `${sign}${(abs * 100).toFixed(1)} pt`;
  return `${sign}${unit === 'count' ? String(abs) : abs.toFixed(2)}`;
}

/** A trend with no value on either side: the metric's display already says what data is missing. */
const NO_TREND = '–';

function trendCell(p: TrendPoint, unit: Unit): string {
  if (p.current === null && p.previous === null) return NO_TREND;
  const change = p.delta === null ? '' : ` (${fmtDelta(p.delta, unit)})`;
  return `${fmt(p.previous, unit)} → ${fmt(p.current, unit)}${change}`;
}

/** Table cells: no pipes, no line breaks. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function anchor(title: string): string {
  return `#${title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`;
}

/** The raw counts; one without a value is left out (metrics.json keeps it as null). */
function countsLine(counts: Counts): string {
  return Object.entries(counts)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${String(v)}`) // numbers are already rounded
    .join(' · ');
}

function trendTable(m: Metric<unknown>, unit: Unit): string {
  const label = m.trend.kind === 'window' ? ['last 7 days vs the 7 before', 'last 30 days vs the 30 before'] : ['now vs 7 days ago', 'now vs 30 days ago'];
  return table(['Trend', 'Before → now (change)'], [
    [label[0]!, trendCell(m.trend.d7, unit)],
    [label[1]!, trendCell(m.trend.d30, unit)],
  ]);
}

function section(name: MetricName, m: Metric<unknown>, extra: string[]): string {
  const unit = UNITS[name];
  // no trend on either side in either window: the table would only repeat that
  const trends = [m.trend.d7, m.trend.d30].some((p) => p.current !== null || p.previous !== null) ? ['', trendTable(m, unit)] : [];
  return [`## ${m.title}`, '', `_${m.definition}_`, '', `**${m.display}**`, ...trends, '', `Counts: ${countsLine(m.counts)}`, ...extra.flatMap((e) => ['', e])].join('\n');
}

function axisMax(values: number[]): number {
  const max = Math.max(0, ...values);
  return max <= 0 ? 1 : Math.ceil(max);
}

/** Days summed into weeks ending on the last day (the oldest may be shorter): 30 daily labels
 * overlapped on the chart, 5 weekly ones are read at a glance. */
function weekly(days: readonly VelocityDay[]): { label: string; added: number; reinforced: number }[] {
  const weeks: { label: string; added: number; reinforced: number }[] = [];
  for (let end = days.length; end > 0; end -= 7) {
    const part = days.slice(Math.max(0, end - 7), end);
    weeks.unshift({ label: `from ${part[0]!.day.slice(5)}`, added: part.reduce((n, d) => n + d.added, 0), reinforced: part.reduce((n, d) => n + d.reinforced, 0) });
  }
  return weeks;
}

function velocityChart(days: VelocityDay[]): string[] {
  if (days.length === 0 || days.every((d) => d.added === 0 && d.reinforced === 0)) return ['_No items were added or reinforced in the last 30 days: no chart._'];
  const weeks = weekly(days);
  const max = axisMax(weeks.flatMap((w) => [w.added, w.reinforced]));
  return [
    'Items per week over the last 30 days (bars: added, line: reinforced):',
    '',
    '```mermaid',
    'xychart-beta',
    '    title "Items added and reinforced per week"',
    `    x-axis [${weeks.map((w) => `"${w.label}"`).join(', ')}]`,
    `    y-axis "items" 0 --> ${max}`,
    `    bar [${weeks.map((w) => w.added).join(', ')}]`,
    `    line [${weeks.map((w) => w.reinforced).join(', ')}]`,
    '```',
  ];
}

function errorRateChart(days: ErrorRateDay[]): string[] {
  const points = days.filter((d): d is ErrorRateDay & { rate: number } => d.rate !== null);
  if (points.length === 0) return ['_No session made a tool call in the last 30 days: no chart._'];
  // a line through one point draws nothing: say the value instead
  if (points.length === 1) return [`_Tool calls on one day only (${points[0]!.day}): mean error rate ${Math.round(points[0]!.rate * 1000) / 10}%, no chart._`];
  const values = points.map((d) => Math.round(d.rate * 1000) / 10);
  return [
    'Mean tool-call error rate per session, by day of session start (days with tool calls in the last 30 days):',
    '',
    '```mermaid',
    'xychart-beta',
    '    title "Tool-call error rate per session (%)"',
    `    x-axis [${points.map((d) => `"${d.day.slice(5)}"`).join(', ')}]`,
    `    y-axis "error rate (%)" 0 --> ${Math.max(10, Math.ceil(Math.max(...values) / 10) * 10)}`,
    `    line [${values.join(', ')}]`,
    '```',
  ];
}

function sideCell(c: SideCounts): string {
  return c.sessions === 0 ? '–' : `${c.with_error}/${c.sessions} (${fmt(c.rate, 'ratio')})`;
}

function moreRows(total: number): string {
  return total > TOP ? `\n\n_${total - TOP} more in metrics.json._` : '';
}

function compositionLists(d: MetricsReport['metrics']['composition']['details']): string {
  const line = (label: string, rec: Record<string, number>) => {
    const entries = Object.entries(rec);
    return `- ${label}: ${entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ${v}`).join(', ')}`;
  };
  return [
    line('by category', d.by_category),
    line('by scope', d.by_scope),
    line('by repo', d.by_repo),
    line('by agent', d.by_agent),
    line('by status', d.by_status),
    line('confidence', d.confidence),
  ].join('\n');
}

export function renderDashboard(report: MetricsReport): string {
  const m = report.metrics;
  const inputs = report.inputs;
  const asOf =
    report.as_of === null
      ? 'no dated data'
      : `${report.as_of} (${report.as_of_source === 'flag' ? 'from --as-of' : 'the newest date in the data'})`;
  const span = inputs.first_session && inputs.last_session ? ` from ${inputs.first_session.slice(0, 10)} to ${inputs.last_session.slice(0, 10)}` : '';
  const head = [
    '# Knowledge metrics',
    '',
    `As of ${asOf}. ${inputs.items} items; ${inputs.sessions} sessions measured${span}${report.since ? ` (since ${report.since})` : ''}.`,
    '',
    '_Written by `compound measure`: the same store, sessions and flags give this file byte for byte (no clock time is used)._',
  ];
  const notes: string[] = [];
  if (inputs.items === 0) notes.push('> No knowledge items yet: run `compound harvest` on some sessions to create them.');
  if (inputs.sessions === 0) notes.push('> No sessions measured: pass `--sessions <paths>` or `--from claude,codex` to measure use, errors and coverage.');

  const names = Object.keys(m) as MetricName[];
  const summary = table(
    ['Metric', 'Value', '7-day trend', '30-day trend'],
    names.map((n) => {
      const metric = m[n] as Metric<unknown>;
      return [`[${metric.title}](${anchor(metric.title)})`, cell(metric.display), trendCell(metric.trend.d7, UNITS[n]), trendCell(metric.trend.d30, UNITS[n])];
    }),
  );

  const hr = m.hit_rate;
  const er = m.error_recurrence;
  const st = m.age_staleness;
  const cov = m.coverage;
  const rv = m.review_outcome;
  const sections = [
    section('velocity', m.velocity, [velocityChart(m.velocity.details.days).join('\n'), `Reinforced per day: last 7 days vs the 7 before ${trendCell(m.velocity.details.reinforced_trend.d7, 'per-day')}; last 30 vs the 30 before ${trendCell(m.velocity.details.reinforced_trend.d30, 'per-day')}.`]),
    section('composition', m.composition, [compositionLists(m.composition.details)]),
    section('coverage', cov, [
      cov.details.repos.length === 0
        ? '_No session named a repository._'
        : table(['Repo', 'Sessions', 'Items'], cov.details.repos.slice(0, TOP).map((r) => [cell(r.repo), String(r.sessions), r.items === 0 ? '0 (not covered)' : String(r.items)])) + moreRows(cov.details.repos.length),
    ]),
    section('hit_rate', hr, [
      '"Used", concretely: the key terms of a given item are its code spans, commands, paths, file names, identifiers (camelCase, snake_case), flags, script names (`db:reset`) and quoted error strings, lowercased. The item is used when one of them appears in a tool call (command or input) or in the assistant\'s own text after the bootstrap block; the block itself and tool output do not count. ' +
        `For given pitfalls the dashboard also reports whether their error stayed away after the block (${hr.counts.pitfalls_given_error_not_recurred ?? 0} of ${hr.counts.pitfalls_given ?? 0}); that alone does not count as use, because most sessions never come near a given pitfall's error and would all count.`,
      hr.details.items.length === 0
        ? '_No given item is in the store._'
        : table(['Item', 'Given', 'Used'], hr.details.items.slice(0, TOP).map((i) => [`${cell(i.title)} (\`${i.id}\`)`, String(i.given), String(i.used)])) + moreRows(hr.details.items.length),
    ]),
    section('error_recurrence', er, [
      'Each cell: sessions with the error / sessions (share). Before and after split the sessions an item applies to at its first_seen; given and not given split the sessions after it.',
      er.details.pitfalls.length === 0
        ? '_No pitfall with a recognisable error signature yet._'
        : table(
            ['Pitfall', 'Error signature', 'First seen', 'Before', 'After', 'Given', 'Not given'],
            er.details.pitfalls.slice(0, TOP).map((p) => [`${cell(p.title)} (\`${p.id}\`)`, `\`${cell(p.signature).replace(/`/g, "'")}\``, p.first_seen.slice(0, 10), sideCell(p.before), sideCell(p.after), sideCell(p.given), sideCell(p.not_given)]),
          ) + moreRows(er.details.pitfalls.length),
    ]),
    section('first_try_success', m.first_try_success, [errorRateChart(m.first_try_success.details.days).join('\n')]),
    section('age_staleness', st, [
      st.details.oldest.length === 0
        ? '_No active items._'
        : 'Oldest active items:\n\n' + table(['Item', 'First seen', 'Last seen', 'Age (days)'], st.details.oldest.map((o) => [`[${cell(o.title)}](../${o.path})`, o.first_seen.slice(0, 10), o.last_seen.slice(0, 10), String(o.age_days)])),
    ]),
    section('cost', m.cost, []),
    section('review_outcome', rv, [
      ...(rv.details.outcomes.length === 0
        ? []
        : [
            'What reviewers did with each harvested item (from the harvest commits in git history): kept as written, edited (category, title or text changed), deleted; not merged yet counts items on the harvest branch only.\n\n' +
              table(['Category', 'Extractor', 'Kept', 'Edited', 'Deleted', 'Not merged yet'], rv.details.outcomes.map((r) => [r.category, cell(r.extractor), String(r.kept), String(r.edited), String(r.deleted), String(r.pending)])),
          ]),
      rv.details.rejected.length === 0 ? '_No harvested item has been deleted._' : `Rejected ids: ${rv.details.rejected.slice(0, TOP).map((id) => `\`${id}\``).join(', ')}${rv.details.rejected.length > TOP ? `, and ${rv.details.rejected.length - TOP} more` : ''}.`,
      rv.counts.git_history !== 'yes'
        ? `_No git history: ${rv.counts.git_history}._`
        : rv.details.deletions.length === 0
          ? '_Git history shows no deleted item file._'
          : table(['Deleted item', 'Path', 'Date', 'Commit'], rv.details.deletions.slice(0, TOP).map((d) => [`\`${d.id}\``, cell(d.path), d.date.slice(0, 10), `\`${d.commit}\``])) + moreRows(rv.details.deletions.length),
    ]),
  ];
  return [
    ...head,
    ...(notes.length ? ['', ...notes] : []),
    '',
    '## Summary',
    '',
    summary,
    '',
    '_Window trends compare the last 7 (30) days with the 7 (30) days before; snapshot trends (composition, coverage, staleness) compare now with 7 (30) days ago. Shown as before → now (change)._',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
