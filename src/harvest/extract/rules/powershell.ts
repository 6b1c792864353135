/**
 * PowerShell quirks: a command written for a POSIX shell that the session's shell, Windows
 * PowerShell, rejects (`&&`, `<`, `NAME=value cmd`, `rm -rf`, `grep`). Every later session on
 * such a machine meets the same wall, so the item says what the shell rejected, the PowerShell
 * form, and what worked in the session when it shows that. Several of them in one session are
 * one lesson, that the shell is not a POSIX shell: one item tells them all.
 *
 * PowerShell translates its messages ("标记“&&”不是此版本中的有效语句分隔符。") but not the
 * error record's id line (`+ FullyQualifiedErrorId : InvalidEndOfLine`) nor its category line
 * (`+ CategoryInfo : ObjectNotFound: (grep:String) [], CommandNotFoundException`): the rule
 * reads those, and PowerShell 7's English one-line form ("rm: A parameter cannot be found that
 * matches parameter name 'rf'.").
 */
import { CONFIDENCE } from '../../candidate.js';
import { MAX_TEXT, ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { simpleCommands, tokens } from '../commands.js';
import { clip, code } from '../text.js';
import { perObject } from '../per-object.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';
import { escapeRegExp } from '../../../core/regexp.js';

/** What PowerShell rejected in a command, read from its error record. */
export type PowerShellSlip =
  | { kind: 'chain'; operator: '&&' | '||' }
  | { kind: 'redirect' }
  | { kind: 'env-prefix'; assignment: string }
  | { kind: 'builtin'; name: 'export' | 'source' }
  | { kind: 'posix-tool'; name: string }
  | { kind: 'flag'; alias: string; cmdlet: string; flag: string }
  | { kind: 'web-alias'; alias: string }
  | { kind: 'common-param'; program: string; param: string }
  /** `pwsh` not found by Windows PowerShell: PowerShell 7 is not installed beside it. */
  | { kind: 'no-pwsh' };

const ERROR_ID = /^\s*\+\s*FullyQualifiedErrorId\s*:\s*([\w.-]+)(?:,([\w.-]+))?/m;
/** The object of a CommandNotFoundException: `(grep:String) [], CommandNotFoundException`. */
const NOT_FOUND_TERM = /\(([^():\s]+):String\)\s*\[\],\s*CommandNotFoundException/;
/** PowerShell 7's concise view, which names the error in English and shows no record. */
const PS7_NOT_RECOGNIZED = /The term '([^']+)' is not recognized as (?:the|a) name of a cmdlet/;
const PS7_NO_PARAMETER = /^([\w-]+): A parameter cannot be found that matches parameter name '([\w-]+)'/m;
/** A URL's scheme read as a drive (`(https:String) [Invoke-WebRequest], DriveNotFoundException`):
 * Windows PowerShell's `curl` and `wget` are Invoke-WebRequest, which took curl's options for its
 * own and the URL for a path. */
const URL_AS_DRIVE = /\((?:https?|ftp):String\)\s*\[Invoke-WebRequest\]/;

/** PowerShell's common parameters, which only cmdlets take (`-ErrorAction SilentlyContinue`). */
const COMMON_PARAMETER = /^-(?:ErrorAction|WarningAction|InformationAction|ErrorVariable|WarningVariable|OutVariable|ea|wa)$/i;
/** A native program refusing an option it does not know. */
const UNKNOWN_OPTION = /unknown (?:switch|option)|unrecognized (?:option|arguments?)|invalid option|no such option|illegal option/i;

/** POSIX tools Windows has no program of, with the PowerShell cmdlet that does their work.
 * (Windows PowerShell 5.1 reads a file without a byte-order mark in the ANSI code page: UTF-8
 * text comes out garbled unless Get-Content is told `-Encoding UTF8`.) */
