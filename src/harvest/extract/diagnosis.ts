/**
 * Reading failures: which output line states the error, and which sentence the agent wrote
 * afterwards that explains it. Shared by the error → fix and tool-quirk rules.
 */
import type { SessionEvent } from '../../sessions/model.js';
import { DEBUG_LINE } from '../../sessions/readers/outcome.js';
import { TextCache } from './text-cache.js';
import { emptyList } from '../../core/elements-kind.js';
import { NARRATION, cleanText, clip, concreteness, literalNewlines, oneLine, plainApostrophes, overlap, sentences, words } from './text.js';

/** A shell's prompt, with the command typed after it: `user@host dir % cmd`, `$ cmd`, and
 * PowerShell's `PS C:\work> cmd` (a terminal that replays its screen shows several). */
const PROMPT_LINE = /^\S+@\S+ .*[%$#]\s|^[❯$>]\s|^PS (?:[A-Za-z]:)?[\\/][^>]*>/;
const EXCEPTION_LINE = /^\s*(?:[\w.]*(?:Error|Exception)|Traceback|panic|SyntaxWarning|DeprecationWarning)\b.*?:/;
/** Words after "error" that make it a heading naming errors ("Error messages: …", "Error
 * handling:" in a spec or a report), not an error. */
export const NAMES_ERRORS = String.raw`(?!\s+(?:messages?|handling|states?|codes?|cases?|pages?|boundar\w*|types?|reporting|logging)\b)`;
// ("npm ERR!" ends in no word character: a \b after it would never match)
const FATAL_LINE = new RegExp(String.raw`^\s*(?:(?:fatal|(?:error|ERROR|Error)${NAMES_ERRORS}|FAIL(?:ED)?)\b|npm ERR!)`);
const STRONG =
  /command not found|no such file|not found|permission denied|denied|failed|cannot|can't|unable to|invalid|exceeds|refused|timed out|timeout|no upstream|not allowed|are ignored|is not|does not exist|already exists|not a valid|expected|undefined|missing|unknown/i;
/** A line that only names a place in a file (`./src/components/AnimalList.tsx:78:54`). */
const FILE_POSITION = /^\.{0,2}\/?[\w./@-]+:\d+(?::\d+)?$/;
/** Lines that say nothing of what went wrong: the exit status alone, the word "Error" alone (Claude
 * Code's answer for a command that failed silently, as `git config <unset key>` does), ssh failing
 * to open its yes/no prompt (`ssh_askpass: exec(…): No such file or directory`: how it tried to
 * ask, before the line saying what it asked about), rules, carets, stack frames, hints. */
const NOISE = /^(?:(?:Exit code:? |exit status |Process exited with code )-?\d+|(?:error|Error|ERROR)[.!:]?|ssh_askpass: .*|\^+|~+|-+|=+|\s*at .+:\d+:\d+\)?|hint: .*)$/;
/** A line of a code frame or a diff a checker prints (`33 │ - ····x,`, `35 30 │ foo(`): the
 * source quoted back, never the error. */
const CODE_FRAME = /^(?:\d+\s+){1,2}[│┃|]|^[·\s]+[│┃|]/;

