/**
 * The repo's own rules: a rule file the agent loaded (a Cursor `### Rule: name` block, or a read
 * of CLAUDE.md / AGENTS.md / `.cursor/rules/*.mdc` and the like) states how work is done in the
 * repo. Its strongest section with directives ("MUST", "NEVER", "always run …") and the commands
 * it names becomes a pattern; a rule about how the agent's tools behave becomes a tool-quirk. Our own
 * bootstrap block is never read. A prompt that only points the agent at a rule file says the
 * rule applies to the work at hand.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { parseReport, type ReportLine, type Section } from '../report.js';
import { clip, code, concreteness, namesRunnable, oneLine, sentence } from '../text.js';
import { editedFiles, READ_TOOLS, type SessionView } from '../view.js';
import { perObject } from '../per-object.js';
import { escapeRegExp } from '../../../core/regexp.js';

/** A Cursor rule the chat loaded, as SpecStory renders it. */
const RULE_BLOCK = /^#{2,4} Rule: ([\w.@/-]+)\s*\n/;
/** Files that hold an agent's or a repo's standing rules. */
const RULE_FILE = /(?:^|\/)(?:CLAUDE|AGENTS|GEMINI|CONVENTIONS|CONTRIBUTING)\.md$|\.mdc$|(?:^|\/)\.(?:cursorrules|windsurfrules|clinerules)$|(?:^|\/)\.cursor\/rules\//i;
const OWN_BLOCK = /<!--\s*\/?compound:bootstrap/;
/** A directive: what must, must never or should always be done. */
const DIRECTIVE = /\b(?:MUST|NEVER|ALWAYS|REQUIRED|FORBIDDEN|must(?: not)?|never|always|do not|don'?t|only|before|after every|immediately)\b/;
const STRONG = /\b(?:MUST|NEVER|ALWAYS|REQUIRED|STRICTLY|CRITICAL)\b/;
/** A rule about how the agent's own tools behave (paths, limits), not about the repo. */
const TOOL_BEHAVIOUR = /\b(?:edit(?:ing)?|file|read|search|shell|terminal) tools?\b[^.;]*\b(?:resolve[sd]?|relative|truncate[sd]?|ignore[sd]?|limit(?:ed)?|fail)\b/i;
const EXAMPLE_SECTION = /\b(?:examples?|triggering|interpretation|clarification|ambiguous|meanings?)\b/i;
/** Headings whose every line is a step or a requirement. */
const RULE_HEADING = /\b(?:checklist|requirements?|required|principles?|rules?|must|never|always|critical|before|after every)\b/i;
const MAX_PER_SESSION = 6;

export interface RuleText {
  name: string;
  text: string;
  event: number;
}

/** Commands of a rule's shell example blocks as lines of their own (`cmd` (comment)). */
function unfence(text: string): string {
  // The whole rule is often wrapped in a ```markdown fence: its content is the rule.
  let t = text.replace(/^\s*```(?:markdown|md|mdc)?\s*$/m, '').replace(/```\s*$/, '');
  t = t.replace(/^(\s*)```(?:bash|sh|shell|zsh|console)\s*\n([\s\S]*?)\n\s*```/gm, (_all, indent: string, body: string) =>
    body
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const [cmd, comment] = l.split(/\s+#\s+/);
        return `${indent}- \`${cmd!.trim()}\`${comment ? ` (${comment.trim()})` : ''}`;
      })
      .join('\n'),
  );
  return t;
}

/** Rule files the session loaded: Cursor rule blocks and reads of rule files. */
export const ruleTexts: (view: SessionView) => readonly RuleText[] = perObject(ruleTextsIn);

/** The rule file each agent loads by itself at every start, from its working directory and the
 * folders above it. */
const OWN_RULE_FILE: Readonly<Record<string, string>> = { 'claude-code': 'CLAUDE.md', codex: 'AGENTS.md', 'gemini-cli': 'GEMINI.md' };

/** A rule file the session's agent had in its context before it read it: its own file (Claude
 * Code's CLAUDE.md) in the working directory or a folder above. Every session of that agent
 * starts with it; a copy in the knowledge base repeats it to that agent and goes stale when the
 * file changes. */
