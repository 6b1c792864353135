/**
 * Checker findings and their fixes: a linter, type checker or compiler (or a commit hook that
 * runs them) names a problem in a file, and the agent's next edit of that file fixes it. The
 * finding's message and the changed line make a pitfall a reviewer can act on next time
 * ("credo: Nested modules could be aliased …; fixed with `alias LangChain.Chains.LLMChain`").
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { isCheck } from '../commands.js';
import { clip, code, errorSignature, literalNewlines, oneLine } from '../text.js';
import { editedFiles, isEdit, type SessionView, type Step } from '../view.js';
import { actionFamilyOf } from './error-fix.js';

interface Finding {
  file: string;
  message: string;
  /** `[CREDO]`-style section of a hook's output the finding was printed under. */
  section?: string;
  line: number;
}

/** `lib/a.ex:12:5:kind message`, `src/a.ts(12,5): error TS1: m`, `src/a.py:3:1: E501 m` */
const LOCATED = /^\s*(?:┃\s*)?((?:[\w@.-]+\/)*[\w@-]+\.[a-z]{1,5})(?::(\d+)(?::\d+)?:?|\((\d+),\d+\):)\s*(?:-\s*)?(.*)$/;
/** credo: `[D] ↘ message`, the location on the next line. */
const MARKED = /^\s*(?:┃\s*)?\[([A-Z])\]\s*[↘→↗↑↓]?\s*(.{10,})$/;
const SECTION = /^\s*\[([A-Z][A-Z_-]{2,})\]\s*$/;
const MAX_FINDINGS = 5;
/** Layout and style findings (line length, whitespace, import order, missing docstrings): the
 * checker's own message says what to do, and the lesson ends with the line it names. */
const STYLE = /\b(?:line too long|line-too-long|max-len|trailing whitespace|trailing-whitespace|no-trailing-spaces|whitespace (?:before|after)|indentation|(?:wrong-)?import-(?:position|order)|should be placed at the top|missing (?:module|function|class|method) docstring|missing-(?:module|function|class)-docstring|blank lines?|prettier)\b/i;

