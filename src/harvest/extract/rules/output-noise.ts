/**
 * Expected noise: a warning that every successful run of a check prints (a deprecation from the
 * test runner, an application's log warnings during tests). Worth knowing so the next session
 * does not chase it; only lines seen in at least two passing runs of the same command family.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { isCheck } from '../commands.js';
import { clip, code, errorSignature } from '../text.js';
import type { SessionView } from '../view.js';

/** A runner's own warning (deprecations, node warnings): a quirk of the tool. */
const TOOL_WARNING = /^\s*(?:\(node:\d+\)\s*)?(?:DEPRECATED|DeprecationWarning|Deprecation|npm WARN|warning:)\b/;
/** An application's log line printed during a passing run: a fact about the repo. */
const APP_LOG = /^\s*(?:\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+)?\[(?:warning|warn|error)\]\s+\S/i;
const MAX_NOISE = 2;

export function outputNoiseDrafts(view: SessionView): Draft[] {
  const seen = new Map<string, { fam: string; line: string; runs: Set<number>; event: number; tool: boolean }>();
  for (const s of view.steps) {
    if (s.failed || s.rejected || !s.command) continue;
    const fam = s.family;
    if (!isCheck(fam)) continue;
    for (const raw of s.output.split('\n')) {
      const tool = TOOL_WARNING.test(raw);
      if (!tool && !APP_LOG.test(raw)) continue;
      const line = raw
        .trim()
        .replace(/^\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+/, '')
        .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>');
      const key = `${fam}|${errorSignature(line).slice(0, 50)}`;
      const entry = seen.get(key) ?? { fam, line, runs: new Set<number>(), event: s.outputEvent, tool };
      entry.runs.add(s.pos);
      seen.set(key, entry);
    }
  }
  const drafts: Draft[] = [];
  const perFamily = new Map<string, string[]>();
  for (const e of [...seen.values()].sort((a, b) => b.runs.size - a.runs.size || a.event - b.event)) {
    if (e.runs.size < 2) continue;
    const lines = perFamily.get(e.fam) ?? [];
    if (lines.length >= 2) continue;
    lines.push(e.line);
    perFamily.set(e.fam, lines);
    if (lines.length > 1) {
      // A second noisy line of the same command joins the first item.
      const d = drafts.find((x) => x.tags?.[0] === e.fam);
      if (d) d.text = d.text.replace(' although', ` and ${code(clip(e.line, 90))} although`);
      continue;
    }
    drafts.push({
      category: e.tool ? 'tool-quirk' : 'fact',
      scope: 'repo',
      title: `Expected noise in ${e.fam} output`,
      text: `Passing ${code(e.fam)} runs print ${code(clip(e.line, 120))} although the run succeeds (seen in ${e.runs.size} runs); it is noise, not a failure to chase.`,
      confidence: CONFIDENCE.implied,
      event: e.event,
      tags: [e.fam, ...e.fam.split(' ')],
      quotes: [clip(e.line, 160)],
      rule: 'output-noise',
      score: 5,
    });
    if (drafts.length >= MAX_NOISE) break;
  }
  return drafts;
}

export const outputNoise: RuleExtractor = ruleExtractor('output-noise', outputNoiseDrafts);
