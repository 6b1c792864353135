/**
 * Aider runs only its own in-chat commands (`/run`, `/git`, `/exit`, `!`): a message typed without
 * one goes to the model as chat, even when it is a shell command line. The user who types
 * `git add .` or `export OLLAMA_API_BASE=…` into aider loses the turn to a model request and
 * nothing runs; the next session does the same unless told. (A way out typed as chat, `exit` or
 * vim's `:q`, lost only that request: aider is plainly still there, so that is no item.) Written only when
 * the message is nothing but such lines and aider then ran nothing (no `Run shell command?` offer,
 * no command output) but sent it to the model (a reply, or the model's error) before the next
 * message.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { clip, code, errorSignature, oneLine } from '../text.js';
import { family, isReadOnly } from '../commands.js';
import type { SessionView } from '../view.js';
import type { SessionEvent } from '../../../sessions/model.js';
import { LITELLM_ERROR } from '../../aider-launches.js';

/** Programs whose name is no English word a request starts with (unlike `make`, `go`, `cat`). */
const PROGRAMS = new Set([
  'git', 'npm', 'npx', 'yarn', 'pnpm', 'pip', 'pip3', 'python', 'python3', 'node', 'export', 'cd', 'ls', 'docker',
  'docker-compose', 'source', 'sudo', 'brew', 'uv', 'poetry', 'cargo', 'mkdir', 'rm', 'curl', 'wget', 'chmod', 'pytest',
  'kubectl', 'dotnet', 'mvn', 'gradle', 'composer', 'php', 'bundle', 'rails', 'flutter', 'conda', 'venv', 'pwd', 'dir',
  // aider's own launch line typed into the running aider
  'aider',
]);
/** A launch option typed as a message (`--read <glob>`, `--model gpt-4o`): aider's command line takes it, not its chat. */
const OPTION = /^--[a-z][\w-]*(?:[= ]|$)/;
/** Aider's in-chat commands that do what a launch option does. */
const IN_CHAT: Readonly<Record<string, string>> = { '--read': '/read-only <file>', '--file': '/add <file>', '--model': '/model <name>', '--chat-mode': '/chat-mode <mode>' };
/** Words of a sentence about a command (`npm install fails for me`), never of the command itself. */
const PROSE = /^(?:a|an|the|is|are|was|were|be|not|does|doesn't|don't|didn't|isn't|fails?|failed|failing|works?|worked|broken|why|how|what|when|where|please|should|can|could|would|it|this|that|my|your|me|i|we|you|to|for|with|and|or|but|again|still|error|errors|now|then)$/i;
/** Aider running a command after all (the reader makes a shell call of what it ran; these are the
 * notices in case it could not): the model proposed it, or a `/run` put output in the chat. */
const RAN = /^(?:Run shell commands?\?|Running |Add (?:[\d.]+k? tokens|\d+ lines?) of command output)/m;

/** Aider's own reading of a URL in a message: it fetched the page into the chat. */
const SCRAPED = 'Scraping';
/** The model's request failed: the message was sent, whatever became of it. */
const REQUEST_FAILED = 'failed';
/** Whether a line is a shell command: a known program first, and no word of a sentence in the rest
 * once quoted arguments (a commit message) are taken out. */
function commandLine(line: string): boolean {
  const bare = line.trim().replace(/"[^"]*"|'[^']*'/g, '""');
  if (bare.length === 0 || bare.length > 160 || /\?\s*$|\p{L}[.!]\s*$/u.test(bare)) return false;
  if (OPTION.test(bare)) return bare.split(/\s+/).slice(1).every((w) => w.startsWith('-') || !PROSE.test(w));
  const words = bare.split(/\s+/);
  if (!PROGRAMS.has(words[0]!)) return false;
  return words.slice(1).every((w) => !PROSE.test(w.replace(/[,;:]$/, '')));
}

/** The user's message when all of its lines are shell command lines, at most three of them, and
 * one of them meant to change something: a look typed as chat (`ls`, `git status`) lost nothing
 * when the model answered it, but `git add .` or `export X=…` did not happen while the user
 * believed it had. */
function shellLines(e: SessionEvent): string[] | undefined {
  if (e.kind !== 'user' || e.injected || e.text.length > 3 * 160) return undefined;
  // (most messages are requests: their first word already says so)
  const first = /^\s*(\S+)/.exec(e.text)?.[1];
  if (first === undefined || (!PROGRAMS.has(first) && !OPTION.test(first))) return undefined;
  const lines = e.text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length === 0 || lines.length > 3 || !lines.every(commandLine)) return undefined;
  return lines.some((l) => !isReadOnly(family(l))) ? lines : undefined;
}

