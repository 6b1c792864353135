/**
 * Tool quirks: surprising behaviour of the machine or of the agent's own tools, shown by a
 * tool result. Missing commands and modules are about the machine (global); size limits, edit
 * refusals, truncated or backgrounded output and cascading parallel calls are about the agent's
 * tools (agent). Each quirk says what worked instead when the session shows it.
 */
import { CONFIDENCE } from '../../candidate.js';
import { MARK } from '../marks.js';
import { perObject } from '../per-object.js';
import { MAX_TITLE, ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { shownCommand, simpleCommands, tokens } from '../commands.js';
import { errorCore, errorLine, explain } from '../diagnosis.js';
import { clip, code, errorSignature, oneLine, sentences } from '../text.js';
import { DELEGATE_TOOLS, EDIT_TOOLS, READ_TOOLS, editedFiles, isEdit, seenToSucceed, type SessionView, type Step } from '../view.js';
import { OTHERS_APPLIED } from '../../../sessions/readers/aider.js';
import { aiderEditCause, aiderErrorName, type EditCause } from './aider-edit-errors.js';
import { powershellSlip } from './powershell.js';
import { cmdSlip } from './cmd-shell.js';
import { zshGlobSlip } from './zsh-glob.js';
import { escapeRegExp } from '../../../core/regexp.js';
import { escalation } from '../escalation.js';

export type QuirkKind = 'missing-command' | 'missing-module' | 'permission' | 'network-denied' | 'too-large' | 'edit-refused' | 'tool-refusal' | 'powershell' | 'cmd' | 'zsh-glob';

/** A shell saying a program is missing: bash and zsh, cmd.exe ("is not recognized as an
 * internal or external command"), and PowerShell by its error record's category line, which it
 * does not translate (`(go:String) [], CommandNotFoundException`), or in PowerShell 7's English. */
const MISSING_COMMAND = /command not found: ([\w.+-]*[a-zA-Z][\w.+-]*)|(?:^|[\s:])([\w.+-]*[a-zA-Z][\w.+-]*): (?:command )?not found\b|'([\w.+-]+)' is not recognized as an internal|\(([\w.+-]+):String\)\s*\[\],\s*CommandNotFoundException|The term '([\w.+-]+)' is not recognized as (?:the|a) name/m;
const MISSING_MODULE = /No module named '?([\w.]+)'?|Cannot find module '([^']+)'|ModuleNotFoundError: No module named '([\w.]+)'/;
const PERMISSION = /permission denied|EACCES|operation not permitted/i;
/** The sandbox itself refusing or failing to start the command (`windows sandbox: runner error:
 * CreateProcessAsUserW failed`): no stderr of a command that ran follows. */
const SANDBOX_REFUSAL = /\bsandbox\b.{0,60}\b(?:error|denied|refused|blocked)\b/i;
const TOO_LARGE = /exceeds (?:the )?maximum allowed (?:size|tokens)|file (?:is )?too large|content \([\d.]+\s*[KMG]?B\) exceeds/i;
const PATH_PROBLEM = /does not exist|no such file|not found|ENOENT|is a directory/i;
/** MISSING_COMMAND and MISSING_MODULE, after a cheap search for a literal every match contains
 * (most outputs have none, and the regexes would scan all of them). */
function showsMissingCommand(out: string): boolean {
  return (out.includes('not found') || out.includes('is not recognized as') || out.includes('CommandNotFoundException')) && MISSING_COMMAND.test(out);
}
export function showsMissingModule(out: string): boolean {
  return (out.includes('No module named') || out.includes('Cannot find module')) && MISSING_MODULE.test(out);
}
export const TRUNCATED = /\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]|…\d+ tokens truncated…|<persisted-output>|Output too large/i;
export const BACKGROUND = /running in background with ID:? ?(\w+)/i;

/** The missing command, when it is one the agent's command line runs: a name it never typed
 * (`dump_zsh_state`) belongs to the shell wrapper of the agent's harness, not to the machine. */
