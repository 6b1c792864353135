/**
 * Where things are not, and where they are instead: the agent looked for a file or a folder by
 * a wrong guess (a read that says it does not exist, a search that finds nothing) and either
 * found it elsewhere a few steps later or confirmed by a second look that it does not exist. The
 * next session should not guess the same way. Vendored folders (deps, node_modules) never count
 * as the place a file lives.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { shownCommand, tokens } from '../commands.js';
import { errorLine } from '../diagnosis.js';
import { clip, code } from '../text.js';
import { isEdit, READ_TOOLS, type SessionView, type Step } from '../view.js';

const ABSENT = /does not exist|no such file or directory|not found|ENOENT/i;
const NOTHING = /^\s*(?:No files found|No matches found|Found 0 files?|0 files?)\s*$/i;
const VENDORED = /(?:^|\/)(?:deps|node_modules|vendor|_build|\.git|dist|build|target|\.venv|site-packages)\//;
const SEARCH_PROGRAMS = new Set(['find', 'ls', 'fd', 'tree']);
const MAX_ITEMS = 2;
const LOOKAHEAD = 15;

interface Miss {
  step: Step;
  /** What was tried, as the agent typed it (a path, a glob, a find command). */
  tried: string;
  /** File name looked for (`a.html.heex`), when the miss names one. */
  name?: string;
  /** Extension looked for (`css` from `-name "*.css"` or a glob). */
  ext?: string;
  /** Folder that turned out not to exist. */
  dir?: string;
}