const POSIX_TOOLS = new Map<string, string>([
  ['grep', 'Select-String'],
  ['head', 'Select-Object -First <n>'],
  ['tail', 'Get-Content -Encoding UTF8 -Tail <n>'],
  ['touch', 'New-Item -ItemType File'],
  ['which', 'Get-Command'],
  ['wc', 'Measure-Object -Line'],
  ['sed', '(Get-Content -Encoding UTF8 <file>) -replace'],
  ['awk', 'ForEach-Object'],
  ['less', 'Get-Content -Encoding UTF8'],
  ['xargs', 'ForEach-Object'],
]);

/** The cmdlet that does what this use of the tool did: `sed -n '1,200p' f` prints lines (no
 * `-replace` there), `head -20` takes the first lines. */
function counterpartOf(name: string, command: string): string {
  if (name === 'sed') {
    const range = /\bsed\s+-n\s+['"]?(\d+)(?:,(\d+))?p['"]?/.exec(command);
    if (range) {
      const from = Number(range[1]);
      const to = range[2] !== undefined ? Number(range[2]) : from;
      return from === 1 ? `Get-Content -Encoding UTF8 <file> -TotalCount ${to}` : `Get-Content -Encoding UTF8 <file> | Select-Object -Skip ${from - 1} -First ${to - from + 1}`;
    }
  }
  return POSIX_TOOLS.get(name)!;
}

/** What to use instead, as the item says it, where PowerShell's alias of a cmdlet takes the POSIX
 * name but not its flags (`rm -rf dist`: `Remove-Item -Recurse -Force dist`). */
const CMDLET_FORM = new Map<string, (args: string, flag: string) => string>([
  ['Remove-Item', (a) => code(`Remove-Item -Recurse -Force ${a}`.trim())],
  ['Copy-Item', (a) => code(`Copy-Item -Recurse ${a}`.trim())],
  // (its listing is the long one already; -Force is ls's -a, hidden files shown)
  ['Get-ChildItem', (a, flag) => code(`Get-ChildItem${/^-[a-zA-Z]*a/.test(flag) ? ' -Force' : ''} ${a}`.trim())],
  ['New-Item', (a) => code(`New-Item -ItemType Directory -Force ${a}`.trim())],
  ['Invoke-WebRequest', () => `${code('curl.exe')} with the same arguments`],
]);

/** `RemoveItemCommand` → `Remove-Item`: the cmdlet an error id names by its class. */
function cmdletOfClass(name: string): string | undefined {
  const m = /(?:^|\.)([A-Z][a-z]+)([A-Z]\w*?)Command$/.exec(name);
  return m ? `${m[1]}-${m[2]}` : undefined;
}

/** The simple command of `command` that runs `name`, if one does. */
function segmentRunning(command: string, name: string): string | undefined {
  return simpleCommands(command).find((s) => tokens(s)[0]?.toLowerCase() === name.toLowerCase());
}

/** A command line that starts PowerShell 7 (`pwsh -Command …`, after a `cd` too). */
const RUNS_PWSH = /(?:^|[;&|]\s*)pwsh(?:\.exe)?(?=\s|$)/i;

/** What PowerShell rejected in the step's command, when its output shows that (asked by this
 * rule and by the tool-quirk and error-fix rules of every failed step: kept per step). */
export const powershellSlip: (s: Step) => PowerShellSlip | undefined = perObject(slipOf);

function slipOf(s: Step): PowerShellSlip | undefined {
  const command = s.command;
  if (command === undefined) return undefined;
  if (s.failed && command.includes('-') && UNKNOWN_OPTION.test(s.output)) {
    const slip = commonParameterSlip(command);
    if (slip) return slip;
  }
  if (!/FullyQualifiedErrorId|is not recognized as|A parameter cannot be found/.test(s.output)) return undefined;
  const out = s.output;
  const id = ERROR_ID.exec(out);
  const ps7 = PS7_NO_PARAMETER.exec(out);
  if (id?.[1] === 'InvalidEndOfLine') {
    const operator = command.includes('&&') ? '&&' : command.includes('||') ? '||' : undefined;
    return operator ? { kind: 'chain', operator } : undefined;
  }
  if (id?.[1] === 'RedirectionNotSupported') return /\s<\s*\S/.test(command) ? { kind: 'redirect' } : undefined;
  if (id?.[1] === 'DriveNotFound' && URL_AS_DRIVE.test(out)) {
    const alias = ['curl', 'wget'].find((name) => segmentRunning(command, name) !== undefined);
    return alias ? { kind: 'web-alias', alias } : undefined;
  }
  if (id?.[1] === 'NamedParameterNotFound' || ps7) {
    const cmdlet = ps7 ? undefined : cmdletOfClass(id?.[2] ?? '');
    return flagSlip(command, ps7?.[1], cmdlet, ps7?.[2]);
  }
  const term = NOT_FOUND_TERM.exec(out)?.[1] ?? PS7_NOT_RECOGNIZED.exec(out)?.[1];
  if (term === undefined) return undefined;
  // the shell read a whole word of the command line as the name: only a name the line runs counts
  const simples = simpleCommands(command);
  if (/^[A-Za-z_]\w*=/.test(term) && simples.some((x) => x.trimStart().startsWith(term))) return { kind: 'env-prefix', assignment: term };
  // (Windows PowerShell's own record, PowerShell 7 would not be looking for itself; the line's
  // program, whose script the simple commands show in its place)
  if (term.toLowerCase() === 'pwsh' && id !== null && RUNS_PWSH.test(command)) return { kind: 'no-pwsh' };
  const runs = simples.some((x) => x.trimStart().split(/\s+/)[0] === term);
  if (!runs) return undefined;
  if (term === 'export' || term === 'source') return { kind: 'builtin', name: term };
  if (POSIX_TOOLS.has(term)) return { kind: 'posix-tool', name: term };
  return undefined;
}

/** `git add *.py -ErrorAction SilentlyContinue`: a cmdlet's common parameter given to a native
 * program (no Verb-Noun name), which read it as an option of its own. */
function commonParameterSlip(command: string): PowerShellSlip | undefined {
  for (const simple of simpleCommands(command)) {
    const words = simple.trim().split(/\s+/);
    const program = words[0]!;
    if (/^[A-Za-z]+-[A-Za-z]+$/.test(program)) continue;
    const param = words.find((w) => COMMON_PARAMETER.test(w));
    if (param) return { kind: 'common-param', program, param };
  }
  return undefined;
}

/** `rm -rf dist` refused by Remove-Item: the alias the line typed, the cmdlet, the flag. */
function flagSlip(command: string, alias: string | undefined, cmdlet: string | undefined, flag: string | undefined): PowerShellSlip | undefined {
  for (const simple of simpleCommands(command)) {
    const words = simple.trim().split(/\s+/);
    const name = words[0]!;
    if (alias !== undefined && name.toLowerCase() !== alias.toLowerCase()) continue;
    // a cmdlet typed by its own name is no POSIX habit
    if (name.includes('-')) continue;
    const typed = words.find((w) => /^-{1,2}[A-Za-z]/.test(w) && (flag === undefined || w.replace(/^-+/, '') === flag));
    if (typed === undefined) continue;
    return { kind: 'flag', alias: name, cmdlet: cmdlet ?? alias ?? name, flag: typed };
  }
  return undefined;
}

/** A later command that worked in place of the rejected one: the PowerShell form of it, or
 * (for a chain) its parts run one by one. */
function workedInstead(view: SessionView, s: Step, slip: PowerShellSlip): string | undefined {
  const later = view.steps.slice(s.pos + 1, s.pos + 7).filter((x) => x.command !== undefined && seenToSucceed(x) && powershellSlip(x) === undefined);
  switch (slip.kind) {
    case 'chain': {
      // the parts the operator joined, each with its own pipes (`netstat -ano | findstr :8080`)
      const parts = s.command!.split(slip.operator).map((p) => p.trim());
      // a rewrite with `;` holds every part (a later `Start-Sleep 10; dir x -Recurse` is another command)
      // (cmd.exe's `cd /d X` is held by PowerShell's `Set-Location X` or `cd X`)
      const holds = (line: string, p: string): boolean => {
        const dir = CMD_CD.exec(p)?.[1];
        return line.includes(p) || (dir !== undefined && (line.includes(`Set-Location ${dir}`) || line.includes(`cd ${dir}`)));
      };
      const joined = later.find((x) => x.command!.includes(';') && parts.every((p) => holds(x.command!, p)));
      if (joined) return `${code(clip(joined.command!, 80))} worked.`;
      const alone = parts.filter((p) => later.some((x) => x.command!.trim() === p));
      return alone.length >= 2 ? `Running ${alone.map((p) => code(clip(p, 40))).join(' and then ')} separately worked.` : undefined;
    }
    case 'env-prefix':
    case 'builtin': {
      const set = later.find((x) => /\$env:\w+\s*=/.test(x.command!) || (slip.kind === 'builtin' && slip.name === 'source' && /activate(?:\.ps1)?\b/i.test(x.command!)));
      return set ? `${code(clip(set.command!, 80))} worked.` : undefined;
    }
    case 'common-param': {
      // the next run of the program without the parameter says whether leaving it off worked: a
      // success after that run failed on something else (a lock) owes to what changed between
      const next = view.steps.slice(s.pos + 1, s.pos + 7).find((x) => x.command !== undefined && !x.command.includes(slip.param) && tokens(x.main)[0] === slip.program && sharesArgument(s.command!, x.command));
      return next && seenToSucceed(next) ? `${code(clip(next.command!, 80))} worked.` : undefined;
    }
    case 'no-pwsh':
      return undefined;
    case 'posix-tool':
    case 'flag':
    case 'web-alias':
    case 'redirect': {
      const name = slip.kind === 'flag' || slip.kind === 'web-alias' ? slip.alias : slip.kind === 'posix-tool' ? slip.name : undefined;
      // (and, for a tool or a flag, a command that does the rejected one's job and printed what
      // it found: `git log -- docs/style.css` after `grep … docs/style.css` is another task)
      const other = later.find((x) => (name === undefined || !tokens(x.main).includes(name)) && sharesArgument(s.command!, x.command!) && doesJobOf(slip, x));
      // the URL both lines name is shown once, in the failed command
      const url = slip.kind === 'web-alias' ? /https?:\/\/[^\s"']+/.exec(s.command!)?.[0] : undefined;
      const shown = other && url ? other.command!.replace(new RegExp(`(["']?)${escapeRegExp(url)}\\1`, 'g'), '<url>') : other?.command;
      return shown ? `${code(clip(shown, 80))} worked instead.` : undefined;
    }
  }
}

/** Programs that search text as grep does, besides its cmdlet. */
const SEARCHERS = new Set(['select-string', 'sls', 'findstr', 'rg']);

/** Whether a later command does the job of the one PowerShell rejected: the rejected tool's
 * counterpart (`Select-String` for `grep`, `Get-ChildItem` or its alias for `ls -lh`), run with
 * output to show. Other slips (a redirection, a web alias) are judged by their arguments alone. */
function doesJobOf(slip: PowerShellSlip, x: Step): boolean {
  if (slip.kind !== 'posix-tool' && slip.kind !== 'flag') return true;
  if (x.output.trim() === '') return false;
  const words = x.simple.map((c) => tokens(c)[0]?.toLowerCase() ?? '');
  if (slip.kind === 'flag') return words.some((w) => w === slip.cmdlet.toLowerCase() || w === slip.alias.toLowerCase());
  const counterpart = POSIX_TOOLS.get(slip.name)!.split(/[\s(]/).find((w) => /^[A-Z][a-z]+-[A-Z]/.test(w))?.toLowerCase();
  return words.some((w) => w === counterpart || (slip.name === 'grep' && SEARCHERS.has(w)));
}

/** Whether two command lines share an argument that is no option (`dist` of `rm -rf dist` and
 * `Remove-Item -Recurse -Force dist`), slashes either way. */
function sharesArgument(a: string, b: string): boolean {
  const args = (c: string): Set<string> =>
    new Set(simpleCommands(c).flatMap((x) => tokens(x).slice(1).filter((t) => !t.startsWith('-') && t.length > 2).map((t) => t.replace(/\\/g, '/'))));
  const inB = args(b);
  return [...args(a)].some((w) => inB.has(w));
}

/** cmd.exe's change of drive and folder, `cd /d e:\\code\\app`, and the folder it names. */
const CMD_CD = /\bcd\s+\/d\s+("[^"]+"|\S+)/i;

const SHELL = 'The shell here is Windows PowerShell';

/** PowerShell's prompt for a mandatory parameter a call left out (`Uri: `), alone on its line. */
const MANDATORY_PROMPT = /^\s*Uri:(?:\s|$)/m;

/** The item's title and its statement, without the session's evidence. */
function statement(slip: PowerShellSlip, command: string, width: number, output: string): { title: string; text: string } {
  const failed = code(clip(command, width));
  switch (slip.kind) {
    case 'chain':
      return {
        // (PowerShell 7 has `&&`: the title names the one that lacks it, as reviewers asked)
        title: `Windows PowerShell (before 7) does not chain commands with ${slip.operator}`,
        text:
          `The shell here, Windows PowerShell before 7, has no ${code(slip.operator)} between commands: ${failed} failed with a parser error (\`InvalidEndOfLine\`) and ran nothing. ` +
          (slip.operator === '&&'
            ? 'Use `;` to go on in any case, or `if ($?) { … }` to go on only after a success.'
            : 'Use `if (-not $?) { … }` to go on only after a failure.') +
          // `cd /d` is cmd.exe's: rewritten with `;` alone it would fail in turn
          (CMD_CD.test(command) ? ' Its `cd /d` is cmd.exe\'s too (PowerShell: `Set-Location <dir>`).' : ''),
      };
    case 'redirect':
      return {
        title: 'PowerShell has no < input redirection',
        text: `${SHELL}, which has no ${code('<')} input redirection: ${failed} failed with a parser error (\`RedirectionNotSupported\`). Pipe the file in (\`Get-Content <file> | <command>\`) or run the line through \`cmd /c "…"\`.`,
      };
    case 'env-prefix': {
      const [name, ...value] = slip.assignment.split('=');
      const rest = simpleCommands(command).find((x) => x.trimStart().startsWith(slip.assignment))?.trim().slice(slip.assignment.length).trim() ?? '';
      const form = `$env:${name} = '${value.join('=').replace(/^["']|["']$/g, '')}'${rest ? `; ${rest}` : ''}`;
      return {
        title: 'PowerShell does not take NAME=value before a command',
        text: `${SHELL}, which reads ${code(slip.assignment)} in ${failed} as the name of a command (\`CommandNotFoundException\`), not as a variable for it. Set the variable first: ${code(clip(form, 90))}.`,
      };
    }
    case 'builtin':
      return slip.name === 'export'
        ? {
            title: 'PowerShell has no export',
            text: `${SHELL}, where ${code('export')} (a POSIX shell builtin) is no command: ${failed} failed (\`CommandNotFoundException\`). Set a variable with \`$env:NAME = 'value'\`.`,
          }
        : {
            title: 'PowerShell has no source',
            text: `${SHELL}, where ${code('source')} (a POSIX shell builtin) is no command: ${failed} failed (\`CommandNotFoundException\`). Run a PowerShell script in the current scope with \`. <script>.ps1\`; a Python virtualenv is activated with \`<venv>\\Scripts\\Activate.ps1\`.`,
          };
    case 'posix-tool':
      return {
        title: `PowerShell has no ${slip.name}`,
        text: `${SHELL}, which has no ${code(slip.name)}: ${failed} failed (\`CommandNotFoundException\`). Its PowerShell counterpart is ${code(counterpartOf(slip.name, command))}.`,
      };
    case 'common-param':
      return {
        title: `PowerShell's ${slip.param} is for cmdlets only`,
        // (the program's own command, where the parameter is, not the `cd` before it)
        text: `${SHELL}, where ${code(slip.param)} is a common parameter of cmdlets only: a native program such as ${code(slip.program)} takes it for an option of its own, and ${code(clip(segmentRunning(command, slip.program) ?? command, width))} failed${programsOwnError(output)}. Leave it off native programs; \`2>$null\` silences their errors.`,
      };
    case 'web-alias':
      return {
        title: `PowerShell's ${slip.alias} is Invoke-WebRequest`,
        text:
          `${SHELL}, where ${code(slip.alias)} is \`Invoke-WebRequest\`, which does not take ${slip.alias}'s options: ${failed} failed (\`DriveNotFound\`, the URL read as a path).` +
          // PowerShell asks for a mandatory parameter it did not get: the call waits for input
          (MANDATORY_PROMPT.test(output) ? ' It first stopped at a `Uri:` prompt, which hangs an agent\'s call.' : '') +
          ` Use ${code(`${slip.alias}.exe`)} with the same arguments, or \`Invoke-WebRequest -Uri <url>\`.`,
      };
    case 'no-pwsh':
      return {
        title: 'PowerShell 7 (pwsh) is not installed here',
        text: `${SHELL} 5.1, and PowerShell 7 is not installed beside it: ${failed} failed (\`CommandNotFoundException\`). Run the command in this shell, or through \`powershell -NoProfile -Command\`.`,
      };
    case 'flag': {
      const args = segmentRunning(command, slip.alias)
        ?.trim()
        .split(/\s+/)
        .slice(1)
        .filter((w) => !w.startsWith('-'))
        .join(' ');
      const form = CMDLET_FORM.get(slip.cmdlet)?.(args ?? '', slip.flag);
      const alias = slip.alias.toLowerCase() === slip.cmdlet.toLowerCase() ? code(slip.alias) : `${code(slip.alias)} is PowerShell's ${code(slip.cmdlet)}, which`;
      return {
        title: `PowerShell's ${slip.alias} takes no ${slip.flag}`,
        text: `${SHELL}, where ${alias} has no ${code(slip.flag)} parameter: ${failed} failed (\`NamedParameterNotFound\`).${form ? ` Use ${form}.` : ''}`,
      };
    }
  }
}

/** The native program's own complaint about the option it was given (`error: unknown switch
 * \`E'`, `unknown option`), as the reason it failed; none when it printed no such line. */
function programsOwnError(output: string): string {
  const line = output.split('\n').find((l) => /\b(?:unknown|unrecognized|invalid) (?:switch|option|argument|flag)\b/i.test(l));
  return line ? ` (${code(clip(line.trim(), 60))})` : '';
}

/** A key per kind of slip: one item a session for each thing PowerShell rejected. */
function keyOf(slip: PowerShellSlip): string {
  switch (slip.kind) {
    case 'chain':
      return `chain ${slip.operator}`;
    case 'flag':
      return `flag ${slip.cmdlet} ${slip.flag}`;
    case 'web-alias':
      return `web-alias ${slip.alias}`;
    case 'common-param':
      return `common-param ${slip.param.toLowerCase()}`;
    case 'posix-tool':
    case 'builtin':
      return `${slip.kind} ${slip.name}`;
    default:
      return slip.kind;
  }
}

/** What PowerShell rejected, in a few words, and its PowerShell form: one clause of a session's
 * item that tells several. */
function clause(slip: PowerShellSlip, command: string): { name: string; text: string } {
  const failed = code(clip(command, 50));
  switch (slip.kind) {
    case 'chain':
      return { name: slip.operator, text: `${failed} failed (no ${code(slip.operator)} between commands: use ${code(';')} or ${code('if ($?) { … }')})` };
    case 'redirect':
      return { name: '<', text: `${failed} failed (no ${code('<')} input: pipe ${code('Get-Content <file>')} in)` };
    case 'env-prefix':
      return { name: 'NAME=value', text: `${failed} failed (no ${code('NAME=value')} before a command: set ${code('$env:NAME')} first)` };
    case 'builtin':
      return { name: slip.name, text: `${failed} failed (no ${code(slip.name)}: ${slip.name === 'export' ? code("$env:NAME = 'value'") : code('. <script>.ps1')})` };
    case 'posix-tool':
      return { name: slip.name, text: `${failed} failed (no ${code(slip.name)}: use ${code(counterpartOf(slip.name, command))})` };
    case 'flag':
      return { name: `${slip.alias} ${slip.flag}`, text: `${failed} failed (${code(slip.alias)} is ${code(slip.cmdlet)}, which has no ${code(slip.flag)})` };
    case 'web-alias':
      return { name: slip.alias, text: `${failed} failed (${code(slip.alias)} is ${code('Invoke-WebRequest')}: use ${code(`${slip.alias}.exe`)})` };
    case 'common-param':
      return { name: slip.param, text: `${failed} failed (${code(slip.param)} is for cmdlets only)` };
    case 'no-pwsh':
      return { name: 'pwsh', text: `${code('pwsh')} is not installed (PowerShell 7): run commands in this shell or through ${code('powershell -NoProfile -Command')}` };
  }
}

/** A session that met several of PowerShell's differences met one lesson, that the shell is not a
 * POSIX shell: one item tells them all (reviewers rejected the second item of a session as a
 * repeat of the first). */
function oneItem(slips: { slip: PowerShellSlip; step: Step; draft: Draft; worked?: string }[]): Draft {
  const lead = `${SHELL}, not a POSIX shell: `;
  const clauses = slips.map((x) => clause(x.slip, x.step.command!));
  const shown: string[] = [];
  for (const c of clauses) if (lead.length + [...shown, c.text].join('; ').length + 20 < MAX_TEXT) shown.push(c.text);
  const more = clauses.length - shown.length;
  const first = slips[0]!;
  // what worked instead, the items' evidence, where there is room for it whole
  let text = `${lead}${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}.`;
  for (const w of slips.map((x) => x.worked).filter((w): w is string => w !== undefined)) if (text.length + w.length < MAX_TEXT) text += ` ${w}`;
  return {
    ...first.draft,
    // (the title states the fact, the names say where it showed)
    title: clip(`Windows PowerShell here, not a POSIX shell: ${clauses.map((c) => c.name).join(', ')}`, 70),
    text,
    confidence: Math.max(...slips.map((x) => x.draft.confidence)),
    quotes: slips.map((x) => x.step.command!),
    signature: `powershell ${slips.map((x) => keyOf(x.slip)).join(' + ')}`,
    score: Math.max(...slips.map((x) => x.draft.score ?? 0)),
  };
}

export function powershellDrafts(view: SessionView): Draft[] {
  const found: { slip: PowerShellSlip; step: Step; draft: Draft; worked?: string }[] = [];
  const seen = new Set<string>();
  for (const s of view.steps) {
    if (!s.failed) continue;
    const slip = powershellSlip(s);
    if (!slip || seen.has(keyOf(slip))) continue;
    seen.add(keyOf(slip));
    const said = workedInstead(view, s, slip);
    // the failed command whole where the item has room for it (a URL cut short is no example),
    // and what worked, the item's evidence, said whole or not at all
    const fits = (width: number): boolean => statement(slip, s.command!, width, s.output).text.length + (said?.length ?? 0) < MAX_TEXT;
    const width = [160, 110, 60].find(fits) ?? 40;
    const { title, text } = statement(slip, s.command!, width, s.output);
    const worked = said !== undefined && text.length + said.length < MAX_TEXT ? said : undefined;
    // the form the item advises, run as advised: "Use `x`; it worked", not the command twice
    const advised = worked !== undefined && text.endsWith(`Use ${worked.replace(/ worked(?: instead)?\.$/, '')}.`);
    const draft: Draft = {
      category: 'tool-quirk',
      // the machine's shell, whatever the repository: true of every repo on this machine
      scope: 'global',
      title,
      text: advised ? `${text.slice(0, -1)}; it worked in this session.` : worked ? `${text} ${worked}` : text,
      confidence: worked ? CONFIDENCE.verified : CONFIDENCE.stated,
      event: s.outputEvent,
      tags: ['powershell', 'windows', s.call.name],
      quotes: [s.command!],
      rule: 'powershell',
      signature: `powershell ${keyOf(slip)}`,
      score: worked ? 9 : 7,
    };
    found.push({ slip, step: s, draft, ...(said !== undefined ? { worked: said } : {}) });
  }
  return found.length > 1 ? [oneItem(found)] : found.map((x) => x.draft);
}

export const powershell: RuleExtractor = ruleExtractor('powershell', powershellDrafts);
