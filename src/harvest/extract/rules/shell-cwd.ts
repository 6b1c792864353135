/**
 * Whether the agent's shell keeps its working directory from one call to the next, as the session
 * shows it. Where it does, an agent that forgets it runs `cd frontend && …` again from inside
 * `frontend/` and fails on a folder that is not there; where it does not (each call starts in the
 * same folder, as Gemini CLI's does), a `cd` in a call of its own changes nothing for the next
 * call, which then runs in the old folder. The next session on the same tool does the same, so the
 * item says it once, with the calls that show it.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { tokens } from '../commands.js';
import { clip, code, errorSignature } from '../text.js';
import { errorLine } from '../diagnosis.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';
import { wrapperComplaints } from './shell-wrapper-complaints.js';
import { perObject } from '../per-object.js';

/** A `cd` that found no such folder: bash and zsh, cmd, and PowerShell's untranslated record. */
const NO_FOLDER = /\bcd: (?:no such file or directory|can't cd to)|\bcd: [^\n]*: No such file or directory|The system cannot find the path specified|FullyQualifiedErrorId\s*:\s*PathNotFound,Microsoft\.PowerShell\.Commands\.SetLocationCommand/i;

/** The folder the `i`th simple command of a step changes into (`cd`, `Set-Location`, `pushd`:
 * family `cd`), unquoted, when it is one. */
function cdTarget(step: Step, i: number): string | undefined {
  if (step.families[i] !== 'cd') return undefined;
  const t = tokens(step.simple[i]!);
  return t.length === 2 ? t[1]!.replace(/^["']|["']$/g, '') : undefined;
}

/** A path's last folder name (`d:/dialfa new/spisa-new/frontend` → `frontend`). */
function lastName(path: string): string {
  return path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? path;
}

/** A long `cd` with the end of its path, where the path names its folder: `cd "…\\spisa-new\\frontend"`
 * (the command word and the quotes kept, so it still reads as the command it was). */
function clipCd(cd: string, max: number): string {
  if (cd.length <= max) return cd;
  const m = /^(\S+\s+)(["']?)(.*?)\2\s*$/.exec(cd);
  if (!m) return `…${cd.slice(-(max - 1))}`;
  const [, verb, quote, path] = m as unknown as [string, string, string, string];
  const sep = path.includes('\\') ? '\\' : '/';
  return `${verb}${quote}…${sep}${path.split(/[\\/]/).slice(-2).join(sep)}${quote}`;
}

const isRelative = (path: string): boolean => !/^(?:[A-Za-z]:|[\\/~]|\$)/.test(path);

/** The failing `cd <name>` of a step, when an earlier call of the same tool already changed into
 * a folder of that name and no `cd` came between: the shell was still there. */
function staleCd(view: SessionView, s: Step): { target: string; earlier: string } | undefined {
  const target = cdTarget(s, 0);
  if (target === undefined || !isRelative(target) || target.includes('..') || !NO_FOLDER.test(s.output)) return undefined;
  for (let i = s.pos - 1; i >= 0; i--) {
    const e = view.steps[i]!;
    if (e.call.name !== s.call.name || e.command === undefined || e.rejected || e.result === undefined) continue;
    const at = e.simple.findLastIndex((_, k) => cdTarget(e, k) !== undefined);
    if (at < 0) continue;
    // the last folder that call went into, and that `cd` did not fail itself
    const last = cdTarget(e, at)!;
    return lastName(last) === lastName(target) && last !== target && !NO_FOLDER.test(e.output) ? { target, earlier: e.simple[at]! } : undefined;
  }
  return undefined;
}

const LOOKAHEAD = 12;

/** Where a command's output says it ran: `pwd`'s line, or `git init`'s "Initialized empty Git
 * repository in <folder>/.git/". */
function ranIn(step: Step): string | undefined {
  const main = step.main.trim();
  if (main === 'pwd') {
    const line = step.output.trim().split('\n')[0]?.trim() ?? '';
    return /^(?:\/|~|[A-Za-z]:[\\/])/.test(line) ? line : undefined;
  }
  if (/^git init$/.test(main)) return /Initialized empty Git repository in (.+?)[\\/]\.git[\\/]?\s*$/m.exec(step.output)?.[1];
  return undefined;
}

/** A `cd` in a call of its own, and the next call of the same tool that says where it ran: in
 * another folder than the one the `cd` went to. */
export const lostCd: (view: SessionView) => { cd: Step; next: Step; folder: string } | undefined = perObject(findLostCd);

function findLostCd(view: SessionView): { cd: Step; next: Step; folder: string } | undefined {
  for (const s of view.steps) {
    if (s.command === undefined || s.simple.length !== 1 || s.failed || s.rejected || s.result === undefined) continue;
    const target = cdTarget(s, 0);
    if (target === undefined || target === '..' || target === '-') continue;
    // (the next few calls: what a call says of its folder is said soon after the cd, if at all)
    for (const x of view.steps.slice(s.pos + 1, s.pos + 1 + LOOKAHEAD)) {
      if (x.call.name !== s.call.name || x.command === undefined) continue;
      if (x.families.includes('cd') && !(x.simple.length === 1 && cdTarget(x, 0) === target)) break;
      const folder = ranIn(x);
      if (folder === undefined) continue;
      if (lastName(folder) !== lastName(target)) return { cd: s, next: x, folder };
      break;
    }
  }
  return undefined;
}

function lostCdDraft(view: SessionView): Draft | undefined {
  const lost = lostCd(view);
  if (!lost) return undefined;
  const tool = code(lost.cd.call.name);
  const shown = clip(lost.next.output.trim().split('\n').find((l) => l.includes(lost.folder)) ?? lost.folder, 90);
  // the tool's shell wrapper failing after every command in the same session goes with it
  const wrapper = wrapperComplaints(view).find((c) => c.tool === lost.cd.call.name);
  // (then what the session shows is this setup's, not the tool's everywhere: said as such)
  const broken = wrapper ? ` Its shell wrapper was failing here (every call printed ${code(clip(wrapper.lines[0]!, 60))}).` : '';
  const starts = wrapper ? `Here the ${tool} tool started each call in the same folder` : `The ${tool} tool starts each call in the same folder`;
  return {
    category: 'tool-quirk',
    scope: 'agent',
    // (with the wrapper failing, the title says so: the tool keeps its folder where it works)
    title: wrapper ? `${lost.cd.call.name} loses a lone cd while its shell wrapper fails` : `${lost.cd.call.name} starts every call in the same folder: a lone cd is lost`,
    text:
      `${starts} (${wrapper ? '' : 'here '}${code(clip(lost.folder, 40))}), so a ${code('cd')} in a call of its own changes nothing for the next: after ${code(clipCd(lost.cd.command!, 60))}, ` +
      `${code(clip(lost.next.command!, 40))} ran in ${code(clip(lost.folder, 40))} again${shown === clip(lost.folder, 90) ? '' : ` (${code(shown)})`}${/^git init\b/.test(lost.next.main.trim()) ? ', a stray repository to remove' : ''}. Chain the command in the same call (${code(`${clipCd(lost.cd.command!.trim(), 50)} && ${clip(lost.next.command!, 30)}`)}).${broken}`,
    confidence: CONFIDENCE.verified,
    event: lost.next.outputEvent,
    tags: [lost.cd.call.name, 'cd', 'cwd'],
    quotes: [shown],
    rule: 'shell-cwd',
    signature: errorSignature(`${lost.cd.call.name} loses cwd`),
    score: 7,
  };
}

export function shellCwdDrafts(view: SessionView): Draft[] {
  const lost = lostCdDraft(view);
  if (lost) return [lost];
  for (const s of view.steps) {
    if (!s.failed || s.command === undefined) continue;
    const stale = staleCd(view, s);
    if (!stale) continue;
    const rest = s.simple.slice(1).join(' && ');
    const worked = rest ? view.steps.slice(s.pos + 1, s.pos + 4).find((x) => x.call.name === s.call.name && seenToSucceed(x) && x.command?.trim() === rest) : undefined;
    // PowerShell's message may be translated; its error id is not
    const err = /PathNotFound,/.test(s.output) ? 'PathNotFound' : errorLine(s.output, 80);
    const tool = code(s.call.name);
    // which shell, where its own words say it: the lesson holds for that shell, not every one
    const shell = /PathNotFound,|FullyQualifiedErrorId/.test(s.output) ? 'PowerShell' : /The system cannot find the path specified/.test(s.output) ? 'cmd' : undefined;
    return [
      {
        category: 'tool-quirk',
        scope: 'agent',
        title: `${s.call.name} keeps the working directory between calls`,
        text:
          `The ${tool} shell${shell ? ` (${shell} here)` : ''} keeps its working directory from one call to the next: after ${code(clipCd(stale.earlier, 60))}, a later ${code(clip(s.command, 60))} failed (${code(err)}) because the shell was still in ${code(lastName(stale.target))}. ` +
          `Use absolute paths, or check \`pwd\` first.${worked ? ` ${code(clip(worked.command!, 60))} without the \`cd\` worked.` : ''}`,
        confidence: worked ? CONFIDENCE.verified : CONFIDENCE.stated,
        event: s.outputEvent,
        tags: [s.call.name, 'cd', 'cwd'],
        quotes: [err, stale.earlier],
        rule: 'shell-cwd',
        signature: errorSignature(`${s.call.name} keeps cwd`),
        score: worked ? 8 : 6,
      },
    ];
  }
  return [];
}

export const shellCwd: RuleExtractor = ruleExtractor('shell-cwd', shellCwdDrafts);
