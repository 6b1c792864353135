/** Small helpers for the session-reader suites: temp dirs, the shared corpus, independent counts. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';

export const SHARED = resolve(process.cwd(), '../shared/transcripts');
export const TEST_SESSIONS = resolve(process.cwd(), 'test_sessions');

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

export function tempDir(prefix = 'compound-sessions-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Raw transcript lines: the point of these helpers is to read them without our types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Parses a JSONL file with nothing but split + JSON.parse (no reader code involved). */
export function jsonl(file: string): Json[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

export interface Counts {
  prompts: number;
  toolCalls: number;
  toolErrors: number;
}

const CC_INJECTED = [
  '<command-name>',
  '<local-command-stdout>',
  '<local-command-caveat>',
  'Caveat: The messages below were generated',
  '<task-notification>',
  '<system-reminder>',
  '[Request interrupted by user',
];

/** Claude Code counts straight from the JSON: human prompts, tool_use ids, independent errors. */
export function claudeCounts(file: string): Counts {
  const toolIds = new Set<string>();
  let prompts = 0;
  let toolErrors = 0;
  let firstUser = true;
  for (const o of jsonl(file)) {
    if (o.type === 'assistant') {
      for (const b of o.message.content) if (b.type === 'tool_use') toolIds.add(b.id);
    }
    if (o.type !== 'user') continue;
    const c = o.message.content;
    const texts: string[] = typeof c === 'string' ? [c] : c.filter((b: Json) => b.type === 'text').map((b: Json) => b.text);
    for (const t of texts) {
      const warmup = firstUser && o.isSidechain && t === 'Warmup';
      firstUser = false;
      if (o.isMeta || o.isCompactSummary || warmup) continue;
      if (CC_INJECTED.some((p) => t.trimStart().startsWith(p))) continue;
      prompts++;
    }
    if (!Array.isArray(c)) continue;
    for (const b of c) {
      if (b.type !== 'tool_result' || b.is_error !== true) continue;
      const text = typeof b.content === 'string' ? b.content : b.content.map((x: Json) => x.text ?? '').join('\n');
      const cascade = text.includes('Sibling tool call errored');
      const rejected = text.startsWith("The user doesn't want to") || text.includes('[Request interrupted by user');
      if (!cascade && !rejected) toolErrors++;
    }
  }
  return { prompts, toolCalls: toolIds.size, toolErrors };
}

const CODEX_INJECTED = ['<environment_context>', '# AGENTS.md instructions', '<user_instructions>', '<permissions instructions>'];

/**
 * Codex counts straight from the JSON. Prompts: the UI's user_message events (modern) or
 * non-context user messages (legacy). Tool calls: every call item. Errors: one per failing call,
 * from exec_command_end / patch_apply_end when present, else from the output text; a write_stdin
 * poll's exit code belongs to the exec_command that started the process.
 */
export function codexCounts(file: string): Counts {
  const rows = jsonl(file);
  const legacy = !('type' in rows[0]!);
  const items = legacy ? rows.slice(1).filter((o) => o.type) : rows.filter((o) => o.type === 'response_item').map((o) => o.payload);
  const events = legacy ? [] : rows.filter((o) => o.type === 'event_msg').map((o) => o.payload);

  const prompts = legacy
    ? items.filter((i) => i.type === 'message' && i.role === 'user' && !CODEX_INJECTED.some((p) => i.content[0].text.startsWith(p))).length
    : events.filter((e) => e.type === 'user_message').length;

  const calls = new Map<string, string>();
  let toolCalls = 0;
  for (const i of items) {
    if (['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'].includes(i.type)) {
      toolCalls++;
      if (i.call_id) calls.set(i.call_id, i.name);
    }
  }
  const outputs = new Map<string, string>();
  for (const i of items) if (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') outputs.set(i.call_id, i.output);
  const execExit = new Map<string, number>();
  const patchOk = new Map<string, boolean>();
  for (const e of events) {
    if (e.type === 'exec_command_end') execExit.set(e.call_id, e.exit_code);
    if (e.type === 'patch_apply_end') patchOk.set(e.call_id, e.success);
  }

  const exitOf = (out: string): number | undefined => {
    if (out.startsWith('{')) {
      try {
        const j = JSON.parse(out);
        if (typeof j.metadata?.exit_code === 'number') return j.metadata.exit_code;
      } catch {
        /* plain text */
      }
    }
    const m = /^Process exited with code (-?\d+)/m.exec(out.slice(0, 600));
    return m ? Number(m[1]) : undefined;
  };
  const failing = new Set<string>();
  const origin = new Map<number, string>();
  for (const [id, name] of calls) {
    const out = outputs.get(id) ?? '';
    if (name === 'write_stdin') continue; // polls repeat "running"; the process belongs to its exec_command
    const running = /^Process running with session ID (\d+)/m.exec(out.slice(0, 600));
    if (running) origin.set(Number(running[1]), id);
    if (execExit.has(id)) {
      if (execExit.get(id) !== 0) failing.add(id);
    } else if (patchOk.has(id)) {
      if (!patchOk.get(id)) failing.add(id);
    } else {
      const exit = exitOf(out);
      if (exit !== undefined && exit !== 0) failing.add(id);
      else if (exit === undefined && /^[a-z_]+ failed: /.test(out)) failing.add(id);
      else if (exit === undefined && legacy && name === 'shell' && outputs.has(id) && !out.startsWith('{')) failing.add(id);
      // (the shell tool's answer for a non-zero exit in the sandbox, in files of any age)
      else if (exit === undefined && out.startsWith('failed in sandbox')) failing.add(id);
    }
  }
  for (const [id, name] of calls) {
    if (name !== 'write_stdin') continue;
    const out = outputs.get(id) ?? '';
    if (/^write_stdin failed: /.test(out)) failing.add(id);
    const exit = exitOf(out);
    const args = JSON.parse(items.find((i) => i.call_id === id).arguments);
    const from = origin.get(args.session_id);
    if (exit !== undefined && exit !== 0 && from && !execExit.has(from)) failing.add(from);
  }
  return { prompts, toolCalls, toolErrors: failing.size };
}