function loadedAtStart(view: SessionView, path: string): boolean {
  const own = OWN_RULE_FILE[view.session.agent];
  const name = path.replace(/^.*[\\/]/, '');
  if (own === undefined || name !== own) return false;
  const dir = path.slice(0, path.length - name.length).replace(/[\\/]+$/, '');
  const cwd = (view.session.cwd ?? '').replace(/[\\/]+$/, '');
  // a relative path is read from the working directory
  return dir === '' || dir === '.' || (cwd !== '' && (cwd === dir || cwd.startsWith(`${dir}/`)));
}

function ruleTextsIn(view: SessionView): RuleText[] {
  const out: RuleText[] = [];
  // A rule block that carried our own bootstrap block (the reader splits that out) is ours too.
  const bootstrapLines = new Set(view.session.events.filter((e) => e.kind === 'bootstrap').map((e) => e.source.line));
  for (const e of view.session.events) {
    if (e.kind !== 'system') continue;
    const m = RULE_BLOCK.exec(e.text);
    if (!m || OWN_BLOCK.test(e.text) || bootstrapLines.has(e.source.line)) continue;
    out.push({ name: m[1]!, text: e.text.slice(m[0].length), event: e.index });
  }
  for (const s of view.steps) {
    if (!READ_TOOLS.has(s.call.name) || s.failed || s.rejected) continue;
    const path = s.call.input.file_path ?? s.call.input.path ?? s.call.input.target_file;
    if (typeof path !== 'string' || !RULE_FILE.test(path) || OWN_BLOCK.test(s.output)) continue;
    if (loadedAtStart(view, path)) continue;
    out.push({ name: path.replace(/^.*\//, ''), text: s.output, event: s.outputEvent });
  }
  return out;
}

function lineWeight(l: ReportLine, ruleHeading: boolean): number {
  let w = Math.min(2, concreteness(l.text));
  if (DIRECTIVE.test(l.text) || ruleHeading) w += 1.5;
  if (STRONG.test(l.text)) w += 1;
  if (/`[^`]*\s[^`]*`/.test(l.text)) w += 1; // a command with arguments
  if (l.text.length < 25 || l.text.endsWith('?')) w -= 3;
  return w;
}

function sectionDraft(rule: RuleText, section: Section): (Draft & { weight: number }) | undefined {
  // (a file's title heading that is its own name, "# CLAUDE.md", is said once, as the rule's name)
  const heading = section.headings.filter((h) => !/^rule:/i.test(h) && h.toLowerCase() !== rule.name.toLowerCase()).slice(-2).join(' / ');
  if (EXAMPLE_SECTION.test(heading)) return undefined;
  const ruleHeading = RULE_HEADING.test(section.headings.slice(-2).join(' '));
  const kept = section.lines
    .map((l) => ({ l, w: lineWeight(l, ruleHeading) }))
    .filter((x) => x.w >= 1.5 && Number.isFinite(x.l.score) && !OWN_BLOCK.test(x.l.text));
  if (kept.length === 0 || !(ruleHeading || kept.some((x) => DIRECTIVE.test(x.l.text)))) return undefined;
  // a section that names nothing, no command, path or identifier ("always make sure your memory
  // is up to date"), gives the next session nothing to run or check
  if (!kept.some((x) => concreteness(x.l.text) > 0)) return undefined;
  const best = [...kept].sort((a, b) => b.w - a.w).slice(0, 5);
  const chosen = kept.filter((x) => best.includes(x));
  let body = '';
  let namesSomething = false;
  for (const x of chosen) {
    const part = clip(x.l.text.replace(/[.;:]$/, ''), 160);
    if (body.length + part.length > 330) break;
    body += body ? `; ${part}` : part;
    namesSomething ||= namesRunnable(x.l.text);
  }
  // (and so does an item whose shown lines name nothing to run or look at, whatever the section's
  // other lines name: "Think Systemically: consider how each request fits the ProjectTracker
  // ecosystem" is how to behave, which the agent reads in the file itself)
  if (!body || !namesSomething) return undefined;
  // A checklist or a requirements section is the rule itself, in order.
  // Mean of the three best lines (a missing line counts 0), so a section that says more ranks higher.
  const weight = best.slice(0, 3).reduce((n, x) => n + x.w, 0) / 3 + (ruleHeading ? 0.75 : 0);
  const tool = TOOL_BEHAVIOUR.test(body);
  const where = heading ? `${heading}: ` : '';
  return {
    category: tool ? 'tool-quirk' : 'pattern',
    title: `Repo rule ${rule.name}: ${clip((heading || body).replace(/`/g, ''), 60)}`,
    text: sentence(`Repo rule ${code(rule.name)}: ${where}${body}`),
    confidence: CONFIDENCE.stated,
    event: rule.event,
    tags: ['rule', rule.name.replace(/\.\w+$/, '')],
    quotes: chosen.slice(0, 2).map((x) => clip(x.l.text, 160)),
    rule: 'repo-rule',
    score: 4.5 + Math.min(2.5, weight / 2),
    weight,
  };
}

/** A sub-section right under a section with lines ("ALWAYS query through the CLI:" + its commands) joins it. */
function nestLabels(sections: Section[]): Section[] {
  const out: Section[] = [];
  for (const s of sections) {
    const prev = out[out.length - 1];
    const child = prev !== undefined && s.headings.length === prev.headings.length + 1 && prev.headings.every((h, i) => s.headings[i] === h);
    if (!child || s.lines.length === 0) {
      out.push(s);
      continue;
    }
    const label = s.headings[s.headings.length - 1]!;
    const [first, ...rest] = s.lines;
    prev.lines.push({ ...first!, text: `${label}: ${first!.text}` }, ...rest);
  }
  return out;
}

function fromRuleFiles(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  for (const rule of ruleTexts(view)) {
    const sections = nestLabels(parseReport(unfence(rule.text)));
    const scored = sections
      .map((s) => sectionDraft(rule, s))
      .filter((d): d is Draft & { weight: number } => d !== undefined)
      .sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text));
    // the file's strongest section alone: the agent is given the whole file anyway, and reviewers
    // turned down most other sections as copies of it (a checklist cut short, a second principle)
    if (scored[0]) {
      const { weight: _w, ...d } = scored[0];
      drafts.push(d);
    }
  }
  return drafts.sort((a, b) => b.score - a.score).slice(0, MAX_PER_SESSION);
}

/** A prompt that only points at a rule file (`@test-driven-bugfix.mdc`): that rule governs this work. */
const RULE_MENTION = /^\s*@?((?:[\w.-]+\/)*[\w.-]+\.mdc|(?:[\w.-]+\/)*(?:CLAUDE|AGENTS|CONVENTIONS|CONTRIBUTING)\.md)\s*$/i;

/** "follow CONVENTIONS.md", "per docs/STYLE.md", "see AGENTS.md": the file named as the rule. */
function citesAsGuide(text: string, name: string): boolean {
  const escaped = escapeRegExp(name);
  return new RegExp(String.raw`\b(?:follow(?:ing)?|per|see|according to)\s+(?:the\s+)?@?(?:[\w.-]+/)*${escaped}`, 'i').test(text);
}

function fromRuleMentions(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  view.prompts.forEach((p, i) => {
    const m = RULE_MENTION.exec(oneLine(p.text));
    if (!m) return;
    const name = m[1]!.replace(/^.*\//, '');
    // the agent then edits that file, or the prompt before named it ("In CONVENTIONS.md, reorder
    // the lists", not "follow CONVENTIONS.md"): it is what the user wants changed, not a rule to follow
    const prev = view.prompts[i - 1]?.text ?? '';
    if (prev.includes(name) && !citesAsGuide(prev, name)) return;
    const next = view.prompts[i + 1]?.index ?? Number.MAX_SAFE_INTEGER;
    if (view.steps.some((s) => s.call.index > p.index && s.call.index < next && !s.rejected && editedFiles(s).includes(name))) return;
    // What the rule was invoked on: the files the agent last changed before the prompt.
    const edits = view.steps.filter((s) => s.call.index < p.index && !s.failed && !s.rejected).flatMap((s) => editedFiles(s));
    const last = edits[edits.length - 1];
    drafts.push({
      category: 'pattern',
      title: `Follow the project rule ${name}`,
      text: `The user points the agent to the project rule ${code(name)}${last ? ` right after the change to ${code(last)}` : ''}; work of this kind follows that rule file.`,
      confidence: CONFIDENCE.implied,
      event: p.index,
      tags: ['rule', name.replace(/\.\w+$/, '')],
      quotes: [clip(p.text, 120)],
      rule: 'repo-rule',
      score: 6.5,
    });
  });
  return drafts;
}

export function repoRuleDrafts(view: SessionView): Draft[] {
  return [...fromRuleFiles(view), ...fromRuleMentions(view)];
}

export const repoRules: RuleExtractor = ruleExtractor('repo-rule', repoRuleDrafts);
