/**
 * Patterns in what the agent ran: the checks run before a successful commit, the verification
 * run after the last edit, command sequences that recur, and how the project's own scripts are
 * invoked. Only command families are compared, so reruns with other arguments count; examples
 * in the text are the commands as actually typed (shortened).
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { isCheck, isReadOnly, programName, tokens } from '../commands.js';
import { STILL_BROKEN, clip, code, hookSections } from '../text.js';
import { actionFamilyOf } from './error-fix.js';
import { callCommandLine, isEdit, seenToSucceed, type SessionView, type Step } from '../view.js';
import { looksFailed } from '../../../sessions/readers/outcome.js';
import { ADDED_OUTPUT } from '../../../sessions/readers/aider.js';

interface Run {
  fam: string;
  /** The simple command, clipped for showing. */
  simple: string;
  step: Step;
  /** Its place among the step's simple commands. */
  at: number;
}

/** Every simple command the agent ran, in order (rejected calls left out). */
function runs(view: SessionView): Run[] {
  const out: Run[] = [];
  for (const step of view.steps) {
    if (!step.command || step.rejected) continue;
    step.simple.forEach((simple, i) => {
      const fam = step.families[i]!;
      if (fam && fam !== 'cd') out.push({ fam, simple: clip(simple, 110), step, at: i });
    });
  }
  return out;
}

