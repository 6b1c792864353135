/**
 * Shell command lines read as a reviewer would: split compound lines into simple commands,
 * name each by its family ("git push", "mix test", "python3 render.py"), and tell read-only
 * looks (ls, cat, grep) from actions and from checks (test, lint, format, typecheck, build).
 */
import { emptyList } from '../../core/elements-kind.js';
import { TextCache } from './text-cache.js';
import { oneLine } from './text.js';

/**
 * Per-string memo for the pure helpers below: rules ask for the same command's tokens, family
 * and main command many times over. Bounded (see TextCache) so memory stays flat.
 */
function memo<T>(fn: (s: string) => T, max = 20000): (s: string) => T {
  const cache = new TextCache<T>(max);
  return (s: string): T => cache.get(s, fn);
}

/** Heredoc bodies and long quoted arguments (commit messages) shortened to a placeholder. */
export function shortenCommand(command: string): string {
  // Each rewrite only when its marker occurs: same result, fewer scans of long commands.
  let c = command;
  if (c.includes('*** Begin Patch')) c = c.replace(/\*\*\* Begin Patch[\s\S]*?(?:\*\*\* End Patch|$)/g, '<patch>');
  if (c.includes('<<')) {
    c = c.replace(/"\$\(cat <<'?(\w+)'?[\s\S]*?\n\s*\1\s*\)"/g, '"<message>"');
    c = c.replace(HEREDOC, '<<$2$3 … $2');
  }
  // an inline script (`python -c "from x import y; …"`) is this task's throwaway: the program says enough
  if (c.includes(' -c') || c.includes(' -e')) c = c.replace(/\b((?:python[\d.]*|node|ruby|perl)\s+-[ce])\s*(["'])[\s\S]{40,}?\2/g, '$1 "…"');
  if (c.includes('-m') || c.includes('--reason')) c = c.replace(/(-m|--message|--reason(?:=)?)\s*(["'])[\s\S]{40,}?\2/g, '$1 "…"');
  if (c.includes('--reason=')) c = c.replace(/(--reason=)(["'])[\s\S]{40,}?\2/g, '$1"…"');
  // a comment line of a script (`# check the SSH login` above `ssh -T …`) is no part of the command
  if (c.includes('#') && c.includes('\n')) c = c.replace(/^[ \t]*#[^\n]*(?:\n|$)/gm, '');
  if (c.includes('2>&1')) c = c.replace(/\s+2>&1\b/g, '');
  if (c.includes('|')) c = c.replace(/\s*\|\s*(?:head|tail)(?:\s+-n)?\s+-?\d+\s*$/g, '').replace(/\s*\|\s*(?:cat|Out-String)\s*$/g, '');
  return oneLine(c);
}

/** A heredoc (`cat <<'EOF' > src/App.tsx`, its lines, `EOF`): the lines are data fed to the
 * command, not commands; the rest of its first line (the redirect) is the command's. The closing
 * word may be indented (`<<-`); a body never closed runs to the end. Groups: quote, word, rest. */
const HEREDOC = /<<-?[ \t]*(['"]?)(\w+)\1([^\n]*)\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$)/g;

/** Simple commands of a command line: `a && b; c | d` gives a, b, c (the pipe's reader is dropped:
 * it reads what c printed), and `c | xargs kill` gives c and `xargs kill` (xargs runs a command
 * of its own on what it reads: `lsof -ti :3000 | xargs kill` frees a port). */
export const simpleCommands: (command: string) => string[] = memo(simpleCommandsOf);

function simpleCommandsOf(command: string): string[] {
  const body = (command.includes('<<') ? command.replace(HEREDOC, (_m, _q, _w, rest: string) => rest.trimStart()) : command).replace(/"\$\([\s\S]*?\)"/g, '"…"');
  const out = emptyList<string>();
  for (const part of splitUnquoted(body, LIST_SEPARATOR, LIST_SPLIT)) {
    const [head, ...readers] = splitUnquoted(part, PIPE, PIPE_SPLIT);
    const first = withoutSubshellParens(head!.trim());
    if (!first) continue;
    const script = hostedScript(first);
    if (script === undefined) out.push(first);
    else for (const inner of simpleCommandsOf(script)) out.push(inner);
    for (const r of readers) if (/^\s*(?:sudo\s+)?xargs\s+(?:-\S+\s+)*[A-Za-z]/.test(r)) out.push(r.trim());
  }
  return out;
}

/** A Windows shell started only to run a command line (`powershell.exe -NoProfile -Command npm
 * test`, `pwsh -c "…"`, `cmd /c dir`): that command line is what runs, so its commands are the
 * step's (a `powershell -Command Get-ChildItem` is no rerun of a failed `powershell -Command
 * npm test`). bash's `-c` is read the same way by `tokens`. */
const POWERSHELL_HOST = /^(?:&\s*)?["']?(?:[^\s"']*[\\/])?(?:powershell|pwsh)(?:\.exe)?["']?\s+(?:[^\n]*?\s)?-(?:c|command)\s+([\s\S]+)$/i;
const CMD_HOST = /^(?:[^\s"']*[\\/])?cmd(?:\.exe)?\s+(?:\/[a-bd-z]\s+)*\/c\s+([\s\S]+)$/i;

function hostedScript(simple: string): string | undefined {
  const script = (POWERSHELL_HOST.exec(simple) ?? CMD_HOST.exec(simple))?.[1]?.trim();
  if (!script) return undefined;
  // the whole command line given as one quoted word: its quotes are the host's, not the script's
  const quoted = /^(["'])([\s\S]*)\1$/.exec(script);
  return quoted && !quoted[2]!.includes(quoted[1]!) ? quoted[2]! : script;
}

/** `(test -d x || curl …)` split at `||` leaves `(test -d x` and `curl …)`: the parentheses of
 * a subshell are no part of the commands in it. */
function withoutSubshellParens(simple: string): string {
  let s = simple;
  const count = (c: string): number => s.split(c).length - 1;
  while (s.startsWith('(') && count('(') > count(')')) s = s.slice(1).trimStart();
  while (s.endsWith(')') && count(')') > count('(')) s = s.slice(0, -1).trimEnd();
  return s;
}

const LIST_SEPARATOR = /&&|\|\||;|\n/y;
const LIST_SPLIT = /\s*(?:&&|\|\||;|\n)\s*/;
const PIPE = /\s\|\s/y;
const PIPE_SPLIT = /\s\|\s/;

/** `text` split at every match of the sticky `separator` outside quotes (a `;` inside
 * `"$env:X\bin;$env:PATH"` separates nothing). With a quote left open (an apostrophe in
 * `echo don't`), quotes cannot be told from text: it is split at every match (`split`). */
function splitUnquoted(text: string, separator: RegExp, split: RegExp): string[] {
  if (!/["']/.test(text)) return text.split(split);
  const parts: string[] = [];
  let start = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    separator.lastIndex = i;
    const m = separator.exec(text);
    if (!m) continue;
    parts.push(text.slice(start, i).trim());
    start = i + m[0].length;
    i = start - 1;
  }
  if (quote) return text.split(split);
  parts.push(text.slice(start).trim());
  return parts;
}

/** `family` of each simple command of a command line, in order. */
export const commandFamilies: (command: string) => readonly string[] = memo((command) => {
  // (pushed, not mapped: see emptyList)
  const out = emptyList<string>();
  for (const simple of simpleCommands(command)) out.push(family(simple));
  return out;
});

const CHANGE_DIR = new Set(['cd', 'pushd', 'popd', 'push-location', 'pop-location', 'set-location', 'sl', 'chdir']);
// `&` is PowerShell's call operator (`& "C:\…\mvn.cmd" -q …`), `.` runs a script in the
// current scope (PowerShell and POSIX shells): the script is the program
const WRAPPERS = new Set(['&', '.', 'sudo', 'env', 'time', 'nohup', 'exec', 'command', 'builtin', 'xargs', 'bash', 'sh', 'zsh']);
/** Options of a wrapper, and which of them take a value (`sudo -u www-data`, `env -u NAME`, `time -f fmt`). */
const WRAPPER_OPTIONS = new Map<string, Set<string>>([
  ['sudo', new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T'])],
  ['env', new Set(['-u', '-C', '-S'])],
  ['time', new Set(['-f', '-o'])],
  // (`xargs -0 -I{} grep …`, `xargs -n 1 kill`: xargs runs the command after its options)
  ['xargs', new Set(['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'])],
]);
const RUNNERS_WITH_SUBCOMMAND = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'mix', 'cargo', 'go', 'docker', 'kubectl', 'bd', 'gh', 'pip', 'pip3',
  'poetry', 'uv', 'make', 'bundle', 'rails', 'rake', 'dotnet', 'gradle', 'mvn', 'brew', 'apt', 'apt-get', 'deno',
  'composer', 'helm', 'terraform', 'minsky', 'jj', 'svn', 'hg', 'tsc', 'pytest', 'rustup', 'gcloud', 'aws', 'az',
]);
/** Options a runner takes before its subcommand, with a value (`git -C repo log`, `make -C dir
 * test`, `npm --prefix web run build`): the value is no subcommand. */
const RUNNER_OPTIONS = new Map<string, Set<string>>([
  ['git', new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace'])],
  ['make', new Set(['-C', '-f', '--directory', '--file'])],
  ['npm', new Set(['--prefix', '-w', '--workspace'])],
  ['pnpm', new Set(['-C', '--dir', '--filter', '-F'])],
  ['yarn', new Set(['--cwd'])],
  ['go', new Set(['-C'])],
  ['gh', new Set(['-R', '--repo'])],
]);
const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'perl', 'php', 'bash', 'sh', 'deno', 'bun', 'elixir']);

/** Shell words that open a command inside a loop or a branch (`do sips …`, `then make`): the
 * program is what follows. */
const SHELL_KEYWORDS_BEFORE = new Set(['do', 'then', 'else', 'elif', '!']);
/** Shell words that head a loop, a branch or their end (`for f in *.png`, `done`, `fi`): syntax,
 * no program. */
const SHELL_SYNTAX = new Set(['for', 'while', 'until', 'if', 'case', 'select', 'done', 'fi', 'esac', '{', '}']);

/** PowerShell's own statements, which run no program: a keyword opening a block (`foreach($p
 * in $paths){`, `if(Test-Path $x){`, `function Find-Path($o){`), `return`, a brace, or an
 * expression of a variable (`$i++`, `$json.PSObject.Properties`). Their families would be
 * fragments of this session's script. */
const POWERSHELL_SYNTAX = /^(?:(?:foreach|for|if|elseif|else|while|do|switch|function|filter|try|catch|finally|trap|param|return|break|continue|throw)(?:\(|\{|$)|[{}()]|\$[\w:]+[.[+-])/i;
/** A PowerShell assignment (`$email='…'`, `$json = Get-Content $p -Raw`): the variable, its
 * `=`, and the value when it is a literal or an expression, not a command. */
const POWERSHELL_ASSIGNMENT = /^\$[\w:]+\s*=(?!=)\s*/;
const LITERAL_VALUE = /^(?:["'@($[\d-]|$)/;

/** Tokens of a simple command (quotes respected, environment assignments and wrappers dropped). */
export const tokens: (simple: string) => string[] = memo(tokensOf);

const WORDS = /"([^"]*)"|'([^']*)'|(\S+)/g;
const WORDS_AND_SUBSTITUTIONS = /"([^"]*)"|'([^']*)'|((?:\$\([^()]*\)|\S)+)/g;

function tokensOf(simple: string): string[] {
  // a PowerShell variable set to a literal runs nothing; set to a command's output, the command runs
  const assigned = simple.startsWith('$') && !simple.startsWith('$env:') ? POWERSHELL_ASSIGNMENT.exec(simple) : null;
  if (assigned) {
    const value = simple.slice(assigned[0].length);
    return LITERAL_VALUE.test(value) ? [] : tokensOf(value);
  }
  const out: string[] = [];
  // (a command substitution is one word with its spaces: `TIMESTAMP=$(date +%s)` sets a variable;
  // the plainer, faster pattern where there is none, the common case)
  for (const m of simple.matchAll(simple.includes('$(') ? WORDS_AND_SUBSTITUTIONS : WORDS)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  // PowerShell's usual `$env:NAME = "value"` is three tokens: a setting, like `NAME=value`
  if (out.length >= 2 && /^\$env:\w+$/.test(out[0]!) && out[1] === '=') out.splice(0, 3);
  let script = false;
  while (out.length > 0 && (/^(?:\$env:)?\w+=/.test(out[0]!) || WRAPPERS.has(out[0]!) || SHELL_KEYWORDS_BEFORE.has(out[0]!) || out[0] === '-c' || out[0] === '-lc')) {
    const wrapper = out.shift()!;
    script ||= wrapper === '-c' || wrapper === '-lc';
    // the wrapper's own options go with it (`sudo -u www-data npm run build` runs npm)
    const takesValue = WRAPPER_OPTIONS.get(wrapper);
    while (takesValue && out.length > 1 && /^-\w/.test(out[0]!)) if (takesValue.has(out.shift()!)) out.shift();
  }
  // a shell given a one-command script as one word (`xargs -I{} sh -c "grep -n x {}"`): that
  // command's own words (a script of several commands stays one word, as before)
  if (script && out.length === 1 && /\s/.test(out[0]!.trim()) && !/&&|\|\||[;|\n]/.test(out[0]!)) return tokensOf(out[0]!.trim());
  return out;
}

/** Program name of a simple command, without its directory (`./render.py` → `render.py`). */
export const program: (simple: string) => string = memo(programOf);

function programOf(simple: string): string {
  return programName(tokens(simple)[0] ?? '');
}

/** A program path without its directory, in either slash, and without Windows' `.exe`/`.cmd`/
 * `.bat` suffix (`C:\scoop\…\mvn.cmd`, `npm.cmd` → `mvn`, `npm`): the program a POSIX shell
 * would name. */
export function programName(path: string): string {
  return path.replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd|bat)$/i, '');
}

/**
 * Family of a simple command: the program and, for runners, its subcommand; for interpreters
 * the script. Flags and file arguments are left out so reruns with other arguments match.
 */
export const family: (simple: string) => string = memo(familyOf);

function familyOf(simple: string): string {
  const t = tokens(simple);
  if (t.length === 0) return '';
  const prog = programName(t[0]!);
  if (SHELL_SYNTAX.has(prog) || POWERSHELL_SYNTAX.test(t[0]!)) return '';
  // PowerShell's and the shell's other ways to change directory are cd too
  if (CHANGE_DIR.has(prog.toLowerCase())) return 'cd';
  if (INTERPRETERS.has(prog)) {
    const script = t.slice(1).find((a) => !a.startsWith('-'));
    if (t[1] === '-m' && t[2]) return `${prog} -m ${t[2]}`;
    return script ? `${prog} ${script.replace(/^.*[\\/]/, '')}` : prog;
  }
  if (RUNNERS_WITH_SUBCOMMAND.has(prog)) {
    const withValue = RUNNER_OPTIONS.get(prog);
    const at = t.findIndex((a, i) => i > 0 && !a.startsWith('-') && !withValue?.has(t[i - 1]!));
    const sub = at > 0 ? t[at] : undefined;
    if (prog === 'npm' && (sub === 'run' || sub === 'run-script')) {
      const script = t.slice(at + 1).find((a) => !a.startsWith('-'));
      return script ? `npm run ${script}` : 'npm run';
    }
    return sub && /^[\w:.-]+$/.test(sub) ? `${prog} ${sub}` : prog;
  }
  // Unknown tools: a bare lowercase word after the program reads as a subcommand (`tk ready`).
  const second = t[1];
  if (second && !READ_ONLY.has(prog) && !FILE_TOOLS.has(prog) && /^[a-z][a-z-]{1,15}$/.test(second)) return `${prog} ${second}`;
  return prog;
}

/** Programs whose first argument is a file or directory, never a subcommand. */
const FILE_TOOLS = new Set(['rm', 'mkdir', 'touch', 'cp', 'mv', 'chmod', 'chown', 'ln', 'open', 'code', 'vim', 'nano', 'tar', 'unzip', 'zip', 'curl', 'wget', 'ssh', 'scp', 'rsync', 'kill', 'pkill']);

const READ_ONLY = new Set([
  'ls', 'cat', 'head', 'tail', 'less', 'more', 'grep', 'rg', 'ag', 'find', 'fd', 'tree', 'pwd', 'echo', 'printf', 'wc',
  'nl', 'sed', 'awk', 'jq', 'file', 'stat', 'which', 'type', 'whoami', 'date', 'du', 'df', 'diff', 'sort', 'uniq',
  'strings', 'cd', 'true', 'false', 'test', '[', 'sleep', 'readlink', 'realpath', 'basename', 'dirname', 'env',
  'git status', 'git diff', 'git log', 'git show', 'git branch', 'git ls-files', 'git remote', 'git rev-parse',
  'git fetch',
  // package managers asked about a package, installing nothing
  'npm view', 'npm info', 'npm ls', 'npm list', 'npm outdated', 'pip show', 'pip list', 'pip freeze', 'yarn info', 'pnpm ls',
  // a script runner given no script lists the scripts (`npm run`; `npm run dev` is `npm run dev`)
  'npm run', 'pnpm run', 'yarn run',
  'ps', 'lsof', 'netstat', 'ss', 'id', 'uname', 'hostname',
  // cmd.exe's look-arounds
  'dir', 'where',
]);

/** PowerShell cmdlets whose verb only reads or prints (`Get-Process`, `Test-Path`, `Select-String`,
 * `Write-Host`); `Set-`, `Remove-`, `New-`, `Out-File` change things. */
const READ_ONLY_CMDLET = /^(?:(?:Get|Test|Select|Measure|Format|Resolve|Compare)-\w+|Write-(?:Host|Output))(?: |$)/i;

/** True for commands that only look at things (they are never a fix nor a pattern step on their own). */
export function isReadOnly(fam: string): boolean {
  if (READ_ONLY.has(fam) || (fam.includes('-') && READ_ONLY_CMDLET.test(fam))) return true;
  const space = fam.indexOf(' ');
  const prog = space < 0 ? fam : fam.slice(0, space);
  return READ_ONLY.has(prog) && !RUNNERS_WITH_SUBCOMMAND.has(prog);
}

const CHECK_WORDS =
  /\b(?:test|tests|spec|check|lint|eslint|credo|dialyzer|format|fmt|prettier|typecheck|tsc|mypy|ruff|flake8|pyflakes|pylint|clippy|vet|build|compile|ci|validate|verify|pytest|jest|vitest|rspec|phpunit|black)\b/;

/** True when a command family is a check (test, lint, format, typecheck, build) worth running before a commit. */
export function isCheck(fam: string): boolean {
  return CHECK_WORDS.test(fam);
}

/** What viewOf keeps on a step about its command line. */
export interface CommandParts {
  simple: readonly string[];
  families: readonly string[];
  main: string;
  /** `program(main)` and `family(main)`. */
  program: string;
  family: string;
}

/** simpleCommands, commandFamilies and mainCommand of a line, and the main command's program and
 * family: one lookup per step instead of one per helper (each lookup hashes the line again). */
export const commandParts: (command: string) => CommandParts = memo((command) => {
  const main = mainCommand(command);
  return { simple: simpleCommands(command), families: commandFamilies(command), main, program: program(main), family: family(main) };
});

/** First simple command of a line that is not `cd`, so `cd x && npm test` is about `npm test`. */
export const mainCommand: (command: string) => string = memo(mainCommandOf);

function mainCommandOf(command: string): string {
  const parts = simpleCommands(command);
  // a change of directory (in any shell's words) or an environment setting only sets up the step
  return parts.find((p) => family(p) !== 'cd' && family(p) !== '') ?? parts[0] ?? '';
}

/** A command as an item shows it: a leading `cd` into an absolute or home path (`cd ~/Desktop/x/app &&
 * npm run build`) says where this machine keeps the checkout, not what to run, and names a person's
 * folders; a relative `cd services/web &&` stays, it is part of how to run it. */
export function shownCommand(command: string): string {
  const shown = command.replace(LEADING_CD, '');
  return /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(shown) ? shown.replace(RUN_ID, '…') : shown;
}
/** A session's or a run's id in an argument, with the date and time before it
 * (`rollout-2025-09-08T20-55-49-f6f5ea21-be92-….jsonl`): this run's name, not the command's; the
 * item shows the kind of file (`rollout-….jsonl`). */
const RUN_ID = /(?:\d{4}-\d\d-\d\d[T_-]?\d\d[-:]\d\d[-:]\d\d[-_]?)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** `cd`, `pushd`, `Set-Location` or `Push-Location` into an absolute or home path, then `&&` or `;`. */
const LEADING_CD = /^\s*(?:cd|pushd|chdir|set-location|push-location|sl)\s+(?:"(?:~|\/|[A-Za-z]:)[^"]*"|'(?:~|\/|[A-Za-z]:)[^']*'|(?:~|\/|[A-Za-z]:)[^\s&;|]*)\s*(?:&&|;)\s*/i;
