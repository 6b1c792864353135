/**
 * Slow commands: a command that took a minute or more needs a generous timeout next time, and the reason is often in its output (a commit hook that runs
 * dialyzer, a first build of caches). Servers, watchers and sleeps are meant to run long and are
 * left out. At most two per session, the slowest of each command family. How long it took is
 * what the tool itself reports when it does (Codex: `Wall time: 0.8 seconds`), else the time
 * between the call and its output; a call that asked to leave the sandbox first waited for the
 * user's approval, so its timestamps measure the user, not the command. So may any call where the
 * agent asks before it runs one (Claude Code's permission prompt leaves no mark in the log): the
 * time between call and output counts only when the output shows a program at work, not for a
 * plain file operation or a call that printed nothing.
 */
import type { SessionEvent } from '../../../sessions/model.js';
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { isReadOnly, shownCommand } from '../commands.js';
import { clip, code, hookSections, literalNewlines } from '../text.js';
import { seenToSucceed, type SessionView, type Step } from '../view.js';
import { actionFamilyOf } from './error-fix.js';
import { BACKGROUND } from './tool-quirks.js';
import { indexedByPosition } from '../event-at.js';

const SLOW_SECONDS = 60;
const LONG_RUNNING = /\b(?:sleep|watch|tail -f|serve|server|dev|start|run dev|phx\.server|runserver|up|logs -f|wait)\b/;
const TIMING = /\b(?:done in|finished in|took|completed in|compiled in|built in)\s+(?:\d+m)?[\d.]+\s*(?:ms|s|sec|seconds|m|min|minutes)?\b/i;
const MAX_ITEMS = 2;
const WALL_TIME = /^Wall time: ([\d.]+) seconds?\s*$/m;
/** Claude Code's Bash stopping a command at the call's timeout: the command never ended. */
const TIMED_OUT = /^Command timed out after /m;

/** A request to a service on another machine (`curl https://api.example.com/…`): its time is
 * spent there and on the way, the service's state that moment, nothing this repository does. */