/** The line of a failing output that states the error, trimmed (at most `max` characters). */
export function errorLine(output: string, max = 180, joinNext = true): string {
  const found = errorLineIn(output);
  if (found.inner) {
    const inner = errorLine(found.inner, max, joinNext);
    if (inner) return inner;
  }
  const { next } = found;
  const pick = withoutTypeLiteral(found.pick, found.after);
  // A line cut mid-phrase by the terminal's width ("… already exists and" / "is not an empty directory.").
  const wrapped = /\b(?:and|or|to|the|a|an|of|in|for|with|is|not|be)$/.test(pick) && next !== undefined && /^[a-z]/.test(next);
  // "regex parse error:" / the input echoed / a caret under the spot (dropped as noise) / "error:
  // unclosed character class" (ripgrep): what went wrong is the error line after the echo
  const pointed = pick.endsWith(':') && found.after.length >= 2 && /^error:\s+\S/i.test(found.after[1]!) ? found.after[1]!.replace(/^error:\s*/i, '') : undefined;
  // "npm error code ETARGET" names the kind; npm's next line says what ("npm error notarget No
  // matching version found for …"), its own prefix and the code's word left out
  const npmCode = joinNext && next !== undefined ? NPM_CODE.exec(pick) : null;
  const npmDetail = npmCode ? next!.replace(NPM_PREFIX, '').replace(/^[a-z]+\s+(?=[A-Z])/, '') : undefined;
  let joined = npmDetail && npmDetail !== next ? `${pick}: ${npmDetail}` : joinNext && pointed ? `${pick} ${pointed}` : (joinNext && pick.endsWith(':') && next && next.length < 80) || wrapped ? `${pick} ${next}` : pick;
  // a chain of lead-ins, each ending in a colon ("… failed after edit:" / "Settings validation
  // failed:" / "- : Unrecognized field: x"), says what went wrong only at its end
  for (let i = 1; joinNext && !pointed && !npmDetail && joined.endsWith(':') && i < 3 && (found.after[i]?.length ?? 80) < 80; i++) joined = `${joined} ${found.after[i]}`;
  return clip(joined.replace(/^stderr:\s*/i, ''), max);
}

/** The labels in front of an error that say only that something failed: a severity
 * (`fatal:`, `ERROR:`), a tool passing another's error on (`rg error: rg:`), npm's code line
 * (`npm error code ETARGET:`), PowerShell's record label (`+ FullyQualifiedErrorId :`). */
const ERROR_LABEL = /^(?:(?:error|fatal)\s*:\s*|[\w.-]+ error:\s*[\w.-]+:\s*|npm (?:ERR!|error) code E[A-Z0-9_]+:\s*|\+?\s*FullyQualifiedErrorId\s*:\s*)/i;

/** An error without the labels in front of it, for a title that names what failed
 * (`regex parse error: …`, not `ERROR: fatal: rg error: rg`; "minsky session fails: destination
 * path … already exists", not "… fails: fatal"). */
export function errorCore(err: string): string {
  let core = err;
  for (let m = ERROR_LABEL.exec(core); m !== null && m[0].length < core.length; m = ERROR_LABEL.exec(core)) core = core.slice(m[0].length);
  return core;
}

const NPM_CODE = /^npm (?:ERR!|error) code (E[A-Z0-9_]+)$/;
const NPM_PREFIX = /^npm (?:ERR!|error)\s+/;

/** "Type error: Type '{ customerID: number; animalname: string; … }' does not satisfy …", the
 * type often wrapped over lines: a long object type quoted in an error is this code's shape, and
 * what the checker says of it follows its closing quote. The type is shown as `'{…}'`. */
function withoutTypeLiteral(pick: string, after: readonly string[]): string {
  const open = pick.indexOf("'{");
  if (open < 0) return pick;
  let text = pick;
  for (let i = 0; i < after.length && !text.includes("}'", open); i++) text += ` ${after[i]}`;
  const close = text.indexOf("}'", open);
  if (close < 0 || close - open < 40) return pick;
  return `${text.slice(0, open)}'{…}'${text.slice(close + 2)}`;
}

interface FoundError {
  /** The stderr part of a wrapper message, when it has one to look in first. */
  inner?: string;
  pick: string;
  /** The line after `pick`. */
  next?: string;
  /** The few lines after `pick` (a quoted type can wrap over them). */
  after: readonly string[];
  /** Whether `pick` says something went wrong (not just the output's first line). */
  stated: boolean;
}

/** Whether a line of a failing output reads as an error by its words (an exception, "error",
 * "fatal", a failure mark, "not found", …), not only because it comes first: the last resort
 * of errorLine. */
export function statesError(output: string): boolean {
  const found = errorLineIn(output);
  return found.stated || (found.inner !== undefined && statesError(found.inner));
}

/** Where errorLine looks, whatever its length and joining: several rules ask about one failing
 * output (error-fix twice, tool-quirks), and splitting and testing its lines is the cost. */