function baseName(p: string): string {
  return p.replace(/\/+$/, '').replace(/^.*\//, '');
}

function extOf(p: string): string | undefined {
  return /\*\.(\w{1,6})$/.exec(p)?.[1] ?? /^[^*]+\.(\w{1,6})$/.exec(baseName(p))?.[1];
}

/** The look that came back empty or missing, if the step is one. */
function missOf(s: Step): Miss | undefined {
  const input = s.call.input;
  const path = input.file_path ?? input.path ?? input.target_file;
  const pattern = input.pattern ?? input.glob;
  if (READ_TOOLS.has(s.call.name)) {
    if (typeof path === 'string' && s.failed && ABSENT.test(s.output)) return { step: s, tried: path, name: baseName(path) };
    if (typeof pattern === 'string' && !s.failed && NOTHING.test(s.output) && /[*?]/.test(pattern) && !/[|\\()]/.test(pattern)) {
      const name = baseName(pattern).replace(/^\*+/, '');
      // a stem with a wildcard (`PositionID*.sql`) that found nothing says no such file was found
      // (a wrong name, a wrong case), not where files of its kind live: only `*.sql` says that
      if (name.includes('*') && !/^\*?\.\w+$/.test(baseName(pattern))) return undefined;
      return { step: s, tried: pattern, ...(name && !name.includes('*') ? { name } : {}), ...(extOf(pattern) ? { ext: extOf(pattern)! } : {}) };
    }
    return undefined;
  }
  if (!s.command) return undefined;
  const main = s.main;
  if (!SEARCH_PROGRAMS.has(s.program)) return undefined;
  const m = /(?:^|\n)\S*?:?\s*[‘'`"]?([^\s‘’'`"]+)[’'`"]?: No such file or directory/.exec(s.output);
  if (!m) return undefined;
  const t = tokens(main);
  const nameArg = t[t.indexOf('-name') + 1];
  const ext = t.includes('-name') && nameArg ? extOf(nameArg) : undefined;
  return { step: s, tried: main, dir: m[1]!, ...(ext ? { ext } : {}) };
}

/** Paths a successful later look showed (search output lines, or the path it read). */
function shownPaths(s: Step): string[] {
  if (s.failed || s.rejected) return [];
  const out: string[] = [];
  const path = s.call.input.file_path ?? s.call.input.path;
  if (READ_TOOLS.has(s.call.name) && typeof path === 'string' && /\.\w+$/.test(path) && !s.call.input.pattern) out.push(path);
  for (const line of s.output.split('\n').slice(0, 60)) {
    const l = line.trim();
    if (/^(?:~|\.{0,2})\/?(?:[\w@.+-]+\/)+[\w@.+-]+\.\w{1,6}$/.test(l)) out.push(l);
  }
  return out.filter((p) => !VENDORED.test(p));
}

function located(view: SessionView, miss: Miss): string[] {
  for (const s of view.steps.slice(miss.step.pos + 1, miss.step.pos + 1 + LOOKAHEAD)) {
    const hits = shownPaths(s).filter((p) => (miss.name ? baseName(p) === miss.name : miss.ext ? p.endsWith(`.${miss.ext}`) : false));
    if (hits.length > 0) return hits;
  }
  return [];
}

/** A second look for the same name that also came back empty. */
function confirmedAbsent(miss: Miss, misses: Miss[]): Miss | undefined {
  return misses.find((o) => o !== miss && o.name === miss.name && o.step.call.name !== miss.step.call.name && Math.abs(o.step.pos - miss.step.pos) <= LOOKAHEAD);
}

function dirOf(p: string): string {
  return p.includes('/') ? p.replace(/\/[^/]*$/, '/') : './';
}

/** Paths relative to the session's working directory (the item must read the same on any machine). */
function relativeTo(cwd: string | undefined): (p: string) => string {
  const base = cwd ? `${cwd.replace(/\/+$/, '')}/` : undefined;
  return (p) => (base ? p.split(base).join('') : p);
}

const TOO_LARGE = /(?:file content|file) \(?([\d.]+\s*[KMG]B)\)? exceeds|file (?:is )?too large/i;

/**
 * A file too large to read whole, and a file of the same name elsewhere that the agent read
 * instead (a generated bundle and its source): say which is which.
 */
function largeFileDrafts(view: SessionView, rel: (p: string) => string): Draft[] {
  for (const s of view.steps) {
    const path = s.call.input.file_path ?? s.call.input.path;
    if (!s.failed || !READ_TOOLS.has(s.call.name) || typeof path !== 'string' || !TOO_LARGE.test(s.output)) continue;
    const size = TOO_LARGE.exec(s.output)?.[1];
    const name = baseName(path);
    const other = view.steps
      .slice(s.pos + 1)
      .find((l) => {
        const p = l.call.input.file_path ?? l.call.input.path;
        return READ_TOOLS.has(l.call.name) && !l.failed && !l.rejected && typeof p === 'string' && p !== path && baseName(p) === name && !VENDORED.test(p);
      });
    if (!other) continue;
    const big = rel(path);
    const small = rel(String(other.call.input.file_path ?? other.call.input.path));
    return [
      {
        category: 'fact',
        title: `${clip(big, 50)} is too large to read`,
        text: `${code(big)} is too large for the ${code(s.call.name)} tool${size ? ` (${size})` : ''}; the agent read the same-named ${code(small)} instead.`,
        confidence: CONFIDENCE.stated,
        event: s.outputEvent,
        tags: ['location', 'large-file'],
        quotes: [big, small],
        rule: 'missing-file',
        score: 5.5,
      },
    ];
  }
  return [];
}

/** `rg: node_modules/opencode-ai: No such file or directory`: a dependency looked for by a guessed name. */
const MISSING_PACKAGE = /(?:^|\n)\S*?:?\s*[‘'`"]?(?:\.\/)?node_modules\/((?:@[\w.-]+\/)?[\w.-]+)[’'`"]?: No such file or directory/g;
const PACKAGE_PATH = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/g;

/**
 * A dependency looked for under a guessed name (`node_modules/opencode-ai`) and found installed
 * under another (`@codemieai/codemie-opencode`) a few steps later: the next session should use
 * the real name. Matched by the longest word of the guessed name.
 */
function packageDrafts(view: SessionView): Draft[] {
  for (const s of view.steps) {
    if (!s.failed || !s.command) continue;
    const guessed = [...new Set([...s.output.matchAll(MISSING_PACKAGE)].map((m) => m[1]!))];
    if (guessed.length === 0) continue;
    const word = guessed
      .flatMap((g) => g.split(/[@/_.-]+/))
      .filter((w) => w.length >= 4)
      .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0];
    if (!word) continue;
    for (const next of view.steps.slice(s.pos + 1, s.pos + 1 + LOOKAHEAD)) {
      if (next.failed || next.rejected || isEdit(next)) continue;
      const found = [...new Set([...next.output.matchAll(PACKAGE_PATH)].map((m) => m[1]!))].filter((p) => p.toLowerCase().includes(word.toLowerCase()) && !guessed.includes(p));
      if (found.length === 0) continue;
      const shown = found.slice(0, 3);
      return [
        {
          category: 'pitfall',
          title: `${word} is installed as ${clip(shown[0]!, 50)}`,
          text: `The dependency is not installed as ${guessed.slice(0, 2).map((g) => code(`node_modules/${g}`)).join(' or ')} (${code(clip(shownCommand(s.command), 70))} reports ${code('No such file or directory')}); it is installed as ${shown.map((p) => code(p)).join(', ')} under node_modules/.`,
          confidence: CONFIDENCE.verified,
          event: s.outputEvent,
          tags: ['location', 'dependency', word.toLowerCase()],
          quotes: shown,
          rule: 'missing-file',
          score: 5.5,
        },
      ];
    }
  }
  return [];
}

/** Whether `tried` is `found` with one of its folder or file names misspelt: the two end alike
 * but for one name, and that name differs by at most two letters (typed with a slip). */
function misspelt(tried: string, found: string): boolean {
  const a = tried.split(/[\\/]+/).filter(Boolean);
  const b = found.split(/[\\/]+/).filter(Boolean);
  const n = Math.min(a.length, b.length);
  let differ = 0;
  for (let i = 1; i <= n; i++) {
    const x = a[a.length - i]!;
    const y = b[b.length - i]!;
    if (x === y) continue;
    if (++differ > 1 || Math.min(x.length, y.length) < 4 || editDistance(x, y) > 2) return false;
  }
  return differ === 1;
}

/** Levenshtein distance of two short names. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

export function missingFileDrafts(view: SessionView): Draft[] {
  const rel = relativeTo(view.session.cwd);
  const misses = view.steps
    .map(missOf)
    .filter((m): m is Miss => m !== undefined)
    .map((m) => ({ ...m, tried: rel(m.tried), ...(m.dir ? { dir: rel(m.dir) } : {}) }));
  const drafts: Draft[] = [];
  const said = new Set<string>();
  for (const miss of misses) {
    const key = miss.name ?? miss.dir ?? miss.tried;
    if (said.has(key)) continue;
    const how = miss.step.command ? code(clip(miss.tried, 90)) : `${code(miss.step.call.name)} of ${code(clip(miss.tried, 90))}`;
    const err = miss.step.failed ? errorLine(miss.step.output, 80) : 'nothing';
    const hits = located(view, miss).map(rel);
    if (hits.length > 0) {
      const where = [...new Set(hits.map(dirOf))];
      if (miss.name && hits.some((h) => h === miss.tried)) continue; // found where it was looked for: a slip
      // the same path under another root (`~/Desktop/app-copy/lib/a.ts`, found as `lib/a.ts`): a
      // wrong guess of where the checkout is, nothing about the repository's layout
      // (only a path outside the checkout: one still absolute once made relative to it)
      if (miss.name && /^(?:[~/]|[A-Za-z]:)/.test(miss.tried) && hits.some((h) => miss.tried.endsWith(`/${h}`))) continue;
      // and the same path under a folder of the session's (`src/a.ts` found as `TP-Tutor/src/a.ts`):
      // the session ran in the folder above the checkout, nothing about the repository's layout either
      if (miss.name && !/^(?:[~/]|[A-Za-z]:)/.test(miss.tried) && miss.tried.includes('/') && hits.some((h) => h.endsWith(`/${miss.tried}`))) continue;
      // a path with one folder misspelt (`chatApplicatin/` for `chatApplication/`) was mistyped
      if (hits.some((h) => misspelt(miss.tried, h))) continue;
      // a relative path was looked for from the session's folder: say which, or it reads as the repo root's
      const cwdName = view.session.cwd?.replace(/[\\/]+$/, '').split(/[\\/]/).pop();
      const from = cwdName && !/^(?:[~/]|[A-Za-z]:)/.test(miss.tried) && miss.tried.includes('/') ? ` from the session's folder ${code(cwdName)}` : '';
      const what = miss.dir ? `There is no ${code(miss.dir)} folder` : `${code(miss.name ?? miss.tried)} is not at ${code(miss.tried)}${from}`;
      const found = miss.dir ? `reports ${code('No such file or directory')}` : `finds ${miss.step.failed ? code(err) : 'nothing'}`;
      const files = miss.ext && !miss.name ? `the ${code(`.${miss.ext}`)} files` : code(miss.name!);
      // one named file "is in" a folder; files of a kind "live in" it
      const verb = miss.ext && !miss.name ? 'live in' : 'is in';
      said.add(key);
      drafts.push({
        category: 'fact',
        title: `${miss.ext && !miss.name ? `.${miss.ext} files` : clip(miss.name ?? miss.tried, 40)} ${verb} ${clip(where[0]!, 40)}`,
        text: `${what} (${how} ${found}); ${files} ${verb} ${where.slice(0, 2).map((w) => code(w)).join(' and ')} (${hits.slice(0, 2).map((h) => code(h)).join(', ')}).`,
        confidence: CONFIDENCE.verified,
        event: miss.step.outputEvent,
        tags: ['location', ...(miss.ext ? [miss.ext] : [])],
        quotes: hits.slice(0, 2),
        rule: 'missing-file',
        score: 5.5,
      });
    } else if (miss.name) {
      const second = confirmedAbsent(miss, misses);
      if (!second) continue;
      said.add(key);
      const secondHow = second.step.command ? code(clip(second.tried, 80)) : `${code(second.step.call.name)} ${code(clip(second.tried, 80))}`;
      drafts.push({
        category: 'fact',
        title: `${clip(miss.name, 50)} does not exist`,
        text: `${code(miss.name)} does not exist in this repo: ${how} finds ${code(err)} and ${secondHow} finds nothing.`,
        confidence: CONFIDENCE.verified,
        event: miss.step.outputEvent,
        tags: ['location', ...(extOf(miss.name) ? [extOf(miss.name)!] : [])],
        quotes: [miss.tried],
        rule: 'missing-file',
        score: 5.5,
      });
    }
    if (drafts.length >= MAX_ITEMS) break;
  }
  return [...drafts, ...largeFileDrafts(view, rel), ...packageDrafts(view)];
}

export const missingFiles: RuleExtractor = ruleExtractor('missing-file', missingFileDrafts);
