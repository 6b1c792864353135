/**
 * The normalized Session: every transcript format is read into this one shape.
 * `sessions` knows nothing of knowledge; harvest and measure read only this.
 */

export type SessionFormat =
  | 'claude-code'
  | 'codex'
  | 'hermes'
  | 'openai-chat'
  | 'aider'
  | 'gemini-cli'
  | 'specstory'
  | 'console-md'
  | 'captured';

export const SESSION_FORMATS: readonly SessionFormat[] = [
  'claude-code',
  'codex',
  'hermes',
  'openai-chat',
  'aider',
  'gemini-cli',
  'specstory',
  'console-md',
  'captured',
];

/** Where an event came from, so a harvested item can cite its evidence. */
export interface SourceRef {
  /** Path of the transcript file as given to the reader. */
  file: string;
  /** 1-based line number of the record (JSONL line, markdown line, or pretty-JSON line). */
  line: number;
  /** Byte offset of the start of that line, when known. */
  offset?: number;
}

/** Every event of a kind has all of its kind's keys (sessions/events.ts builds them so): an
 * optional field that is absent is undefined, so test it with `!== undefined`, never with `in`. */
interface EventBase {
  /** Position of the event in `Session.events` (0-based), stable for the same file bytes. */
  index: number;
  /** ISO timestamp from the transcript, when it records one. */
  time?: string;
  source: SourceRef;
  /** True when the text was not typed by a human nor written by the model for the user:
   * caveats, hook output, command wrappers, compaction summaries, bootstrap blocks. */
  injected?: boolean;
  /** Claude Code sidechain / subagent content inside a main file. */
  sidechain?: boolean;
}

export interface UserEvent extends EventBase {
  kind: 'user';
  text: string;
}

export interface AssistantEvent extends EventBase {
  kind: 'assistant';
  text: string;
  model?: string;
}

export interface ReasoningEvent extends EventBase {
  kind: 'reasoning';
  text: string;
}

export interface ToolCallEvent extends EventBase {
  kind: 'tool_call';
  /** Identifier linking the call to its result (tool_use id, call_id, ...). */
  callId?: string;
  /** Tool name as the agent names it: Bash, Read, Edit, shell, exec_command, apply_patch, ... */
  name: string;
  /** Parsed input object (arguments); strings that were JSON are parsed. */
  input: Record<string, unknown>;
  /** The shell command line when the tool ran one (Bash.command, shell argv joined, ...). */
  command?: string;
}

export interface ToolResultEvent extends EventBase {
  kind: 'tool_result';
  callId?: string;
  /** Name of the tool whose call this answers, when it can be linked. */
  name?: string;
  output: string;
  isError: boolean;
  exitCode?: number;
  /** Claude Code "Sibling tool call errored": a cascade, not an independent failure. */
  cascade?: boolean;
  /** The user rejected the call / interrupted it: not a tool failure. */
  rejected?: boolean;
  /** Output was replaced by a `<persisted-output>` stub or otherwise truncated by the agent. */
  truncated?: boolean;
  /** When the process this result reported as still running was seen to end (Codex's
   * exec_command_end after the call had returned "Process running"): later calls overlapped it. */
  endTime?: string;
}

export interface SummaryEvent extends EventBase {
  kind: 'summary';
  text: string;
}

export interface SystemEvent extends EventBase {
  kind: 'system';
  text: string;
}

/** What the bootstrapper gave the agent: text between compound:bootstrap markers. */
export interface BootstrapEvent extends EventBase {
  kind: 'bootstrap';
  itemIds: string[];
  text: string;
}

export type SessionEvent =
  | UserEvent
  | AssistantEvent
  | ReasoningEvent
  | ToolCallEvent
  | ToolResultEvent
  | SummaryEvent
  | SystemEvent
  | BootstrapEvent;

export type EventKind = SessionEvent['kind'];