function errorLineIn(output: string): FoundError {
  return foundCache.get(output, findErrorLine);
}
const foundCache = new TextCache<FoundError>(2000);

/** Codex prints a sandboxed command's stderr as a Rust value (`StreamOutput { text: "fatal: …\n",
 * truncated_after_lines: None }`), its quotes and line breaks escaped: the text is the stderr. */
function streamText(stderr: string | undefined): string | undefined {
  const m = stderr === undefined ? null : /^StreamOutput \{ text: \\?"((?:[^"\\]|\\.)*?)\\?"(?:, truncated|\s*\})/.exec(stderr);
  return m === null ? stderr : m[1]!.replace(/\\+n/g, '\n').replace(/\\+"/g, '"').replace(/\\+'/g, "'");
}

function findErrorLine(output: string): FoundError {
  // A wrapper message ("failed in sandbox …, stderr: …") hides the real error in stderr.
  const stderr = streamText(/\bstderr:\s*([\s\S]+)$/i.exec(output)?.[1]);
  const inner = stderr && stderr.trim().length > 0 ? stderr : undefined;
  const lines = literalNewlines(cleanText(output))
    .split('\n')
    .map((l) => l.trim())
    // (nor is a program's debug or trace log: `debug3: Failed to open file …` from `ssh -vvv`)
    .filter((l) => l.length > 0 && !PROMPT_LINE.test(l) && !NOISE.test(l) && !DEBUG_LINE.test(l) && !CODE_FRAME.test(l));
  const stated =
    lines.find((l) => EXCEPTION_LINE.test(l)) ??
    lines.find((l) => FATAL_LINE.test(l)) ??
    lines.find((l) => /\berror\b/i.test(l) && !/\b0 errors?\b/i.test(l)) ?? // "3:10  error  'x' is unused", "a.py:1: error: …"
    lines.find((l) => /^[×✖✗]\s/.test(l)) ?? // a checker's failure mark ("× Some errors were emitted while running checks.")
    lines.find((l) => STRONG.test(l));
  let pick = powershellRecordError(lines) ?? stated ?? lines[0] ?? '';
  // A Python traceback's head says one follows; its error is the exception line after the frames
  // (`xgboost.core.XGBoostError: XGBoost Library (libxgboost.dylib) could not be loaded.`).
  if (pick.startsWith('Traceback (most recent call last)')) pick = lines.slice(lines.indexOf(pick) + 1).find((l) => PYTHON_EXCEPTION.test(l)) ?? pick;
  // "Error: Command failed: git clone …" wraps the real error, printed on a later `fatal:` line.
  if (/\bcommand failed\b/i.test(pick)) pick = lines.slice(lines.indexOf(pick) + 1).find((l) => /^(?:fatal|error)\b/i.test(l)) ?? pick;
  // "Failed to compile." sums up a build; what failed follows, after the file it is in
  // ("./src/a.tsx:78:54", then "Type 'Animal' is missing the following properties …").
  if (/\bfailed to compile\b/i.test(pick)) pick = lines.slice(lines.indexOf(pick) + 1).find((l) => !FILE_POSITION.test(l) && (STRONG.test(l) || /\berror\b/i.test(l))) ?? pick;
  // "The following paths are ignored:" names the culprit on the next line.
  const at = lines.indexOf(pick);
  const next = lines[at + 1];
  return { ...(inner !== undefined ? { inner } : {}), pick, ...(next !== undefined ? { next } : {}), after: lines.slice(at + 1, at + 5), stated: stated !== undefined };
}

