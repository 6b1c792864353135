/**
 * Test support for the model harvest: a loopback server speaking the Anthropic Messages API and
 * OpenAI Chat Completions (status codes, retry-after, usage, stop reasons) whose answers a test
 * scripts per request, small Claude Code transcripts written in the real format, and the CLI run
 * as a child process without blocking this thread (the server must keep answering meanwhile).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CLI, PROJECT_ROOT } from '../../helpers.js';

export interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
  /** The raw body as received. */
  raw: string;
  system: string;
  user: string;
  maxTokens: number;
}

/** What the server does for one request. */
export type Reply =
  | { text: string; stop?: 'end' | 'max_tokens'; usage?: { input: number; output: number } }
  | { status: number; body?: string; retryAfter?: string }
  | { hang: true };

export interface FakeModel {
  url: string;
  requests: SeenRequest[];
  /** Transcript user texts of the requests seen (the view the model read). */
  close(): Promise<void>;
}

function userOf(body: Record<string, unknown>): { system: string; user: string; maxTokens: number } {
  const messages = (body.messages ?? []) as { role: string; content: string }[];
  if (Array.isArray(body.system)) {
    return { system: (body.system as { text: string }[]).map((s) => s.text).join(''), user: messages.find((m) => m.role === 'user')?.content ?? '', maxTokens: Number(body.max_tokens) };
  }
  return { system: messages.find((m) => m.role === 'system')?.content ?? '', user: messages.find((m) => m.role === 'user')?.content ?? '', maxTokens: Number(body.max_tokens ?? body.max_completion_tokens) };
}

/** Starts the server; `reply` decides each answer from the request (and how many came before). */
export async function startFakeModel(reply: (req: SeenRequest, n: number) => Reply | Promise<Reply>): Promise<FakeModel> {
  const requests: SeenRequest[] = [];
  const pending = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = JSON.parse(raw) as Record<string, unknown>;
        const seen: SeenRequest = { url: req.url ?? '', headers: req.headers, raw, ...userOf(body) };
        requests.push(seen);
        const r = await reply(seen, requests.length - 1);
        if ('hang' in r) {
          pending.add(res);
          return;
        }
        if ('status' in r) {
          res.writeHead(r.status, { 'content-type': 'application/json', ...(r.retryAfter !== undefined ? { 'retry-after': r.retryAfter } : {}) });
          res.end(r.body ?? JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'fake failure' } }));
          return;
        }
        const usage = r.usage ?? { input: Math.ceil(raw.length / 4), output: Math.ceil(r.text.length / 4) };
        const openai = (req.url ?? '').includes('/chat/completions');
        const answer = openai
          ? { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: r.text }, finish_reason: r.stop === 'max_tokens' ? 'length' : 'stop' }], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } }
          : { id: 'msg_1', type: 'message', role: 'assistant', model: String(body.model), content: [{ type: 'text', text: r.text }], stop_reason: r.stop === 'max_tokens' ? 'max_tokens' : 'end_turn', usage: { input_tokens: usage.input, output_tokens: usage.output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const res of pending) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process, awaited without blocking the event loop. */
export function runCliAsync(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? PROJECT_ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** One step of a small Claude Code session. */
export type Turn = { user: string } | { assistant: string } | { bash: string; output: string; error?: boolean };

/** Writes a Claude Code transcript (the real JSONL shape) and returns its path. */
export function writeClaudeSession(file: string, sessionId: string, cwd: string, turns: readonly Turn[], start = '2026-03-04T16:40:00.000Z'): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let t = Date.parse(start);
  let n = 0;
  const base = () => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.39', gitBranch: 'main' });
  const push = (rec: Record<string, unknown>) => {
    const uuid = `${sessionId.slice(0, 8)}-aaaa-4000-8000-${String(++n).padStart(12, '0')}`;
    t += 2000;
    lines.push(JSON.stringify({ ...base(), ...rec, uuid, timestamp: new Date(t).toISOString() }));
    parent = uuid;
  };
  for (const turn of turns) {
    if ('user' in turn) push({ type: 'user', message: { role: 'user', content: turn.user } });
    else if ('assistant' in turn) push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: turn.assistant }], stop_reason: 'end_turn' } });
    else {
      const id = `toolu_${sessionId.slice(0, 8)}${n}`;
      push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: turn.bash } }], stop_reason: 'tool_use' } });
      push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: turn.output, is_error: Boolean(turn.error) }] } });
    }
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The `[E<n>]` line of the request's view that contains `needle` (its n), or -1. */
export function eventWith(request: string, needle: string): number {
  const user = request.slice(request.indexOf('\nTranscript:\n'));
  for (const line of user.split('\n')) {
    const m = /^\[E(\d+)\]/.exec(line);
    if (m && line.includes(needle)) return Number(m[1]);
  }
  // a continuation line: the event is the last [E<n>] above it
  let last = -1;
  for (const line of user.split('\n')) {
    const m = /^\[E(\d+)\]/.exec(line);
    if (m) last = Number(m[1]);
    if (line.includes(needle)) return last;
  }
  return -1;
}
