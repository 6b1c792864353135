/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
 *
 * Modern files wrap every record as `{timestamp, type, payload}`; legacy files (<= Sept 2025)
 * start with `{id, timestamp, instructions, git}` and then hold bare response items. Codex writes
 * most things twice (response_item for the model, event_msg for the UI): messages and reasoning
 * are de-duplicated by text, and the exec/patch events are merged into the tool result of the
 * call they belong to, so each command yields one call and one result.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { forEachLine, type Preloaded } from '../lines.js';
import type { Session, SessionEvent, ToolCallEvent, ToolResultEvent } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import { pushCallOn, pushText, pushToolCall, pushToolResult, type EventBaseInput } from '../events.js';
import { copyOf, headLines, injectedBase, isRecord, maxLineBytes, parseHeadLine, parseJsonLine, sourceOf, str, TimeSpan, tryParse, WarningSink } from '../jsonl.js';
import { repoFromCwd } from './claude-code.js';
import { makeSession } from './common.js';
import { codeModeCall, codeModeOutput } from './codex-code-mode.js';
import { EXEC_EXIT, looksFailed } from './outcome.js';

type Json = Record<string, unknown>;

const ENVELOPE_TYPES = /"type":"(session_meta|response_item|event_msg|turn_context|compacted)"/;
const LEGACY_SHELL_TOOLS = new Set(['shell', 'container.exec', 'local_shell']);
const LEGACY_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'local_shell_call']);

/** Text Codex adds to the user role that no human typed. */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '<permissions instructions>',
  '<collaboration_mode>',
  '<skills_instructions>',
  '<plugins_instructions>',
  '<INSTRUCTIONS>',
  '<turn_aborted>',
  '<user_shell_command>',
  '# AGENTS.md instructions',
];

export function isInjectedCodexText(text: string): boolean {
  const t = text.trimStart();
  for (const p of INJECTED_PREFIXES) if (t.startsWith(p)) return true;
  // any other whole-message <tag>…</tag> wrapper is Codex context, not a prompt
  const m = /^<([a-z][a-z_ -]{0,40})>/.exec(t);
  return m !== null && t.trimEnd().endsWith(`</${m[1]}>`);
}

// ---------------------------------------------------------------------------------------------
// detection

function detect(head: string): number {
  return detectFirstLine(headLines(head, 1)[0]); // only the first line decides
}

/** detect by the head's complete lines: its first non-blank line, when it is among them (the
 * rest of the head is not needed). */
function detectLines(lines: readonly string[]): number | undefined {
  for (const line of lines) {
    const first = line.trim(); // as headLines trims (a BOM too)
    if (first) return detectFirstLine(first);
  }
  return undefined;
}

