/**
 * zsh as the agent's shell: a glob that matches no file is an error there (`zsh: no matches
 * found: data_cache/*.npz`, or `(eval):1: no matches found: …` from a tool that evals the line),
 * which stops the whole command before it runs, `rm -f` included, where bash passes the pattern
 * on as it is. An agent that writes for bash makes the same failed call in every session on the
 * machine (macOS's default shell is zsh). The shell names itself by its words, so the item says
 * which shell it is, what it did, and the ways around it.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { perObject } from '../per-object.js';
import { clip, code } from '../text.js';
import type { SessionView, Step } from '../view.js';

/** zsh's words for a glob that matched nothing, and the pattern. */
const NO_MATCHES = /^(?:zsh|\(eval\)):(?:\d+:)? no matches found: (\S+)\s*$/m;

/** The pattern zsh refused in a failed step, when the command holds it unquoted. */
export const zshGlobSlip: (s: Step) => string | undefined = perObject(slipOf);

function slipOf(s: Step): string | undefined {
  if (!s.failed || s.command === undefined || !s.output.includes('no matches found')) return undefined;
  const pattern = NO_MATCHES.exec(s.output)?.[1];
  return pattern !== undefined && /[*?[]/.test(pattern) && s.command.includes(pattern) ? pattern : undefined;
}

/** One item a session: the shell is zsh, with the first command it stopped. */
export function zshGlobDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    // (only a failed step can show it: the others are not asked, nor kept per step)
    if (!s.failed) continue;
    const pattern = zshGlobSlip(s);
    if (pattern === undefined) continue;
    const removes = /(?:^|[;&|]\s*)rm\b/.test(s.command!);
    return [
      {
        category: 'tool-quirk',
        scope: 'global',
        title: 'zsh is the shell here: a glob that matches nothing stops the command',
        text:
          `The shell here is zsh, where a glob that matches no file is an error: ${code(clip(s.command!, 70))} failed (${code(clip(`no matches found: ${pattern}`, 70))}) and ran nothing${removes ? ', its `rm -f` included' : ''}. ` +
          `Quote a pattern meant as it is, remove files that may not exist with ${code('find <dir> -name \'<glob>\' -delete')}, or ${code('setopt nonomatch')}.`,
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['zsh', 'glob', s.call.name],
        quotes: [`no matches found: ${pattern}`],
        rule: 'zsh-glob',
        signature: 'zsh no matches found',
        score: 7,
      },
    ];
  }
  return [];
}

export const zshGlob: RuleExtractor = ruleExtractor('zsh-glob', zshGlobDrafts);