/** A checker's message reads as words ("The pattern can never match"), not as a code excerpt or a bare kind. */
function isMessage(message: string): boolean {
  if (/^[#{(\[<]|^(?:def|defp|fn|function|const|let|var|import|export|return|if|class)\b/.test(message)) return false;
  return (message.match(/\b[a-zA-Z]{2,}\b/g) ?? []).length >= 4;
}

/** Findings printed by a checker, with the message lines that follow a bare location. */
export function findings(output: string): Finding[] {
  const lines = literalNewlines(output).split('\n');
  const out: Finding[] = [];
  let section: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const sec = SECTION.exec(raw);
    if (sec) {
      section = sec[1];
      continue;
    }
    const marked = MARKED.exec(raw);
    if (marked) {
      let message = marked[2]!.trim();
      let j = i + 1;
      // Wrapped message lines continue until the location line.
      while (j < lines.length && !LOCATED.test(lines[j]!) && /^\s*┃\s{3,}\S/.test(lines[j]!) && j - i < 3) message += ` ${lines[j++]!.replace(/^\s*┃\s*/, '')}`;
      const loc = j < lines.length ? LOCATED.exec(lines[j]!) : null;
      if (loc) {
        out.push({ file: loc[1]!, message: oneLine(message), ...(section ? { section } : {}), line: i });
        i = j; // the location line is part of this finding
      }
      continue;
    }
    const loc = LOCATED.exec(raw);
    if (!loc) continue;
    let message = loc[4]!.trim();
    // A bare kind ("pattern_match") is explained by the next lines.
    if (/^[\w-]*$/.test(message)) {
      const more: string[] = [];
      for (let j = i + 1; j < lines.length && more.length < 6; j++) {
        const l = lines[j]!.trim();
        if (!l) continue;
        if (LOCATED.test(lines[j]!) || MARKED.test(lines[j]!) || /^\[Output truncated/.test(l)) break;
        more.push(l);
      }
      message = `${message} ${more.join(' ')}`.trim();
    }
    if (isMessage(message)) out.push({ file: loc[1]!, message: oneLine(message), ...(section ? { section } : {}), line: i });
  }
  return out;
}

/** The first line an edit adds (the fix as the reader will recognise it). */
function addedLine(step: Step): string | undefined {
  const input = step.call.input;
  const added = typeof input.new_string === 'string' ? input.new_string : typeof input.content === 'string' ? input.content : undefined;
  if (added === undefined) return undefined;
  const old = new Set((typeof input.old_string === 'string' ? input.old_string : '').split('\n').map((l) => l.trim()));
  const fresh = added
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 3 && !old.has(l));
  const comment = fresh.find((l) => /^(?:#|\/\/)\s*\w/.test(l));
  const line = fresh.find((l) => !/^#|^\/\/|^"""|^@moduledoc|^@doc/.test(l));
  if (!line) return undefined;
  // The agent's own comment on the change says why; keep it with the changed line.
  return clip(comment ? `${comment} … ${line}` : line, 140);
}

function checkLabel(step: Step, f: Finding): string {
  const fams = step.families.filter((x) => isCheck(x));
  const label = fams[0] ?? (step.command ? actionFamilyOf(step.families) : step.call.name);
  return f.section ? `${label} (${f.section.toLowerCase()} in its hook)` : label;
}

export function checkFindingDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const done = new Set<string>();
  const usedFixes = new Set<number>();
  /** Base names of the files the session wrote before the step in hand (kept as the loop goes). */
  const written = new Set<string>();
  for (const step of view.steps) {
    if (!step.failed && !step.rejected && isEdit(step)) for (const f of editedFiles(step)) written.add(f);
    if (!step.command || step.rejected) continue;
    if (!step.failed && !step.families.some((f) => isCheck(f))) continue;
    for (const f of findings(step.output)) {
      if (STYLE.test(f.message)) continue;
      const key = `${f.file}|${errorSignature(f.message.replace(/`[^`]*`/g, '<s>')).slice(0, 30)}`;
      if (done.has(key)) continue;
      const base = f.file.replace(/^.*\//, '');
      // a finding in a file this session wrote before the check is its own slip, not the repo's
      if (written.has(base)) continue;
      const fix = view.steps.slice(step.pos + 1, step.pos + 16).find((s) => !s.failed && !s.rejected && isEdit(s) && editedFiles(s).includes(base));
      // One pitfall per fixing edit: several findings fixed at once are one lesson.
      if (!fix || usedFixes.has(fix.call.index)) continue;
      done.add(key);
      usedFixes.add(fix.call.index);
      // "fixed by editing server.ts" tells the next session nothing it could do: the fix is the
      // changed line, and without it (an export that shows no edit) there is no lesson
      const snippet = addedLine(fix);
      if (snippet === undefined) continue;
      const label = checkLabel(step, f);
      // the checker by its name ("credo", run by a hook on git commit), and the change that cleared
      // the finding as what to do: a rule for the next time, not the story of this one
      const checker = f.section ? f.section.toLowerCase() : label;
      // (which hook is not known: git's pre-commit, or the agent's own hook on the command)
      const hook = f.section ? ` (run by a hook on ${code(label.split(' (')[0]!)})` : '';
      drafts.push({
        category: 'pitfall',
        title: `${checker}: ${clip(f.message, 60)}`,
        text: `${code(checker)}${hook} flags ${code(clip(f.message, 170))} in ${code(base)}; the change that cleared it: ${code(snippet)}.`,
        confidence: CONFIDENCE.verified,
        event: step.outputEvent,
        tags: [...label.split(/[\s()]+/).filter(Boolean), base],
        quotes: [clip(f.message, 160), snippet],
        rule: 'check-finding',
        signature: errorSignature(f.message),
        score: 7,
      });
      if (drafts.length >= MAX_FINDINGS) return drafts;
    }
  }
  return drafts;
}

export const checkFindings: RuleExtractor = ruleExtractor('check-finding', checkFindingDrafts);