function detectFirstLine(first: string | undefined): number {
  if (!first || first[0] !== '{') return 0;
  // The modern first line embeds the whole system prompt and is often longer than the head,
  // so look at its opening keys only.
  const opening = first.slice(0, 4096);
  if (ENVELOPE_TYPES.test(opening) && opening.includes('"payload":')) return 0.95;
  // a line that does not end the object it opens cannot parse; a failed JSON.parse costs a thrown
  // error (tens of microseconds), paid by every pretty-printed JSON file this detector is shown
  const o = first.endsWith('}') ? parseHeadLine(first) : undefined;
  if (isRecord(o)) {
    // as sure as the modern opening: no other format opens with this record, and at the highest
    // score no other reader is asked (each would search the 64 KiB head for its keys)
    if (!('type' in o) && typeof o.id === 'string' && typeof o.timestamp === 'string' && ('instructions' in o || 'git' in o)) {
      return 0.95;
    }
    return 0;
  }
  if (first.startsWith('{"id":"') && opening.includes('"instructions":') && !opening.includes('"type":')) return 0.6;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// output parsing

interface ParsedOutput {
  text: string;
  exitCode?: number;
  isError?: boolean;
  /** Unified exec: the process is still running in this session; later polls carry its end. */
  runningSession?: number;
}

const RUNNING_RE = /^Process running with session ID (\d+)\s*$/m;
const EXIT_CODE_LINE_RE = /^Exit code: (-?\d+)\s*$/m;
/** `apply_patch failed: …`, `execution error: Io(…)` and `exec_command failed for `<line>`:
 * CreateProcess { … Sandbox(Denied …` : a command that could not even start (Windows' sandbox
 * runner refusing, `CreateProcessAsUserW failed: 1312`, bubblewrap denied its network setup). */
const FAILED_TOOL_RE = /^(?:[a-z_]+ failed(?: for `[^`\n]*`)?: |execution error: )/;
const SANDBOX_EXIT_RE = /exit code: (-?\d+)/;
/** The shell tool's answer for a command that exited non-zero in the sandbox, in files of any
 * age (`failed in sandbox: <stderr>` from CLI 0.4x on macOS, with no exit code): its
 * successes are the JSON envelope. */
const SANDBOXED_FAILURE = 'failed in sandbox';
const USER_REJECTED = /\bRejected\(\\?"rejected by user\\?"\)/;
const USER_ABORTED = /^aborted by user(?: after [\d.]+\s*m?s)?\s*$/;
/** Codex's automatic approval review timing out on an escalated call: the call never ran, and the
 * decision is still the user's (the output is the notice alone). */
const APPROVAL_TIMED_OUT = /^The automatic permission approval review did not finish before its deadline\b/;

/** `legacyShell`: a legacy shell call, whose successful results are always the JSON envelope. */
function parseOutput(raw: string, legacyShell: boolean): ParsedOutput {
  if (raw.startsWith('{')) {
    const o = tryParse(raw);
    if (isRecord(o) && typeof o.output === 'string') {
      const meta = isRecord(o.metadata) ? o.metadata : {};
      const out: ParsedOutput = { text: o.output };
      if (typeof meta.exit_code === 'number') {
        out.exitCode = meta.exit_code;
        out.isError = meta.exit_code !== 0;
      }
      return out;
    }
  }
  const head = raw.length > 600 ? raw.slice(0, 600) : raw;
  const out: ParsedOutput = { text: raw };
  const exited = EXEC_EXIT.exec(head) ?? EXIT_CODE_LINE_RE.exec(head);
  if (exited) {
    out.exitCode = Number(exited[1]);
    out.isError = out.exitCode !== 0;
    return out;
  }
  const running = RUNNING_RE.exec(head);
  if (running) {
    out.runningSession = Number(running[1]);
    return out;
  }
  if (FAILED_TOOL_RE.test(head)) out.isError = true;
  else if (legacyShell || head.startsWith(SANDBOXED_FAILURE)) {
    // plain text instead of the envelope is a sandbox or patch failure
    out.isError = true;
    const m = SANDBOX_EXIT_RE.exec(head);
    if (m) out.exitCode = Number(m[1]);
  }
  return out;
}

function commandOf(name: string, args: Json): string | undefined {
  if (typeof args.cmd === 'string') return args.cmd; // exec_command
  const c = args.command;
  if (typeof c === 'string') return c; // shell_command
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    const argv = c as string[];
    // ["bash","-lc","<script>"] runs the script: that is the command a person would read
    if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
    return argv.join(' ');
  }
  return name === 'apply_patch' ? 'apply_patch' : undefined;
}

// ---------------------------------------------------------------------------------------------
// de-duplication of the two streams

type Stream = 'item' | 'event';

/** Matches a text written by one stream against the same text already written by the other. */
class StreamDeduper {
  private readonly pending = new Map<string, { stream: Stream; count: number }>();

  /** True when `text` was already emitted by the other stream (this copy is the duplicate). */
  isDuplicate(kind: string, stream: Stream, text: string): boolean {
    const key = `${kind}\u0000${text.trim()}`;
    const entry = this.pending.get(key);
    if (entry && entry.stream !== stream) {
      if (--entry.count === 0) this.pending.delete(key);
      return true;
    }
    if (entry) entry.count++;
    else this.pending.set(key, { stream, count: 1 });
    if (this.pending.size > 256) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    return false;
  }
}

/** VS Code sends "# Context from my IDE setup: … ## My request for Codex: <prompt>"; the UI event
 * holds only the prompt. */
function stripIdeContext(text: string): string {
  const marker = '## My request for Codex:';
  const i = text.indexOf(marker);
  return i === -1 ? text : text.slice(i + marker.length).trim();
}

// ---------------------------------------------------------------------------------------------
// reading

interface CallState {
  name: string;
  call: ToolCallEvent;
  result?: ToolResultEvent;
  /** The exit code came from exec_command_end / patch_apply_end: it wins over text parsing. */
  authoritative?: boolean;
  /** A code-mode `exec` script (see codex-code-mode.ts); `exitCode` is its command's, from the
   * CommandExecution or patch_apply_end event that comes before the script's output. */
  codeMode?: { exitCode?: number };
}

class CodexSession {
  readonly events: SessionEvent[] = [];
  readonly span = new TimeSpan();
  readonly models = new Set<string>();
  legacy = false;
  id?: string;
  cwd?: string;
  branch?: string;
  repoUrl?: string;
  startedAt?: string;
  /** The sandbox policy of each turn (`workspace-write`, `read-only`, `danger-full-access`). */
  readonly sandboxPolicies = new Set<string>();
  declaredShell: string | undefined;
  cliVersion: string | undefined;
  private readonly dedupe = new StreamDeduper();
  private readonly calls = new Map<string, CallState>();
  /** Unified-exec process session id → call_id of the exec_command that started it. */
  private readonly processes = new Map<number, string>();
  /** Call ids of code-mode `exec` calls not answered yet, in order (see openCodeModeCall). */
  private readonly codeModeOpen: string[] = [];

  constructor(
    readonly file: string,
    readonly sink: WarningSink,
  ) {}

  meta(p: Json, time: string | undefined): void {
    if (this.id !== undefined) return; // a resumed or forked rollout repeats its parent's meta
    this.id = str(p.id);
    this.startedAt = str(p.timestamp) ?? time;
    this.span.see(this.startedAt);
    this.cwd = str(p.cwd) || undefined;
    this.cliVersion = str(p.cli_version) || undefined;
    if (isRecord(p.git)) {
      this.branch = str(p.git.branch) || undefined;
      this.repoUrl = str(p.git.repository_url) || undefined;
    }
    if (typeof p.model === 'string') this.models.add(p.model);
  }

  turnContext(p: Json): void {
    if (typeof p.model === 'string' && p.model) this.models.add(p.model);
    if (this.cwd === undefined && typeof p.cwd === 'string' && p.cwd) this.cwd = p.cwd;
    // (`type` in newer rollouts, `mode` in older ones)
    if (isRecord(p.sandbox_policy)) {
      const policy = str(p.sandbox_policy.type) ?? str(p.sandbox_policy.mode);
      if (policy) this.sandboxPolicies.add(policy);
    }
  }

  item(p: Json, base: EventBaseInput): void {
    switch (p.type) {
      case 'message':
        return this.message(p, base);
      case 'reasoning':
        return this.reasoning(p, base);
      case 'function_call':
        return this.functionCall(p, base);
      case 'custom_tool_call':
        return this.customToolCall(p, base);
      case 'local_shell_call':
        return this.localShellCall(p, base);
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.callOutput(p, base);
      case 'web_search_call': {
        const input = isRecord(p.action) ? p.action : {};
        pushCallOn(this.events, base, 'web_search', input);
        return;
      }
      default:
        return;
    }
  }

  event(p: Json, base: EventBaseInput): void {
    switch (p.type) {
      case 'user_message': {
        const text = str(p.message) ?? '';
        if (text && !this.dedupe.isDuplicate('user', 'event', text)) {
          pushText(this.events, 'user', text, isInjectedCodexText(text) ? injectedBase(base) : base);
        }
        return;
      }
      case 'agent_message': {
        const text = str(p.message) ?? '';
        if (text && !this.dedupe.isDuplicate('assistant', 'event', text)) pushText(this.events, 'assistant', text, base, this.lastModel());
        return;
      }
      case 'agent_reasoning': {
        const text = str(p.text) ?? '';
        if (text && !this.dedupe.isDuplicate('reasoning', 'event', text)) pushText(this.events, 'reasoning', text, base);
        return;
      }
      case 'exec_command_end':
        return this.execEnd(p, base);
      case 'patch_apply_end':
        return this.patchEnd(p, base);
      case 'item_completed':
        return this.itemCompleted(p);
      case 'turn_aborted': {
        const reason = str(p.reason);
        pushText(this.events, 'system', `Turn aborted${reason ? `: ${reason}` : ''}`, injectedBase(base));
        return;
      }
      default:
        return;
    }
  }

  compacted(p: Json, base: EventBaseInput): void {
    const text = str(p.message);
    if (text) pushText(this.events, 'summary', text, injectedBase(base));
    else pushText(this.events, 'system', 'Conversation compacted', injectedBase(base));
  }

  private lastModel(): string | undefined {
    let last: string | undefined;
    for (const m of this.models) last = m;
    return last;
  }

  private message(p: Json, base: EventBaseInput): void {
    const role = str(p.role);
    const parts = Array.isArray(p.content) ? p.content : [];
    if (role === 'assistant') {
      const text = parts
        .map((c) => (isRecord(c) ? (str(c.text) ?? '') : ''))
        .filter(Boolean)
        .join('\n');
      if (text && !this.dedupe.isDuplicate('assistant', 'item', text)) pushText(this.events, 'assistant', text, base, this.lastModel());
      return;
    }
    for (const c of parts) {
      if (!isRecord(c)) continue;
      const raw = str(c.text);
      if (!raw) continue;
      if (role === 'user') {
        if (isInjectedCodexText(raw)) {
          pushText(this.events, 'user', raw, injectedBase(base));
          // (the first `<shell>` Codex names: what it told the model the commands run in)
          this.declaredShell ??= /<environment_context>[\s\S]*?<shell>([^<\n]{1,40})<\/shell>/.exec(raw)?.[1]?.trim() || undefined;
          continue;
        }
        const text = stripIdeContext(raw);
        if (!this.dedupe.isDuplicate('user', 'item', text)) pushText(this.events, 'user', text, base);
      } else {
        // developer / system: instructions Codex sends along
        pushText(this.events, 'system', raw, injectedBase(base));
      }
    }
  }

  private reasoning(p: Json, base: EventBaseInput): void {
    const texts: string[] = [];
    for (const key of ['summary', 'content'] as const) {
      const list = p[key];
      if (!Array.isArray(list)) continue;
      for (const s of list) if (isRecord(s) && typeof s.text === 'string' && s.text.trim()) texts.push(s.text);
    }
    // encrypted_content alone is unreadable: nothing to keep
    for (const text of texts) {
      if (!this.dedupe.isDuplicate('reasoning', 'item', text)) pushText(this.events, 'reasoning', text, base);
    }
  }

  private addCall(callId: string | undefined, name: string, input: Json, base: EventBaseInput): void {
    const call = copyOf(base) as Omit<ToolCallEvent, 'index' | 'kind'>;
    call.name = name;
    call.input = input;
    if (callId) call.callId = callId;
    const command = commandOf(name, input);
    if (command !== undefined) call.command = command;
    const event = pushToolCall(this.events, call);
    if (callId) this.calls.set(callId, { name, call: event });
  }

  private functionCall(p: Json, base: EventBaseInput): void {
    const name = str(p.name) ?? 'unknown';
    const rawArgs = p.arguments;
    let input: Json = {};
    if (isRecord(rawArgs)) input = rawArgs;
    else if (typeof rawArgs === 'string') {
      const parsed = tryParse(rawArgs);
      input = isRecord(parsed) ? parsed : { arguments: rawArgs };
    }
    this.addCall(str(p.call_id) ?? str(p.id), name, input, base);
  }

  private customToolCall(p: Json, base: EventBaseInput): void {
    const name = str(p.name) ?? 'unknown';
    const input = str(p.input) ?? '';
    const callId = str(p.call_id);
    if (name !== 'exec') {
      this.addCall(callId, name, { input }, base);
      return;
    }
    // code mode: the command or patch the script runs is the call a person would read
    const inner = codeModeCall(input);
    this.addCall(callId, inner?.name ?? name, inner?.input ?? { input }, base);
    const state = callId ? this.calls.get(callId) : undefined;
    if (state) {
      state.codeMode = {};
      this.codeModeOpen.push(callId!);
    }
  }

  /** The open code-mode call a CommandExecution / patch_apply_end event reports on: the events
   * carry their own ids, not the call's, and come before the script's output. */
  private openCodeModeCall(matches: (state: CallState) => boolean): CallState | undefined {
    for (let i = this.codeModeOpen.length - 1; i >= 0; i--) {
      const state = this.calls.get(this.codeModeOpen[i]!);
      if (state && !state.result && matches(state)) return state;
    }
    return undefined;
  }

  /** Records how the patch of the open code-mode apply_patch call went; false when there is none. */
  private codeModePatch(ok: boolean): boolean {
    const state = this.openCodeModeCall((s) => s.name === 'apply_patch' && s.codeMode?.exitCode === undefined);
    if (state) state.codeMode!.exitCode = ok ? 0 : 1;
    return state !== undefined;
  }

  /** Codex 0.15x reports each command (and patch) a code-mode script ran as an item_completed event. */
  private itemCompleted(p: Json): void {
    const item = isRecord(p.item) ? p.item : undefined;
    if (item?.type === 'FileChange' && (item.status === 'completed' || item.status === 'failed')) {
      this.codeModePatch(item.status === 'completed');
      return;
    }
    if (item?.type !== 'CommandExecution' || typeof item.exit_code !== 'number') return;
    // the same reading of `["/bin/zsh", "-lc", "<script>"]` as the call's own command
    const command = commandOf('exec_command', { command: item.command });
    if (command === undefined) return;
    const state = this.openCodeModeCall((s) => s.call.command === command && s.codeMode?.exitCode === undefined);
    if (state) state.codeMode!.exitCode = item.exit_code;
  }

  private localShellCall(p: Json, base: EventBaseInput): void {
    const action = isRecord(p.action) ? p.action : {};
    this.addCall(str(p.call_id) ?? str(p.id), 'local_shell', action, base);
  }

  private callOutput(p: Json, base: EventBaseInput): void {
    const callId = str(p.call_id);
    const state = callId ? this.calls.get(callId) : undefined;
    if (state?.result) return; // already built from exec_command_end, which is the richer copy
    const rawOut = p.output;
    const code = state?.codeMode ? codeModeOutput(rawOut) : undefined;
    if (state?.codeMode && code) return this.codeModeResult(state, callId, code, base);
    const raw = typeof rawOut === 'string' ? rawOut : isRecord(rawOut) ? JSON.stringify(rawOut) : '';
    const shell = state !== undefined && LEGACY_SHELL_TOOLS.has(state.name);
    const parsed = parseOutput(raw, this.legacy && shell);

    const result = copyOf(base) as Omit<ToolResultEvent, 'index' | 'kind'>;
    result.output = parsed.text;
    result.isError = parsed.isError === true;
    // the user said no to the call (`CreateProcess { message: "Rejected(\"rejected by user\")" }`,
    // an escalation request turned down): it never ran, which is no failure of the command
    if (result.isError && USER_REJECTED.test(parsed.text.slice(0, 600))) result.rejected = true;
    // and one the user stopped while it ran (`aborted by user after 8.1s`) never finished
    if (USER_ABORTED.test(parsed.text)) {
      result.isError = true;
      result.rejected = true;
    }
    // and one whose automatic approval review ran out of time never ran either
    if (APPROVAL_TIMED_OUT.test(parsed.text)) result.rejected = true;
    if (callId) result.callId = callId;
    if (state) result.name = state.name;
    if (parsed.exitCode !== undefined) result.exitCode = parsed.exitCode;

    // write_stdin polls report the end of a process started by an earlier exec_command:
    // the exit belongs to that command, so the poll itself is not an error
    if (state?.name === 'write_stdin') {
      result.isError = parsed.isError === true && parsed.exitCode === undefined;
      delete result.exitCode;
      const sid = state.call.input.session_id;
      const origin = typeof sid === 'number' ? this.processes.get(sid) : undefined;
      const originState = origin ? this.calls.get(origin) : undefined;
      if (originState?.result && !originState.authoritative && parsed.exitCode !== undefined && originState.result.exitCode === undefined) {
        originState.result.exitCode = parsed.exitCode;
        originState.result.isError = parsed.exitCode !== 0;
      }
    } else if (parsed.runningSession !== undefined && callId) {
      this.processes.set(parsed.runningSession, callId);
    }
    const event = pushToolResult(this.events, result);
    if (state) state.result = event;
  }

  private codeModeResult(state: CallState, callId: string | undefined, code: { text: string; scriptFailed: boolean }, base: EventBaseInput): void {
    const result = copyOf(base) as Omit<ToolResultEvent, 'index' | 'kind'>;
    result.output = code.text;
    const exit = state.codeMode!.exitCode;
    // no exit code reported (Codex before 0.15x): the output is all there is to go by
    result.isError = code.scriptFailed || (exit !== undefined ? exit !== 0 : looksFailed(code.text, state.call.command));
    if (callId) result.callId = callId;
    result.name = state.name;
    if (exit !== undefined) result.exitCode = exit;
    state.result = pushToolResult(this.events, result);
    // answered: no later event reports on it (the list stays as short as the calls in flight)
    const at = callId ? this.codeModeOpen.lastIndexOf(callId) : -1;
    if (at >= 0) this.codeModeOpen.splice(at, 1);
  }

  private execEnd(p: Json, base: EventBaseInput): void {
    const callId = str(p.call_id);
    const exit = typeof p.exit_code === 'number' ? p.exit_code : undefined;
    const aggregated = str(p.aggregated_output) ?? [str(p.stdout), str(p.stderr)].filter(Boolean).join('\n');
    let state = callId ? this.calls.get(callId) : undefined;
    if (!state) {
      // a command with no function_call (e.g. a user `!cmd`): make the pair from the event
      const argv = Array.isArray(p.command) ? p.command.filter((x): x is string => typeof x === 'string') : [];
      this.addCall(callId, 'exec_command', { command: argv }, base);
      state = callId ? this.calls.get(callId) : undefined;
    }
    if (state?.result) {
      const r = state.result;
      if (exit !== undefined) {
        r.exitCode = exit;
        r.isError = exit !== 0;
      }
      if (RUNNING_RE.test(r.output.slice(0, 600))) {
        if (aggregated) r.output = aggregated;
        // the call had returned with the process still running: it ended only now
        if (base.time !== undefined) r.endTime = base.time;
      }
    } else {
      const result = copyOf(base) as Omit<ToolResultEvent, 'index' | 'kind'>;
      result.output = aggregated;
      result.isError = exit !== undefined && exit !== 0;
      if (callId) result.callId = callId;
      if (state) result.name = state.name;
      if (exit !== undefined) result.exitCode = exit;
      const event = pushToolResult(this.events, result);
      if (state) state.result = event;
    }
    if (state && exit !== undefined) state.authoritative = true;
  }

  private patchEnd(p: Json, base: EventBaseInput): void {
    const callId = str(p.call_id);
    const failed = p.success === false;
    const state = callId ? this.calls.get(callId) : undefined;
    // a patch a code-mode script applied: the event has its own id; the script's output follows
    if (!state && this.codeModePatch(!failed)) return;
    if (state?.result) {
      if (failed) state.result.isError = true;
      state.authoritative = true;
      return;
    }
    const output = [str(p.stdout), str(p.stderr)].filter(Boolean).join('\n');
    const result = copyOf(base) as Omit<ToolResultEvent, 'index' | 'kind'>;
    result.output = output;
    result.isError = failed;
    if (callId) result.callId = callId;
    if (state) result.name = state.name;
    const event = pushToolResult(this.events, result);
    if (state) {
      state.result = event;
      state.authoritative = true;
    }
  }

  /** Whether the call already has its result (callOutput would ignore another). */
  answered(callId: string): boolean {
    return this.calls.get(callId)?.result !== undefined;
  }

  toSession(bytes: number): Session {
    const started = this.startedAt ?? this.span.first;
    return makeSession({
      id: this.id ?? basename(this.file).replace(/\.jsonl?$/i, ''),
      format: 'codex',
      agent: 'codex',
      repo: (this.repoUrl && repoFromUrl(this.repoUrl)) ?? (this.cwd ? repoFromCwd(this.cwd) : undefined),
      remoteRepo: this.repoUrl ? repoFromUrl(this.repoUrl) : undefined,
      cwd: this.cwd,
      branch: this.branch,
      sandboxed: this.sandboxPolicies.size === 0 ? undefined : !this.sandboxPolicies.has('danger-full-access'),
      declaredShell: this.declaredShell,
      agentVersion: this.cliVersion,
      models: [...this.models].sort(),
      startedAt: started,
      endedAt: this.span.last && this.span.last !== started ? this.span.last : undefined,
      file: this.file,
      bytes,
      events: this.events,
      warnings: this.sink.warnings,
    });
  }
}

/** `git@github.com:o/app.git`, `https://host/o/app(.git)` → `app`. */
export function repoFromUrl(url: string): string | undefined {
  const name = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split(/[/:]/)
    .pop();
  return name || undefined;
}

/** token_count events (a fifth of modern files) and legacy state records carry nothing we keep. */
function isSkippable(text: string): boolean {
  // a cut line (no closing brace) is parsed so that the cut is reported
  if (text.charCodeAt(text.length - 1) !== 0x7d) return false;
  if (text.startsWith('{"record_type":"state"')) return true;
  const i = text.indexOf('"payload":');
  return i !== -1 && i < 120 && text.startsWith('{"type":"token_count"', i + 10);
}

/** The opening of a modern tool output record, as Codex writes it: its time and call id. */
const OUTPUT_OPENING =
  /^\{"timestamp":"([^"\\]*)","type":"response_item","payload":\{"type":"(?:function_call_output|custom_tool_call_output)","call_id":"([^"\\]+)"/;

/**
 * A tool output record (a fifth of a modern rollout's bytes) whose call already has its result:
 * exec_command_end and patch_apply_end come first and are the richer copy, so such a record
 * adds only its time. Returns that time ('' when it has none), or undefined when the line must
 * be parsed.
 */
function answeredOutputTime(text: string, s: CodexSession): string | undefined {
  // a cut line (no closing brace) is parsed so that the cut is reported
  if (text.charCodeAt(text.length - 1) !== 0x7d || !text.startsWith('{"timestamp":"')) return undefined;
  const m = OUTPUT_OPENING.exec(text);
  return m && s.answered(m[2]!) ? m[1]! : undefined;
}

async function read(file: string, options: ReadOptions & Preloaded = {}): Promise<Session[]> {
  const sink = new WarningSink(file, options.onWarning);
  const content = options.content;
  const size = content ? content.length : (await stat(file)).size;
  const s = new CodexSession(file, sink);
  let first = true;
  let sawRecord = false;
  const limit = maxLineBytes(options);
  await forEachLine(file, { maxLineBytes: limit, content, decoded: options.decoded, wholeText: options.wholeText, reuseLine: true }, (line) => {
    if (!line.truncated && isSkippable(line.text)) return;
    if (!line.truncated && !s.legacy) {
      const time = answeredOutputTime(line.text, s);
      if (time !== undefined) {
        s.span.see(time);
        sawRecord = true;
        return;
      }
    }
    const o = parseJsonLine(sink, line);
    if (!isRecord(o)) {
      if (o !== undefined) sink.warn(line.lineNo, 'not a JSON object, line skipped');
      return;
    }
    const base: EventBaseInput = { source: sourceOf(file, line) };
    if (first) {
      first = false;
      if (!('type' in o) && typeof o.id === 'string') {
        s.legacy = true;
        s.meta(o, str(o.timestamp));
        sawRecord = true;
        return;
      }
    }
    sawRecord = true;
    if (s.legacy) {
      if (typeof o.type === 'string' && LEGACY_ITEM_TYPES.has(o.type)) s.item(o, base);
      return;
    }
    const time = str(o.timestamp);
    if (time) {
      base.time = time;
      s.span.see(time);
    }
    const p = isRecord(o.payload) ? o.payload : undefined;
    if (!p) return;
    switch (o.type) {
      case 'session_meta':
        s.meta(p, time);
        break;
      case 'turn_context':
        s.turnContext(p);
        break;
      case 'response_item':
        s.item(p, base);
        break;
      case 'event_msg':
        s.event(p, base);
        break;
      case 'compacted':
        s.compacted(p, base);
        break;
      default:
        break;
    }
  });
  if (!sawRecord) return [];
  return [s.toSession(size)];
}

export const codexReader: SessionReader & DetectBound = { format: 'codex', detect, detectLines, read, maxScore: 0.95 };
