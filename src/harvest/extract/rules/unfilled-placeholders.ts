/**
 * A prompt file's placeholder that reached the agent unfilled: a custom command or prompt template
 * (spec-kit's `/specify`: `create-new-feature.ps1 -Json "$ARGUMENTS"`) stands for the text the
 * user gives with the command, and the agent ran the template's command line as it was. The
 * shell then expanded the placeholder to nothing (PowerShell and bash read `$ARGUMENTS` as an
 * unset variable), and the script failed for want of its argument. An agent meets it every time
 * the command is run without that text: the item says so once, with the failure it gave.
 */
import { CONFIDENCE } from '../../candidate.js';
import { MAX_TEXT, ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine, sentences } from '../text.js';
import { tokens } from '../commands.js';
import type { UserEvent } from '../../../sessions/model.js';
import type { SessionView, Step } from '../view.js';

/** Placeholders prompt templates use for the user's text: `$ARGUMENTS` (Claude Code's commands,
 * spec-kit, Codex prompts) and `{{args}}` (Gemini CLI's custom commands). */
const PLACEHOLDER = /\$ARGUMENTS\b|\{\{\s*args\s*\}\}/;

/** A program's complaint that it got no argument: its usage line, or words to that effect. */
const WANTS_ARGUMENT = /\busage:[^\n]*|\b(?:missing|no) (?:required )?(?:argument|parameter|description)s?\b[^\n]*|\b(?:argument|parameter)s? (?:is |are )?required\b[^\n]*/i;

/** The placeholder a failed step's command line held unfilled, and what the program said for
 * want of it, when that is why it failed. */
export function unfilledFailure(view: SessionView, s: Step): { command: string; placeholder: string; wanted: string; template: string } | undefined {
  if (!s.failed || s.command === undefined) return undefined;
  const placeholder = PLACEHOLDER.exec(s.command)?.[0];
  if (placeholder === undefined) return undefined;
  // the template as the agent got it still holds the placeholder: nothing filled it in
  const template = view.events.find((e): e is UserEvent => e.kind === 'user' && PLACEHOLDER.test(e.text));
  if (template === undefined || s.call.index < template.index) return undefined;
  // only a failure for want of the argument is the placeholder's (a script not found, a quote
  // the shell could not parse, failed before the argument mattered)
  const wanted = WANTS_ARGUMENT.exec(s.output)?.[0];
  return wanted === undefined ? undefined : { command: s.command, placeholder, wanted, template: template.text };
}

/** The template's own sentence telling the agent to go on with the placeholder as it is
 * (spec-kit: "Assume you always have it available … even if `$ARGUMENTS` appears literally"):
 * what led the agent to run the command without the text. */
const GO_ON_ANYWAY = /\b(?:even if|literally|as[- ]is)\b/i;
function goOnAnywayLine(template: string, placeholder: string): string | undefined {
  return sentences(template)
    .map(oneLine)
    .find((t) => t.includes(placeholder) && GO_ON_ANYWAY.test(t) && t.length <= 200);
}

/** What the command ran, by name: the script it started (a long command line cut off says less). */
const SCRIPT = /(?:^|[\\/])([\w.-]+\.(?:ps1|sh|bash|py|js|mjs|ts|rb|cmd|bat))$/i;
function programOf(command: string): string {
  for (const t of tokens(command)) {
    const m = SCRIPT.exec(t.replace(/^["']|["']$/g, ''));
    if (m) return m[1]!;
  }
  return clip(command, 60);
}

export function unfilledPlaceholderDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    const found = unfilledFailure(view, s);
    if (found === undefined) continue;
    const { command, placeholder, wanted, template } = found;
    const misled = goOnAnywayLine(template, placeholder);
    const ran = `${code(programOf(command))} answered ${code(clip(wanted.trim(), 80))}: the prompt's ${code(placeholder)} reached the agent unfilled and the shell expanded it to nothing.`;
    const ask = `when a prompt shows ${code(placeholder)} as it is, ask the user for that text before running anything with it.`;
    const quoted = misled && `${ran} The template says "${misled.replace(/"/g, "'").replace(/[.;]$/, '')}"; it was not: ${ask}`;
    return [
      {
        category: 'pitfall',
        scope: 'agent',
        title: `A prompt's ${placeholder} reached the command unfilled`,
        // (the quote goes where it would cost the advice: the builder cuts whole sentences at MAX_TEXT)
        text: quoted && quoted.length <= MAX_TEXT ? quoted : `${ran} The text did not reach the agent: ${ask}`,
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['prompt', 'placeholder', s.call.name],
        quotes: [placeholder, clip(wanted.trim(), 120)],
        rule: 'unfilled-placeholder',
        signature: `unfilled placeholder ${placeholder}`,
        score: 6,
      },
    ];
  }
  return [];
}

export const unfilledPlaceholders: RuleExtractor = ruleExtractor('unfilled-placeholder', unfilledPlaceholderDrafts);
