/**
 * The markdown body of the nightly pull request: what was added, reinforced and flagged as
 * conflicting, per category and scope, each linking to its file with its evidence. Everything
 * in it has already been redacted.
 */
import type { Plan, PlanEntry } from '../knowledge/plan.js';
import type { MergeRecord } from './merge.js';
import type { HarvestStats } from './harvest.js';
import type { ModelStats } from './model/run.js';
import { formatUsd } from './model/cost.js';

export interface PrBodyOptions {
  /** Prefix for links, e.g. https://github.com/org/repo/blob/knowledge/nightly/ (default: relative). */
  linkBase?: string;
  /** The model's figures, when a model extracted. */
  model?: ModelStats;
  /** Characters the body may have (GitHub refuses a pull request body over 65,536). */
  maxChars?: number;
  /** Where the whole report is (a path the link base applies to), named when the body is cut. */
  fullReport?: string;
}

/** GitHub's limit for a pull request body, with room for what the workflow adds. */
export const PR_BODY_MAX_CHARS = 65_000;

/** The body cut at a line boundary to fit `max` characters: the summary, quarantined items and
 * conflicts come first, so what is cut is the tail of the item lists, and the body says so. */
function fitBody(lines: readonly string[], max: number, report: string | undefined): string {
  const whole = `${lines.join('\n').trimEnd()}\n`;
  if (whole.length <= max) return whole;
  const reserve = 400 + (report?.length ?? 0);
  const kept: string[] = [];
  let used = 0;
  let at = 0;
  for (; at < lines.length; at++) {
    const next = lines[at]!.length + 1;
    if (used + next > max - reserve) break;
    kept.push(lines[at]!);
    used += next;
  }
  const left = lines.slice(at).filter((l) => l.startsWith('- ')).length;
  kept.push('', `_… ${left} more item line(s) are not shown: a pull request body holds at most ${PR_BODY_MAX_CHARS.toLocaleString('en-US')} characters.${report ? ` The whole report: ${report}_` : '_'}`);
  return `${kept.join('\n').trimEnd()}\n`;
}

function link(entry: PlanEntry | undefined, fallback: string, base: string): string {
  if (!entry) return fallback;
  return `[${entry.title.replace(/[[\]]/g, '')}](${base}${entry.path})`;
}

function evidenceLine(r: MergeRecord): string {
  const e = r.candidate.evidence;
  const quote = r.candidate.quotes[0]?.replace(/\s+/g, ' ').trim();
  const where = `session \`${r.origin.session}\` (${r.origin.format}) event ${e.event}${e.line !== undefined ? `, line ${e.line}` : ''}`;
  return quote ? `${where}: \`${(quote.length > 160 ? `${quote.slice(0, 159)}…` : quote).replace(/`/g, "'")}\`` : where;
}

function scopeLabel(r: MergeRecord): string {
  const c = r.candidate;
  return c.scope === 'repo' ? `repo \`${c.repo ?? ''}\`` : c.scope === 'agent' ? `agent \`${c.agent ?? ''}\`` : 'global';
}

/** Tokens, cost and what grounding dropped, so a reviewer sees what the model did and cost. */
function modelLine(m: ModelStats, stats: HarvestStats): string {
  return `Model: ${m.requests} request(s) (${m.cached} from the cache, ${m.sent} sent${m.failed ? `, ${m.failed} failed` : ''}), ${m.sentInputTokens.toLocaleString('en-US')} input and ${m.outputTokens.toLocaleString('en-US')} output tokens, ${formatUsd(m.costUsd)}; ${m.kept} item(s) kept, ${m.ungrounded} dropped as ungrounded (quoted nothing in the session), ${m.dropped} dropped for low confidence${stats.sessionsPending ? `; ${stats.sessionsPending} session(s) left for the next run` : ''}.`;
}

export function renderPrBody(plan: Plan, records: readonly MergeRecord[], stats: HarvestStats, options: PrBodyOptions = {}): string {
  const base = options.linkBase ?? '';
  const byId = new Map(plan.entries.map((e) => [e.id, e]));
  const quarantined = records.filter((r) => r.outcome === 'added' && r.candidate.quarantine !== undefined);
  const added = records.filter((r) => r.outcome === 'added' && r.candidate.quarantine === undefined);
  const conflicts = records.filter((r) => r.outcome === 'conflict');
  const reinforcedIds = [...new Set(records.filter((r) => r.outcome === 'reinforced').map((r) => r.id))].sort();
  const lines: string[] = [];
  lines.push(`## compound harvest: ${added.length} added, ${reinforcedIds.length} reinforced, ${conflicts.length} conflicting${quarantined.length ? `, ${quarantined.length} quarantined` : ''}`, '');
  lines.push(
    `Read ${stats.sessions} session(s) from ${stats.files - stats.filesSkipped} file(s) (${stats.filesSkipped} unchanged file(s) skipped, ${stats.filesFailed} unreadable); ${stats.candidates} candidate(s); ${stats.redactions} secret or personal string(s) redacted before writing.`,
    '',
    ...(options.model ? [modelLine(options.model, stats), ''] : []),
    'Review like code: edit a body to correct it (it will not be overwritten), delete a file to reject the item (it will not come back).',
    '',
  );
  if (quarantined.length) {
    // first: text that tries to instruct agents is never bootstrapped until a reviewer accepts it
    lines.push(`### Quarantined: read before accepting (${quarantined.length})`, '', 'Written with `status: quarantined`: bootstrap never gives these to an agent. Set `status: active` to accept one, or delete the file to reject it.', '');
    for (const r of quarantined) lines.push(`- ${link(byId.get(r.id), r.candidate.title, base)}: ${r.candidate.quarantine}; ${evidenceLine(r)}`);
    lines.push('');
  }
  if (conflicts.length) {
    lines.push(`### Conflicts to decide (${conflicts.length})`, '');
    for (const r of conflicts) {
      lines.push(`- ${link(byId.get(r.id), r.candidate.title, base)} contradicts ${link(byId.get(r.other ?? ''), `\`${r.other}\``, base)} — ${evidenceLine(r)}`);
    }
    lines.push('');
  }
  if (added.length) {
    lines.push(`### Added (${added.length})`, '');
    const groups = new Map<string, MergeRecord[]>();
    for (const r of added) {
      const key = `${r.candidate.category} · ${scopeLabel(r)}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const key of [...groups.keys()].sort()) {
      const rs = groups.get(key)!;
      lines.push(`#### ${key} (${rs.length})`, '');
      for (const r of rs) lines.push(`- ${link(byId.get(r.id), r.candidate.title, base)} — confidence ${r.candidate.confidence.toFixed(2)}; ${evidenceLine(r)}`);
      lines.push('');
    }
  }
  if (reinforcedIds.length) {
    lines.push(`### Reinforced (${reinforcedIds.length})`, '');
    for (const id of reinforcedIds) {
      const rs = records.filter((r) => r.outcome === 'reinforced' && r.id === id);
      lines.push(`- ${link(byId.get(id), rs[0]!.candidate.title, base)} — seen again in ${rs.length} session(s); ${evidenceLine(rs[0]!)}`);
    }
    lines.push('');
  }
  if (!added.length && !reinforcedIds.length && !conflicts.length && !quarantined.length) lines.push('Nothing new was learned.', '');
  const report = options.fullReport ? `[${options.fullReport}](${base}${options.fullReport})` : undefined;
  return fitBody(lines, options.maxChars ?? PR_BODY_MAX_CHARS, report);
}