/** The line a Python traceback ends with: the exception's (qualified) name and its message. */
const PYTHON_EXCEPTION = /^(?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b(?::|$)/;

/** A PowerShell error record: its message, the place of the error (`At line:1 char:5`),
 * the command echoed on `+` lines, then `+ CategoryInfo : …` and `+ FullyQualifiedErrorId : …`.
 * The message says what went wrong (the invoking script's name in front of it left out); the
 * category line is a label. The id stands for it when it names the error itself
 * (`TerminatorExpectedAtEndOfString`, whatever the message's language), not when it is an
 * exception class or a `…,<script>` pair (`Microsoft.PowerShell.Commands.WriteErrorException,x.ps1`). */
function powershellRecordError(lines: readonly string[]): string | undefined {
  const category = lines.findIndex((l) => PS_CATEGORY.test(l));
  if (category < 0) return undefined;
  const id = lines.slice(category).map((l) => PS_ID.exec(l)?.[1]).find((x) => x !== undefined);
  if (id !== undefined && /^[A-Z][a-z]+(?:[A-Z][a-z]*)+$/.test(id) && !/(?:Exception|Error)$/.test(id)) return `+ FullyQualifiedErrorId : ${id}`;
  // the message ends where the command is echoed, after the line that gives its position
  const echo = lines.findIndex((l) => l.startsWith('+'));
  const end = echo < 0 ? category : echo > 0 && PS_POSITION.test(lines[echo - 1]!) ? echo - 1 : echo;
  const message = lines.slice(0, end).join(' ').replace(PS_INVOKER, '').trim();
  return message.length > 0 ? message : undefined;
}
const PS_CATEGORY = /^\+\s*CategoryInfo\s*:/;
const PS_ID = /^\+\s*FullyQualifiedErrorId\s*:\s*([\w.-]+(?:,[\w.-]+)?)/;
/** `At line:1 char:5`, `At C:\…\x.ps1:12 char:3`, `In Zeile:1 Zeichen:1`: PowerShell translates it. */
const PS_POSITION = /:\s*\d+\s+\S+\s*:\s*\d+\s*$/;
/** `C:\…\create-new-feature.ps1 : Usage: …`: the script or cmdlet that wrote the error. */
const PS_INVOKER = /^(?:[A-Za-z]:)?[^\s:]*[\w.-]+ : (?=\S)/;

const CAUSAL =
  /\b(?:came from|comes from|caused|because|since|due to|caused by|the (?:issue|problem|error|cause|reason|culprit|bug) (?:is|was)|root cause|this means|which means|means that|which is|which are|where|so the|requires?|needs? to|must|instead|rather than|isn't|is not|aren't|doesn't|does not|cannot|can't|already|missing|not (?:installed|available|found|on|tracked)|expects?|returns?|only|never|ignored|conflict|wrong|mismatch|opaque|tuple)\b/i;
const STRONG_CAUSE = /\b(?:the (?:problem|issue|root cause|cause|bug|culprit) (?:is|was)|root cause|because|caused by|due to|came from|comes from)\b/i;
/** "Good catch — …", "Ah, …": the explanation starts after the interjection. */
const INTERJECTION = /^(?:good catch|good point|great|perfect|ok(?:ay)?|right|yes|ah|oh|i see(?: that\b)?|got it|you'?re right|reproduced|confirmed)\b[!,.:;\s—–-]*/i;
const TRIVIAL = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'error', 'failed', 'line', 'file', 'code', 'exit']);

function errorWords(err: string): Set<string> {
  return new Set([...words(err)].filter((w) => !TRIVIAL.has(w)));
}

export interface Explanation {
  text: string;
  event: number;
}

/** Score of one sentence as the explanation of an error, or -Infinity when it cannot be one. */
export function explanationScore(s: string, errWords: Set<string>): number {
  return scoreOf(factsOf(s), errWords);
}

/** What scoring a sentence needs besides the error: all of it but the shared words is the same
 * whichever error it is weighed against, so it is worked out once per sentence (see explain). */
interface SentenceFacts {
  text: string;
  /** Too short, too long or a question: never an explanation. */
  excluded: boolean;
  causal: boolean;
  strong: boolean;
  concrete: number;
  firstPerson: boolean;
  words: Set<string> | undefined;
}

/** A guess is no explanation: a cause is stated only where the text says it is the cause (and an
 * option the agent weighs, "I could consider …", is none either). */
const HEDGE = /\b(?:maybe|perhaps|possibly|probably|might|may be|could be|i think|i suspect|i guess|it seems|seems? to|appears? to|looks like|not sure|likely|(?:i|we) could (?:consider|try|also|instead|either))\b/i;
/** "I don't have access to these files, but based on the error, …": the agent reasoning from the
 * error message alone, without the code that raised it, guesses as much as a hedge does. */
