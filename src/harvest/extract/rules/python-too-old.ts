/**
 * The project needs a newer Python than the one that ran it. Two signals say so by themselves:
 * `TypeError: unsupported operand type(s) for |: 'types.GenericAlias' and 'NoneType'` (a union of
 * types, `list[float] | None`, evaluated when a module loads: Python has it only from 3.10), and
 * pip's `requires a different Python: 3.9.6 not in '>=3.11'`. Either costs the next session the
 * same detour until it runs the newer interpreter, so it is told of the repository, with the
 * code line or the package, the interpreter that failed and, where the session found one, what
 * then ran.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, oneLine } from '../text.js';
import type { SessionView, Step } from '../view.js';

/** `|` between two types at run time: both operands are classes or typing's aliases (a `str`
 * operand may be data, not a type, and says nothing of the version). */
const UNION_OF_TYPES = /TypeError: unsupported operand type\(s\) for \|: '((?:typing\.|types\.)?_?\w*(?:GenericAlias|SpecialForm|Meta|type|NoneType))' and '((?:typing\.|types\.)?_?\w*(?:GenericAlias|SpecialForm|Meta|type|NoneType))'/;
/** pip refusing a package for the interpreter's version. */
const REQUIRES_PYTHON = /(?:Package '([^']+)' )?requires a different Python: (\d+\.\d+(?:\.\d+)?) not in '([^']+)'/;
/** A traceback frame and its source line: pytest's `path.py:42: in Name` or Python's
 * `File "path.py", line 42, in Name`, the code on the next line. */
const FRAME = /(?:File "([^"\n]+\.py)", line (\d+)[^\n]*|([\w./-]+\.py):(\d+): in [^\n]*)\n[ \t]+([^\n]+)/g;
/** The version in an interpreter's path (`python3.9/site-packages`, `Library/Python/3.9/`, `Python39\`). */
const VERSION_IN_PATH = /[Pp]ython(?:\/|\\)?(3)\.?(\d{1,2})(?=[/\\])/;
/** A newer interpreter run by name (`python3.11`, `python3.12 -m pytest`) or a virtualenv's. */
const NEWER_PYTHON = /(?:^|[\s/])python3\.(1\d)\b/;

/** The last frame before `at` that shows the line with the `|`. */
function unionLine(output: string, at: number): { file: string; line: string; code: string } | undefined {
  let found: { file: string; line: string; code: string } | undefined;
  for (const m of output.slice(0, at).matchAll(FRAME)) {
    const source = m[5]!.trim();
    if (source.includes('|')) found = { file: m[1] ?? m[3]!, line: m[2] ?? m[4]!, code: source };
  }
  return found;
}

/** The version of the interpreter that failed: from the paths of its own traceback, else from a
 * `python3 --version` of the session. */
function versionOf(view: SessionView, failed: Step): string | undefined {
  const inPath = VERSION_IN_PATH.exec(failed.output);
  if (inPath) return `${inPath[1]}.${inPath[2]}`;
  for (const s of view.steps) {
    if (s.command === undefined || !/\bpython3?\s+(?:-V|--version)\b/.test(s.command)) continue;
    const v = /\bPython (3\.(\d+)\.\d+)/.exec(s.output);
    if (v && Number(v[2]) < 10) return v[1];
  }
  return undefined;
}

/** A later command that ran a newer interpreter and did not fail. */
function newerRun(view: SessionView, after: Step): Step | undefined {
  return view.steps.find((s) => s.pos > after.pos && s.command !== undefined && !s.failed && !s.rejected && NEWER_PYTHON.test(s.command));
}

function ranAfter(view: SessionView, step: Step): string {
  const newer = newerRun(view, step);
  return newer ? `; ${code(clip(oneLine(newer.command!), 70))} then ran` : '';
}

function unionDraft(view: SessionView, s: Step, m: RegExpExecArray): Draft {
  const error = m[0];
  const at = unionLine(s.output, m.index);
  const version = versionOf(view, s);
  const where = at ? `${code(`${at.file}:${at.line}`)} (${code(clip(at.code, 80))}) joins types with ${code('|')}` : `Its annotations join types with ${code('|')}`;
  const under = version ? `Python ${version}` : 'an older Python';
  const union = m[1] === 'NoneType' || m[2] === 'NoneType' ? '`X | None`' : '`A | B`';
  return {
    category: 'pitfall',
    scope: 'repo',
    title: `The code needs Python 3.10+ (${union} annotations fail under ${version ? `Python ${version}` : 'older ones'})`,
    text: `${where}, which Python evaluates when the module loads and supports only from 3.10: under ${under}, ${code(clip(oneLine(s.command!), 60))} failed with ${code(error)}. Run the project with Python 3.10 or newer${ranAfter(view, s)}.`,
    confidence: CONFIDENCE.verified,
    event: s.outputEvent,
    tags: ['python', 'version', 'typing'],
    quotes: [error, ...(at ? [at.code] : [])],
    rule: 'python-too-old',
    signature: 'python too old',
    score: 6,
  };
}

function pipDraft(view: SessionView, s: Step, m: RegExpExecArray): Draft {
  const [message, pkg, version, wanted] = m;
  const what = pkg ? code(pkg) : 'A package it installs';
  return {
    category: 'pitfall',
    scope: 'repo',
    title: `${pkg ? `${pkg} requires` : 'The install requires'} Python ${wanted} (pip refuses it under ${version})`,
    text: `${what} requires Python ${code(wanted!)}, and ${code(clip(oneLine(s.command!), 60))} ran under Python ${version}: pip refused it (${code(oneLine(message))}). Install and run it with a newer interpreter${ranAfter(view, s)}.`,
    confidence: CONFIDENCE.verified,
    event: s.outputEvent,
    tags: ['python', 'version', 'pip'],
    quotes: [oneLine(message)],
    rule: 'python-too-old',
    signature: 'python too old',
    score: 6,
  };
}

function lastMatch(re: RegExp, text: string): RegExpExecArray | null {
  const all = new RegExp(re.source, 'g');
  let last: RegExpExecArray | null = null;
  for (let m = all.exec(text); m; m = all.exec(text)) last = m;
  return last;
}

export function pythonTooOldDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (s.command === undefined || s.rejected) continue;
    // (the last report of the error: pytest repeats it in a summary line above the traceback)
    const union = s.output.includes('unsupported operand') ? lastMatch(UNION_OF_TYPES, s.output) : null;
    if (union) return [unionDraft(view, s, union)];
    const pip = s.output.includes('requires a different Python') ? REQUIRES_PYTHON.exec(s.output) : null;
    if (pip) return [pipDraft(view, s, pip)];
  }
  return [];
}

export const pythonTooOld: RuleExtractor = ruleExtractor('python-too-old', pythonTooOldDrafts);