function missingName(s: Step): string | undefined {
  if (s.command === undefined) return undefined;
  for (const m of s.output.matchAll(MISSING_ANYWHERE)) {
    const missing = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    if (missing !== undefined && runsProgram(s.command, missing)) return missing;
  }
  return undefined;
}
const MISSING_ANYWHERE = new RegExp(MISSING_COMMAND.source, 'gm');
/** The marks a terminal wraps pasted text in (ESC[200~ … ESC[201~), as left once ESC is gone. */
const PASTE_MARK = /\[20[01]~/;

/** Whether a command line runs `name`, as a word or a path ending in it. */
function runsProgram(command: string, name: string): boolean {
  return tokens(command).some((t) => t === name || t.endsWith(`/${name}`));
}

/** An error line that says a command is missing which the command line never ran: the harness's
 * shell wrapper talking (Cursor's `dump_zsh_state`), or a terminal that pasted the line with its
 * bracketed-paste marks (`bash: [200~pnpm: command not found`), which the shell read as part of
 * the program's name; either way not a failure of the command. */
export function strayMissingCommand(err: string, command: string): boolean {
  if (PASTE_MARK.test(err) && /not found|not recognized/i.test(err)) return true;
  const m = MISSING_COMMAND.exec(err);
  const missing = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? m?.[5];
  return missing !== undefined && !runsProgram(command, missing);
}

function isEditStep(s: Step): boolean {
  return EDIT_TOOLS.has(s.call.name) || (s.command !== undefined && /^(?:apply_?patch)$/.test(s.program));
}

/** Aider has no edit tool: the model writes edit blocks and aider applies or rejects them. An
 * item names the mechanism the way the agent's own users know it. */
function aiderEdit(view: SessionView, s: Step): boolean {
  return view.session.agent === 'aider' && s.call.name === 'edit';
}

/** Aider says "did not conform to the edit format", a link, then what was wrong ("No filename
 * provided before ``` in file listing"): that line is the quirk. */
function formatReason(output: string, err: string): string | undefined {
  if (!/did not conform to the edit format/i.test(err)) return undefined;
  const lines = output.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => /did not conform to the edit format/i.test(l));
  // aider marks its reason under the quoted reply with `^^^` (`^^^ Bad/missing filename. …`)
  const marked = lines.slice(at + 1).find((l) => l.startsWith('^^^ '));
  if (marked !== undefined) return marked.slice(4).replace(/\s*`{3,}$/, '').trim();
  const reason = lines.slice(at + 1).find((l) => l !== '' && !/^https?:\/\//.test(l));
  return reason !== undefined && reason.length <= 140 && !MODEL_PROSE.test(reason) ? reason : undefined;
}

/** A line of the model's reply that an older aider echoes after the notice ("To make a simple
 * computer agent …, I propose the following changes to `tictactoe.js`:", "I apologize …"): the
 * model's words, not aider's reason. */
const MODEL_PROSE = /\b(?:I|I'm|I've|I'll|we|we'll|my)\b|^(?:here(?:'s| is| are)|sure|certainly|sorry)\b|:$/i;

/** "The LLM did not conform to the edit format" and nothing of what was wrong: an aider notice
 * that says only that a reply broke the format, nothing a reader can act on. */
function bareFormatNotice(output: string, err: string): boolean {
  return /did not conform to the edit format/i.test(err) && formatReason(output, err) === undefined;
}

/** Aider's own line for edit blocks that did not apply ("# 1 SEARCH/REPLACE block failed to
 * match!"): the error, where the first error-like line of the output can be a line of the
 * failed block that aider quotes back. */
const FAILED_TO_MATCH = /^#?\s*\d+ SEARCH\/REPLACE blocks? failed to match!?/m;
/** The rule aider states with it, which is what a later session needs to know. */
const MATCH_RULE = /^The SEARCH section must exactly match[^\n]*/m;
/** Aider's note on a failed block whose REPLACE text the file already holds. */
const ALREADY_APPLIED = /^The REPLACE lines are already in \S+?!?$/m;

function aiderError(view: SessionView, s: Step): string | undefined {
  return aiderEdit(view, s) ? FAILED_TO_MATCH.exec(s.output)?.[0] : undefined;
}

/** An aider refusal's signature words: its reason, and the kind of cause told with it. */
function causeSigned(said: string, cause: EditCause | undefined): string {
  return cause === undefined ? said : `${said} ${cause.label}`;
}

/** Aider's udiff format's reason for a hunk that did not apply: the counterpart of a SEARCH block
 * that failed to match. */
const HUNK_NO_MATCH = /^UnifiedDiffNoMatch\b/;

/** Aider's notice that a reply broke the edit format, as the error: the first error-like line
 * after it can be the model's own words that aider quotes back ("To fix the error group …"). */
const FORMAT_NOTICE = /^The LLM did not conform to the edit format\.?$/m;
function aiderFormatNotice(view: SessionView, s: Step): string | undefined {
  return aiderEdit(view, s) ? FORMAT_NOTICE.exec(s.output)?.[0] : undefined;
}


/** An aider edit error's title: the reason aider gives when it gives one, without the reply's block count. */
function aiderTitle(output: string, err: string, cause?: EditCause): string {
  // (the cause's label fits whole: the title's room goes to it first)
  const reason = aiderErrorName(formatReason(output, err) ?? err);
  // (with no cause told, the lesson is what aider did with the rest of the reply: said as such,
  // not as the error's name; a reviewer asked for the behaviour in the title)
  if (!cause && reason === 'SEARCH/REPLACE block failed to match' && output.split('\n').some((l) => OTHERS_APPLIED.test(l.trim()))) return "aider applies a reply's other edit blocks when one fails to match";
  return cause ? `aider edit: ${clip(reason, MAX_TITLE - 16 - cause.label.length)} (${cause.label})` : `aider edit: ${clip(reason, 60)}`;
}

/** Whether aider committed right after the step's failure, before the model's next reply (the
 * blocks of the reply that did apply, with auto-commits on). */
function committedAfter(view: SessionView, s: Step): boolean {
  const events = view.session.events;
  for (let i = s.outputEvent + 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'assistant' || (e.kind === 'user' && !e.injected)) return false;
    if (e.kind === 'tool_call' && e.name === 'commit') return true;
  }
  return false;
}

/** Aider's words for a rejected edit; its rule is left out when the cause that follows says more. */
function aiderRejects(output: string, err: string, withRule = true, committed = false): string {
  const rule = FAILED_TO_MATCH.test(err) && withRule ? MATCH_RULE.exec(output)?.[0] : undefined;
  // "# The other 2 SEARCH/REPLACE blocks were applied successfully. Don't re-send them.": aider
  // keeps the reply's blocks that matched and asks only for the failed one again
  const several = Number(/\d+/.exec(err)?.[0] ?? 1) > 1;
  // (with auto-commits aider commits those blocks at once: that commit holds the change without the failed block)
  const kept = committed ? "applies the reply's other blocks, commits them (auto-commits: that commit holds the change without the failed block)" : "applies the reply's other blocks";
  const others = output.split('\n').some((l) => OTHERS_APPLIED.test(l.trim())) ? ` It still ${kept} and asks the model to resend only the failed ${several ? 'ones' : 'one'}.` : '';
  // "The REPLACE lines are already in src/bare.cpp!": aider's own finding that a failed block's
  // change is in the file already (an earlier edit applied it), so its SEARCH text is gone
  const done = ALREADY_APPLIED.exec(output)?.[0];
  // (what went wrong says more than the rule aider repeats with every failure, and both do not fit)
  if (done) return `Aider rejects the model's edit with ${code(err)}; for a block whose change the file already holds it adds ${code(done)}: its SEARCH text was written against the file before earlier edits applied, so write SEARCH from the file as it is now.${others}`;
  if (rule) return `Aider rejects the model's edit with ${code(err)}: ${code(rule.replace(/[.\s]+$/, ''))}.${others}`;
  const reason = formatReason(output, err);
  // with the cause to follow, aider's reason alone says which rule the reply broke
  if (reason && !withRule) return `Aider rejects the model's edit: ${code(reason)}.`;
  return `Aider rejects the model's edit with ${code(err.replace(/\.$/, ''))}${reason ? `: ${code(reason)}` : ''}.`;
}

function toolLabel(s: Step): string {
  if (s.command) {
    if (/^apply_?patch$/.test(s.program)) return 'apply_patch';
  }
  return s.call.name;
}

/** The quirk a failing step shows, if it is one (the error → fix rule leaves these alone). */
export function quirkKind(s: Step): QuirkKind | undefined {
  // Both this rule and error → fix ask for every failing step; the answer is kept per step.
  return s.failed ? quirkOfFailure(s) : undefined;
}
const quirkOfFailure = perObject(quirkKindOf);

function quirkKindOf(s: Step): QuirkKind | undefined {
  const out = s.output;
  // what PowerShell rejects of a POSIX shell's forms is its own rule's (powershell.ts)
  if (powershellSlip(s) !== undefined) return 'powershell';
  // and what cmd.exe lacks of them, cmd-shell.ts's
  if (cmdSlip(s) !== undefined) return 'cmd';
  // and a glob zsh found nothing for, zsh-glob.ts's
  if (zshGlobSlip(s) !== undefined) return 'zsh-glob';
  if (showsMissingCommand(out) && missingName(s) !== undefined) return 'missing-command';
  if ((s.marks & MARK.module && showsMissingModule(out)) || lacksEnsurepip(out)) return 'missing-module';
  if (PERMISSION.test(out) || (SANDBOX_REFUSAL.test(out) && !/stderr:\s*\S/i.test(out))) return 'permission';
  if (NETWORK_DENIED.test(out)) return 'network-denied';
  if (TOO_LARGE.test(out)) return 'too-large';
  if (isEditStep(s)) return 'edit-refused';
  if (!s.command && !READ_TOOLS.has(s.call.name) && !CHECK_TOOLS.has(s.call.name) && !PATH_PROBLEM.test(out) && out.trim().length > 0) return 'tool-refusal';
  return undefined;
}

/** Aider's own lint and test steps (after each edit, or `/lint`, `/test`): when they fail they
 * report problems in the code, which is the task's bug, never the tool refusing. */
const CHECK_TOOLS = new Set(['lint', 'test']);

function argsOf(s: Step): Set<string> {
  return new Set(tokens(s.main).slice(1).filter((t) => !t.startsWith('-') && t.length > 1));
}

/** Programs that search files by name or content: one stands in for another, and nothing else
 * does (`ls` of the folder a missing `rg` was to search is no search). */
const SEARCH_PROGRAMS = new Set(['rg', 'ag', 'ack', 'fd', 'fdfind', 'grep', 'egrep', 'fgrep', 'find', 'findstr', 'Select-String', 'Get-ChildItem', 'gci', 'sls', 'dir']);

/** The later successful command that replaced a missing one (shares its arguments or extends its
 * name); a missing search program only by another search. */
function replacementFor(view: SessionView, failed: Step, missing: string): Step | undefined {
  const args = argsOf(failed);
  const searching = SEARCH_PROGRAMS.has(missing);
  const later = view.steps
    .slice(failed.pos + 1, failed.pos + 8)
    .filter((s) => seenToSucceed(s) && s.command !== undefined && (!searching || SEARCH_PROGRAMS.has(s.program) || /^git\s+(?:grep|ls-files)\b/.test(s.main)));
  // A sibling of the missing program (python → python3) first, then a command on the same
  // arguments; a search that worked after a missing search program is its stand-in whatever it
  // searched (the agent narrowed the search to a file it had found by then)
  return (
    later.find((s) => s.program !== missing && s.program.startsWith(missing)) ??
    later.find((s) => s.program !== missing && [...argsOf(s)].some((a) => args.has(a))) ??
    (searching ? later.find((s) => s.program !== missing) : undefined)
  );
}

/** The line saying `missing` is missing. PowerShell's may be translated and follows its prompt
 * line: its English form, or the record's untranslated category, says it in any language. */
function missingError(output: string, missing: string): string {
  if (!output.includes('CommandNotFoundException')) return complaintLine(output, missing) ?? errorLine(output, 120);
  return (PS_NOT_RECOGNIZED.exec(output) ?? PS_NOT_FOUND.exec(output))?.[0] ?? errorLine(output, 120);
}
/** The shell's own line saying `missing` is missing: other output of the same command (what a
 * `|| fallback` printed) may hold louder errors that are not about it. */
function complaintLine(output: string, missing: string): string | undefined {
  for (const line of output.split('\n')) {
    const m = MISSING_COMMAND.exec(line);
    if (m !== null && (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) === missing) return clip(line.trim(), 120);
  }
  return undefined;
}
const PS_NOT_RECOGNIZED = /The term '[^'\n]+' is not recognized as (?:the|a) name of a cmdlet/;
const PS_NOT_FOUND = /\([\w.+-]+:String\)\s*\[\],\s*CommandNotFoundException/;

/** The model ran one of its own tools (`search_replace`) through its shell tool, where no such
 * program exists: the next session should call the tool, not look for a program to install. */
function ownToolAsCommand(s: Step, tool: string, err: string): Draft {
  return {
    category: 'pitfall',
    scope: 'agent',
    title: `${tool} is a tool of the agent, not a shell command`,
    text: `${code(tool)} is one of the agent's own tools, not a program: run through ${code(s.call.name)} it fails (${code(err)}). Call ${code(tool)} as a tool.`,
    confidence: CONFIDENCE.verified,
    event: s.outputEvent,
    tags: [tool, s.call.name],
    quotes: [err],
    rule: 'tool-quirk',
    signature: `own tool as command ${tool}`,
    score: 7,
  };
}

/** A session folder on a Windows drive (`c:\\Users\\…`, `D:/work`). */
const WINDOWS_FOLDER = /^[A-Za-z]:[\\/]/;

function missingCommand(view: SessionView, s: Step): Draft | undefined {
  const missing = missingName(s);
  if (!missing || !s.command) return undefined;
  const err = missingError(s.output, missing);
  // the agent's own tool run as a shell command: nothing is missing from the machine; said when
  // the agent did it more than once (a single slip, with the tool called as a tool around it, is
  // a one-off the next session has no reason to repeat)
  if (view.steps.some((x) => x.call.name === missing && x.call.name !== s.call.name)) {
    const slips = view.steps.filter((x) => x.failed && x.call.name === s.call.name && missingName(x) === missing).length;
    return slips >= 2 ? ownToolAsCommand(s, missing, err) : undefined;
  }
  const exit = s.exitCode !== undefined ? `, exit ${s.exitCode}` : '';
  const instead = replacementFor(view, s, missing);
  // "not there" alone (a probe such as `pipx --version`, or any command of a program the session
  // found no way around) is one failed call away for the next session too: knowledge only with
  // what worked instead
  if (!instead) return undefined;
  const insteadText = ` ${code(clip(instead.command!, 90))} worked instead.`;
  // the other programs the same shell did not find: one fact of that shell, told in each item
  // (a reviewer wanted `rg`, `pixi` and `python` together)
  const others = [...new Set(view.steps.filter((x) => x !== s && x.failed && x.command !== undefined && quirkKind(x) === 'missing-command').map(missingName))].filter((m): m is string => m !== undefined && m !== missing).slice(0, 4);
  const alsoText = others.length ? ` ${others.length === 1 ? code(others[0]!) : `${others.slice(0, -1).map(code).join(', ')} and ${code(others.at(-1)!)}`} ${others.length === 1 ? 'was' : 'were'} not found there either.` : '';
  // a bash of its own on a Windows machine (a Codex session whose shell is PowerShell running
  // `bash -lc`: WSL or Git Bash) has its own programs, not the machine's
  // (elsewhere no place is named: an item merges the machines that lacked the program, and
  // "this machine" would be the first one's)
  // (and where the session told the model another shell, `powershell.exe`, that is said: the
  // commands did not run where the model was told they would, a reviewer found it the cause)
  const declared = view.session.declaredShell;
  const told = declared !== undefined && !/\bbash\b/i.test(declared) ? `, though the session declares ${code(declared)}` : '';
  const where = WINDOWS_FOLDER.test(view.session.cwd ?? '') && /^\/(?:usr\/)?bin\/bash:/m.test(err) ? ` in the bash the agent's commands run through on this Windows machine${told}` : '';
  return {
    category: 'tool-quirk',
    // what the machine has installed holds whichever repository a session works in on it: the
    // machine's (reviewers moved every repo-scoped one here)
    scope: 'global',
    // (the programs the same shell lacked, named together where there were several)
    // ("command not found" says the shell found no such program on its PATH: it may still be
    // installed elsewhere, so "not on the PATH", with what worked in its place)
    title: others.length ? `${[missing, ...others].join(', ')} are not on the PATH${where !== '' ? " in the agent's bash" : ''}` : `${missing} is not on the PATH`,
    text: `${code(missing)} is not on the PATH${where} (${code(err)}${exit}) when running ${code(clip(shownCommand(s.command), 80))}.${insteadText}${alsoText}`,
    confidence: CONFIDENCE.verified,
    event: s.outputEvent,
    tags: [missing, s.call.name, instead.program],
    quotes: [err, instead.command!],
    rule: 'tool-quirk',
    // (one item per program missing and its stand-in, whichever shell worded the complaint)
    signature: `missing command ${missing} ${instead.program}`,
    score: 9,
  };
}