const HTTP_CLIENTS = /^(?:curl|wget|http|https|httpie|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)$/i;
function asksRemoteService(s: Step): boolean {
  const fam = actionFamilyOf(s.families).split(' ')[0] ?? '';
  if (!HTTP_CLIENTS.test(fam)) return false;
  const hosts = [...s.command!.matchAll(/\bhttps?:\/\/([^/\s:'"]+)/g)].map((m) => m[1]!);
  return hosts.length > 0 && hosts.every((h) => !/^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|::1)$/.test(h));
}

/** A command that works through the user's own folders or the whole disk (`Get-ChildItem
 * $env:LOCALAPPDATA -Recurse`, `find ~ -name x`, `du -sh /*`): its time is the size of that
 * machine's data, nothing this repository does. */
const USER_FOLDERS = /(?:^|[\s"'(=,])(?:(?:~|\$HOME|\$\{HOME\})(?=[\s"',)]|$)|\$env:(?:USERPROFILE|LOCALAPPDATA|APPDATA|HOMEPATH|ProgramData|ProgramFiles|SystemRoot|windir)\b|%(?:USERPROFILE|LOCALAPPDATA|APPDATA|ProgramData)%|\/\*?(?=\s|$)|[A-Za-z]:\\?(?=[\s"']|$))/i;

/** The call waited for the user to approve running it outside the sandbox (Codex). */
function awaitedApproval(input: Record<string, unknown>): boolean {
  return input.sandbox_permissions === 'require_escalated' || input.with_escalated_permissions === true;
}

/** Codex's sandbox refused the command (`exec_command failed: CreateProcess { message:
 * "Codex(Sandbox(Denied { …`): Codex then asks the user whether to run it outside the sandbox, and
 * the call's time is that wait, not the command's. */
const SANDBOX_DENIED = /\bSandbox\(Denied\b/;

/** Programs that move, copy, delete, list or print files, or read or set a setting or the
 * machine's state (`git config`, `whoami`): done in moments, so minutes between their call and
 * output were spent waiting (for the user's approval), not running. */
const FILE_OPERATION = new Set(['rm', 'rmdir', 'mv', 'cp', 'mkdir', 'touch', 'chmod', 'chown', 'ln', 'ls', 'cat', 'echo', 'del', 'rd', 'move', 'copy', 'Remove-Item', 'Move-Item', 'Copy-Item', 'New-Item', 'Get-ChildItem', 'pwd', 'whoami', 'which', 'where', 'Get-Command', 'env', 'printenv', 'date', 'hostname', 'uname', 'id']);
const SETTING_OPERATION = new Set(['git config', 'git rev-parse', 'git branch']);

/** The last line of a run that stopped at its own question ("✅ Installation cancelled",
 * "Aborted."): it read no answer and did no work, so the minutes before its output were spent
 * before it ran. */
const DECLINED = /\b(?:cancel+ed|aborted|aborting)\b[.!]?\s*$/i;

/** A program asked only for its version or its usage (`claude --version`, `node -v`): it prints
 * and exits at once. */
const ASKS_VERSION_OR_HELP = /^\S+(?:\s+(?:--version|-V|-v|version|--help|-h|help))+\s*$/;

const LISTING = new Set(['git status', 'git remote']);

/** Whether a step ran commands (its `cd`s aside), each of its family and simple command `is`. */
function onlyCommandsThat(s: Step, is: (family: string, simple: string) => boolean): boolean {
  const run = s.families.map((f, i) => ({ f, simple: (s.simple[i] ?? '').trim() })).filter(({ f }) => f && f !== 'cd');
  return run.length > 0 && run.every(({ f, simple }) => is(f, simple));
}

/** Whether a step only does what takes no time: file operations, settings, listings (`git
 * status`, `git remote -v`), version queries. */
function instant(s: Step): boolean {
  return onlyCommandsThat(s, (f, simple) => SETTING_OPERATION.has(f) || LISTING.has(f) || FILE_OPERATION.has(f.split(' ')[0]!) || ASKS_VERSION_OR_HELP.test(simple));
}

/** Whether the minutes between a call and its output can be the command's own: it printed
 * something, it is more than what takes no time, and it did not stop at its own question. */
function timedByClock(s: Step): boolean {
  if (s.output.trim() === '' || DECLINED.test(s.output.trimEnd())) return false;
  return !instant(s);
}

/** Seconds a step that asks only a setting, a name or a version, or lists a folder or prints a
 * file, may wait for its output. A session where one waited longer was asking the user to approve
 * its calls (Claude Code records no such prompt): its clock measures the user, and no command
 * there is timed by it. (Not commands that change files: `rm -rf node_modules` may well take that
 * long.) */
const INSTANT_WAIT = 20;
const ASKS_A_NAME = new Set(['pwd', 'whoami', 'which', 'where', 'Get-Command', 'env', 'printenv', 'date', 'hostname', 'uname', 'id', 'echo', 'unset', 'export', 'ls', 'cat', 'head', 'tail', 'stat', 'dir', 'type', 'Get-ChildItem', 'Get-Content']);
function asksOnly(s: Step): boolean {
  return onlyCommandsThat(s, (f, simple) => SETTING_OPERATION.has(f) || LISTING.has(f) || ASKS_A_NAME.has(f.split(' ')[0]!) || ASKS_VERSION_OR_HELP.test(simple));
}

/** Seconds the tool says the command ran, from the head of its raw output. */
function reportedSeconds(output: string | undefined): number | undefined {
  const m = output === undefined ? null : WALL_TIME.exec(output.slice(0, 300));
  return m ? Number(m[1]) : undefined;
}

function secondsBetween(a?: string, b?: string): number | undefined {
  if (a && b && sameUtcMinute(a, b)) return 0; // under a minute apart (most steps): no need to parse them
  return exactSecondsBetween(a, b);
}

/** Seconds between two times to the second (secondsBetween stops at "under a minute"). */
function exactSecondsBetween(a?: string, b?: string): number | undefined {
  if (!a || !b) return undefined;
  const d = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

/** Whether both are UTC ISO times ("2026-01-16T10:21:07.123Z") of the same minute: their first
 * 16 characters ("2026-01-16T10:21") are equal. Anything else is left to Date.parse. */
function sameUtcMinute(a: string, b: string): boolean {
  if (a.length < 17 || b.length < 17 || a.charCodeAt(a.length - 1) !== 0x5a || b.charCodeAt(b.length - 1) !== 0x5a) return false;
  if (a.charCodeAt(10) !== 0x54 || a.charCodeAt(13) !== 0x3a || a.charCodeAt(16) !== 0x3a) return false;
  for (let i = 0; i < 16; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** The longest Claude Code's Bash tool waits for a call (ten minutes). */
const MAX_BASH_TIMEOUT = 600000;

/** A command line that ends its program early: output piped into `head`, or a `timeout` wrapper. */
const CUT_SHORT = /\|\s*head\b|(?:^|[;&|]\s*|\s)timeout\s+\d/;

/** A slow first run of a command whose later runs take at most half as long was warming up
 * (compiling dependencies, building a cache): slow once per checkout, not every time. The
 * longest later run, or undefined when the run was not the first or nothing ran it again. */
function warmUp(view: SessionView, slow: Step, fam: string, seconds: number, secondsOf: (s: Step, exact: boolean) => number | undefined): number | undefined {
  const runs = view.steps.filter((s) => s.command && !s.rejected && actionFamilyOf(s.families) === fam);
  if (runs[0] !== slow) return undefined;
  // (a later run that failed, or stopped before the program ran, shows nothing of a warm-up; nor
  // does one cut short on purpose: `| head -80` ends it at its 80th line, `timeout 300` at 300 s;
  // nor one the tool moved to the background, whose call returned at once)
  const later = runs.slice(1).filter((s) => seenToSucceed(s) && !CUT_SHORT.test(s.command!) && !BACKGROUND.test(s.output)).map((s) => secondsOf(s, true)).filter((x): x is number => x !== undefined);
  if (later.length === 0) return undefined;
  const longest = Math.max(...later);
  return longest * 2 <= seconds ? longest : undefined;
}

/** Whether a run of the same family before `slow` ended in a quarter of its time or less. */
function fasterBefore(view: SessionView, slow: Step, fam: string, seconds: number, secondsOf: (s: Step, exact: boolean) => number | undefined): boolean {
  return view.steps.some((s) => s.pos < slow.pos && s.command !== undefined && seenToSucceed(s) && actionFamilyOf(s.families) === fam && (secondsOf(s, true) ?? Infinity) * 4 <= seconds);
}

function human(seconds: number): string {
  return seconds >= 90 ? `${(seconds / 60).toFixed(1)} min` : `${Math.round(seconds)} s`;
}

/** The output line that says what took the time ("Checking PLT… done in 2m8.83s"), with its short lead-in. */
function timingLine(output: string): string | undefined {
  const lines = literalNewlines(output).split('\n').map((l) => l.trim());
  // The slowest timing the output reports (`done in 2m8.83s` over `took 0.4 seconds`).
  const secondsOf = (l: string): number => {
    const m = TIMING.exec(l)?.[0] ?? '';
    const min = /(\d+)\s*m(?:in)?\b|(\d+)m(?=\d)/.exec(m);
    const sec = /([\d.]+)\s*(?:s|sec|seconds)\b/.exec(m.replace(/^.*\d+m(?=\d)/, ''));
    return (min ? Number(min[1] ?? min[2]) * 60 : 0) + (sec ? Number(sec[1]) : 0);
  };
  let at = -1;
  lines.forEach((l, i) => {
    if (TIMING.test(l) && (at < 0 || secondsOf(l) > secondsOf(lines[at]!))) at = i;
  });
  if (at < 0) return undefined;
  const lead = lines.slice(Math.max(0, at - 4), at).reverse().find((l) => l.length > 3 && l.length <= 90 && /[a-z]{3}/i.test(l));
  return clip(lead && lead !== lines[at] ? `${lead} … ${lines[at]}` : lines[at]!, 130);
}

/** A step done once and then reused: building a dialyzer PLT, compiling, downloading, installing. */
const ONE_TIME_STEP = /\b(?:adding \d+ modules to|building|compiling|downloading|installing|creating|generating|populating)\b/i;

export function slowCommandDrafts(view: SessionView): Draft[] {
  const events = view.session.events;
  // the event with a given index: by position when events are numbered so (see event-at.ts)
  const byIndex = indexedByPosition(events) ? undefined : new Map<number, SessionEvent>(events.map((e) => [e.index, e]));
  const eventAt = (index: number): SessionEvent | undefined => (byIndex ? byIndex.get(index) : events[index]);
  const waited = (s: Step): number | undefined => exactSecondsBetween(s.call.time, eventAt(s.outputEvent)?.time);
  // (looked for once, and only when a command would be timed by the clock)
  let measuresUser: boolean | undefined;
  const clockMeasuresUser = (): boolean => (measuresUser ??= view.steps.some((s) => s.command !== undefined && !s.rejected && asksOnly(s) && (waited(s) ?? 0) >= INSTANT_WAIT));
  const secondsOf = (s: Step, exact: boolean): number | undefined => {
    const result = eventAt(s.outputEvent);
    const reported = reportedSeconds(result?.kind === 'tool_result' ? result.output : undefined);
    if (SANDBOX_DENIED.test(s.output)) return undefined;
    if (reported !== undefined) return reported;
    if (awaitedApproval(s.call.input) || !timedByClock(s) || clockMeasuresUser()) return undefined;
    return exact ? exactSecondsBetween(s.call.time, result?.time) : secondsBetween(s.call.time, result?.time);
  };
  const slowest = new Map<string, { draft: Draft; seconds: number; fams: Set<string> }>();
  for (const s of view.steps) {
    if (!s.command || s.rejected || LONG_RUNNING.test(s.command) || asksRemoteService(s) || USER_FOLDERS.test(s.command)) continue;
    const seconds = secondsOf(s, false);
    if (seconds === undefined || seconds < SLOW_SECONDS) continue;
    const fam = actionFamilyOf(s.families);
    if (!fam || (slowest.get(fam)?.seconds ?? 0) >= seconds) continue;
    const timeout = typeof s.call.input.timeout === 'number' ? s.call.input.timeout : undefined;
    const sections = hookSections(s.output);
    const timing = timingLine(s.output);
    const later = warmUp(view, s, fam, seconds, secondsOf);
    // a run that an earlier run of the same commands beat by four times was not slow: it waited
    // (for the user's approval, a lock, the network) while its family takes seconds here; a first
    // run that later runs beat is a warm-up, which warmUp tells
    if (later === undefined && fasterBefore(view, s, fam, seconds, secondsOf)) continue;
    // a command that outlived the tool's timeout went on in the background: the time measured is
    // when the tool gave up waiting, so the command took longer than that
    // (and one the tool stopped at the call's timeout never ended: a server or a bot that runs
    // until stopped as often as a slow build)
    const stopped = TIMED_OUT.test(s.output);
    const outlived = BACKGROUND.test(s.output) || stopped;
    // outlived, with no run seen to end: "over ten minutes" is only when the tool stopped waiting,
    // which the background item tells; no measure of the command
    if (outlived && later === undefined) continue;
    const lasted = `${outlived ? 'over' : 'about'} ${human(seconds)}`;
    const went = stopped ? ': the tool stopped it at the timeout' : outlived ? ": it outlived the tool's timeout and went on in the background" : '';
    // a first run that later runs beat by half warmed up what they reuse: slow once per checkout
    const parts = [later === undefined ? `${code(clip(shownCommand(s.command), 80))} takes ${lasted} in this repo${went}` : `The first ${code(clip(shownCommand(s.command), 80))} run in a new checkout or worktree took ${lasted} (later runs at most ${human(later)})${went}`];
    if (sections.length > 0) parts.push(`its hook runs ${sections.join(', ')}`);
    // a first run that builds what later runs reuse (a PLT, the dependencies): that is the cause
    if (timing && later !== undefined && ONE_TIME_STEP.test(timing)) parts.push(`the time went to a one-time step that later runs reuse: ${code(timing)}`);
    else if (timing) parts.push(`the output shows ${code(timing)}`);
    const advice = timeout !== undefined && timeout < seconds * 1000 ? ` (the ${timeout} ms timeout was too short)` : '';
    // Claude Code's Bash waits at most 600000 ms: a call that asked for that much can wait no longer
    const atMost = timeout !== undefined && timeout >= MAX_BASH_TIMEOUT && s.call.name === 'Bash';
    const way = atMost ? `Run ${later === undefined ? 'it' : 'the first run'} in the background (the ${timeout} ms timeout is the most the tool waits)` : `Give ${later === undefined ? 'it' : 'the first run'} a generous timeout${advice} or run it in the background`;
    slowest.set(fam, {
      seconds,
      fams: new Set(s.families.filter((f) => f && !isReadOnly(f))),
      draft: {
        category: 'fact',
        title: `${later === undefined ? '' : 'The first '}${clip(fam, 40)} is slow (${lasted})`,
        text: `${parts.join('; ')}. ${way}.`,
        confidence: CONFIDENCE.verified,
        event: s.outputEvent,
        tags: [...fam.split(' '), 'timeout', 'slow'],
        quotes: timing ? [timing] : [],
        rule: 'slow-command',
        score: 5 + (timing || sections.length > 0 ? 0.5 : 0),
      },
    });
  }
  // One item per slow thing: a command line that repeats a slower one's commands says nothing new.
  const kept: { draft: Draft; fams: Set<string> }[] = [];
  for (const x of [...slowest.values()].sort((a, b) => b.seconds - a.seconds)) {
    if (kept.some((k) => [...x.fams].some((f) => k.fams.has(f)))) continue;
    kept.push(x);
  }
  return kept.slice(0, MAX_ITEMS).map((x) => x.draft);
}

export const slowCommands: RuleExtractor = ruleExtractor('slow-command', slowCommandDrafts);
