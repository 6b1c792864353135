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
    const loops = /(?:^|[;&|]\s*)for\s+\w+\s+in\b/.test(s.command!);
    return [
      {
        category: 'tool-quirk',
        scope: 'global',
        title: 'zsh is the shell here: a glob that matches nothing stops the command',
        text:
          `The shell here is zsh, where a glob that matches no file is an error: ${code(clip(s.command!, 70))} failed (${code(clip(`no matches found: ${pattern}`, 70))}) and ran nothing${removes ? ', its `rm -f` included' : ''}. ` +
          wayAround(loops, removes),
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

/** The ways round it that fit what the command did: a loop over files that may not exist wants
 * the patterns to expand to nothing, a removal wants `find`, a pattern meant for the program
 * (`pip install 'pkg[extra]'`, `git add '*.md'`) wants quotes. */
function wayAround(loops: boolean, removes: boolean): string {
  if (loops) return `For a loop over files that may not exist, give each pattern zsh's ${code('(N)')} qualifier (${code('*.jpg(N)')} expands to nothing when nothing matches) or ${code('setopt nullglob')} first.`;
  if (removes) return `Remove files that may not exist with ${code("find <dir> -name '<glob>' -delete")} or a pattern with the ${code('(N)')} qualifier (${code('rm -f -- *.tmp(N)')}).`;
  return `Quote a pattern meant for the program as it is, or ${code('setopt nonomatch')} to have zsh pass an unmatched pattern on as bash does.`;
}

export const zshGlob: RuleExtractor = ruleExtractor('zsh-glob', zshGlobDrafts);
