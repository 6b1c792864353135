/**
 * A prompt file's placeholder that reached the agent unfilled: a custom command or prompt template
 * (spec-kit's `/specify`: `create-new-feature.ps1 -Json "$ARGUMENTS"`) stands for the text the
 * user gives with the command, and the agent ran the template's command line as it was. The
 * shell then expanded the placeholder to nothing (PowerShell and bash read `$ARGUMENTS` as an
 * unset variable), and the script failed for want of its argument. An agent meets it every time
 * the command is run without that text: the item says so once, with the failure it gave.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code } from '../text.js';
import type { SessionView, Step } from '../view.js';

/** Placeholders prompt templates use for the user's text: `$ARGUMENTS` (Claude Code's commands,
 * spec-kit, Codex prompts) and `{{args}}` (Gemini CLI's custom commands). */
const PLACEHOLDER = /\$ARGUMENTS\b|\{\{\s*args\s*\}\}/;

/** A program's complaint that it got no argument: its usage line, or words to that effect. */
const WANTS_ARGUMENT = /\busage:[^\n]*|\b(?:missing|no) (?:required )?(?:argument|parameter|description)s?\b[^\n]*|\b(?:argument|parameter)s? (?:is |are )?required\b[^\n]*/i;

/** The placeholder a failed step's command line held unfilled, and what the program said for
 * want of it, when that is why it failed. */
export function unfilledFailure(view: SessionView, s: Step): { command: string; placeholder: string; wanted: string } | undefined {
  if (!s.failed || s.command === undefined) return undefined;
  const placeholder = PLACEHOLDER.exec(s.command)?.[0];
  if (placeholder === undefined) return undefined;
  // the template as the agent got it still holds the placeholder: nothing filled it in
  const template = view.events.find((e) => e.kind === 'user' && PLACEHOLDER.test(e.text));
  if (template === undefined || s.call.index < template.index) return undefined;
  // only a failure for want of the argument is the placeholder's (a script not found, a quote
  // the shell could not parse, failed before the argument mattered)
  const wanted = WANTS_ARGUMENT.exec(s.output)?.[0];
  return wanted === undefined ? undefined : { command: s.command, placeholder, wanted };
}

export function unfilledPlaceholderDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    const found = unfilledFailure(view, s);
    if (found === undefined) continue;
    const { command, placeholder, wanted } = found;
    return [
      {
        category: 'pitfall',
        scope: 'agent',
        title: `A prompt's ${placeholder} reached the command unfilled`,
        text:
          `The prompt template reached the agent with ${code(placeholder)} unfilled, and its command line ran as it was: ` +
          `${code(clip(command, 80))} answered ${code(clip(wanted.trim(), 80))}, the shell having expanded the placeholder to nothing. ` +
          `When a prompt shows ${code(placeholder)} as it is, ask the user for the text it stands for before running anything with it.`,
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
