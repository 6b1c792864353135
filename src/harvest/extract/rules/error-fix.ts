/**
 * Error → cause → fix: a command that failed, the agent's explanation in the text that follows,
 * and the later command of the same family that succeeded. One pitfall per family and error
 * signature; verified (0.9) when the success is seen, stated (0.7) when only explained.
 * Failures the user asked for on purpose, intended test failures (TDD "red"), tool quirks and
 * plain retries that just worked are not pitfalls.
 */
import type { UserEvent } from '../../../sessions/model.js';
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { commandFamilies, family, isReadOnly, mainCommand, programName, shownCommand, tokens } from '../commands.js';
import { NAMES_ERRORS, errorCore, errorLine, explain, namesWhatFailed, repeatsOutput, statesError } from '../diagnosis.js';
import { STILL_BROKEN, clip, clipSentences, code, errorSignature, hookSections, oneLine, sentence, sentences, words } from '../text.js';
import { callCommandLine, editedFiles, eventsBetween, isEdit, promptBefore, seenToSucceed, type SessionView, type Step } from '../view.js';
import { smallChange } from '../edit-change.js';
import { strayMissingCommand } from './tool-quirks.js';
import { claimedElsewhere } from './claimed-failures.js';
import { perObject } from '../per-object.js';
import { emptyList } from '../../../core/elements-kind.js';

/** Family of the part of a compound command that does the work (`git add x && git commit` → git commit). */
export function actionFamily(command: string): string {
  return actionFamilyOf(commandFamilies(command));
}

/** actionFamily from the families of a command line's simple commands (a Step's `families`). */
export function actionFamilyOf(families: readonly string[]): string {
  const fams = families.filter((f) => f && f !== 'cd');
  const acting = fams.filter((f) => !isReadOnly(f));
  return acting[acting.length - 1] ?? fams[0] ?? '';
}

/** The family of the command line's program that the error line names as its speaker (`awk: …`
 * in `echo h > f && ss | awk …`): the title says whose error it is, where the working part of the
 * line (the write) is another program's. */
function namedFamily(s: Step, err: string): string | undefined {
  const speaker = /^([\w.+-]+):/.exec(err)?.[1];
  if (speaker === undefined) return undefined;
  // (a pipeline's later programs are no family of the line: `| awk …` is found among its words)
  return s.families.find((f) => f.split(' ')[0] === speaker) ?? (tokens(s.command ?? '').includes(speaker) ? speaker : undefined);
}

/** Flags given to the commands of one family within a step's command line. */
function flagsOf(step: Step, fam: string): Set<string> {
  return new Set(
    step.simple
      .filter((_, i) => step.families[i] === fam)
      .flatMap((c) => tokens(c).filter((t) => /^--?[a-zA-Z]/.test(t))),
  );
}