/** The project's own dependency install, naming no package: what a fresh checkout needs. */
const PROJECT_INSTALL = /^(?:npm (?:install|i|ci)|pnpm (?:install|i)|yarn(?: install)?|bun install|(?:python[\d.]* -m )?pip3? install -r \S+|poetry install|uv sync|bundle install|mix deps\.get|go mod download)$/;

/** A later step ran the project's install: it went through, or it was tried (then the module is
 * one of the project's dependencies, not yet installed in this checkout, whatever stopped the
 * install). */
function installedLater(view: SessionView, s: Step): boolean {
  return view.steps.some((later) => later.pos > s.pos && !later.rejected && later.command !== undefined && linesRun(later).some((c) => PROJECT_INSTALL.test(c.trim())));
}

/** `tmux send-keys -t viv "conda activate viv && pip install -r requirements.txt" Enter`: the line
 * typed into a terminal window runs there. */
const SENT_KEYS = /^tmux send-keys\b.*?\s(["'])(.+?)\1(?:\s+(?:Enter|C-m))?\s*$/;

/** The simple commands a step runs: its own, and those of a line it types into a tmux window. */
function linesRun(step: Step): readonly string[] {
  const sent = step.simple.map((c) => SENT_KEYS.exec(c.trim())?.[2]).filter((l): l is string => l !== undefined);
  return sent.length === 0 ? step.simple : [...step.simple, ...sent.flatMap((l) => simpleCommands(l))];
}

/** A later step installs the module (`pip install build`, a script printing "Installing build and
 * twine...", pip's "Successfully installed build-1.2.1"): the environment lacked it that moment. */
function installsLater(view: SessionView, s: Step, mod: string): boolean {
  const name = mod.split('.')[0]!.toLowerCase().replace(/_/g, '-');
  const installs = new RegExp(`^\\s*(?:Installing|Successfully installed|Collecting)\\b[^\\n]*\\b${escapeRegExp(name)}\\b`, 'im');
  return view.steps.some(
    (later) => later.pos > s.pos && !later.rejected && ((later.command !== undefined && /\bpip3? install\b/.test(later.command) && tokens(later.command).some((t) => t.toLowerCase().replace(/_/g, '-') === name)) || installs.test(later.output)),
  );
}

/** A virtualenv's interpreter on the command line (`…/ar1_venv/bin/python`, `venv\\Scripts\\python.exe`). */
const VENV_PYTHON = /(?:^|\s)(\S*?)[\\/](?:bin|Scripts)[\\/]python[\d.]*(?:\.exe)?(?=\s|$)/;
/** The project's own Python: a virtualenv's interpreter by its path (a folder named for one:
 * `.venv`, `venv`, `env`, `ar1_venv`; not `/usr/bin/python3`, the system's), or a runner that uses
 * the project's environment (`uv run`, `poetry run`, `pipenv run`, `pdm run`). */
const PROJECT_PYTHON = /(?:^|\s)(?:\S*?[\\/])?[\w.-]*env[\w.-]*[\\/](?:bin|Scripts)[\\/]python[\d.]*(?:\.exe)?(?=\s|$)|(?:^|\s)(?:uv|poetry|pipenv|pdm|hatch) run\b/;
/** A virtualenv uv made: its pyvenv.cfg says so (`uv = 0.10.4`), or the session ran `uv venv`. */
const UV_VENV = /^uv = \d/m;

/** `The virtual environment was not created successfully because ensurepip is not available`. */
const NO_ENSUREPIP = /\bensurepip is not\s+available\b/;
/** venv's own failure where the ensurepip it runs in the new environment is missing (`Error:
 * Command '['…/.venv/bin/python3', '-m', 'ensurepip', '--upgrade', '--default-pip']' returned
 * non-zero exit status 1.`). */
const VENV_ENSUREPIP_FAILED = /'-m', 'ensurepip'[^\n]*returned non-zero exit status/;

/** What the session said of ensurepip missing, shortest first: Python's `No module named
 * ensurepip`, Debian's sentence, or venv's own failure without the new environment's path. */
function ensurepipWords(view: SessionView, out: string): string {
  const plain = view.steps.map((x) => /No module named '?ensurepip'?/.exec(x.output)?.[0]).find((w) => w !== undefined);
  if (plain !== undefined) return plain;
  if (NO_ENSUREPIP.test(out)) return 'ensurepip is not available';
  return "Command '[…python3', '-m', 'ensurepip', …]' returned non-zero exit status 1";
}

/** `python3 -m venv` failed for want of ensurepip, in either of its words for it. */
function lacksEnsurepip(out: string): boolean {
  return out.includes('ensurepip') && (NO_ENSUREPIP.test(out) || VENV_ENSUREPIP_FAILED.test(out));
}

/** Whether a command removes the folder at `path` or makes a virtualenv there anew (`rm -rf
 * music-agent/venv && python3 -m venv music-agent/venv`). */
function remadeOrRemoved(command: string, path: string): boolean {
  const at = escapeRegExp(path.replace(/^\.[\\/]/, '').replace(/[\\/]+$/, ''));
  return new RegExp(`(?:\\brm\\s+-\\w*r\\w*\\s+(?:\\S+\\s+)*|\\bvenv\\s+(?:--?\\S+\\s+)*|\\bvirtualenv\\s+(?:--?\\S+\\s+)*)["']?(?:\\.[\\\\/])?${at}[\\/]?["']?(?:\\s|$|&|;)`).test(command);
}

/** `No module named pip` from a virtualenv: the venv has no pip, which is how uv makes them. The
 * item says what the session shows (uv made it, when the session shows that) and the two ways on,
 * naming the venv by its folder's name (its path is this machine's). */
function venvWithoutPip(view: SessionView, s: Step, err: string): Draft | undefined {
  const path = VENV_PYTHON.exec(s.command ?? '')?.[1];
  const venv = path?.split(/[\\/]/).pop();
  // a venv the session then removed or made again is not the one the next session meets
  if (path && view.steps.some((x) => x.pos > s.pos && x.command !== undefined && remadeOrRemoved(x.command, path))) return undefined;
  const byUv = view.steps.some((x) => /^uv venv\b/.test(x.main) || UV_VENV.test(x.output));
  // where the venv module said this machine's Python has no ensurepip, the way on the item gives
  // (add pip with ensurepip) is no way: no item
  if (!byUv && view.steps.some((x) => NO_ENSUREPIP.test(x.output))) return undefined;
  const which = venv ? `The virtualenv ${code(venv)}` : 'This virtualenv';
  return {
    category: 'fact',
    scope: 'repo',
    title: `${venv ?? 'the virtualenv'} has no pip`,
    text:
      `${which} has no pip (${code(err)})${byUv ? ': uv made it, and uv makes virtualenvs without pip' : ''}. ` +
      `${byUv ? `Manage its packages through uv (${code(`uv pip install --python ${venv ?? '<venv>'}/bin/python <package>`)}), or add` : 'Add'} pip with ${code(`${venv ?? '<venv>'}/bin/python -m ensurepip`)}.`,
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: ['pip', 'venv', ...(byUv ? ['uv'] : [])],
    quotes: [err],
    rule: 'tool-quirk',
    signature: errorSignature(`venv without pip ${venv ?? ''}`),
    score: 6,
  };
}

/** A command that makes a virtualenv without the venv module (`python3 -m virtualenv .venv`,
 * `uv venv`), not a probe of one (`virtualenv --version`). */
const MAKES_VENV = /(?:^|\s)virtualenv\s+(?!-)\S|(?:^|\s)uv venv\b/;

/** The Python version a session's output shows (`Python 3.10.14`, `3.10.14 (main, …)` of sys.version). */
const PYTHON_VERSION = /(?:^|\n)(?:Python )?(3\.\d{1,2})\.\d+(?: |\n|$)/;

/** Standard-library modules that Debian and Ubuntu ship apart from `python3`, and their package. */
const DISTRO_SPLIT: Readonly<Record<string, string>> = { ensurepip: 'python3-venv', venv: 'python3-venv', tkinter: 'python3-tk', _tkinter: 'python3-tk', distutils: 'python3-distutils', lib2to3: 'python3-lib2to3' };

/** A part of Python's standard library missing from the machine's own `python3` (not a
 * virtualenv's): the distribution split it into a package of its own, which the OS's package
 * manager installs (pip cannot); without ensurepip a virtualenv cannot be made and pip not added. */
function distroSplit(view: SessionView, s: Step, mod: string, err: string): Draft {
  // what else the session found missing from the same python3 (in one order, so that each
  // step that shows one of them gives the same item)
  // (pip missing from a virtualenv's python is that environment's, not the machine's)
  const shown = (name: string): boolean =>
    name === mod || view.steps.some((x) => (new RegExp(`No module named '?${name}\\b`).test(x.output) && !(name === 'pip' && VENV_PYTHON.test(x.command ?? ''))) || (name === 'ensurepip' && lacksEnsurepip(x.output)));
  const lacks = ['pip', ...Object.keys(DISTRO_SPLIT)].filter(shown);
  // the package of the Python the session showed (`python3.10-venv` for a 3.10 that is not the
  // release's default, as Debian's own message names it), else the release's default
  const version = view.steps.map((x) => PYTHON_VERSION.exec(x.output)?.[1]).find((v) => v !== undefined);
  const packages = [...new Set(lacks.map((l) => (l === 'pip' ? 'python3-pip' : (DISTRO_SPLIT[l] ?? 'python3-venv').replace(/^python3-/, version ? `python${version}-` : 'python3-'))))];
  // what made a virtualenv here without root (virtualenv installed for the user, uv)
  const made = view.steps.find((x) => x.pos > s.pos && x.command !== undefined && seenToSucceed(x) && MAKES_VENV.test(x.command));
  const without = made
    ? ` Here ${code(clip(oneLine(made.command!).replace(/^rm -rf \S+(?: \S+)*?\s+(?=python)/, ''), 90))} made one instead, without the package.`
    : " That needs root, which an agent's shell usually lacks: ask the user to run it.";
  // a POSIX shell's python3 in a session whose folder is a Windows path is WSL's, not Windows'
  const wsl = /^[A-Za-z]:[\\/]/.test(view.session.cwd ?? '');
  return {
    category: 'tool-quirk',
    scope: 'global',
    title: `The system python3 here has no ${lacks.join(' or ')}`,
    text:
      `${wsl ? "The `python3` the agent's shell finds here (WSL's: the session's folder is a Windows one)" : "This machine's `python3`"} has no ${lacks.map((l) => code(l)).join(' or ')} (${code(err)}): Debian and Ubuntu ship ${lacks.length > 1 ? 'them' : 'it'} apart from Python. ` +
      `Install ${packages.map((p) => code(p)).join(' and ')} with the system's package manager${packages.some((p) => p.endsWith('-venv')) ? '; until then `python3 -m venv` fails' : ''}.${without}`,
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: ['python', ...lacks],
    quotes: [err],
    rule: 'tool-quirk',
    signature: 'python3 distribution split',
    score: 6,
  };
}

/** Whether a later edit of the session wrote a file named as the module's last part
 * (`PlayerStats.tsx` for '@components/PlayerStats', `helpers.py` for 'app.helpers'). */
function wroteModuleLater(view: SessionView, s: Step, mod: string): boolean {
  const last = mod.split(/[/.]/).pop()!;
  if (last.length < 3) return false;
  return view.steps.some((x) => x.pos > s.pos && !x.failed && !x.rejected && isEdit(x) && editedFiles(x).some((f) => f.replace(/\.\w+$/, '') === last));
}

function missingModule(view: SessionView, s: Step): Draft | undefined {
  const m = MISSING_MODULE.exec(s.output);
  // (venv's failure for want of ensurepip names no module the usual way)
  if (m === null && lacksEnsurepip(s.output)) return distroSplit(view, s, 'ensurepip', ensurepipWords(view, s.output));
  const mod = m?.[1] ?? m?.[2] ?? m?.[3];
  // A missing local file ('./x.js', '~/a/b.js') is a path slip, not an uninstalled package; so
  // is a path through the project's import alias ('@/components/PlayerStats', '#lib/db': a
  // package scope is never empty), and a module the session then wrote as a file of its own.
  if (!mod || /^[.~/#]|^@\/|\/.*\.\w+$/.test(mod) || wroteModuleLater(view, s, mod)) return undefined;
  // A module the project's own install then brought is a checkout whose dependencies were not
  // installed yet, not something missing from the machine.
  if (installedLater(view, s) || installsLater(view, s, mod)) return undefined;
  const err = clip(m![0], 100);
  const inVenv = VENV_PYTHON.test(s.command ?? '');
  // (a standard-library module is the base Python's whichever virtualenv runs it: a venv shares
  // its base's standard library; pip is each environment's own)
  if (DISTRO_SPLIT[mod] !== undefined || (!inVenv && mod === 'pip' && view.steps.some((x) => NO_ENSUREPIP.test(x.output) || /No module named '?ensurepip\b/.test(x.output)))) return distroSplit(view, s, mod, err);
  if (mod === 'pip') return venvWithoutPip(view, s, err);
  // a module missing from the python the session first ran is knowledge where it then ran with
  // the project's own environment (`.venv/bin/python`, `uv run`): the bare error, with no way found
  // round it, is what the next session reads for itself (reviewers merged none of those)
  const envRun = inVenv ? undefined : view.steps.find((x) => x.pos > s.pos && x.command !== undefined && seenToSucceed(x) && PROJECT_PYTHON.test(x.command));
  if (envRun === undefined) return undefined;
  const env = PROJECT_PYTHON.exec(envRun.command!)![0].trim();
  const how = s.command ? ` (${code(clip(s.command.replace(/\s*\|\|\s*true\b.*$/, ''), 60))})` : '';
  return {
    // where the project's packages are installed is a fact of the repository, not a tool's quirk
    category: 'fact',
    scope: 'repo',
    title: `Run this project's Python with \`${env}\`, not the bare python`,
    text: `The ${code(mod)} module is missing from the python a bare command runs${how}: ${code(err)}. It is installed in the project's own environment: ${code(clip(oneLine(envRun.command!), 70))} then ran. Run the project's code with ${code(env)}.`,
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: [mod, s.call.name],
    quotes: [err],
    rule: 'tool-quirk',
    signature: 'project python environment',
    score: 6,
  };
}

/** A search's answer that it found nothing (`No matches found`): the call ran, but did not do what
 * a retry of a failed search was for. */
const FOUND_NOTHING = /^\s*(?:No (?:matches|files|results) found|Found 0 (?:files?|matches)|0 (?:files?|matches))\b/im;

/** A later call of the same tool on the same target that succeeded. */
function retryOf(view: SessionView, s: Step, within = 10): Step | undefined {
  const target = JSON.stringify(s.call.input.file_path ?? s.call.input.path ?? s.call.input.filePath ?? '');
  for (const later of view.steps.slice(s.pos + 1, s.pos + 1 + within)) {
    if (!seenToSucceed(later) || later.cascade || FOUND_NOTHING.test(later.output)) continue;
    if (toolLabel(later) !== toolLabel(s)) continue;
    const laterTarget = JSON.stringify(later.call.input.file_path ?? later.call.input.path ?? later.call.input.filePath ?? '');
    if (target === '""' || laterTarget === target) return later;
  }
  return undefined;
}

/** What a retry changed of the failed call's input, when it is one or two short fields (`pattern`
 * `30mColor 0`): what worked, which "corrected input" alone does not say. */
function changedInput(failed: Step, retry: Step): string | undefined {
  const a = failed.call.input;
  const b = retry.call.input;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (keys.length === 0 || keys.length > 2) return undefined;
  const shown = keys.map((k) => {
    const v = b[k];
    const text = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    return text !== undefined && text.length > 0 && text.length <= 80 && !text.includes('\n') ? `${code(k)} ${code(text)}` : undefined;
  });
  return shown.every((x) => x !== undefined) ? shown.join(' and ') : undefined;
}

function tooLarge(view: SessionView, s: Step): Draft {
  const err = errorLine(s.output, 200);
  const retry = retryOf(view, s);
  const keys = retry ? Object.keys(retry.call.input).filter((k) => /offset|limit|range|lines/i.test(k)) : [];
  const fix = keys.length > 0 ? ` Passing ${keys.map((k) => code(k)).join('/')} worked.` : ' Read a slice (offset/limit) or search instead.';
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `${s.call.name} rejects large files`,
    text: `The ${code(s.call.name)} tool rejects files over its size limit: ${code(err)}.${fix}`,
    confidence: retry ? CONFIDENCE.verified : CONFIDENCE.stated,
    event: s.outputEvent,
    tags: [s.call.name, 'limit'],
    quotes: [err],
    rule: 'tool-quirk',
    signature: errorSignature(err),
    score: 8,
  };
}

/** The patch line an apply_patch error points at ("invalid hunk at line 4"): what was wrong
 * with the input shows there, where the message only names the rule it broke. */
function patchLineAt(s: Step, err: string): string | undefined {
  const at = /\bat line (\d+)\b/.exec(err);
  if (!at || toolLabel(s) !== 'apply_patch') return undefined;
  // Codex passes the patch as an argument (`["apply_patch", "*** Begin Patch…"]`) or as the input itself
  const values = Object.values(s.call.input).flatMap((v) => (Array.isArray(v) ? v : [v]));
  const raw = values.find((v): v is string => typeof v === 'string' && v.includes('*** Begin Patch'));
  if (raw === undefined) return undefined;
  const lines = raw.slice(raw.indexOf('*** Begin Patch')).split('\n');
  const n = Number(at[1]);
  const line = lines[n - 1];
  // the message often quotes the line itself ("got: '…'"): then the section is what it adds
  if (line === undefined) return undefined;
  const section = lines.slice(1, n - 1).reverse().find((l) => /^\*\*\* (?:Add|Update|Delete) File: /.test(l));
  const where = section ? `, in the ${code(clip(section, 60))} section,` : '';
  if (line.trim() === '') return `Line ${n} of the patch${where} was blank.`;
  return err.includes(line.trim()) ? (section ? `Line ${n} is in the ${code(clip(section, 60))} section of the patch.` : undefined) : `Line ${n} of the patch${where} was ${code(clip(line, 80))}.`;
}

/** Aider's refusal of a "file" outside the repository whose name has words in it: a line of the reply. */
const REPLY_LINE_AS_PATH = /^'[^']*\s[^']*' is not in the subpath of '/;

/** A regular expression's syntax error (ripgrep's and Rust's `regex parse error`, JavaScript's
 * `Invalid regular expression`, Python's `unterminated character set`). */
const REGEX_SYNTAX = /\bregex parse error\b|\bunclosed character class\b|\bunterminated (?:character set|subpattern)\b|\binvalid regular expression\b/i;

/** The index of the user's next message after an event (Infinity when none follows). */
function nextPromptAfter(view: SessionView, event: number): number {
  return view.prompts.find((p) => p.index > event)?.index ?? Infinity;
}

function editRefused(view: SessionView, s: Step): Draft | undefined {
  const stated = aiderError(view, s);
  // aider's reflection for a block that did not match ("# 1 SEARCH/REPLACE block failed to
  // match!" and its rule) goes to the model, which resends the block: an item would only repeat
  // aider's words. What aider then does with the reply's other blocks is worth an item.
  // (unless the history shows why the block failed: a file the model never saw)
  const aider = aiderEdit(view, s);
  const aiderCause = aider ? aiderEditCause(view, s) : undefined;
  if (stated && !s.output.split('\n').some((l) => OTHERS_APPLIED.test(l.trim())) && aiderCause === undefined) return undefined;
  const err = stated ?? aiderFormatNotice(view, s) ?? errorLine(s.output, 180);
  if (aider && aiderCause === undefined && bareFormatNotice(s.output, err)) return undefined;
  // what the refusal says went wrong: aider's reason under its one format notice, else the error
  const said = aider ? (formatReason(s.output, err) ?? err) : err;
  // (the same holds for a udiff hunk that did not match: aider tells the model, which resends it)
  if (aider && aiderCause === undefined && HUNK_NO_MATCH.test(said)) return undefined;
  // "File has been modified since read": something else wrote the file after the agent read it
  // (the user, a formatter, a program); the tool guards every edit so, and says to read again
  if (STALE_READ.test(err) || NOT_READ_YET.test(err)) return undefined;
  // a refusal by the mode the user set (Gemini CLI's plan mode, a permission policy) says itself
  // what is allowed, and holds only while that mode does: the session's state, no quirk (an agent
  // that kept running into it is plan-mode.ts's)
  if (MODE_REFUSAL.test(err)) return undefined;
  // "'// entire content of app.js here' is not in the subpath of 'C:\\app'": aider took a line of
  // the reply for a file's name, which the aider-notice rule tells as such
  if (aider && REPLY_LINE_AS_PATH.test(said)) return undefined;
  const retry = retryOf(view, s, 12);
  const tool = toolLabel(s);
  // aider states the rule the edit broke; the model's next words are its retry ("Here is the fixed block")
  // the model never explains aider's parser: its next reply is about the task, not the refusal
  // (what the agent said of it before the user spoke again: after that, it answers the user)
  const until = Math.min(retry?.call.index ?? s.outputEvent + 8, nextPromptAfter(view, s.outputEvent));
  const why = stated || aider ? undefined : explain(view.events.filter((e) => e.index > s.outputEvent && e.index < until), err, 4);
  const schema = aider ? undefined : schemaCheck(s, err);
  if (schema) return { ...schema, confidence: CONFIDENCE.verified, event: s.outputEvent, tags: [tool], quotes: [err], rule: 'tool-quirk', signature: errorSignature(err), score: 7 };
  const pointed = patchLineAt(s, err);
  // an edit tool's failure with no explanation, no line it points at and no retry that worked is
  // only the error, unless its words say what to do
  if (!aider && !why && !retry && pointed === undefined && !SAYS_WHAT_TO_DO.test(err)) return undefined;
  const parts = [aider ? aiderRejects(s.output, err, aiderCause === undefined, committedAfter(view, s)) : `${code(tool)} fails with ${code(err)}.`];
  if (aiderCause !== undefined) parts.push(aiderCause.text);
  if (pointed !== undefined) parts.push(pointed);
  if (why) parts.push(why.text);
  // a search that failed on its regular expression's syntax: the lesson is that the field is a
  // regex (the retry's own pattern is this search's)
  const regexField = !aider && REGEX_SYNTAX.test(err) ? Object.keys(s.call.input).find((k) => /pattern|regex|query|search/i.test(k) && typeof s.call.input[k] === 'string') : undefined;
  if (regexField) parts.push(`Its ${code(regexField)} is a regular expression: escape a metacharacter once (\`\\[\` for a literal \`[\`), or search for a plain part of the text.`);
  // (aider applies whatever block the model resends: that it went in says nothing of whether it was right)
  if (retry && !aider) {
    const changed = regexField ? undefined : changedInput(s, retry);
    parts.push(regexField ? `A retry with a plainer ${code(regexField)} succeeded.` : changed ? `A retry of ${code(tool)} with ${changed} succeeded.` : `A retry of ${code(tool)} with corrected input succeeded.`);
  }
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: aider ? aiderTitle(s.output, err, aiderCause) : regexField ? `${tool} reads its ${regexField} as a regular expression` : `${tool}: ${clip(errorCore(err), 60)}`,
    text: parts.join(' '),
    // (a resent aider block went in whether or not it was right: it verifies nothing)
    confidence: retry && !aider ? CONFIDENCE.verified : CONFIDENCE.stated,
    event: s.outputEvent,
    tags: [tool],
    quotes: [err],
    rule: 'tool-quirk',
    // (one lesson per kind of cause: a cause told of one session's failure is not every failure's)
    signature: errorSignature(causeSigned(said, aiderCause)),
    score: 6 + (retry && !aider ? 1 : 0),
  };
}

/** A refusal that validated the written file ("settings.json validation failed after edit") and
 * names the schema it checked against. */
const VALIDATION_FAILED = /\bvalidation failed\b/i;
const UNKNOWN_FIELD = /\bUnrecognized (?:field|key|property)s?:\s*['"`]?([\w$.-]+)/i;

/** An edit the tool refused because the file it would write breaks that file's schema (Claude
 * Code validates its own settings.json so): the lesson is the check and the field it refused, not
 * one sentence of the agent's guess. The refusal's own words are the evidence. */
function schemaCheck(s: Step, err: string): Pick<Draft, 'category' | 'scope' | 'title' | 'text'> | undefined {
  if (!VALIDATION_FAILED.test(err) || !/\bschema\b/i.test(s.output)) return undefined;
  const target = Object.entries(s.call.input).find(([k, v]) => /path|file/i.test(k) && typeof v === 'string')?.[1];
  const file = typeof target === 'string' ? target.replace(/^.*[\\/]/, '') : undefined;
  if (!file) return undefined;
  const tool = toolLabel(s);
  const field = UNKNOWN_FIELD.exec(err)?.[1];
  const printed = /\b(?:full )?schema:\s*\{/i.test(s.output) ? ' (the refusal prints the schema)' : '';
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `${tool} checks ${file} against its schema`,
    text:
      `${code(tool)} refuses a change that leaves ${code(file)} outside the file's schema${printed}: ${code(clip(err, 140))}.` +
      (field ? ` ${code(field)} is no field of it: check the schema before adding a key.` : ''),
  };
}

/** `Tool execution denied by policy. You are in Plan Mode and cannot modify source code. You may
 * ONLY use write_file or replace to save plans …`. */
const MODE_REFUSAL = /\bdenied by policy\b|\byou are in plan mode\b/i;
/** An edit refused because the file changed after the agent last read it. */
const STALE_READ = /\b(?:modified|changed) since (?:it was )?(?:last )?read\b/i;
/** An edit refused because the agent never read the file ("File has not been read yet. Read it
 * first before writing to it."): the same guard, whose message names its remedy. */
const NOT_READ_YET = /\bhas not been read yet\b/i;

/** A call whose input broke the tool's schema ("Output does not match required schema: /findings:
 * must be array", "InputValidationError: … is required", "Content is required for 'add' action."). */
const SCHEMA_ERROR = /does not match (?:the )?(?:required |expected )?schema|InputValidationError|invalid (?:input|parameters?|arguments?)\b|must be (?:an? )?(?:array|string|object|number|boolean|integer)\b|(?:required|missing) (?:property|parameter|field)|\b[\w'"]+ (?:is|are) required (?:for|when|with)\b|unexpected (?:property|parameter|field|key)/i;

/** A tool's answer that an id it was given names nothing (`No task found with ID: ba2w6cftq`,
 * `Shell 3 not found`, `job abc123 does not exist`). */
const ID_NOT_FOUND = /\bno (?:task|shell|job|process|session|agent|background \w+) (?:found )?with (?:the )?id\b|\b(?:task|shell|job|process|session)(?: id)? [\w-]*\d[\w-]* (?:not found|does not exist|is not running)\b/i;

/** A tool's message that tells the caller what to do ("…; rerun exec_command with tty=true", "use
 * X instead", "did you mean …?"). */
const SAYS_WHAT_TO_DO = /[;:,.]\s*(?:re-?run|use|try|pass|set|call|run|add|specify|provide)\b|\binstead\b|\bdid you mean\b/i;

/** A tool's error sent as JSON (`{"error": "Database error: …"}`): its message is the error. */
function jsonErrorMessage(err: string): string {
  const m = /^\{\s*"(?:error|message|detail)"\s*:\s*("(?:[^"\\]|\\.)*")\s*\}$/.exec(err.trim());
  if (!m) return err;
  try {
    const said = JSON.parse(m[1]!) as string;
    return said.trim() === '' ? err : said;
  } catch {
    return err;
  }
}

function toolRefusal(view: SessionView, s: Step): Draft | undefined {
  const stated = aiderError(view, s) ?? aiderFormatNotice(view, s);
  const err = stated ?? jsonErrorMessage(errorLine(s.output, 200));
  // the agent's own malformed call, put right by its next call of the same tool: the tool's
  // contract is in its schema, and the session teaches nothing beyond it
  if (SCHEMA_ERROR.test(s.output) && view.steps.slice(s.pos + 1, s.pos + 4).some((r) => r.call.name === s.call.name && !r.failed && !r.rejected)) return undefined;
  // "No task found with ID: ba2w6cftq": a refusal about one id of this session (a background
  // task, a job) is that id's story, and the id is gone with the session
  if (ID_NOT_FOUND.test(err)) return undefined;
  // the model never explains aider's parser: its next reply is about the task, not the refusal
  const aider = aiderEdit(view, s);
  const said = aider ? (formatReason(s.output, err) ?? err) : err;
  // (what the agent told the user, not its private reasoning: that is its first guess, in its
  // mood of the moment, "bombed due to a bad placeholder. Frustrating!")
  const until = Math.min(s.outputEvent + 8, nextPromptAfter(view, s.outputEvent));
  const why = stated || aider ? undefined : explain(view.events.filter((e) => e.kind === 'assistant' && e.index > s.outputEvent && e.index < until), err, 5);
  const cause = aider ? aiderEditCause(view, s) : undefined;
  if (aider && cause === undefined && (bareFormatNotice(s.output, err) || HUNK_NO_MATCH.test(said))) return undefined;
  const other = aider ? undefined : siblingInstead(view, s);
  // a refusal nobody explained, whose words do not say what to do and that no other tool got
  // round, is only the error, which the next session reads for itself
  if (!aider && !why && !other && !SAYS_WHAT_TO_DO.test(err)) return undefined;
  return {
    category: 'tool-quirk',
    // a tool this setup gave the agent (an MCP server's, `mcp__server__tool`, or one of a set whose
    // sibling answered in its stead) is there where the setup is: the repository's, not the agent's
    scope: s.call.name.startsWith('mcp__') || other !== undefined ? 'repo' : 'agent',
    // (the way round, when there is one, is what the title says: reviewers retitled the raw error)
    title: aider ? aiderTitle(s.output, err, cause) : other ? `${s.call.name} fails here: ${other.tool} answered instead` : `${s.call.name}: ${clip(err, 60)}`,
    text: `${aider ? aiderRejects(s.output, err, cause === undefined, committedAfter(view, s)) : `The ${code(s.call.name)} tool refuses with ${code(err)}.`}${why ? ` ${why.text}` : ''}${cause ? ` ${cause.text}` : ''}${other ? ` ${other.text}` : ''}`,
    confidence: CONFIDENCE.stated,
    event: s.outputEvent,
    tags: [s.call.name],
    quotes: [err],
    rule: 'tool-quirk',
    signature: errorSignature(causeSigned(said, cause)),
    score: 5,
  };
}

/** A tool of the same set (`pg_schemas` → `pg_tables`, one MCP server's tools) that the agent's
 * next call used instead, and that answered: the way round the refusal. */
function siblingInstead(view: SessionView, s: Step): { tool: string; text: string } | undefined {
  const set = toolSet(s.call.name);
  if (set === undefined) return undefined;
  const next = view.steps[s.pos + 1];
  if (!next || next.call.name === s.call.name || toolSet(next.call.name) !== set || next.failed || next.rejected || next.result === undefined || next.output.trim() === '') return undefined;
  const args = JSON.stringify(next.call.input);
  return { tool: next.call.name, text: `${code(next.call.name)}${args === '{}' ? '' : ` (${code(clip(args, 60))})`} answered instead.` };
}

/** The set a tool belongs to: an MCP server's (`mcp__github__…`) or a shared prefix (`pg_…`). */
function toolSet(name: string): string | undefined {
  const mcp = /^mcp__([^_]+(?:_[^_]+)*)__/.exec(name);
  if (mcp) return `mcp:${mcp[1]}`;
  const prefix = /^([a-z][a-z0-9]*)_[a-z]/.exec(name);
  return prefix ? prefix[1] : undefined;
}


/** The later run of a step's command (or its main command) that asked to leave the sandbox and
 * went through. */
function escalatedRetry(view: SessionView, s: Step): Step | undefined {
  return view.steps.find((r) => r.pos > s.pos && !r.failed && !r.rejected && r.command !== undefined && (r.command === s.command || (r.main !== '' && r.main === s.main)) && escalation(r.call.input) !== undefined);
}

/**
 * A command the sandbox refused ("Operation not permitted" writing `.git/index.lock`) that then
 * ran when the agent asked to leave the sandbox for it: which commands need that, and how to ask.
 * A permission error nothing resolved is a symptom without a lesson: no item.
 */
function permission(view: SessionView, s: Step): Draft | undefined {
  if (!s.command) return undefined;
  const retry = escalatedRetry(view, s);
  if (!retry) return undefined;
  const err = errorLine(s.output, 160);
  const shown = shownCommand(s.command);
  // the sandbox's own runner failing ("CreateProcessAsUserW failed", bubblewrap's `bwrap: …`
  // when the machine will not let it set up its network) stops every command before it starts:
  // the item is about the sandbox, not this command
  const runner = BWRAP_ERROR.exec(s.output)?.[0];
  if (runner !== undefined || (SANDBOX_REFUSAL.test(s.output) && !PERMISSION.test(s.output))) {
    const shownErr = runner ?? err;
    const editedInside = view.steps.find((x) => isEditStep(x) && !x.failed && !x.rejected && x.result !== undefined && escalation(x.call.input) === undefined);
    return {
      category: 'tool-quirk',
      scope: 'agent',
      // (the machine's doing: a container that will not let the sandbox set up its network)
      title: 'When the sandbox cannot start commands, ask to leave it for each one',
      // (the agent's own file edits do not go through the sandbox's runner: where one worked
      // inside it, only commands need the escalation)
      // (said as a condition: an item of the agent is read on every machine, and the sandbox
      // fails so only on some; a reviewer read "on this machine, always escalate" as wrong elsewhere)
      text: `Where commands in the sandbox fail before they start with ${code(shownErr)}, the sandbox cannot run them on that machine at all: the same commands ran when the call asked to leave the sandbox (${code(escalation(retry.call.input)!)}${typeof retry.call.input.justification === 'string' ? ' with a `justification`' : ''}; the user approves each call). After that error once, ask for it from the next command on.${editedInside ? ` File edits (${code(editedInside.call.name)}) worked without it.` : ''}`,
      confidence: CONFIDENCE.verified,
      event: s.outputEvent,
      tags: [s.call.name, 'sandbox'],
      quotes: [shownErr],
      rule: 'tool-quirk',
      signature: `sandbox-runner:${errorSignature(shownErr)}`,
      score: 6,
    };
  }
  // a write refused inside the repository's `.git` folder (`.git/index.lock`): the sandbox gives
  // the working tree but not git's own folder, so every git command that writes refs or the index
  // fails the same way, whichever it is
  // (whichever program wrote there: a script's own `git checkout -b` is refused the same way)
  if (GIT_DIR_PATH.test(err)) {
    // the git writes the session then ran outside the sandbox (what it saw need it; a list of
    // commands it never ran would be a guess) and the error with the checkout's path left out
    // (`'…/inkflow/.git/index.lock'` is this machine's)
    const escalated = [...new Set(view.steps.filter((r) => r.program === 'git' && !r.failed && !r.rejected && escalation(r.call.input) !== undefined && r.family && !GIT_READS.test(r.family)).map((r) => r.family))];
    const shownErr = err.replace(/(['"]?)[^\s'"]*?[\/\\](\.git[\/\\])/g, '$1$2');
    const ran = escalated.length > 1 ? ` (here ${escalated.slice(0, -1).map((f) => code(f)).join(', ')} and ${code(escalated.at(-1)!)})` : '';
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: "The sandbox keeps the repository's .git read-only: git writes need escalation",
      text: `The sandbox lets commands write the working tree, not the repository's ${code('.git')}: ${code(s.family || 'git')} failed with ${code(clip(shownErr, 110))}, then ran with ${code(escalation(retry.call.input)!)} (the user approves). Ask for that from the first git command that writes${ran}.`,
      confidence: CONFIDENCE.verified,
      event: s.outputEvent,
      tags: [s.call.name, 'sandbox', 'git'],
      quotes: [shownErr],
      rule: 'tool-quirk',
      signature: 'sandbox:git-dir',
      score: 6,
    };
  }
  // the other commands the same refusal stopped that then ran outside the sandbox: one lesson,
  // told once from the first of them (a reviewer found the item naming one of two too narrow)
  const blocked = view.steps.filter((x) => x.failed && x.command !== undefined && quirkKind(x) === 'permission' && errorLine(x.output, 160) === err && escalatedRetry(view, x) !== undefined);
  if (blocked.length > 0 && blocked[0] !== s) return undefined;
  const name = (x: Step): string => x.family || x.program || clip(shownCommand(x.command!), 40);
  const names = [...new Set(blocked.map(name))].slice(0, 3);
  const what = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : name(s);
  const several = names.length > 1;
  const commands = [...new Set(blocked.map((x) => code(clip(shownCommand(x.command!), 50))))].slice(0, 3);
  const shownAll = several ? `${commands.slice(0, -1).join(', ')} and ${commands.at(-1)}` : code(clip(shown, 80));
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `The sandbox blocks ${what}: rerun ${several ? 'them' : 'it'} with escalated permissions`,
    text: `In the sandbox ${shownAll} ${several ? 'fail' : 'fails'} with ${code(err)}; the same ${several ? 'commands' : 'command'} ran when the call asked to leave the sandbox (${code(escalation(retry.call.input)!)}, which the user approves).`,
    confidence: CONFIDENCE.verified,
    event: s.outputEvent,
    tags: [s.call.name, 'sandbox', s.family],
    quotes: [err],
    rule: 'tool-quirk',
    signature: `sandbox:${s.family || s.program}`,
    score: 6,
  };
}

/** git commands that only read the repository (`git ls-remote` asks the network, which the
 * sandbox may block too): never what the `.git` lesson is about. */
const GIT_READS = /^git (?:ls-remote|status|log|diff|show|rev-parse|remote|describe|blame|grep|ls-files|branch)$/;

/** A path inside git's own folder (`'…/dotfiles/.git/index.lock'`, `.git\\refs\\heads`). */
const GIT_DIR_PATH = /(?:^|[\s'"\/\\])\.git[\/\\]/;

/** bubblewrap (Codex's Linux sandbox) reporting its own failure, as the stderr of the command it
 * could not start (`bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted`). */
const BWRAP_ERROR = /\bbwrap: [^"\\\n]+/;

/** `connect EPERM 127.0.0.1:6379`: the system forbade the connection (nothing listening would
 * say ECONNREFUSED); an agent's sandbox without network access does that, to local services too. */
const NETWORK_DENIED = /\bconnect EPERM\b/;

/** A command that could not reach a service because the sandbox forbids connections: whatever
 * error the program reports on top (a database client's, a test runner's), the lesson is the
 * sandbox's, and how to ask to leave it (verified when a call that did so then ran). */
function networkDenied(view: SessionView, s: Step): Draft | undefined {
  if (!s.command) return undefined;
  const err = /connect EPERM [^\s'"`)]+/.exec(s.output)?.[0] ?? 'connect EPERM';
  const retry = view.steps.find((r) => r.pos > s.pos && !r.failed && !r.rejected && r.main === s.main && escalation(r.call.input) !== undefined);
  const ask = retry ? code(escalation(retry.call.input)!) : ASK_TO_LEAVE[view.session.agent];
  const local = /EPERM (?:127\.0\.0\.1|localhost|::1)\b/.test(err) ? ', even to services on this machine' : '';
  return networkDraft(
    s,
    err,
    'The sandbox blocks network connections: commands that need a service fail',
    `The sandbox forbids network connections${local}: ${code(clip(shownCommand(s.command), 60))} failed with ${code(err)}. A command that needs a database, a cache or any other service must run outside the sandbox${ask ? ` (${ask}, which the user approves)` : ''}${retry ? '; it then ran' : ''}.`,
    retry ? CONFIDENCE.verified : CONFIDENCE.stated,
  );
}

/** The sandbox's one network lesson, however a session showed it (one signature: they merge). */
function networkDraft(s: Step, err: string, title: string, text: string, confidence: number): Draft {
  return { category: 'tool-quirk', scope: 'agent', title, text, confidence, event: s.outputEvent, tags: [s.call.name, 'sandbox', 'network'], quotes: [err], rule: 'tool-quirk', signature: 'sandbox:network', score: 6 };
}

/** A host name that did not resolve (`ssh: Could not resolve hostname github.com`, curl's
 * `Could not resolve host: pypi.org`, Node's `getaddrinfo ENOTFOUND`). */
const NAME_UNRESOLVED = /ssh: Could not resolve hostname [^\s:]+|Could not resolve host:? [^\s'"`]+|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) [^\s'"`]+|Temporary failure in name resolution/;

/** A sandbox without network access shows as host names that do not resolve. An offline machine
 * says the same, so the sandbox is named only where the same command, asked to leave it, then
 * ran without the error; a pipe or `|| true` can hide the failure from the exit code, so the
 * output, not the exit, says it failed. */
function sandboxNameLookup(view: SessionView): Draft | undefined {
  for (const s of view.steps) {
    if (!s.command || s.main === '' || escalation(s.call.input) !== undefined) continue;
    const err = NAME_UNRESOLVED.exec(s.output)?.[0];
    if (err === undefined) continue;
    const retry = view.steps.find((r) => r.pos > s.pos && !r.failed && !r.rejected && r.main === s.main && escalation(r.call.input) !== undefined && !NAME_UNRESOLVED.test(r.output));
    if (!retry) continue;
    // (the command line's other parts, a `| grep` or `|| true`, are this task's)
    const hidden = !s.failed ? ' (the whole command line still exited 0)' : '';
    return networkDraft(
      s,
      err,
      'The sandbox has no network: host names do not resolve',
      `The sandbox gives commands no network: ${code(clip(s.main, 70))} failed with ${code(clip(err, 70))}${hidden}, and the same command ran when the call asked to leave the sandbox (${code(escalation(retry.call.input)!)}, which the user approves). Ask for that for any command that needs the network (a fetch, a push, an install).`,
      CONFIDENCE.verified,
    );
  }
  return undefined;
}

/** How each agent's call asks to leave its sandbox. */
const ASK_TO_LEAVE: Readonly<Record<string, string>> = { codex: '`sandbox_permissions: "require_escalated"`', 'claude-code': '`dangerouslyDisableSandbox: true`' };

/** Parallel calls that failed only because a sibling failed (one quirk per session). */
function cascade(view: SessionView): Draft | undefined {
  const cascaded = view.steps.filter((s) => s.cascade);
  if (cascaded.length === 0) return undefined;
  const first = cascaded[0]!;
  const origin = [...view.steps.slice(0, first.pos)].reverse().find((s) => s.failed);
  const marker = errorLine(first.output, 80);
  const originText = origin ? ` (here ${code(origin.call.name)}, which failed with ${code(errorLine(origin.output, 60))})` : '';
  const rerun = cascaded.some((c) => view.steps.slice(c.pos + 1).some((l) => !l.failed && !l.cascade && l.call.name === c.call.name && JSON.stringify(l.call.input) === JSON.stringify(c.call.input)));
  return {
    category: 'tool-quirk',
    scope: 'agent',
    title: `One failing parallel call cancels its batch`,
    text: `When one call in a batch of parallel tool calls fails${originText}, the other calls return ${code(marker)} without running: they did nothing. Re-issue them once what failed is fixed${rerun ? ' (the re-issued calls succeeded)' : ''}.`,
    confidence: rerun ? CONFIDENCE.verified : CONFIDENCE.stated,
    event: first.outputEvent,
    tags: [first.call.name, 'parallel'],
    quotes: [marker],
    rule: 'tool-quirk',
    signature: errorSignature(marker),
    score: 6,
  };
}

/** Tools that search files by name or content: a cut result is a search too wide. */
const SEARCH_TOOLS = new Set(['Grep', 'Glob', 'grep', 'glob', 'search_file_content', 'codebase_search', 'file_search', 'FindFiles', 'SearchText']);

/** How much of a cut output Codex kept, from its own counts: the header's `Original token count`
 * less the tokens the marker says it took out. A reader of the item then knows how big a slice
 * to ask for. */
/** The agents' names as their makers write them. */
const AGENT_TITLE: Record<string, string> = { codex: 'Codex', 'claude-code': 'Claude Code', 'gemini-cli': 'Gemini CLI', aider: 'aider', hermes: 'Hermes' };

/** The lines the tool kept of each cut output (`omitted N of M lines`: M − N), when at least two
 * outputs were cut and each kept the same number. */
function sameLinesKept(view: SessionView, tool: string): number | undefined {
  const kept = new Set<number>();
  let cuts = 0;
  for (const x of view.steps) {
    if (x.call.name !== tool) continue;
    for (const m of x.output.matchAll(/omitted (\d+) of (\d+) lines/g)) {
      cuts++;
      kept.add(Number(m[2]) - Number(m[1]));
    }
  }
  return cuts >= 2 && kept.size === 1 ? [...kept][0] : undefined;
}

function keptOf(view: SessionView, s: Step, total: number): string {
  const output = s.output;
  const lines = /omitted (\d+) of (\d+) lines/.exec(output);
  // (older Codex also cuts by size: its line count can understate what is gone, a reviewer found
  // lines missing beyond it, so it is not turned into a count kept; the size cap is named where
  // one of the tool's outputs shows it, `[... output truncated to fit 10240 bytes ...]`)
  if (lines) {
    const bytes = view.steps.map((x) => (x.call.name === s.call.name ? /output truncated to fit (\d+) bytes/.exec(x.output)?.[1] : undefined)).find((b) => b !== undefined);
    const header = /^Total output lines: \d+$/m.test(output) ? 'after a `Total output lines: M` header' : '';
    const size = bytes !== undefined ? `it also cuts to ${bytes} bytes` : '';
    // (a cap every cut output of the tool shows alike is the tool's, and says how much to ask for
    // at once; a reviewer wanted "exactly 256 lines" where each of three outputs kept 256)
    const kept = bytes === undefined ? sameLinesKept(view, s.call.name) : undefined;
    const cap = kept !== undefined ? `every longer output here kept ${kept} lines` : '';
    return header || size || cap ? ` (${[header, size, cap].filter((p) => p !== '').join('; ')})` : '';
  }
  const tokens = /…(\d+) tokens truncated…/.exec(output);
  if (tokens && total > Number(tokens[1])) return ` (here about ${total - Number(tokens[1])} of ${total} tokens were kept, after an \`Original token count\` header)`;
  return '';
}

/** Output cut by the agent's tool (one quirk per tool). */
function truncation(view: SessionView): Draft[] {
  const seen = new Set<string>();
  const out: Draft[] = [];
  for (const s of view.steps) {
    const m = s.marks & MARK.cut ? TRUNCATED.exec(s.output) : null;
    if (!m) continue;
    const tool = s.call.name;
    if (seen.has(tool)) continue;
    seen.add(tool);
    // the marker in its general form: this output's counts ("omitted 0 of 67 lines") mislead
    const marker = clip(m[0].replace(/omitted \d+ of \d+ lines/, 'omitted N of M lines').replace(/…\d+ tokens truncated…/, '…N tokens truncated…'), 80);
    // Claude Code keeps a preview and saves the whole output to a file its message names: the
    // next session reads that message too, and the item would repeat it (a reviewer found)
    if (/Output too large \([^)]*\)\. Full output saved to:/.test(s.output)) continue;
    // what to do next depends on whether the call was a search or a read
    const search = SEARCH_TOOLS.has(tool);
    const asked = /N tokens/.test(marker) && typeof s.call.input.max_output_tokens === 'number' ? s.call.input.max_output_tokens : undefined;
    // the output's size in tokens (the view takes the header off an output it begins, and keeps its count)
    const total = s.outputTokens ?? Number(/^Original token count: (\d+)$/m.exec(s.output)?.[1] ?? 0);
    // (which release of the agent: its tools and their caps change between releases, and a
    // reviewer asked which one kept 256 lines)
    const release = view.session.agentVersion ? ` of ${AGENT_TITLE[view.session.agent] ?? view.session.agent} ${view.session.agentVersion}` : '';
    const advice = search
      ? `narrow the search (a path, a glob, a more specific pattern) instead of reading past the cut`
      : `read large files or logs in slices (\`sed -n 'a,bp'\`, a search) instead of dumping them`;
    out.push({
      category: 'tool-quirk',
      scope: 'agent',
      title: `${tool} output is truncated`,
      // (Codex's marker stands where lines were taken out: the head and the tail are kept)
      text: asked !== undefined
        ? // (newer Codex keeps as many tokens as the call asks for: the cap is the call's own argument)
          `The ${code(tool)} tool${release} keeps the head and the tail of a long output, as many tokens as the call's ${code('max_output_tokens')} asks for (here ${asked}${total > asked ? ` of ${total}` : ''}), and puts ${code(marker)} in place of the middle; ask for more with a larger ${code('max_output_tokens')}, or narrow the command.`
        : /N of M lines|N tokens/.test(marker)
        ? `The ${code(tool)} tool${release} truncates long output: it keeps the head and the tail and puts ${code(marker)} in place of the middle${keptOf(view, s, total)}; ${advice}.`
        : `The ${code(tool)} tool${release} truncates long output (marked ${code(marker)}); ${advice}.`,
      confidence: CONFIDENCE.stated,
      event: s.outputEvent,
      tags: [tool, 'output'],
      quotes: [marker],
      rule: 'tool-quirk',
      // (one lesson per tool: what caps the output, and what to do, is the tool's)
      signature: errorSignature(`${tool} ${marker}`),
      score: 5,
    });
  }
  return out;
}

/** A command killed when its time ran out: SIGTERM's exit code (143) or the tool saying so. */
const KILLED_AT_TIMEOUT = /^Exit code 143\b|\bcommand timed out\b/im;

/** Commands moved to the background when they outlive the tool's timeout. */
function backgrounded(view: SessionView): Draft | undefined {
  for (const s of view.steps) {
    const m = s.marks & MARK.background ? BACKGROUND.exec(s.output) : null;
    if (!m) continue;
    // the agent asked for the background itself (`run_in_background: true`): the tool moved nothing
    if (s.call.input.run_in_background === true || s.call.input.background === true) continue;
    // a later call of the same tool killed at its timeout (exit 143, SIGTERM) shows the tool does
    // not always move a slow command aside: the rule would be wrong as stated
    if (view.steps.some((l) => l.pos > s.pos && l.call.name === s.call.name && KILLED_AT_TIMEOUT.test(l.output))) return undefined;
    const id = m[1]!;
    const follow = view.steps.slice(s.pos + 1, s.pos + 6).find((l) => JSON.stringify(l.call.input).includes(id) && l.call.name !== s.call.name);
    const timeout = typeof s.call.input.timeout === 'number' ? s.call.input.timeout : undefined;
    const how = follow ? `; collect its output with ${code(follow.call.name)}${follow.call.input.block === true ? ' (block: true)' : ''} or read the .output file` : '; read its .output file later';
    const cmd = s.command ? ` ${code(clip(shownCommand(s.command), 60))}` : '';
    // the task's id is this session's: the message is shown without it
    const said = m[0].replace(id, '<id>');
    // Claude Code's Bash takes run_in_background: a job known to be long can go there at once
    const ahead = s.call.name === 'Bash' && view.session.agent === 'claude-code' ? ` For a job known to be long, pass ${code('run_in_background: true')} from the start.` : '';
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `${s.call.name} moves slow commands to the background`,
      text: `A${cmd} call to the ${code(s.call.name)} tool that ${timeout !== undefined ? `reached its timeout (here ${timeout} ms)` : 'ran long'} was not killed: it went on in the background (${code(clip(said, 60))}), running until it ends or is stopped${how}.${ahead}`,
      confidence: follow ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: s.outputEvent,
      tags: [s.call.name, ...(follow ? [follow.call.name] : []), 'timeout'],
      quotes: [clip(said, 80)],
      rule: 'tool-quirk',
      score: 6,
    };
  }
  return undefined;
}

/** Codex's older shell tool in its sandbox (0.4x on macOS): any non-zero exit comes back as
 * `failed in sandbox: ` and the command's stderr, with no exit code, whatever the sandbox did
 * (not its own kills: `failed in sandbox: sandbox error: …`). */
const SANDBOX_WRAPPED = 'failed in sandbox: ';

/** A failure's wrapper text and the stderr it wraps: `… stderr: <text>`, or Codex's sandbox form. */
function wrappedError(output: string): { prefix: string; stderr: string } | undefined {
  if (output.startsWith(SANDBOX_WRAPPED)) {
    const stderr = output.slice(SANDBOX_WRAPPED.length);
    return stderr.startsWith('sandbox error') ? undefined : { prefix: SANDBOX_WRAPPED.trim(), stderr: oneLine(stderr) };
  }
  if (!/stderr:/i.test(output)) return undefined;
  const [head, stderr] = oneLine(output).split(/stderr:/i);
  const prefix = head!.replace(/\d+/g, 'N').split(/[,;]/)[0]!.trim();
  return prefix.length < 20 ? undefined : { prefix, stderr: stderr ?? '' };
}

/** The program's own error line in a wrapped stderr, the last one (`E   TypeError: …` under
 * pytest's traceback, `ModuleNotFoundError: …`), from the first step that has one. */
function ownError(steps: readonly Step[]): string | undefined {
  for (const s of steps) {
    const stderr = s.output.startsWith(SANDBOX_WRAPPED) ? s.output.slice(SANDBOX_WRAPPED.length) : s.output;
    const lines = stderr.split('\n').filter((l) => /^(?:E\s+)?[\w.]*(?:Error|Exception)\b: \S/.test(l));
    if (lines.length > 0) return lines[lines.length - 1]!.replace(/^E\s+/, '').trim();
  }
  return undefined;
}

/**
 * A wrapper message that hides the real error: several failures start with the same text while
 * their stderr says different things (e.g. a sandbox reporting every non-zero exit as a denial).
 */
function wrapperMessage(view: SessionView): Draft | undefined {
  const byPrefix = new Map<string, Step[]>();
  for (const s of view.steps) {
    const wrapped = s.failed ? wrappedError(s.output) : undefined;
    if (wrapped) byPrefix.set(wrapped.prefix, [...(byPrefix.get(wrapped.prefix) ?? []), s]);
  }
  for (const [prefix, steps] of [...byPrefix.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const causes = [...new Set(steps.map((s) => errorLine(wrappedError(s.output)!.stderr, 70)))].filter(Boolean);
    if (steps.length < 2 || causes.length < 2) continue;
    const first = steps[0]!;
    // "every" only when no failure of the tool came back otherwise; the stderr lines are this
    // session's errors, kept as evidence, not in the text
    const every = view.steps.every((x) => !x.failed || x.call.name !== first.call.name || steps.includes(x));
    const subject = every ? `Every failing ${code(first.call.name)} command is reported` : `A failing ${code(first.call.name)} command can be reported`;
    // (Codex's form names no exit code: the command's own failure reads as the sandbox's)
    const text =
      prefix === SANDBOX_WRAPPED.trim()
        ? `${every ? 'Every' : 'A'} ${code(first.call.name)} command that exits non-zero in the sandbox comes back as ${code(SANDBOX_WRAPPED.trim())} followed by its own stderr, with no exit code: the sandbox did not stop it (here ${code(clip(ownError(steps) ?? causes[0]!, 110))}). Read that stderr before blaming the sandbox.`
        : `${subject} as ${code(clip(prefix, 110))} although its stderr shows the real error; read stderr before assuming that message.`;
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `Misleading failure message from ${first.call.name}`,
      text,
      confidence: CONFIDENCE.verified,
      event: first.outputEvent,
      tags: [first.call.name, 'stderr'],
      quotes: causes.slice(0, 2),
      rule: 'tool-quirk',
      signature: errorSignature(prefix),
      score: 6,
    };
  }
  return undefined;
}

const INCOMPLETE = /\b(?:was interrupted|is incomplete|incomplete\b|unable to (?:review|finish|complete|analy[sz]e)|could not (?:finish|complete|review))/i;

/** A subagent that reports success while its own findings say the work stopped short. */
function incompleteDelegation(view: SessionView): Draft | undefined {
  for (const s of view.steps) {
    if (!DELEGATE_TOOLS.has(s.call.name) || s.failed || s.rejected) continue;
    const m = INCOMPLETE.exec(s.output);
    if (!m) continue;
    const status = /(?:Termination Reason|status):\s*(\w+)/i.exec(s.output);
    const agent = /Subagent '([\w-]+)'/.exec(s.output)?.[1];
    const statusText = status ? ` (${code(clip(status[0], 40))})` : '';
    const said = sentences(s.output).find((x) => INCOMPLETE.test(x));
    return {
      category: 'tool-quirk',
      scope: 'agent',
      title: `${s.call.name} can return incomplete work as done`,
      text: `${code(s.call.name)}${agent ? ` (${code(agent)})` : ''} can finish${statusText} while its report says the work is incomplete${said ? ` ("${clip(said, 120)}")` : ''}; read the report and cover what it skipped.`,
      confidence: CONFIDENCE.stated,
      event: s.outputEvent,
      tags: [s.call.name, ...(agent ? [agent] : [])],
      quotes: [clip(m[0], 80)],
      rule: 'tool-quirk',
      score: 5,
    };
  }
  return undefined;
}

export function toolQuirkDrafts(view: SessionView): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  const push = (d: Draft | undefined): void => {
    if (!d) return;
    const key = `${d.title}|${d.signature ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    drafts.push(d);
  };
  for (const s of view.steps) {
    if (!s.failed) {
      if (s.marks & MARK.module && showsMissingModule(s.output)) push(missingModule(view, s));
      continue;
    }
    switch (quirkKind(s)) {
      case 'missing-command':
        push(missingCommand(view, s));
        break;
      case 'missing-module':
        push(missingModule(view, s));
        break;
      case 'permission':
        push(permission(view, s));
        break;
      case 'network-denied':
        push(networkDenied(view, s));
        break;
      case 'too-large':
        push(tooLarge(view, s));
        break;
      case 'edit-refused':
        if (!failsEveryTool(view, s)) push(editRefused(view, s));
        break;
      case 'tool-refusal':
        if (!failsEveryTool(view, s)) push(toolRefusal(view, s));
        break;
      default:
        break;
    }
  }
  push(cascade(view));
  push(sandboxNameLookup(view));
  for (const d of truncation(view)) push(d);
  push(backgrounded(view));
  push(wrapperMessage(view));
  push(incompleteDelegation(view));
  return drafts;
}

/** Whether the step's error came from three or more different tools of the session: then the
 * environment fails (a broken shell, a missing device), not the one tool an item would name. */
function failsEveryTool(view: SessionView, s: Step): boolean {
  const err = errorLine(s.output, 200);
  // the message inside a tool's JSON envelope (`{"error": "[Errno 2] …"}`), which others print bare
  const core = (/"error"\s*:\s*"((?:[^"\\]|\\.)+)"/.exec(err)?.[1] ?? err).trim();
  if (core.length < 12) return false;
  const tools = new Set<string>();
  for (const r of view.steps) if (r.failed && r.output.includes(core)) tools.add(r.call.name);
  return tools.size >= 3;
}

export const toolQuirks: RuleExtractor = ruleExtractor('tool-quirk', toolQuirkDrafts);
