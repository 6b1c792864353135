/**
 * An agent's terminal that is a real terminal (Cursor's, an IDE's) makes git page its output:
 * `git log` or `git branch` ends in less's `(END)` (or its `:` prompt) and waits for a key, so the
 * call hangs until someone presses q, and the transcript fills with `~` lines. The next session on
 * the same tool does it again unless told to turn the pager off. Read from the pager's own prompt
 * in the output of a git command, never guessed from a slow call.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { tokens } from '../commands.js';
import { MARK } from '../marks.js';
import { clip, code } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';

/** less's prompt at the end of a page: `(END)`, or `:` before "...skipping..." when redrawn. */
export const PAGER_PROMPT = /^(?:\(END\)(?:\.\.\.skipping\.\.\.)?|:\.\.\.skipping\.\.\.)\s*$/m;
/** git's commands that page their output by default. */
const PAGED = /^(?:log|branch|diff|show|tag|blame|shortlog|reflog|grep|help|config)$/;

/** The git command of a step that its pager held, when the output shows the pager's prompt. */
function pagedGit(s: Step): string | undefined {
  if ((s.marks & MARK.pager) === 0) return undefined;
  if (!PAGER_PROMPT.test(s.output)) return undefined;
  return s.simple.find((c) => {
    const t = tokens(c);
    return t[0] === 'git' && !t.includes('--no-pager') && PAGED.test(t.find((w, i) => i > 0 && !w.startsWith('-')) ?? '');
  });
}

export function pagerDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (s.command === undefined) continue;
    const git = pagedGit(s);
    if (git === undefined) continue;
    const noPager = git.replace(/^git\s+/, 'git --no-pager ');
    const later = view.steps.slice(s.pos + 1).find((x) => x.call.name === s.call.name && x.command !== undefined && /\bgit\s+--no-pager\b|\bGIT_PAGER\b|core\.pager/.test(x.command) && seenToSucceed(x));
    const tool = code(s.call.name);
    return [
      {
        category: 'tool-quirk',
        scope: 'agent',
        title: `git's pager waits for a key in ${s.call.name}`,
        text:
          `The ${tool} terminal is a real terminal, so git sends its output to its pager: ${code(clip(git, 50))} ended at less's \`(END)\` and waited for a key instead of returning. ` +
          `Run git with \`--no-pager\` (${code(clip(noPager, 60))}), or set \`git config core.pager cat\` once.${later ? ` ${code(clip(later.command!, 60))} worked.` : ''}`,
        confidence: later ? CONFIDENCE.verified : CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['git', 'pager', s.call.name],
        quotes: ['(END)', git],
        rule: 'pager',
        signature: `git pager ${s.call.name}`,
        score: later ? 8 : 6,
      },
    ];
  }
  return [];
}

export const pager: RuleExtractor = ruleExtractor('pager', pagerDrafts);