/** A missing input path: "not found" only counts when it is about a file or directory. */
const PATH_SLIP = /no such file|(?:file|path|directory|folder|\.\w{1,5}['"`]?|\/[\w.-]+['"`]?)\s*(?:was )?not found|does not exist|cannot find (?:the )?(?:file|path)|ENOENT|is a directory/i;

/** An error in the program text the agent wrote on the command line: gawk's `awk: cmd. line:1:`,
 * GNU sed's `sed: -e expression #1, char 9:`, a syntax or name error in `python -c` (`File
 * "<string>"`) or `node -e` (`[eval]:1`). That script was written for the moment and its slip
 * is the agent's, as a mistyped path is: the next session writes another script. (A module such a
 * script could not import is the machine's, and stays an error of its own.) */
const INLINE_CODE_SLIP = /^awk: cmd\. line:\d+:|^sed: -e expression #\d+, char \d+:/m;
const INLINE_SCRIPT = /^\s*File "<string>", line \d+|^\[eval\]:\d+/m;
const SCRIPT_SLIP = /^(?:SyntaxError|IndentationError|NameError|ReferenceError|TypeError|AttributeError|KeyError|IndexError|ValueError)\b/m;

/** A target the agent named that is already there: its `git clone` into a folder that is not
 * empty, its `mkdir` of one that exists, its `git checkout -b` of a branch that exists. The state
 * of the disk or the repository at that moment, a slip of this task as a mistyped input path is
 * (a tool that clones into a folder of its own and finds one left over is that tool's pitfall). */
const TARGET_EXISTS = /destination path '[^']*' already exists and is not an empty directory|cannot create directory '[^']*': File exists|a branch named '[^']*' already exists|tag '[^']*' already exists|remote [\w.-]+ already exists/i;
const NAMES_TARGET = /\b(?:git\s+clone|mkdir|git\s+(?:checkout\s+-[bB]|switch\s+-[cC]|branch|tag|remote\s+add|worktree\s+add))\b/;

/** The same slip told by PowerShell's error record, whose message may be translated: its id
 * (`PathNotFound,Microsoft.PowerShell.Commands.SetLocationCommand`) is not. */
const PS_PATH_SLIP = /FullyQualifiedErrorId\s*:\s*(?:PathNotFound|ItemNotFound|FileNotFound|DirectoryNotFound)\b/;

const INTENDED_FAILURE =
  /\b(?:expect(?:ed|ing)? (?:it |this |them )?to fail|should fail|(?:confirm|verify|see) (?:that )?(?:it|this|the test) fails|fail(?:s|ed)? for the (?:intended|right|expected) reason|as expected|red (?:check|phase|step|test)|\(red\))/i;

/** oneLine(prompt.text).toLowerCase(), kept per prompt: every failing command after a prompt is
 * looked for in it, and a prompt can be long (pasted logs). */
const loweredPrompt = perObject((prompt: UserEvent): string => oneLine(prompt.text).toLowerCase());

function requestedByUser(prompt: UserEvent | undefined, command: string): boolean {
  if (!prompt) return false;
  const cmd = oneLine(command).toLowerCase();
  if (cmd.length < 6 || !loweredPrompt(prompt).includes(cmd)) return false;
  // A command the user pasted together with its error is a failure to investigate, not a request to fail.
  const lines = prompt.text.split('\n');
  const at = lines.findIndex((l) => oneLine(l).toLowerCase().includes(cmd));
  return at < 0 || !lines.slice(at + 1).some((l) => REPORTED_ERROR.test(l));
}

function intended(view: SessionView, s: Step): boolean {
  const before = eventsBetween(view, s.call.index - 7, s.call.index - 1).filter((e) => e.kind === 'assistant' || e.kind === 'reasoning');
  const after = eventsBetween(view, s.outputEvent, s.outputEvent + 4).filter((e) => e.kind === 'assistant' || e.kind === 'reasoning');
  return [...before, ...after].some((e) => 'text' in e && INTENDED_FAILURE.test(e.text));
}

/** Program and leading subcommand words of a simple command (`minsky session start --task 8` → minsky session start). */
function subcommandPath(simple: string): string[] {
  const t = tokens(simple);
  const out = t.length > 0 ? [programName(t[0]!)] : [];
  for (const w of t.slice(1)) {
    if (out.length >= 4 || !/^[a-z][\w:-]*$/.test(w)) break;
    out.push(w);
  }
  return out;
}

/** Whether `later` runs the same subcommand as `failed` (`git push -u` for `git push origin x`, not `session list` for `session start`). */
function sameSubcommand(failed: Step, later: Step, fam: string): boolean {
  const a = failed.simple.filter((_, i) => failed.families[i] === fam).map(subcommandPath);
  const b = later.simple.filter((_, i) => later.families[i] === fam).map(subcommandPath);
  const prefix = (x: string[], y: string[]): boolean => x.every((w, i) => y[i] === w);
  return a.some((x) => b.some((y) => prefix(x, y) || prefix(y, x)));
}

/** Whether an earlier step's process was still running when a later call was made: never seen
 * to end, seen to end after it (Codex's exec_command_end), or polled for output after it. */
function stillGoing(earlier: Step, later: Step): boolean {
  if (earlier.running) return true;
  const ended = earlier.result?.endTime;
  if (ended !== undefined && later.call.time !== undefined && ended > later.call.time) return true;
  return earlier.result !== undefined && earlier.outputEvent !== earlier.result.index && earlier.outputEvent > later.call.index;
}

/** A server that could not listen: its port is taken (`EADDRINUSE`, uvicorn's `[Errno 98] …
 * address already in use`, streamlit's `Port 8501 is not available`, Docker's `port is already
 * allocated` and Docker Desktop's `Ports are not available: exposing port TCP …`). */
const PORT_TAKEN = /\bEADDRINUSE\b|address already in use|\bport \d+ is (?:not available|already in use)|port is already allocated|\bports are not available\b/i;

/** A loader's report of a shared library it could not find: macOS's dyld, glibc's ld.so, Windows'
 * Python (`DLL load failed while importing x`). */
const MISSING_LIBRARY = /Library not loaded: (?:@rpath\/|\S*\/)?([\w.+-]+\.dylib)|([\w.+-]+\.so(?:\.\d+)*): cannot open shared object file|DLL load failed while importing ([\w.]+)/;

/** An error line that says the command succeeded ("You've successfully authenticated"). */
const REPORTS_SUCCESS = /\b(?:successfully|succeeded)\b/i;
/** `|| true`, `|| :`, `|| echo …`, `|| exit 0`: the line's status is the fallback's. */
const MASKS_FAILURE = /\|\|\s*(?:true|:|echo|printf|exit\s+0)(?:\s|;|$)/;

/** The success that fixed a failure: same family, preferring one that adds a flag the failure lacked,
 * and none after `next`, a run of the same command that failed with another error. */
function fixFor(view: SessionView, failed: Step, fam: string, next: Step | undefined): Step | undefined {
  // Later successes of the same family and subcommand, in order; the first is the fallback.
  // A quick retry that adds a flag (`git add -f`, `git push -u`) is the fix, even after a workaround.
  // Scanning stops once past the near window with the fallback found.
  let first: Step | undefined;
  let flags: Set<string> | undefined;
  const steps = view.steps;
  for (let i = failed.pos + 1; i < steps.length; i++) {
    const s = steps[i]!;
    // the command failed again with another error: this one was got past, not fixed by the success
    if (s === next) return first;
    const near = s.pos - failed.pos <= 6;
    if (!near && first) break;
    // (a run the transcript shows no end of fixed nothing it can show)
    if (!seenToSucceed(s) || s.command === undefined || !s.families.includes(fam) || !sameSubcommand(failed, s, fam) || !sameDirectory(failed, s) || !sameInlineScript(failed, s)) continue;
    // a run whose failure the line itself swallows (`… || echo "may have failed"`, `|| true`)
    // ends well whatever happened: it shows no fix
    if (MASKS_FAILURE.test(s.command)) continue;
    if (leftItsPath(failed, s, fam)) continue;
    first ??= s;
    if (!near) break;
    flags ??= flagsOf(failed, fam);
    const f0 = flags;
    if ([...flagsOf(s, fam)].some((f) => !f0.has(f))) return s;
  }
  return first;
}

/** Scripts given inline to an interpreter (`python -c "…"`, `node -e '…'`), as written. */
const INLINE_SCRIPT_ARG = /\b(?:python[\d.]*|node|ruby|perl)\s+-[ce]\s*(["'])([\s\S]*?)\1/g;

function inlineScripts(command: string | undefined): string[] {
  if (command === undefined || !/ -[ce]/.test(command)) return [];
  return [...command.matchAll(INLINE_SCRIPT_ARG)].map((m) => m[2]!.replace(/\s+/g, ' ').trim());
}

/** A script given inline is the program that ran: the same interpreter running another script
 * is another command (a failed health check is not fixed by a database query that worked). */
function sameInlineScript(failed: Step, later: Step): boolean {
  const scripts = inlineScripts(failed.call.command);
  if (scripts.length === 0) return true;
  const laterScripts = new Set(inlineScripts(later.call.command));
  return scripts.some((x) => laterScripts.has(x));
}

/** Whether a later run of the command names none of the paths the failed run was given
 * (`chezmoi init --source ~/dotfiles`, then `chezmoi init --apply=false`) and no path in their
 * place: it ran on the default target, another job than the failed one, so it fixed nothing. */
function leftItsPath(failed: Step, later: Step, fam: string): boolean {
  const operands = (x: Step): string[] => x.simple.filter((_, i) => x.families[i] === fam).flatMap((c) => tokens(c).slice(1).filter((t) => !t.startsWith('-')));
  const isPath = (t: string): boolean => /^[~.]?\//.test(t) || /^~$|^\.\.?$/.test(t) || /\/[\w.-]/.test(t);
  const paths = operands(failed).filter(isPath);
  return paths.length > 0 && !operands(later).some(isPath);
}

/** The next run of the same command (family, subcommand, folder) that failed with another error:
 * the agent's words and steps after it are about that error, not this one. */
function nextOtherFailure(view: SessionView, failed: Step, fam: string): Step | undefined {
  const sig = errorSignature(errorLine(failed.output, 150, false));
  for (const s of view.steps.slice(failed.pos + 1)) {
    if (s.rejected || s.command === undefined || !s.families.includes(fam) || !sameSubcommand(failed, s, fam) || !sameDirectory(failed, s)) continue;
    if (!s.failed) return undefined;
    if (errorSignature(errorLine(s.output, 150, false)) !== sig) return s;
  }
  return undefined;
}

/** The folder a command runs in, when it says so: the first `cd` of its line (`Set-Location x;`
 * too) or the call's `workdir`. */
function directoryOf(step: Step): string | undefined {
  const at = step.families.indexOf('cd');
  const dir = at >= 0 ? tokens(step.simple[at]!)[1] : undefined;
  const workdir = step.call.input.workdir;
  return (dir ?? (typeof workdir === 'string' ? workdir : undefined))?.replace(/[\\/]+$/, '');
}

/** `npm test` in the backend is not fixed by `npm test` in the frontend: when both commands say
 * where they run, it is the same place (one path may be the other's tail: `~/shop/web`, `web`). */
function sameDirectory(a: Step, b: Step): boolean {
  const da = directoryOf(a)?.split(/[\\/]+/);
  const db = directoryOf(b)?.split(/[\\/]+/);
  if (!da || !db) return true;
  const [short, long] = da.length <= db.length ? [da, db] : [db, da];
  return short.every((part, i) => long[long.length - short.length + i] === part);
}

/** Commands that only look for files or text, or print (`echo ---` between them), not `sed`, `jq`
 * or `git fetch`, which act on input. */
const LOOK_AROUND = new Set([
  'ls', 'cat', 'head', 'tail', 'grep', 'rg', 'ag', 'find', 'fd', 'tree', 'stat', 'file', 'which', 'type', 'test', '[', 'wc', 'readlink', 'realpath', 'echo', 'printf', 'pwd',
  // asking git about its history and state: "does not have any commits yet" is the answer
  'git log', 'git status', 'git show', 'git ls-files', 'git rev-parse',
]);
/** `git remote -v`, `git branch -a`: a listing, where `git remote add` or `git branch -D x` acts. */
const LISTS = new Set(['git remote', 'git branch']);
const LISTING_FLAGS = new Set(['-v', '-vv', '--verbose', '-a', '--all', '-r', '--remotes', '--list', '--show-current']);

/** Whether a simple command of a failed call only looks around (its failure answered "not there"). */
function looksAround(simple: string, fam: string): boolean {
  if (!fam || fam === 'cd' || LOOK_AROUND.has(fam)) return true;
  if (!LISTS.has(fam)) return false;
  const args = tokens(simple);
  const after = args.slice(args.indexOf(fam.slice(4)) + 1);
  return after.every((a) => LISTING_FLAGS.has(a) || /^\d*>/.test(a));
}

/** `2>/dev/null`, `2>&-`, `&>/dev/null`, and PowerShell's `2>$null`, `-ErrorAction
 * SilentlyContinue` (or `Ignore`, `-EA 0`): the command's error messages go nowhere. */
const DISCARDS_STDERR = /(?:\b2|&)>\s*(?:\/dev\/null\b|\$null\b)|\b2>&-|\s-(?:ErrorAction|EA)\s+(?:SilentlyContinue|Ignore|0)\b/i;

/** Our own CLI (a bootstrap, a harvest) is never a step of a fix. */
const OWN_TOOL = /^(?:npx\s+)?compound\b/;

/** The agent's own slip: the error is in a file the session itself wrote before the failure, and
 * editing that file again fixed it (an undefined name, an unused import it had just added). True
 * of this session's code, not of the repository or its tools. */
function ownSlip(view: SessionView, failed: Step, fix: Step, err: string): boolean {
  const inError = (f: string) => err.includes(f);
  const before = new Set(view.steps.slice(0, failed.pos).filter((s) => !s.failed && !s.rejected && isEdit(s)).flatMap((s) => editedFiles(s)).filter(inError));
  if (before.size === 0) return false;
  return view.steps.slice(failed.pos + 1, fix.pos).some((s) => !s.failed && !s.rejected && isEdit(s) && editedFiles(s).some((f) => before.has(f)));
}

/** A name the code uses but never defines or imports, or imports and never uses: in code the
 * session wrote, its slip (it forgot the import), fixed or not; nothing about the repository. */
const NAME_SLIP = /\bundefined name\b|\bis not defined\b|\bcannot find name\b|\bimported but unused\b|\bunused import\b|\bno-unused-vars\b|\bno-undef\b/i;

/** A name declared twice ("Duplicate identifier 'RedeemCode'", "Cannot redeclare block-scoped
 * variable", "has already been declared"): in code the session wrote, its slip, as a name it
 * forgot to define is. */
const DECLARED_TWICE = /\bduplicate (?:identifier|declaration|definition)\b|\bcannot redeclare\b|\bhas already been declared\b|\bredefinition of\b/i;

/** A sentence that reports what a tool printed ("the dialyzer says", "the traceback shows"). */
const READS_THE_TOOL = /\b(?:dialyzer|compiler|traceback|stack trace|linter|checker|type ?checker|tsc|mypy|test|warning)s?\s+(?:says|shows|reports|states|indicates|tells|complains)\b/i;

/** Code that does not parse ("SyntaxError: invalid syntax", flake8's `E999`, "Unexpected
 * token"): in a file the session had just written, a slip of that edit (a checker run on each
 * edit, aider's lint, reports it), not something about the project. */
const SYNTAX_SLIP = /\b(?:SyntaxError|IndentationError|TabError|E999|ParseError)\b|\bsyntax error\b|\bunexpected token\b/i;

/** Whether the session edited, before the failure, a file the error names. */
function wroteBefore(view: SessionView, failed: Step, err: string): boolean {
  return view.steps.slice(0, failed.pos).some((s) => !s.failed && !s.rejected && isEdit(s) && editedFiles(s).some((f) => err.includes(f)));
}

/** Where a compiler or checker locates an error: `src/a.ts(20,14)`, `src/a.ts:20:14`. */
const LOCATED = /([\w.@-]+\.[A-Za-z]\w{0,5})(?:\(\d+,\d+\)|:\d+:\d+)/g;

/** Whether every error the output locates is in a file the session itself edited before the
 * failure: code it had just written (a checker run after each edit reports on the whole project,
 * so the error line names no file). */
function onlyInOwnEdits(view: SessionView, failed: Step): boolean {
  const located = new Set([...failed.output.matchAll(LOCATED)].map((m) => m[1]!));
  if (located.size === 0) return false;
  const written = new Set(view.steps.slice(0, failed.pos).filter((s) => !s.failed && !s.rejected && isEdit(s)).flatMap((s) => editedFiles(s)));
  return [...located].every((f) => written.has(f));
}

/** What was done between a failure and its fix, as shown and as a count of steps. */
interface Between {
  /** Commands of other families and the files edited, in the order they were done. */
  shown: string[];
  /** Each command and each edited file. */
  steps: number;
  /** Nothing but edits. */
  onlyEdits: boolean;
}

/** What was done between a failure and the success of its command family. An edit of a file the
 * error names is the fix by itself: a command run beside it (starting the program, a commit)
 * changed nothing the error was about. */
function stepsBetween(view: SessionView, from: Step, to: Step, fam: string, err: string): Between {
  const edits = new Set<string>();
  const editSteps: Step[] = [];
  const cmds = new Map<string, string>();
  let cmdsBeforeFirstEdit = 0;
  for (const s of view.steps.slice(from.pos + 1, to.pos)) {
    if (s.failed || s.rejected) continue;
    if (isEdit(s)) {
      if (edits.size === 0) cmdsBeforeFirstEdit = cmds.size;
      for (const f of editedFiles(s)) edits.add(f);
      editSteps.push(s);
      continue;
    }
    if (!s.command) continue;
    s.simple.forEach((simple, i) => {
      const f = s.families[i]!;
      if (!f || f === fam || isReadOnly(f) || cmds.has(f) || OWN_TOOL.test(simple)) return;
      cmds.set(f, clip(simple, 60));
    });
  }
  const named = [...edits].filter((f) => err.includes(f));
  // pushed into a list of one elements kind whether empty or not (see emptyList)
  const out = emptyList<string>();
  if (named.length > 0) {
    out.push(`edited ${named.slice(0, 3).map((e) => code(e)).join(', ')}`);
    return { shown: out, steps: named.length, onlyEdits: true };
  }
  // in the order they were done, the edited files where the first edit came (a reviewer read
  // "`prisma generate`, edited `schema.prisma`" for an edit made before the generate as wrong)
  // (one edit of one line is told by its change: `_report.xls` → `_report.xlsx` is the fix, the
  // file's name alone is not; a reviewer asked what the edit did)
  const change = editSteps.length === 1 ? smallChange(editSteps[0]!) : undefined;
  const changed = change ? ` (${code(change.before)} → ${code(change.after)})` : '';
  const editedText = edits.size > 0 ? `edited ${[...edits].slice(0, 3).map((e) => code(e)).join(', ')}${changed}` : undefined;
  const shown = [...cmds.values()].slice(0, 4).map((c) => code(c));
  if (editedText !== undefined) shown.splice(Math.min(cmdsBeforeFirstEdit, shown.length), 0, editedText);
  for (const x of shown) out.push(x);
  return { shown: out, steps: cmds.size + edits.size, onlyEdits: cmds.size === 0 && edits.size > 0 };
}

/** Whether another command of the failed one's program failed between it and its fix. */
function failedOnTheWay(view: SessionView, failed: Step, fix: Step, fam: string): boolean {
  const prog = fam.split(' ')[0]!;
  return view.steps.slice(failed.pos + 1, fix.pos).some((x) => x.failed && x.command !== undefined && !x.families.includes(fam) && x.families.some((f) => f.split(' ')[0] === prog));
}

const NOTHING_BETWEEN: Between = { shown: [], steps: 0, onlyEdits: false };

/** "The issue is that X", "I see the issue - X": the agent telling how it found the cause. The
 * item states the cause (reviewers asked to drop the narration around it). */
const FOUND_CAUSE = /^(?:(?:i see|found|now i see)\s+)?the (?:issue|problem|root cause)(?: here)?(?: is that\s+|\s*[-—–:]\s+)/i;

/** "We're missing some UI components", "We're using 'delete' as a function name": the agent
 * telling the state of its checkout at that moment, which the session then changed; a cause says
 * how the code or the tool behaves. */
const OUR_STATE = /^(?:we|we're|we are|we've|we have|i'm|i am|i've|i have)\b/i;

function ownState<T extends { text: string }>(why: T | undefined): T | undefined {
  return why !== undefined && OUR_STATE.test(causeAlone(why.text).trimStart()) ? undefined : why;
}

function causeAlone(text: string): string {
  const m = FOUND_CAUSE.exec(text);
  if (!m || m[0].length >= text.length) return text;
  const rest = text.slice(m[0].length);
  return rest[0]!.toUpperCase() + rest.slice(1);
}

function fromToolFailures(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const byKey = new Map<string, Draft>();
  const sectionsByKey = new Map<string, Set<string>>();
  for (const s of view.steps) {
    // (a failure another rule tells whole gets no error item beside it: claimed-failures.ts)
    if (!s.failed || !s.command || claimedElsewhere(view, s)) continue;
    const fam = actionFamilyOf(s.families);
    if (!fam || /^apply_?patch$/.test(fam)) continue;
    // a look around (`ls a b`, `cat x`, `grep -r y`) that exits non-zero has answered "not
    // there": its output is the answer, not a failure with a fix
    if (s.families.every((f, i) => looksAround(s.simple[i]!, f))) continue;
    if (requestedByUser(promptBefore(view, s.call.index), s.command) || intended(view, s)) continue;
    const err = errorLine(s.output, 150);
    // A mistyped or missing input path is a slip of this task, not knowledge.
    if (!err || PATH_SLIP.test(err) || INLINE_CODE_SLIP.test(s.output) || (INLINE_SCRIPT.test(s.output) && SCRIPT_SLIP.test(s.output)) || (TARGET_EXISTS.test(err) && NAMES_TARGET.test(s.command)) || PS_PATH_SLIP.test(s.output) || strayMissingCommand(err, s.command)) continue;
    // an "error" that says the command succeeded ("You've successfully authenticated, but GitHub
    // does not provide shell access" from `ssh -T`) failed by its exit status alone: the program's
    // way to say something else, with nothing to fix
    if (REPORTS_SUCCESS.test(err)) continue;
    // a command that threw its complaints away (`du -sh /* 2>/dev/null`) and printed nothing that
    // says what went wrong failed by its exit status alone: what it printed is its data, no error
    if (DISCARDS_STDERR.test(callCommandLine(s) ?? '') && !statesError(s.output)) continue;
    const key = `${fam}|${errorSignature(errorLine(s.output, 150, false))}`;
    const secs = sectionsByKey.get(key) ?? new Set<string>();
    for (const sec of hookSections(s.output)) secs.add(sec);
    sectionsByKey.set(key, secs);
    if (byKey.has(key)) continue;
    // the session then edited the code that prints this error: what it said of the code is stale
    if (printedByEditedCode(view, s, err)) continue;

    // a run started while the agent's own earlier run of the same command was still going
    // collided with it (a lock or a port that run held): the lesson is to wait for it, no fix
    if (view.steps.some((x) => x.pos < s.pos && stillGoing(x, s) && x.families.includes(fam) && sameSubcommand(x, s, fam))) continue;
    // the same command failing again with another error ends what belongs to this one
    const other = nextOtherFailure(view, s, fam);
    // (an install whose "fix" found everything already there, pip's "Requirement already
    // satisfied" for every package, changed nothing: the failed run was not what was missing)
    const found = fixFor(view, s, fam, other);
    // (and a "fix" that also ran into the same error does not hold)
    const fix = found !== undefined && (installedNothing(found.output) || failsAgainLater(view, found, s)) ? undefined : found;
    if (fix && ownSlip(view, s, fix, err)) continue;
    if ((NAME_SLIP.test(err) && wroteBefore(view, s, err)) || ((NAME_SLIP.test(s.output) || DECLARED_TWICE.test(s.output) || SYNTAX_SLIP.test(s.output)) && onlyInOwnEdits(view, s))) continue;
    const between = fix ? stepsBetween(view, s, fix, fam, err) : NOTHING_BETWEEN;
    // the same command again (with or without the `cd` into the checkout) is a retry, not a fix
    // (so is the same command with more after it: `sudo nginx -t && sudo systemctl reload nginx`
    // after `sudo nginx -t` ran the failed check again, whatever changed in between)
    const plainRetry = fix !== undefined && (shownCommand(fix.command!) === shownCommand(s.command) || startsWithIt(fix, s)) && between.steps === 0;
    // many other steps between the failure and the success (each command and each edited file
    // counts): which of them fixed it cannot be told
    // and a command of the same tool that failed on the way (a `git pull` stopped by conflicts
    // before the `git push` went through) was part of it, which the item could not tell
    const blurred = between.steps > 2 || (fix !== undefined && failedOnTheWay(view, s, fix, fam));
    const windowEnd = Math.min(fix ? fix.call.index : s.outputEvent + 12, other ? other.call.index : Infinity);
    // a "Cause:" only where the text says why (because, due to, the problem is ...): the next
    // sentence of the agent is often about something else
    const after = eventsBetween(view, s.outputEvent, windowEnd);
    // (a cause that cannot be shown in whole sentences reads as cut off: as good as none)
    const said = ownState(shownWhole(explain(after, err, 4, true, false, true), CAUSE_CHARS));
    // a cause that repeats the failing output's own advice says nothing the next session will not read there
    // and one said after the agent ran other commands, naming nothing the failure shows, is about
    // what it went on to (its first words after the failure are about the failure)
    const movedOn = said !== undefined && after.some((e) => e.kind === 'tool_call' && e.index < said.event);
    const why = said !== undefined && (repeatsOutput(said.text, s.output) || (movedOn && !namesWhatFailed(said.text, s.output, s.command))) ? undefined : said;
    if (!why && (!fix || plainRetry || blurred)) continue;
    // a port already taken, and no run on another port that worked: a server still running from
    // before, the state of that moment (one on another port is a way round worth keeping)
    if (PORT_TAKEN.test(s.output) && (!fix || plainRetry || blurred)) continue;
    // "… but these shouldn't affect the app": the agent found the error harmless, a warning to ignore
    if (after.some((e) => e.kind === 'assistant' && HARMLESS.test(e.text))) continue;
    // "Fix: edited X.tsx, then the build succeeded" with no word on why: the changed file alone
    // is this task's repair, nothing a later session could apply
    if (!why && fix && between.onlyEdits) continue;

    const parts = [`${code(clip(shownCommand(s.command), 90))} fails with ${code(err)}.`];
    // the system's loader naming the shared library it could not find is the cause, in its own
    // words (`Library not loaded: @rpath/libomp.dylib`), surer than the agent's reading of it
    const missingLibrary = why ? undefined : MISSING_LIBRARY.exec(s.output);
    if (why) parts.push(`Cause: ${sentence(causeAlone(clipSentences(why.text, CAUSE_CHARS)))}`);
    else if (missingLibrary) parts.push(`Cause: the shared library ${code(missingLibrary[1] ?? missingLibrary[2] ?? missingLibrary[3]!)} is not installed (${code(clip(missingLibrary[0], 80))}).`);
    const fixed = fix !== undefined && !plainRetry && !blurred;
    // with no fix to bear it out, a cause from the agent's private reasoning is its first guess
    // (reviewers found each such cause guessed or beside the point), unless it reads back what
    // the tool itself said ("the dialyzer says … returns a 3-tuple")
    if (!fixed && why && after.find((e) => e.index === why.event)?.kind === 'reasoning' && !READS_THE_TOOL.test(why.text)) continue;
    // the tool's own message named the command that then fixed it ("use git push --set-upstream
    // origin x"): the next session reads the same message, and the item would repeat it
    if (fixed && between.steps === 0 && namesItsFix(s.output, s.command, fix.command!)) continue;
    // so did one that named the commands run before it worked ("Mac OSX users: Run `brew install
    // libomp`", then the same run again)
    if (fixed && between.steps > 0 && outputGivesSteps(s.output, between.shown)) continue;
    if (fixed) {
      const via = between.shown.length > 0 ? `${between.shown.join(', ')}, then ` : '';
      const change = flagChange(s.command, fix.command!);
      const flags = change && flagText(change);
      // (an added flag that overrides the check is said to, or the item reads as a fix to reach for)
      const overrides = change?.added.some((t) => OVERRIDES_CHECK.test(t)) ?? false;
      parts.push(
        flags
          ? `Fix: ${via}the same command ${flags} succeeded${overrides ? '; that flag overrides the check that stopped the first run, so use it only where overriding it is wanted' : ''}.`
          : `Fix: ${via}${code(clip(shownCommand(fix.command!), 90))} succeeded.`,
      );
    }
    const draft: Draft = {
      category: 'pitfall',
      title: `${namedFamily(s, err) ?? fam} fails: ${clip(errorCore(err), 60)}`,
      text: parts.join(' '),
      confidence: fixed ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: s.outputEvent,
      tags: [s.call.name, ...fam.split(' ')],
      quotes: [err, ...(fix ? [fix.command!] : [])],
      rule: 'error-fix',
      signature: errorSignature(err),
      score: (fixed ? 8 : 5) + (why ? 1 : 0),
    };
    byKey.set(key, draft);
    drafts.push(draft);
  }
  // Hooks and checkers that print sections: name them all, so the pitfall says what was checked.
  for (const [key, draft] of byKey) {
    const secs = [...(sectionsByKey.get(key) ?? [])];
    if (secs.length > 0) draft.text = draft.text.replace(/ fails with (`[^`]*`)\./, ` fails with $1 (${secs.join(', ')}).`);
  }
  return drafts;
}

/**
 * What a fix changed of the failed command when it is the same command with a few flags added or
 * taken away (`pip3 install --user x` then `pip3 install --user x --break-system-packages`),
 * as "with `--break-system-packages`": the change is the fix, and the whole command line, clipped
 * to fit, would hide it at its end. Undefined for any other change.
 */
export function changedFlags(failed: string, fix: string): string | undefined {
  const change = flagChange(failed, fix);
  return change && flagText(change);
}

function flagText(change: { added: string[]; removed: string[] }): string {
  const list = (ts: string[]): string => ts.map((t) => code(t)).join(' ');
  return [change.added.length > 0 ? `with ${list(change.added)}` : '', change.removed.length > 0 ? `without ${list(change.removed)}` : ''].filter(Boolean).join(' and ');
}

/** The flags (and environment settings) a fix added to the failed command and took from it, when
 * that is all it changed. */
function flagChange(failed: string, fix: string): { added: string[]; removed: string[] } | undefined {
  const before = wordsWithSettings(shownCommand(failed));
  const after = wordsWithSettings(shownCommand(fix));
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  const changed = [...added, ...removed];
  // a flag, or a setting the line gives the command's environment (`PORT=4001 mix phx.server`)
  if (changed.length === 0 || changed.length > 3 || !changed.every((t) => /^--?[A-Za-z]|^[A-Z_][A-Z0-9_]*=/.test(t))) return undefined;
  // everything else the same, in the same order
  const kept = (ts: string[], gone: string[]): string => ts.filter((t) => !gone.includes(t)).join(' ');
  return kept(before, removed) === kept(after, added) ? { added, removed } : undefined;
}

/** A flag that overrides the check a command failed (`--force`, `--no-verify`, `--legacy-peer-deps`):
 * a run with it gets past the failure without curing it. */
const OVERRIDES_CHECK = /^--(?:force\b[\w-]*|overwrite|no-verify|legacy-peer-deps|break-system-packages|skip-[\w-]+|ignore-[\w-]+)$/;

/** The words of a command line as `tokens` reads them, with the environment settings in front
 * kept (`tokens` drops them: they are no program). */
function wordsWithSettings(command: string): string[] {
  const settings = /^(?:[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|\S*)\s+)+/.exec(command)?.[0] ?? '';
  return [...[...settings.matchAll(/[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|\S*)/g)].map((m) => m[0]), ...tokens(command)];
}

/** Whether a later command line runs the failed one's commands first, in order (its `cd`s aside). */
function startsWithIt(later: Step, failed: Step): boolean {
  const a = ownCommands(failed);
  const b = ownCommands(later);
  return a.length > 0 && a.length <= b.length && a.every((c, i) => c === b[i]);
}

/** A step's simple commands without its `cd`s: what it ran, where it ran aside. */
const ownCommands = (x: Step): string[] => x.simple.filter((_, i) => x.families[i] !== 'cd').map((c) => c.trim());

/** A step's command line without its `cd`s (`cd app ; npm test` → `npm test`). */
const withoutCd = (x: Step): string => ownCommands(x).join(' ; ');

/** Whether the fix's command (its `cd` aside) also failed with the failure's own error after it
 * (before or after the run that worked): what failed and worked by turns is no fix to repeat. */
function failsAgainLater(view: SessionView, fix: Step, failed: Step): boolean {
  const command = withoutCd(fix);
  const sig = errorSignature(errorLine(failed.output, 150, false));
  return view.steps.some((x) => x.pos > failed.pos && x !== fix && x.failed && x.command !== undefined && withoutCd(x) === command && errorSignature(errorLine(x.output, 150, false)) === sig);
}

/** Output of an install that found every package already there (pip's lines, its notices aside). */
function installedNothing(output: string): boolean {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:\[notice\]|Defaulting to user installation\b|Looking in indexes:)/.test(l));
  return lines.length > 0 && lines.every((l) => /^Requirement already satisfied\b/.test(l));
}

/** The words an error opens with, before the value it names (`Extension zip not found` of
 * `Extension zip not found: dist/app.zip`): the text the code that prints it holds. */
function errorPhrase(err: string): string | undefined {
  const head = err.split(/:\s|\s[-—]\s/)[0]!.trim();
  return head.length >= 12 && head.split(/\s+/).length >= 3 && !/[\\/]/.test(head) ? head : undefined;
}

/** The text an edit wrote or replaced (a diff, old and new strings, a whole file). */
function editText(step: Step): string {
  return Object.values(step.call.input).filter((v): v is string => typeof v === 'string').join('\n');
}

/** Whether a later edit of the session holds the words the error opens with: it changed the code
 * that prints it (`echo "Extension zip not found: $ZIP"` in the release script it then rewrote),
 * so the failure and any cause said of it describe code that is no more. */
function printedByEditedCode(view: SessionView, failed: Step, err: string): boolean {
  const phrase = errorPhrase(err);
  if (phrase === undefined) return false;
  return sessionEdits(view).some((e) => e.pos > failed.pos && e.text.includes(phrase));
}

/** The session's edits that went in, with their text, found once per view. */
const sessionEdits = perObject((view: SessionView): { pos: number; text: string }[] => view.steps.filter((x) => !x.failed && !x.rejected && isEdit(x)).map((x) => ({ pos: x.pos, text: editText(x) })));

/** Whether a failure's output spells out the fix command, a command other than the one that
 * failed, as a line of its own or quoted whole (spacing aside): `    git push --set-upstream
 * origin x`, not the `git push` inside `'git push --help'`. */
function namesItsFix(output: string, failed: string, fix: string): boolean {
  const squeeze = (t: string): string => t.replace(/\s+/g, ' ').trim();
  const command = squeeze(shownCommand(fix));
  if (command.length < 8 || command === squeeze(shownCommand(failed))) return false;
  return output.split('\n').some((line) => {
    const l = squeeze(line).replace(/^[$>#]\s*/, '');
    return l === command || l.includes(`\`${command}\``) || l.includes(`'${command}'`) || l.includes(`"${command}"`);
  });
}

/** Whether every step shown between a failure and its fix is a command the failing output itself
 * gives (no edit among them). */
function outputGivesSteps(output: string, shown: readonly string[]): boolean {
  const squeeze = (t: string): string => t.replace(/\s+/g, ' ');
  const flat = squeeze(output);
  return shown.every((x) => {
    const command = /^`([^`]+)`$/.exec(x)?.[1];
    return command !== undefined && !command.endsWith('…') && flat.includes(squeeze(command));
  });
}

const STILL_OR_SAME = /\bstill\b|\bsame (?:error|problem|issue)\b|\bdidn['’]?t (?:work|help|fix)\b/i;

/** "… shouldn't affect the app", "none of the files I changed have Prettier problems": the agent
 * found the failure harmless, or outside its own work (a file it never touched). */
const HARMLESS = /\b(?:(?:should|does|did|will)(?:n'?t| not) (?:affect|matter|break|impact)|can (?:be )?(?:safely )?ignored?|(?:is|are) (?:harmless|benign|expected|safe to ignore)|not a (?:real )?problem|none of the files (?:i|we) (?:changed|touched|edited|modified)|(?:unrelated|not related) to (?:my|our|these|the) (?:changes?|edits?)|not (?:from|in) (?:these|my|our) (?:files|changes|edits))\b/i;
/** How long a cause may be: of a command's failure, of an error the user pasted. */
const CAUSE_CHARS = 170;
const PASTED_CAUSE_CHARS = 200;

/** The explanation, when its first sentence fits in `max` characters. */
function shownWhole<T extends { text: string }>(why: T | undefined, max: number): T | undefined {
  return why !== undefined && (sentences(why.text)[0] ?? why.text).length <= max ? why : undefined;
}

/** A compiler's or interpreter's own suggestion in the error line (TypeScript, Python, Rust). */
const NAMES_ITS_FIX = /\bDid you mean\b|\bhelp: a \w+ with a similar name exists\b/i;
/** An error line pasted into a prompt (a spec's heading that names errors, "Error messages: …", is none). */
const REPORTED_ERROR = new RegExp(String.raw`^\s*(?:[\w ]*error${NAMES_ERRORS}[\w ]*:|fatal:|\w+(?:Error|Exception|Warning):|Traceback)|:\d+: \w+(?:Error|Warning):`, 'im');
/** The module a "No module named 'x'" / "Cannot find module 'x'" error names. */
const MISSING_MODULE_NAME = /(?:No module named|Cannot find module) '?([\w./@-]+?)'?(?:\s|$)/;
/** A prompt that only lets the agent go on with what it proposed ("go ahead and make this change"). */
const GO_AHEAD = /^(?:ok(?:ay)?|yes|yep|sure|go ahead|do it|please do|proceed|make (?:this|that|the) changes?|fix it|sounds good)\b[^?\n]{0,60}$/i;
const EXPLAINS = /\b(?:problem|issue|cause[sd]?|because|bug|came from|comes from|due to)\b/i;

/**
 * Errors the user pasted into a prompt, explained later by the agent ("the problem is …") and
 * fixed by an edit. The explanation must quote part of the error so it is about this error.
 */
/** "Converted the block to a raw string" → "Convert the block to a raw string": a fix is what
 * to do next time, not what was done once. The verbs a reported fix opens with. */
const INSTRUCTION_OF: Record<string, string> = {
  converted: 'Convert', changed: 'Change', moved: 'Move', added: 'Add', removed: 'Remove', replaced: 'Replace', fixed: 'Fix',
  switched: 'Switch', made: 'Make', renamed: 'Rename', reordered: 'Reorder', wrapped: 'Wrap', escaped: 'Escape', updated: 'Update',
};

/** A sentence that reports the fix it made ("Converted the block …"). */
const FIX_SENTENCE = new RegExp(`^(?:${Object.keys(INSTRUCTION_OF).join('|')})\\b`, 'i');

function asInstruction(fix: string): string {
  return fix.replace(FIX_SENTENCE, (verb) => INSTRUCTION_OF[verb.toLowerCase()] ?? verb);
}

function fromReportedErrors(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  for (const p of view.prompts) {
    const m = REPORTED_ERROR.exec(p.text);
    if (!m) continue;
    const lines = p.text.split('\n').map((l) => l.trim()).filter(Boolean);
    const errLine = lines.find((l) => REPORTED_ERROR.test(l));
    if (!errLine) continue;
    // an error that names its own fix ("Cannot find name 'setUploadProgress'. Did you mean
    // 'setFileUploadProgress'?") is a slip the next compile shows again, fix and all
    if (NAMES_ITS_FIX.test(errLine)) continue;
    // The explanation must be about this error: it quotes it, or shares its distinctive words.
    const quoted = /['"`]([^'"`]{4,})['"`]/.exec(errLine)?.[1];
    const distinctive = [...words(errLine)].filter((w) => w.length >= 6 && !/[/.]/.test(w));
    const firstReply = view.events.find((e) => e.index > p.index && e.kind === 'assistant');
    // when the user's next prompt says it is still broken, what the agent took for the cause did
    // not hold ("still", "the same error": a new complaint about something else is no refutation)
    const next = view.prompts.find((q) => q.index > p.index);
    if (next && STILL_BROKEN.test(next.text) && STILL_OR_SAME.test(next.text)) continue;
    // nor did it where a later prompt pastes the same error again (in this file or another)
    const sig = errorSignature(errLine);
    if (view.prompts.some((q) => q.index > p.index && q.text.split('\n').some((l) => REPORTED_ERROR.test(l) && errorSignature(l.trim()) === sig))) continue;
    const explaining = view.events.filter((e) => {
      if (e.index <= p.index || (e.kind !== 'assistant' && e.kind !== 'reasoning') || !EXPLAINS.test(e.text)) return false;
      const text = e.text.toLowerCase();
      const shared = distinctive.filter((w) => text.includes(w)).length;
      if (quoted !== undefined) return e.text.includes(quoted);
      return shared >= 2 || (e === firstReply && shared >= 1);
    });
    // "The problem is …" beats a restatement of the error.
    const why = shownWhole(explain(explaining, errLine, 4, false, true) ?? explain(explaining, errLine, 4, false, false, true), PASTED_CAUSE_CHARS);
    if (!why) continue;
    // a missing module explained only by itself ("a missing dependency (`x` not installed)") says
    // what the error says: the cause must name something else, the file that imports it, a package
    const missing = MISSING_MODULE_NAME.exec(errLine)?.[1];
    if (missing !== undefined && [...why.text.matchAll(/`([^`]+)`/g)].every((m) => m[1]!.includes(missing))) continue;
    const before = lines.slice(0, lines.indexOf(errLine));
    const cmdLine = (before.find((l) => /^[❯$>]\s+\S/.test(l)) ?? before.find((l) => /^\.{1,2}\/\S/.test(l)))?.replace(/^[❯$>]\s+/, '');
    const said = view.events.find((e) => e.index === why.event);
    const fixSentence = said && 'text' in said ? sentences(said.text).find((s) => FIX_SENTENCE.test(s)) : undefined;
    // the agent's reading of a pasted error with nothing done on it is its first guess, which the
    // next prompt often refutes: only a reading the agent acted on (said what it changed, or
    // changed a file before the user spoke again, a go-ahead aside) is written
    const reply = view.prompts.find((q) => q.index > why.event);
    const until = (reply && GO_AHEAD.test(reply.text.trim()) ? view.prompts.find((q) => q.index > reply.index) : reply)?.index ?? Infinity;
    if (!fixSentence && !view.steps.some((st) => st.call.index > why.event && st.call.index < until && !st.rejected && isEdit(st))) continue;
    const shownErr = errLine.replace(/^.*?:\d+: (?=\w+(?:Error|Warning):)/, '');
    // a warning does not fail the command: it prints it
    const verb = /^\w*Warning:|^warning:/i.test(shownErr) ? 'prints' : 'fails with';
    const parts = [`${cmdLine ? `${code(clip(cmdLine, 80))} ${verb} ` : ''}${code(clip(shownErr, 140))}.`];
    parts.push(`Cause: ${sentence(causeAlone(clipSentences(why.text, PASTED_CAUSE_CHARS)))}`);
    // (an edit alone says which file changed, not what to change: "change `x.py` accordingly" is no fix)
    if (fixSentence) parts.push(`Fix: ${sentence(clip(asInstruction(fixSentence), 160))}`);
    drafts.push({
      category: 'pitfall',
      // an error line names its kind ("Error: …", "TypeError: …"): without a command it is the title
      title: cmdLine ? `${clip(cmdLine, 40)}: ${clip(shownErr, 50)}` : /^[\w ]*(?:error|exception|warning)\b/i.test(shownErr) ? clip(shownErr, 70) : `Error: ${clip(shownErr, 60)}`,
      text: parts.join(' '),
      confidence: CONFIDENCE.stated,
      event: why.event,
      tags: cmdLine ? family(mainCommand(cmdLine)).split(' ') : [],
      quotes: [errLine],
      rule: 'error-fix',
      signature: errorSignature(errLine),
      score: 7,
    });
  }
  return drafts;
}

export function errorFixDrafts(view: SessionView): Draft[] {
  return [...fromToolFailures(view), ...fromReportedErrors(view)];
}

export const errorFix: RuleExtractor = ruleExtractor('error-fix', errorFixDrafts);
