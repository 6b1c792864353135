/**
 * A search that floods the context: a repo-wide `rg`/`grep`/`find` whose output runs to tens of
 * thousands of tokens (or that the agent's tool had to cut), followed by a rerun of the same
 * program that excludes what flooded it (`--glob '!**\/*.jsonl'`, `--exclude-dir`, a narrower
 * path). The pitfall names the files that filled the output and the exclusion that worked.
 */
import { CONFIDENCE } from '../../candidate.js';
import { MARK } from '../marks.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { mainCommand, shownCommand, tokens } from '../commands.js';
import { clip, code } from '../text.js';
import { type SessionView, type Step } from '../view.js';

const SEARCHERS = new Set(['rg', 'grep', 'egrep', 'ag', 'ack', 'find', 'fd', 'git']);
const HUGE_TOKENS = 50_000;
export const CUT = /Output too large|<persisted-output>|\[\.\.\. omitted \d+ of \d+ lines/i;
/** Flags that leave files out of a search. */
const EXCLUSION = /^(?:--glob=?|-g|--exclude(?:-dir)?(?:=.*)?|--iglob=?|-not|!|--type-not=?|-T)$|^--(?:exclude|exclude-dir|glob|iglob)=/;
const LOOKAHEAD = 8;

function exclusions(command: string): string[] {
  const t = tokens(mainCommand(command));
  const out: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (/^--(?:exclude|exclude-dir|glob|iglob)=/.test(tok)) out.push(tok);
    else if (EXCLUSION.test(tok) && t[i + 1] !== undefined && (tok !== '-g' && tok !== '--glob' && tok !== '--iglob' ? true : t[i + 1]!.startsWith('!'))) out.push(`${tok} '${t[i + 1]}'`);
  }
  return out;
}

/** The files that filled the output: the path prefix of `path:line:` matches holding the most text. */
function flooding(output: string): string | undefined {
  const size = new Map<string, number>();
  for (const line of output.split('\n')) {
    const m = /^((?:[\w@.-]+\/)*[\w@.-]+\.(\w{1,6})):\d*:?/.exec(line);
    if (!m) continue;
    const key = `${m[1]!.replace(/\/[^/]+$/, '')}/*.${m[2]}`;
    size.set(key, (size.get(key) ?? 0) + line.length);
  }
  const total = [...size.values()].reduce((a, b) => a + b, 0);
  const top = [...size.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return top && top[1] * 2 >= total ? top[0] : undefined;
}

function isHuge(s: Step): boolean {
  return (s.outputTokens ?? 0) >= HUGE_TOKENS || ((s.marks & MARK.cut) !== 0 && CUT.test(s.output));
}

export function oversizedOutputDrafts(view: SessionView): Draft[] {
  // The largest flood first: it shows best what to leave out.
  const bySize = [...view.steps].sort((a, b) => (b.outputTokens ?? 0) - (a.outputTokens ?? 0) || a.pos - b.pos);
  for (const s of bySize) {
    if (!s.command || s.failed || s.rejected || !isHuge(s)) continue;
    const prog = s.program;
    if (!SEARCHERS.has(prog)) continue;
    const before = new Set(exclusions(s.command));
    const rerun = view.steps
      .slice(s.pos + 1, s.pos + 1 + LOOKAHEAD)
      .find((l) => l.command !== undefined && !l.rejected && l.program === prog && exclusions(l.command).some((x) => !before.has(x)));
    if (!rerun) continue;
    const added = exclusions(rerun.command!).filter((x) => !before.has(x));
    const culprit = flooding(s.output);
    const n = s.outputTokens;
    const size = n !== undefined ? `about ${n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : `${Math.round(n / 1000)}k`} tokens of output` : 'more output than the tool can show';
    return [
      {
        category: 'pitfall',
        title: `${prog} floods the output${culprit ? ` with ${clip(culprit, 40)}` : ''}`,
        text: `${code(clip(shownCommand(s.command), 90))} returns ${size}${culprit ? `, mostly from ${code(culprit)}` : ''}. Exclude ${culprit ? 'those files' : 'the bulky files'} with ${added.slice(0, 2).map((x) => code(x)).join(' ')} (as in ${code(clip(shownCommand(rerun.command!), 90))}) or search a narrower path.`,
        confidence: rerun.failed ? CONFIDENCE.stated : CONFIDENCE.verified,
        event: s.outputEvent,
        tags: [prog, 'output', 'search'],
        quotes: [clip(rerun.command!, 120)],
        rule: 'oversized-output',
        score: 6.5,
      },
    ];
  }
  return [];
}

export const oversizedOutput: RuleExtractor = ruleExtractor('oversized-output', oversizedOutputDrafts);