/** How an aider launch went: a reply came (`answered`), only errors (`failed`), or nothing was asked. */
export interface AiderLaunch {
  model?: string;
  outcome: 'answered' | 'failed' | 'idle';
  /** Aider warned that a path git tracks is no file on disk (`Repo-map can't include …`). */
  missingTracked?: boolean;
  /** The repository root the launch's banner gave (`Git working dir: …`, printed only when aider
   * starts outside it): every launch of one chat history works in the same repository. */
  gitRoot?: string;
  /** Aider committed an edit in this launch (`Commit <hash> …`): `/undo` of a later launch meets
   * that commit, which aider no longer counts as its own. */
  committed?: boolean;
  /** The edit format the banner names (`Model: gpt-4o-mini with whole edit format`). */
  editFormat?: string;
  /** The model's edits aider applied, and those it rejected for the edit format or a block that
   * did not match (a launch that made no edit has neither). */
  edits?: { applied: number; rejected: number };
}

export interface AiderLaunches {
  /** This session's place in `all`. */
  at: number;
  all: AiderLaunch[];
}

export interface Session {
  /** Stable id: the transcript's own session id when it records one, else derived from path. */
  id: string;
  format: SessionFormat;
  /** claude-code, codex, hermes, aider, gemini-cli, cursor, ... */
  agent: string;
  /** Subagent type when known (Claude Code Task subagents: e.g. "Explore"). */
  subagent?: string;
  /** For subagent sessions: the parent session id. */
  parentId?: string;
  /** For subagent sessions: base names of the files the parent session edited after this one
   * ended (set by the harvest from the parent's transcript, when that file is there). */
  parentEditsAfter?: string[];
  /** For an aider launch: every launch of the same chat history, in order, with its model and how
   * it went, and which one this is (set by the harvest from the file's sessions; an aider launch
   * alone cannot tell that the next launch, with another model, worked). */
  aiderLaunches?: AiderLaunches;
  /** Repository name: from the git remote when recorded, else cwd basename. */
  repo?: string;
  /** Repository name from a remote URL the transcript records (Codex), when it records one. */
  remoteRepo?: string;
  cwd?: string;
  /** The working directory is the transcript's own folder, not a recorded one (aider records none:
   * it writes its chat history at the root of the repository it works in). */
  cwdFromFile?: boolean;
  branch?: string;
  /** Whether the agent's commands ran inside its own sandbox, where the transcript records it
   * (Codex's `sandbox_policy` of every turn: `read-only` or `workspace-write`, not
   * `danger-full-access`): what the sandbox forbids fails there and nowhere else. */
  sandboxed?: boolean;
  /** The shell the agent was told its commands run in, where the transcript says (Codex's
   * `<environment_context>`: `<shell>powershell.exe</shell>`): a session whose commands then show
   * another shell's errors ran them elsewhere. */
  declaredShell?: string;
  /** The agent program's version, where the transcript records it (Codex's `cli_version`):
   * what a tool of the agent does may change between versions. */
  agentVersion?: string;
  models: string[];
  startedAt?: string;
  endedAt?: string;
  /** Transcript file this session was read from. */
  file: string;
  /** Byte size of the file (or of this session's slice for multi-session files). */
  bytes: number;
  events: SessionEvent[];
  /** Non-fatal problems met while reading (bad lines, truncation). */
  warnings: ReadWarning[];
}

export interface ReadWarning {
  file: string;
  line?: number;
  message: string;
}

/** Small counts used by `sessions list`, the sampler and tests. */
export interface SessionStats {
  prompts: number;
  toolCalls: number;
  toolErrors: number;
  events: number;
}

export function sessionStats(session: Session): SessionStats {
  let prompts = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  for (const e of session.events) {
    if (e.kind === 'user' && !e.injected) prompts++;
    else if (e.kind === 'tool_call') toolCalls++;
    else if (e.kind === 'tool_result' && e.isError && !e.cascade && !e.rejected) toolErrors++;
  }
  return { prompts, toolCalls, toolErrors, events: session.events.length };
}