/** The form of a family's command the agent used most (ties: the shortest, then alphabetical). */
function typical(all: readonly Run[], fam: string): string {
  const counts = new Map<string, number>();
  for (const r of all) if (r.fam === fam) counts.set(r.simple, (counts.get(r.simple) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? fam;
}

function isCommit(fam: string): boolean {
  return /^(?:git|jj|hg|svn) commit$/.test(fam);
}

/** A script written for the moment and fed through a heredoc (`python3 - <<EOF … EOF`): an edit
 * or a look made with code, no step of a way of working. */
const INLINE_SCRIPT = /<<-?\s*['"]?\w+['"]?/;
/** Code given to an interpreter on its command line (`python3 -c "import openpyxl …"`, `node -e
 * "…"`): written for the moment like a heredoc's; the lines around it recur, the work does not. */
function runsInlineCode(simple: string): boolean {
  const t = tokens(simple);
  return t.length > 1 && INTERPRETER.test(programName(t[0]!)) && t.slice(1).some((a) => /^-(?:c|e|-eval|p|-print)$/.test(a));
}

/** Whether a user's message holds the run's simple command as typed: the request spelled it out. */
function spelledOut(view: SessionView, r: Run): boolean {
  const typed = r.step.simple[r.at]!;
  return view.prompts.some((p) => p.text.includes(typed));
}

/** Checks run since the previous commit, before a commit that went through. */
/** Output that says a hook ran (`Pre-commit validation failed`, husky, lefthook). */
const HOOK_OUTPUT = /\bhooks?\b|pre-?commit|husky|lefthook|lint-staged/i;
/** Bracketed tags that are log levels or progress, not the name of a check. */
const LOG_TAG = /^(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL|NOTICE|STARTED|COMPLETED|FAILED|SKIPPED|SUCCESS|PASS(?:ED)?|OK|DONE|RUNNING)$/;

function checksBeforeCommit(all: readonly Run[], aider: boolean): Draft | undefined {
  let windowStart = 0;
  for (let i = 0; i < all.length; i++) {
    const r = all[i]!;
    if (!isCommit(r.fam)) continue;
    // the attempts of this commit are the window since the last commit that went through
    const windowOpen = windowStart;
    if (r.step.failed) continue;
    const checks: string[] = [];
    for (const prev of all.slice(windowStart, i)) {
      if (isCheck(prev.fam) && !isReadOnly(prev.fam) && passed(prev.step, aider) && !checks.includes(prev.fam)) checks.push(prev.fam);
    }
    windowStart = i + 1;
    if (checks.length < 2) continue;
    const examples = checks.slice(0, 5).map((f) => code(recipeForm(typical(all, f))));
    // why the checks come first: a hook on the commit (the failing command itself) that ran its
    // own checks and rejected an attempt of this window; log levels and progress tags are no checks
    const hook = [...new Set(all.slice(windowOpen, i).filter((x) => x.fam === r.fam && x.step.failed && actionFamilyOf(x.step.families) === r.fam && HOOK_OUTPUT.test(x.step.output)).flatMap((x) => hookSections(x.step.output)).filter((sec) => !LOG_TAG.test(sec)))];
    const why = hook.length > 0 ? ` A hook on ${code(r.fam)} runs ${hook.join(', ')} and rejected the commit while they failed.` : '';
    return {
      category: 'pattern',
      title: `Checks before ${r.fam}`,
      text: `Before ${code(r.fam)}: run ${examples.join(', then ')}; the commit went through once they passed.${why}`,
      confidence: CONFIDENCE.verified,
      event: r.step.call.index,
      tags: [...checks.flatMap((f) => f.split(' ')), 'commit'],
      quotes: examples,
      rule: 'command-pattern',
      score: 8,
    };
  }
  return undefined;
}

/** A check piped into another command (`pnpm lint 2>&1 | head`) exits with the last command's
 * status: its own failure shows only in its output ("ERR_PNPM_… Command "lint" not found"). */
function pipedFailure(s: Step): boolean {
  const line = callCommandLine(s);
  return line !== undefined && /[^|]\|[^|]/.test(line) && looksFailed(s.output, line);
}

/** A check seen to pass: no failure hidden by a pipe, and an output that shows the run (`npm run
 * build` prints at least its banner). */
function passed(s: Step, aider: boolean): boolean {
  return seenToSucceed(s) && !pipedFailure(s) && (!aider || showsOutput(s.output));
}

/** aider's notes on a run instead of its output (the history keeps only how many lines it added). */
const AIDER_RUN_NOTE = /^(?:Added \d+ lines? of output to the chat\.|You can use \/undo to undo and discard each aider commit\.)$/;

/** Whether an aider run shows something of its output: aider's history records a command's output
 * only when the user adds it to the chat, else nothing or its count of lines, which shows nothing
 * passing (elsewhere an empty output is a quiet success: `mix format`). */
function showsOutput(output: string): boolean {
  return output.split('\n').some((l) => l.trim() !== '' && !AIDER_RUN_NOTE.test(l.trim()));
}

/** Distinct check commands that passed after the last file edit: the session's verification recipe. */
function finalVerification(view: SessionView, all: readonly Run[]): Draft | undefined {
  let lastEdit: Step | undefined;
  for (let i = view.steps.length - 1; i >= 0 && !lastEdit; i--) {
    const s = view.steps[i]!;
    if (!s.failed && isEdit(s)) lastEdit = s;
  }
  if (!lastEdit) return undefined;
  const cmds: Run[] = [];
  const forms: string[] = [];
  for (const r of all) {
    if (r.step.pos <= lastEdit.pos || !passed(r.step, view.session.format === 'aider') || !isCheck(r.fam) || isReadOnly(r.fam)) continue;
    const form = recipeForm(r.simple);
    if (forms.includes(form)) continue;
    forms.push(form);
    cmds.push(r);
  }
  // `npm run lint`, then `npm run build`: the conventional scripts, bare, are what anyone runs in
  // such a project unprompted; a recipe says more (a test file, a flag, a script of its own)
  if (cmds.length < 2 || forms.every((f) => CONVENTIONAL_CHECK.test(f))) return undefined;
  // a recipe the user's request (a subagent's brief) spelled out comes with that request again
  if (cmds.every((r) => spelledOut(view, r))) return undefined;
  const examples = forms.slice(0, 4).map((f) => code(f));
  return {
    category: 'pattern',
    title: `Verify changes with ${cmds[0]!.fam}`,
    // (that they passed is why they are the recipe, not part of it: reviewers read "all passed at
    // the end of the session" as narration of that one session)
    text: `After changing code, verify with ${examples.join(', then ')}.`,
    confidence: CONFIDENCE.verified,
    event: cmds[0]!.step.call.index,
    tags: [...new Set(cmds.flatMap((c) => c.fam.split(' ')))],
    quotes: examples,
    rule: 'command-pattern',
    score: 6,
  };
}

/** A conventional check run bare: a package manager's standard script, `make test`, `cargo
 * test`, `go test ./...`, `mix test`. */
const CONVENTIONAL_CHECK = /^(?:(?:npm|pnpm|yarn|bun)(?: run)? (?:test|build|lint|check)|(?:make|cargo|mix) (?:test|build|check|lint)|go (?:test|build|vet) \.\/\.\.\.)$/;

const ROUTINE = /^(?:git \w+|mix (?:compile|test|format)|npm (?:test|install|run build)|cargo (?:build|test|check)|go (?:build|test)|make)$/;

/** Whether `fams[i..i+n)` holds at least three distinct families. */
function distinctAtLeast3(fams: readonly string[], i: number, n: number): boolean {
  let distinct = 0;
  for (let j = i; j < i + n; j++) {
    let seen = false;
    for (let k = i; k < j && !seen; k++) if (fams[k] === fams[j]) seen = true;
    if (!seen && ++distinct >= 3) return true;
  }
  return false;
}

/**
 * A key for the window of `n` families from `i` that is equal for two windows exactly when their
 * families joined with ' → ' are: each family's number in base 1024 (exact for five families,
 * 50 bits) instead of a joined string per window. A session with more than 1024 families, or a
 * family holding '→' (where two different windows could join to one string), keeps the strings.
 */
export function windowKeys(fams: readonly string[]): (i: number, n: number) => number | string {
  const ids = new Map<string, number>();
  // a typed array: one hidden class whatever the session (see recurringSequences)
  const code = new Uint32Array(fams.length);
  for (let i = 0; i < fams.length; i++) {
    const f = fams[i]!;
    let id = ids.get(f);
    if (id === undefined) ids.set(f, (id = ids.size));
    code[i] = id;
  }
  if (ids.size > 1024 || fams.some((f) => f.includes('→'))) return (i, n) => fams.slice(i, i + n).join(' → ');
  return (i, n) => {
    let key = 0;
    for (let j = i; j < i + n; j++) key = key * 1024 + code[j]!;
    return key;
  };
}

/** Sequences of 3 to 5 command families that occur at least twice. */
function recurringSequences(all: readonly Run[], view: SessionView): Draft[] {
  const seq: Run[] = [];
  for (const r of all) {
    if (isReadOnly(r.fam) || INLINE_SCRIPT.test(r.simple)) continue;
    if (seq.length > 0 && seq[seq.length - 1]!.fam === r.fam) continue;
    seq.push(r);
  }
  // Two windows of three need six families. Fewer used to reach the loops below with empty
  // arrays, whose hidden class differs from a filled one's: each such session threw away this
  // function's optimized code (V8 "wrong map" deopts; 6 compiles of it in a harvest of the 100 MB
  // corpus), and the flags are a typed array for the same reason.
  if (seq.length < 6) return [];
  const fams: string[] = [];
  const routineAt = new Uint8Array(seq.length);
  for (let i = 0; i < seq.length; i++) {
    const f = seq[i]!.fam;
    fams.push(f);
    routineAt[i] = ROUTINE.test(f) || isCheck(f) ? 1 : 0;
  }
  const found: { key: string; at: number[]; n: number }[] = [];
  const windowKey = windowKeys(fams);
  for (let n = 5; n >= 3; n--) {
    const at = new Map<number | string, number[]>();
    for (let i = 0; i + n <= fams.length; i++) {
      if (!distinctAtLeast3(fams, i, n)) continue;
      let allRoutine = true;
      for (let j = i; j < i + n && allRoutine; j++) if (!routineAt[j]) allRoutine = false;
      if (allRoutine) continue;
      const key = windowKey(i, n);
      const list = at.get(key) ?? [];
      if (list.length === 0 || i >= list[list.length - 1]! + n) list.push(i);
      at.set(key, list);
    }
    for (const list of at.values()) {
      if (list.length < 2) continue;
      const key = fams.slice(list[0]!, list[0]! + n).join(' → ');
      if (found.some((f) => f.key.includes(key))) continue;
      found.push({ key, at: list, n });
    }
  }
  // Shifted windows of one cycle overlap; keep one sequence per stretch of the session.
  const chosen: typeof found = [];
  for (const f of found.sort((a, b) => b.n - a.n || b.at.length - a.at.length || (a.key < b.key ? -1 : 1))) {
    const overlaps = chosen.some((c) => c.at.some((i) => f.at.some((j) => j < i + c.n && i < j + f.n)));
    if (!overlaps) chosen.push(f);
    if (chosen.length >= 2) break;
  }
  // A sequence run again because the user says the problem is still there is a try that failed,
  // not a way of working.
  const flailing = (at: number[], n: number): boolean => {
    const from = seq[at[0]!]!.step.call.index;
    const to = seq[at[at.length - 1]! + n - 1]!.step.call.index;
    return view.prompts.some((p) => p.index > from && p.index < to && STILL_BROKEN.test(p.text));
  };
  // One command line run again (after it failed or was denied) is a retry, not a way of
  // working: a workflow is separate commands that recur.
  const oneLineRerun = (at: number[], n: number): boolean => {
    const lines = at.map((i) => (seq[i]!.step === seq[i + n - 1]!.step ? seq[i]!.step.command : undefined));
    return lines.every((l) => l !== undefined && l === lines[0]);
  };
  // A pattern is a sequence that worked: one whose runs ended in a failure, or where the
  // transcript shows nothing of the end, is a try repeated until something else was found. (A
  // line that failed after the sequence's last command, `git add x && git commit` refused by a
  // hook, failed in what came after it.)
  const ended = (r: Run): boolean => (seenToSucceed(r.step) && !showsNothing(r.step)) || (r.step.result !== undefined && r.at < r.step.simple.length - 1);
  return chosen
    .filter(({ at, n }) => !flailing(at, n) && !oneLineRerun(at, n))
    .flatMap(({ at, n }) => {
      const example = seq.slice(at[0]!, at[0]! + n).map((r, k) => ({ ...r, simple: generalized(at.map((i) => seq[i + k]!.simple)) }));
      // Routine commands at the ends of a workflow are not part of it.
      const routine = (r: Run): boolean => ROUTINE.test(r.fam) || isCheck(r.fam);
      let last = n - 1;
      while (example.length > 3 && routine(example[example.length - 1]!)) {
        example.pop();
        last--;
      }
      while (example.length > 3 && routine(example[0]!)) example.shift();
      // (and ran clean once at least: one that failed on its way every time is a loop of tries)
      if (!at.every((i) => ended(seq[i + last]!)) || !at.some((i) => seq.slice(i, i + last + 1).every(ended))) return [];
      const shown = example.map((r) => code(r.simple));
      return [
        {
          category: 'pattern' as const,
          title: `Recurring sequence: ${example.map((r) => r.fam).join(' → ')}`,
          text: `Recurring command sequence (${at.length} times): ${shown.join(' → ')}.`,
          confidence: CONFIDENCE.implied,
          event: example[0]!.step.call.index,
          tags: [...new Set(example.flatMap((r) => r.fam.split(' ')))],
          quotes: shown,
          rule: 'command-pattern',
          score: 4 + n,
        },
      ];
    });
}

/** A run whose end the transcript does not show: no exit status, and no output but aider's note
 * that it added the output to the chat (aider's history leaves the lines out). Nothing says it
 * worked. */
function showsNothing(s: Step): boolean {
  if (s.exitCode !== undefined || s.failed) return false;
  const [first, ...rest] = s.output.split('\n').map((l) => l.trim());
  // (aider's own `^C` lines after it are its prompt's, not the run's)
  return ADDED_OUTPUT.test(first!) && rest.every((l) => l === '' || /^\^C\b/.test(l));
}

/** One step of a workflow as its runs have in common: what changed from run to run (a task id,
 * the files staged) is this run's detail, not the way of working (`bd show <id>`, `git add …`). */
export function generalized(variants: readonly string[]): string {
  const first = variants[0]!;
  if (variants.every((v) => v === first)) return withoutFileList(first);
  const split = variants.map((v) => tokens(v));
  const n = split[0]!.length;
  if (split.every((t) => t.length === n)) {
    return split[0]!.map((t, i) => (split.every((o) => o[i] === t) ? t : /\d/.test(t) ? '<id>' : '<…>')).join(' ');
  }
  // different lengths: keep the words they all start with
  const common: string[] = [];
  for (let i = 0; split.every((t) => t[i] !== undefined && t[i] === split[0]![i]); i++) common.push(split[0]![i]!);
  return `${common.join(' ')} …`;
}

const PATH_ARG = /^[^-].*(?:\/|\.[a-z]{1,5}$)/i;

/** A program that runs the script named after it (`python3 render.py`). */
const INTERPRETER = /^(?:.*\/)?(?:python3?|node|ruby|perl|php|bash|sh|deno|bun|elixir|tsx|ts-node)$/;

/** A file of tests by the usual naming (`x.test.ts`, `x_spec.py`, `test_x.py`, `x_test.exs`). */
const TEST_FILE = /(?:^|\/)(?:test_[\w-]+\.py|[\w.-]+[._-](?:test|spec)\.[a-z]{1,5}|[\w-]+_(?:test|spec)\.[a-z]{1,5})$/i;
/** Flags that pick tests by name (`-t "Compaction Config"`, `-k slow`, `--grep`, go's `-run`). */
const TEST_FILTER = /^(?:-t|-k|-run|--grep|--testNamePattern|--test-name-pattern|--only)$/;
/** The project's own configuration (`Cargo.toml`, `tsconfig.build.json`, `vite.config.ts`): the
 * same for every task. */
const PROJECT_FILE = /(?:^|\/)(?:cargo\.toml|package\.json|tsconfig[\w.-]*\.json|pyproject\.toml|setup\.(?:cfg|py)|go\.mod|mix\.exs|pom\.xml|build\.gradle(?:\.kts)?|[\w-]*compose[\w.-]*\.ya?ml|[\w.-]+\.config\.[a-z]+|\.?[\w-]*rc(?:\.[a-z]+)?|[\w-]+\.(?:ini|toml|cfg))$/i;
/** A redirection of output (`> /dev/null`, `2> warn.txt`, `2>/dev/null`): how the agent read the
 * output this time. */
const REDIRECT = /^(?:\d?>>?|&>)(.*)$/;

/**
 * A command of a recipe in the form that holds for the next task: the files it names this time
 * (a test file, the log a script was given) are placeholders (`<test file>`, `<file>.jsonl`),
 * a test picked by name is `"<test name>"`, and redirections of its output are left out. The
 * program, a script run by an interpreter, subcommands, flags and directories stay.
 */
export function recipeForm(simple: string): string {
  const parts = [...simple.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((m) => m[0]);
  const out: string[] = [];
  let seenProgram = false;
  let scriptNext = false;
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i]!;
    const bare = raw.replace(/^(["'])(.*)\1$/, '$2');
    const redirect = REDIRECT.exec(raw);
    if (redirect && raw !== '&') {
      if (redirect[1] === '' && !raw.endsWith('&1')) i++;
      continue;
    }
    if (!seenProgram) {
      out.push(raw);
      // environment settings and wrappers come before the program
      if (!/^(?:\$env:)?\w+=/.test(raw) && !['sudo', 'env', 'time', 'nohup', 'exec', '&'].includes(raw)) {
        seenProgram = true;
        scriptNext = INTERPRETER.test(bare);
      }
      continue;
    }
    if (scriptNext && !bare.startsWith('-')) {
      out.push(raw);
      scriptNext = false;
      continue;
    }
    const filter = /^(--[\w-]+)=(.*)$/.exec(bare);
    if (filter && TEST_FILTER.test(filter[1]!)) {
      out.push(`${filter[1]}="<test name>"`);
      continue;
    }
    if (TEST_FILTER.test(bare) && parts[i + 1] !== undefined) {
      out.push(raw, '"<test name>"');
      i++;
      continue;
    }
    if (!bare.includes('://') && PATH_ARG.test(bare) && /\.[a-z]{1,5}$/i.test(bare) && !PROJECT_FILE.test(bare)) {
      out.push(TEST_FILE.test(bare) ? '<test file>' : `<file>${/\.[a-z]{1,5}$/i.exec(bare)![0]}`);
      continue;
    }
    out.push(raw);
  }
  return out.join(' ');
}

/** Three or more paths in one command (`git add a.ex b.ex c.js`) are the files of this task. */
function withoutFileList(command: string): string {
  const t = tokens(command);
  const paths = t.filter((x, i) => i > 0 && PATH_ARG.test(x));
  if (paths.length < 3) return command;
  const kept = t.filter((x, i) => i === 0 || !PATH_ARG.test(x));
  return `${kept.join(' ')} <files>`;
}

const SCRIPT = /\.(?:py|js|mjs|cjs|ts|rb|sh|pl|php|exs)$/;
/** A heredoc as a shortened command shows it (`<<EOF … EOF`): its lines left out. */
const FED_BY_HEREDOC = /<<-?\S* … \S+/;

/** The folder every run went into first (`cd /srv/app/insight && python train.py`), by its last
 * name (the path before it is this machine's), when all runs name the same one. */
function sharedFolder(list: readonly Run[]): string | undefined {
  const folders = list.map((r) => {
    const at = r.step.simple.indexOf(r.simple);
    const before = at > 0 ? tokens(r.step.simple[at - 1]!) : [];
    return before[0] === 'cd' && before.length === 2 ? before[1]!.replace(/^["']|["']$/g, '').replace(/[\\/]+$/, '').split(/[\\/]/).pop() : undefined;
  });
  const first = folders[0];
  return first && first !== '..' && first !== '~' && folders.every((f) => f === first) ? first : undefined;
}

/** How the project's own scripts are run, when they are run successfully at least three times. */
function scriptInvocations(all: readonly Run[], view: SessionView): Draft[] {
  const byScript = new Map<string, Run[]>();
  for (const r of all) {
    if (r.step.failed) continue;
    // The script is the program itself (./x.py) or the first argument of an interpreter (python3 x.py).
    const t = tokens(r.simple);
    const first = t[0] ?? '';
    const arg = t.slice(1).find((a) => !a.startsWith('-'));
    const script = (SCRIPT.test(first) ? first : INTERPRETER.test(first) && arg && SCRIPT.test(arg) ? arg : undefined)?.replace(/^.*\//, '');
    if (!script || script.startsWith('-')) continue;
    byScript.set(script, [...(byScript.get(script) ?? []), r]);
  }
  const drafts: Draft[] = [];
  for (const [script, list] of [...byScript.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (list.length < 3) continue;
    // a command line the user's request spelled out (a prompt file that says "run `.specify/…/x.sh
    // --json` from repo root") comes with that request next time too: the item would repeat it
    if (list.some((r) => spelledOut(view, r))) continue;
    // one example per set of flags, in the form that holds for the next run (the files it was
    // given and where its output went this time are that run's)
    const shapes = new Map<string, string>();
    for (const r of list) {
      const flags = tokens(r.simple).filter((x) => /^--?[a-zA-Z]/.test(x)).sort().join(' ');
      if (!shapes.has(flags)) shapes.set(flags, recipeForm(r.simple));
    }
    // (a run fed its answers by a heredoc, `<<EOF … EOF`, ran on this session's input, which the
    // item cannot show: no way to run the script)
    const forms = [...new Set(shapes.values())].filter((f) => !FED_BY_HEREDOC.test(f));
    if (forms.length === 0) continue;
    // `python train.py` and nothing more is what anyone tries first: worth an item only for the
    // folder every run went into first (`cd insight && python train.py`), when there was one
    const bare = forms.every((f) => tokens(f).length <= 2);
    const folder = bare ? sharedFolder(list) : undefined;
    if (bare && folder === undefined) continue;
    const examples = forms.slice(0, 3).map((s) => code(s));
    drafts.push({
      category: 'fact',
      title: `How ${script} is run`,
      text: folder ? `${code(script)} is run from its folder ${code(`${folder}/`)}: ${code(`cd ${folder} && ${forms[0]}`)}.` : `${code(script)} is run as ${examples.join('; also ')}.`,
      confidence: CONFIDENCE.verified,
      event: list[0]!.step.call.index,
      tags: [script, list[0]!.fam.split(' ')[0]!],
      quotes: examples,
      rule: 'command-pattern',
      score: 6,
    });
  }
  return drafts;
}

const BY_HAND_LOOP = 8;

/** Parts of a line that only print a note or wait (`&& echo "Done"`, `; sleep 2`): no step of a routine. */
const DECORATION = new Set(['echo', 'printf', 'sleep', 'true', ':']);

/** "python3 && rg" → "`python3`, then `rg`": the programs of a routine in the order they ran. */
function routineText(key: string): string {
  const parts = key.split(' && ').map((f) => code(f));
  return `${parts.slice(0, -1).join(', ')}, then ${parts.at(-1)},`;
}

/** git's everyday steps: a line of only these (`git add -A && git commit -m …`) is how anyone
 * uses git, nothing of this repository. */
const EVERYDAY_GIT = /^git (?:add|commit|push|pull|fetch|status|checkout|switch|stash|log|diff|branch|merge|rebase)$/;

/** Compound command lines of the same shape run at least three times (e.g. regenerate, then grep). */
function recurringPipelines(view: SessionView): Draft[] {
  const byShape = new Map<string, Step[]>();
  for (const s of view.steps) {
    if (!s.command || s.failed || s.rejected || s.simple.some((c) => INLINE_SCRIPT.test(c) || runsInlineCode(c))) continue;
    const fams = s.families.filter((f) => f && f !== 'cd' && !DECORATION.has(f));
    if (fams.length < 2 || fams.every((f) => isReadOnly(f))) continue;
    if (fams.every((f) => EVERYDAY_GIT.test(f))) continue;
    const key = fams.join(' && ');
    byShape.set(key, [...(byShape.get(key) ?? []), s]);
  }
  const drafts: Draft[] = [];
  for (const [key, list] of [...byShape.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
    if (list.length < 3) continue;
    // eight and more runs with different arguments are a loop done by hand (one query per
    // book): the lesson is to batch them, not to repeat the line
    // (a line the transcript cut short with '…' may hide its arguments: it counts as different)
    if (list.length >= BY_HAND_LOOP && new Set(list.map((s) => (s.command!.endsWith('…') ? s.pos : s.command))).size > 1) continue;
    const last = list[list.length - 1]!;
    drafts.push({
      category: 'pattern',
      title: `Recurring command line: ${clip(key, 60)}`,
      // (the routine recurred, its arguments may not have: the line shown is one run of it)
      text: `${routineText(key)} ran as one command line ${list.length} times${new Set(list.map((x) => x.command)).size > 1 ? ', its arguments changing' : ''}; the last: ${code(clip(last.command!, 160))}.`,
      confidence: CONFIDENCE.implied,
      event: last.call.index,
      tags: key.split(/ && | /),
      quotes: [clip(last.command!, 160)],
      rule: 'command-pattern',
      score: 5,
    });
    if (drafts.length >= 1) break;
  }
  return drafts;
}

export function commandPatternDrafts(view: SessionView): Draft[] {
  const all = runs(view);
  const drafts: Draft[] = [];
  const before = checksBeforeCommit(all, view.session.format === 'aider');
  if (before) drafts.push(before);
  const verify = finalVerification(view, all);
  // The final verification usually repeats the pre-commit checks; say it once.
  if (verify && !(before && verify.tags!.every((t) => before.tags!.includes(t)))) drafts.push(verify);
  drafts.push(...recurringSequences(all, view), ...scriptInvocations(all, view), ...recurringPipelines(view));
  return drafts;
}

export const commandPatterns: RuleExtractor = ruleExtractor('command-pattern', commandPatternDrafts);