const UNSEEN_CODE = /\bi (?:don'?t|do not|can'?t|cannot) (?:have access to|see) (?:the|these|those|your|any)\b|\bi (?:don'?t|do not) have (?:the |any |your )?(?:actual |source )?(?:code|files?|source)\b|\bwithout (?:seeing|access to) the\b|\bbased (?:only |solely )?on the error\b/i;
/** "The problem is that line 584 has a string that …": a cause found at a numbered line is that
 * line of this version of the file, not what the next session meets. */
const AT_LINE = /\bline \d+(?: of `?[\w./-]+`?)? (?:has|is|contains|ends|starts|uses|lacks|misses|was)\b/i;

/** "I noticed the output shows an Error: …", "It says to install …", "there's an npm error about
 * …", "The instructions also say …" (a rule read back), "The errors are E0401, which
 * means pylint can't find …", "The main error showing in the browser is …": the error read back
 * (or its code's meaning, or which error is on screen), not why it happened. */
const READS_BACK = /\b(?:errors?|warnings?|issues?) (?:showing|shown|displayed|appearing) (?:in|on)\b|\b(?:instructions|guidelines|rules) (?:also )?(?:say|state|tell)\b|\bthere(?:'s| is| was) an? (?:[\w-]+ )?(?:error|warning) (?:about|saying|that says)\b|\b(?:i (?:noticed|see|saw|can see)|(?:it|this|the (?:output|log|logs|build|terminal|error|message)) (?:shows?|says|reports?|printed))\b|^(?:the|this|these|those) (?:errors?|warnings?) (?:is|are|was|were) [^,]{1,40},? which means\b/i;

/** "Let me know what package provides it", "please share the files": a request to the user,
 * not a finding. */
const ASKS_USER = /\b(?:let me know|please (?:share|provide|send|paste|add)|can you (?:share|provide|send|paste|add))\b/i;
/** "The plan is to move …", "Two small issues to fix: …", "Adding a mock so the test can run,
 * then re-running …": what the agent will do next, not why it failed. */
const PLAN = /^(?:(?:so|then|now|ok(?:ay)?),? )?(?:the|my|our) (?:plan|idea|next step|approach) (?:is|was|will be|would be)\b|^(?:(?:a|one|two|three|a few|some|several) )?(?:(?:small|minor|quick|last|remaining) )?(?:issues?|things?|problems?|errors?|nits?) (?:left )?to (?:fix|address|clean up|handle)\b|^(?:adding|updating|running|re-?running|checking|fixing|installing|creating|removing|trying|switching|moving|reading|mocking)\b[^.]*(?:\bso (?:that )?\w+ (?:can|will|could)\b|, then\b|\bto see\b)/i;

/** "There's still a type mismatch.", "The build still fails.": the problem remains, said again. */
const STILL_THERE = /^(?:there(?:'s| is| are)|it(?:'s| is)|this is|we (?:still )?have) still\b|\bstill (?:fails?|failing|broken|errors?|there|happening|occurs?|occurring)\b/i;

/** A line of code the agent quoted (`from x import y`, `def f(`): shows the code, explains nothing. */
const CODE_LINE = /^(?:from [\w.]+ import|import [\w.{*]|def \w+\(|class \w+[(:]|(?:const|let|var) \w+ =|function \w+\(|return\b|#include\b)/;

/** "because I didn't close the string", "I modified package.json to include …", "I need the
 * X package", "I'm mocking only …", "the only one from our code is …": the agent's own act, want
 * or code this session. Its slip is the story of this session, not why the code or the tool fails
 * for the next one (and its account of what it did was wrong as often as not). */
const OWN_ACT = /\b(?:from|in|by) (?:our|my) (?:own )?(?:code|changes?|edits?)\b|\bI(?:'ve| have)? (?:didn'?t|did not|forgot|modified|changed|added|removed|wrote|introduced|missed|mistakenly|accidentally|set|put|used|made|left|need (?:the|a|an)|realized?)\b|^I(?:'m| am) (?!going to\b)\w+ing\b/;

/** "I am unable to proceed with the requested Git operations because I cannot locate …": what
 * the agent could not do, not why the command failed. */
const AGENT_UNABLE = /\bI(?:'m| am) (?:unable|not able)\b|\bI (?:can(?:no|')t|could(?:n't| not)) (?:proceed|continue|locate|find|access|complete|perform|do)\b/;

function factsOf(s: string): SentenceFacts {
  // the agent's next step or plan ("Let me …", "We need to …") is never why something failed
  // a sentence that ends in ':' led in to a code block or a list ("… because `x.py` imports:"): alone it says nothing
  // a to-do item ("[x] Create the missing prisma.ts") is a step of the plan, and "There's still a
  // type mismatch." says the problem remains, not why
  // (the patterns are written with the plain apostrophe; models often write the typographic one: "I’m updating …")
  const t = plainApostrophes(s);
  const excluded = t.length < 20 || t.length > 400 || /[?:]$/.test(t) || /^\[[ xX]\]/.test(t) || STILL_THERE.test(t) || HEDGE.test(t) || UNSEEN_CODE.test(t) || ASKS_USER.test(t) || AT_LINE.test(t) || READS_BACK.test(t) || NARRATION.test(t) || CODE_LINE.test(t) || PLAN.test(t) || OWN_ACT.test(t) || AGENT_UNABLE.test(t);
  return {
    text: s,
    excluded,
    causal: !excluded && CAUSAL.test(t),
    strong: STRONG_CAUSE.test(t),
    concrete: excluded ? 0 : Math.min(2, concreteness(s)),
    firstPerson: !excluded && /^(?:I|I'm|I've|We|We're)\b/.test(t),
    words: excluded ? undefined : words(s),
  };
}

/** Words that say nothing beyond an error's own: function words, what a "not found" error
 * already means ("installed", "missing", "exist"), the kind of thing it names ("the `x`
 * function") and the error read back ("the error indicates that …"). */
const RESTATING = new Set(['the', 'and', 'not', 'was', 'are', 'this', 'that', 'its', 'there', 'has', 'have', 'been', 'yet', 'any', 'can', 'cannot', "can't", 'could', 'installed', 'missing', 'found', 'available', 'exist', 'exists', 'defined', 'present', 'because', 'why', 'happening', 'issue', 'problem', 'error', 'cause', 'reason', 'indicates', 'means', 'says', 'shows', 'function', 'variable', 'method', 'name', 'module', 'package',
  // where it happened, read back: "the current directory is not a git repository"
  'current', 'directory', 'folder', 'here', 'from', 'accessible']);

/** "The `minisweagent` module is not installed" for `No module named 'minisweagent'`: the error
 * said in other words, which tells the next session nothing the error does not. */
function restates(sentenceWords: Set<string>, errWords: Set<string>): boolean {
  for (const raw of sentenceWords) {
    // (a word keeps the dots of a file name, and so the full stop of the sentence's last word)
    const w = raw.replace(/[.]+$/, '');
    if (!errWords.has(w) && !RESTATING.has(w)) return false;
  }
  return true;
}

/** Words any explanation uses, whatever it explains: what is left names the things it is about. */
const EXPLAINING = new Set(['the', 'that', 'this', 'these', 'you', 'your', 'need', 'needs', 'use', 'using', 'error', 'indicates', 'means', 'because', 'and', 'for', 'with', 'which', 'are', 'not', 'has', 'have', 'was', 'were', 'now', 'its', 'from', 'into', 'but', 'can', 'should', 'must']);

/**
 * Whether an explanation mostly repeats the failing output, not only its error line (`restates`):
 * six in ten of its words that name something are in the output. "The PostCSS error indicates that
 * you need to use the `@tailwindcss/postcss` plugin" under an error that says to install it.
 */
export function repeatsOutput(text: string, output: string): boolean {
  const said = [...words(text)].map((w) => w.replace(/[.]+$/, '')).filter((w) => !EXPLAINING.has(w));
  if (said.length < 4) return false;
  const inOutput = words(output);
  return said.filter((w) => inOutput.has(w)).length / said.length >= 0.6;
}

/** Words any sentence uses, whatever it is about (with EXPLAINING and TRIVIAL): what is left
 * names things. */
const COMMON = new Set(['you', 'your', 'our', 'they', 'them', 'their', 'there', 'then', 'than', 'will', 'would', 'could', 'all', 'any', 'some', 'one', 'two', 'also', 'just', 'only', 'when', 'what', 'how', 'why', 'who', 'out', 'get', 'set', 'make', 'run', 'try', 'see', 'first', 'next', 'new', 'user', 'follow', 'instead', 'still', 'not', 'now', 'here', 'been', 'being', 'does', 'did', 'done', 'able', 'because', 'since', 'due', 'cause', 'caused', 'problem', 'issue', 'reason']);

/** A word as a name: without the punctuation a path or a sentence ends in (`priv/static/assets/`
 * names `priv/static/assets`) and in the singular (`dependencies` names `dependency`). */
function asName(word: string): string {
  return word.replace(/[./-]+$/, '').replace(/ies$/, 'y').replace(/(?<=[^s])s$/, '');
}

/** A sentence's naming words: its words without the common ones, as names. */
function namingWords(text: string): string[] {
  return [...words(text)].filter((w) => !COMMON.has(w) && !EXPLAINING.has(w) && !TRIVIAL.has(w)).map(asName).filter((w) => w.length > 2);
}

/**
 * Whether a cause names something the failure shows: a word of its output or of its command
 * line. Once the agent has moved on to other commands, a causal sentence that names none of it
 * ("For YouTube Music, the user needs to follow the ytmusicapi docs" after `python3 -m venv`
 * failed for want of ensurepip) is about that other thing, not why this failed.
 */
export function namesWhatFailed(cause: string, output: string, command: string): boolean {
  const shown = new Set([...words(output), ...words(command)].map(asName));
  return namingWords(cause).some((w) => shown.has(w));
}

/** No caller takes a sentence scoring below this for an explanation (explain's `minScore`). */
const LOWEST_MIN_SCORE = 4;

function scoreOf(f: SentenceFacts, errWords: Set<string>): number {
  if (f.excluded) return -Infinity;
  // the terms in the order they were always added, so the sums are the same to the last bit
  let score = 0;
  if (f.causal) score += 3;
  if (f.strong) score += 2;
  const shared = overlap(errWords, f.words!) * Math.min(errWords.size, 6);
  score += Math.min(3, shared);
  score += f.concrete;
  if (f.firstPerson && !f.causal) score -= 1;
  // (only a sentence that could be taken is worth the word-by-word look: most score below)
  return score >= LOWEST_MIN_SCORE && restates(f.words!, errWords) ? -Infinity : score;
}

/** The sentences of a message text as explain weighs them: one line each, interjection cut.
 * An assistant message follows many failures in a long session; it is cut and read once. */
function sentenceFacts(text: string): SentenceFacts[] {
  return factsCache.get(text, (t) => {
    // pushed into a list of one elements kind whether empty or not (see emptyList)
    const facts = emptyList<SentenceFacts>();
    for (const raw of sentences(t)) {
      // (a model's reasoning tags, `<think>`, mark where its thinking starts: no words of a sentence)
      const s = oneLine(raw).replace(/<\/?think>\s*/g, '').replace(INTERJECTION, '');
      if (s) facts.push(factsOf(s));
    }
    return facts;
  });
}
const factsCache = new TextCache<SentenceFacts[]>(5000);

/** Two sentences as one text; list items and lines carry no full stop of their own. */
function joined(a: string, b: string): string {
  return /[.!?;:]["')\]]*$/.test(a) ? `${a} ${standalone(b)}` : `${a}. ${standalone(b)}`;
}

/** "But there's a directory …" continued the agent's reasoning, "I've encountered a SyntaxError
 * in …" narrates the agent finding it, and "I need to use X" is the agent's own to-do; as a
 * cause it stands alone. */
function standalone(s: string): string {
  return s
    .replace(/^(?:But|And|So|Also|However),?\s+(\S)/, (_, c: string) => c.toUpperCase())
    .replace(FOUND_IT, (_, c: string) => c.toUpperCase())
    .replace(OWN_NEED, 'you $1');
}
/** "The error indicates that I need to use X": what the agent had to do is what anyone meeting
 * the error has to do. */
const OWN_NEED = /\b(?:I|we) (need to|have to|must|should)\b/g;
const FOUND_IT = /^(?:I(?:'ve| have)? (?:encountered|found|noticed|discovered|identified|spotted)|I (?:can )?see|Now I (?:see|understand))(?: that)?,?\s+(\S)/;

/** The bold title line a reasoning summary opens with (Codex writes one per summary). */
const REASONING_TITLE = /^\s*\*\*[^*\n]+\*\*[ \t]*(?:\n|$)/;

/** A sentence that opens on a demonstrative and hedges what it says ("This warning appears to be
 * …", "That likely means …"): a guess about another thing than the cause just stated. */
const HEDGED_TURN = /^(?:this|that|these|those|it)\b[^.!?]{0,40}\b(?:appears?|seems?|likely|probably|might|may|could)\b/i;

/**
 * Best sentence explaining `err` among the assistant and reasoning texts of `events`
 * (encrypted or empty reasoning is skipped). Undefined when nothing explains it well enough.
 */
export function explain(events: readonly SessionEvent[], err: string, minScore = 4, recency = true, strongOnly = false, causalOnly = false): Explanation | undefined {
  const errWords = errorWords(err);
  let best: (Explanation & { score: number; sentences: { text: string; score: number }[] }) | undefined;
  let distance = 0;
  for (const e of events) {
    if (e.kind !== 'assistant' && e.kind !== 'reasoning') continue;
    if (e.kind === 'reasoning' && /^gAAAA|^[A-Za-z0-9+/=]{200,}$/.test(e.text.trim())) continue;
    // The first explanation after a failure is usually the diagnosis; later ones drift.
    const penalty = recency ? 0.4 * distance++ : 0;
    const scored = emptyList<{ text: string; score: number }>();
    // a reasoning summary's title ("**Noting test failures due to sandbox and DB**") names what
    // the agent turns to, in a few words: the sentences under it say what it found
    const text = e.kind === 'reasoning' ? e.text.replace(REASONING_TITLE, '') : e.text;
    for (const f of sentenceFacts(text)) scored.push({ text: f.text, score: (strongOnly && !f.strong) || (causalOnly && !f.causal) ? -Infinity : scoreOf(f, errWords) - penalty });
    for (const s of scored) {
      if (s.score >= minScore && (!best || s.score > best.score)) best = { text: s.text, event: e.index, score: s.score, sentences: scored };
    }
  }
  if (!best) return undefined;
  // A second good sentence of the same message often carries the other half of the cause.
  // (only one that names a word of the error itself: another is about something else the
  // message goes on to, "This warning appears to be …" after the error's cause)
  const second = best.sentences.find((s) => s.text !== best!.text && s.score >= minScore && s.text.length + best!.text.length < 260 && overlap(errWords, words(s.text)) > 0);
  const at = best.sentences.findIndex((s) => s.text === best!.text);
  let text = second && best.sentences.indexOf(second) < at ? joined(second.text, best.text) : second ? joined(best.text, second.text) : best.text;
  // "The problem is X." alone is too short to act on: the next sentence says how, unless it is
  // the agent's next step ("Let me check …") or the lead-in of a list ("Let's try to:").
  const next = best.sentences[at + 1];
  // (not a sentence that turns to another thing by a hedge, "This warning appears to be …")
  if (!second && best.text.length < 80 && next && next.text.length <= 220 && !NARRATION.test(next.text) && !/[:?]$/.test(next.text) && !HEDGED_TURN.test(next.text)) text = joined(best.text, next.text);
  return { text: standalone(text), event: best.event };
}