/** What followed the message up to the next one: the model's first words, or undefined when aider
 * ran something (or nothing answered at all). */
function answeredAsChat(events: readonly SessionEvent[], from: number): { reply: string; event: number } | undefined {
  let reply: { reply: string; event: number } | undefined;
  for (let i = from + 1; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'user' && !e.injected) break;
    if (e.kind === 'tool_call' || (e.kind === 'system' && RAN.test(e.text))) return undefined;
    if (reply === undefined && e.kind === 'assistant' && e.text.trim()) reply = { reply: oneLine(e.text.trim().split('\n')[0]!), event: e.index };
    if (reply === undefined && e.kind === 'system' && /^Scraping \S+/m.test(e.text)) reply = { reply: SCRAPED, event: e.index };
    if (reply === undefined && e.kind === 'system' && LITELLM_ERROR.test(e.text)) reply = { reply: REQUEST_FAILED, event: e.index };
  }
  return reply;
}

/** What became of the message, as the item says it. */
function answeredText(reply: string): string {
  if (reply === SCRAPED) return 'aider offered to scrape the URL in it';
  return reply === REQUEST_FAILED ? 'aider sent it to the model as a prompt' : `the model answered (${code(clip(reply, 50))})`;
}

export function aiderShellLineDrafts(view: SessionView): Draft[] {
  if (view.session.format !== 'aider') return [];
  const events = view.session.events;
  for (let i = 0; i < events.length; i++) {
    const lines = shellLines(events[i]!);
    if (!lines) continue;
    const answer = answeredAsChat(events, i);
    if (!answer) continue;
    const isExport = /^export\s/.test(lines[0]!);
    // a variable's value is this machine's (an address, a key): the item keeps its name
    // (a shell's line continuation, ` \\`, is no part of what was typed as one line)
    const first = isExport ? lines[0]!.replace(/^(export\s+[A-Za-z_]\w*)=.*$/, '$1=…') : lines[0]!.replace(/\s+\\$/, '');
    const answered = answeredText(answer.reply);
    // a line that starts aider again (with another model) wanted aider's own switch
    // (aider's own launch line, however started: `aider .`, `python -m aider`, `uv tool run … aider`)
    const restartsAider = /(?:^|\s)aider(?:\s|$)/.test(first);
    // (a bare `aider` asked nothing a running aider could do for it: no model, file or option,
    // only a slip; reviewers found it trivial)
    if (restartsAider && /(?:^|\s|\/)aider$/.test(first)) continue;
    const options = OPTION.test(first);
    const inChat = options ? IN_CHAT[first.split(/[\s=]/)[0]!] : undefined;
    const way = isExport
      ? 'Set environment variables in the shell before starting aider (`/run export` runs in a subshell).'
      : restartsAider
        ? /\s--model[\s=]/.test(first)
          ? 'A running aider changes its model with `/model <name>`.'
          : 'A running aider takes files with `/add <file>` and changes its settings with its in-chat commands (`/help` lists them).'
        : options
          ? `Options go on the aider command line or in \`.aider.conf.yml\`; a running aider takes its in-chat commands (${inChat ? `here ${code(inChat)}` : '`/help` lists them'}).`
        : `Run it as ${code(`/run ${clip(first, 40)}`)} or ${code(`!${clip(first, 40)}`)}${/^git\s/.test(first) ? ` (git also as ${code(`/${clip(first, 40)}`)})` : ''}.`;
    return [
      {
        category: 'tool-quirk',
        scope: 'agent',
        title: options ? 'aider sends a launch option typed as a message to the model' : restartsAider ? 'aider sends its own launch line typed into it to the model' : 'aider sends a shell command typed without /run to the model',
        text: `Aider runs only its own commands: a message without a leading \`/\` or \`!\` goes to the model as chat. ${code(clip(first, 60))} typed into aider ran nothing; ${answered}. ${way}`,
        confidence: CONFIDENCE.verified,
        event: events[i]!.index,
        tags: ['aider', 'run', 'shell'],
        quotes: [first],
        rule: 'aider-shell-line',
        // (one lesson each: a shell command, aider's own launch line, its launch options)
        signature: errorSignature(`aider shell line sent as chat${options ? ' option' : restartsAider ? ' launch line' : ''}`),
        score: 7,
      },
    ];
  }
  return [];
}

export const aiderShellLines: RuleExtractor = ruleExtractor('aider-shell-line', aiderShellLineDrafts);
