// The model providers end to end against real HTTP servers on loopback that speak the Anthropic
// Messages API and the OpenAI Chat Completions API (no network anywhere): what each provider
// sends (headers, body, URL), how it reads the answer, the retry policy every provider shares
// (postJson), the Batch API line formats, and the `command` provider running a real program.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelConfig } from '../../../src/core/model-config.js';
import { CompoundError } from '../../../src/core/errors.js';
import { postJson, RequestError, retryAfterMs, type RetryPolicy } from '../../../src/harvest/model/http.js';
import { makeProvider, type ModelProvider, type Prompt, type ProviderOptions } from '../../../src/harvest/model/provider.js';
import { AnthropicProvider } from '../../../src/harvest/model/providers/anthropic.js';
import { OpenAIProvider } from '../../../src/harvest/model/providers/openai.js';
import { CommandProvider } from '../../../src/harvest/model/providers/command.js';
import { MissingKeyError } from '../../../src/harvest/model/providers/keys.js';

// ---------------------------------------------------------------------------------------------
// loopback servers that record every request

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  raw: string;
}

/** How the server answers request number `n` (0-based); not calling res.end() = never answers. */
type Handler = (req: Recorded, res: ServerResponse, n: number) => void;

interface TestServer {
  /** http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];

async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
      } catch {
        body = raw;
      }
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, raw };
      requests.push(rec);
      handler(rec, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  const ts: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  servers.push(ts);
  return ts;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

function anthropicMessage(text: string, stop: 'end_turn' | 'max_tokens' = 'end_turn', usage: AnthropicUsage = { input_tokens: 11, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 1000 }): object {
  return { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text }], stop_reason: stop, stop_sequence: null, usage };
}

function chatCompletion(content: string | null, finish: 'stop' | 'length' = 'stop', usage = { prompt_tokens: 42, completion_tokens: 9, total_tokens: 51 }): object {
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1700000000, model: 'gpt-4.1-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], usage };
}

/** A server for the Anthropic Messages API: `reply(n)` says how to answer request n. */
function anthropicServer(reply: (n: number, req: Recorded) => { status?: number; body?: unknown; headers?: Record<string, string> } = () => ({})): Promise<TestServer> {
  return startServer((req, res, n) => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } });
    const r = reply(n, req);
    sendJson(res, r.status ?? 200, r.body ?? anthropicMessage('ok'), r.headers);
  });
}

/** A server for the OpenAI Chat Completions API (under /v1). */
function openaiServer(reply: (n: number, req: Recorded) => { status?: number; body?: unknown; headers?: Record<string, string> } = () => ({})): Promise<TestServer> {
  return startServer((req, res, n) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
    const r = reply(n, req);
    sendJson(res, r.status ?? 200, r.body ?? chatCompletion('ok'), r.headers);
  });
}

// ---------------------------------------------------------------------------------------------
// configs and policies

function config(over: Partial<ModelConfig> = {}): ModelConfig {
  return { provider: 'anthropic', name: 'claude-haiku-4-5', max_concurrency: 1, max_input_tokens: 32000, max_output_tokens: 4096, timeout_seconds: 5, ...over };
}

interface Policy extends RetryPolicy {
  /** Every wait the policy's sleep was asked for, in order. */
  waits: number[];
}

/** A retry policy with tiny delays whose sleep records the wait and returns at once. */
function policy(over: Partial<RetryPolicy> = {}): Policy {
  const waits: number[] = [];
  return {
    attempts: 4,
    timeoutMs: 2000,
    baseDelayMs: 5,
    maxDelayMs: 50,
    random: () => 1,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    ...over,
    waits,
  };
}

function options(cfg: ModelConfig, env: NodeJS.ProcessEnv, retry: RetryPolicy = policy()): ProviderOptions {
  return { config: cfg, env, retry };
}

const PROMPT: Prompt = { system: 'You extract knowledge. Answer in JSON.', user: 'Session transcript:\nuser: npm ci fails\nassistant: add the lockfile', maxOutputTokens: 777 };

/** An OpenAI Batch API input line for PROMPT (the command provider writes the same format). */
function chatBatchLine(customId: string, model: string): object {
  return {
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'system', content: PROMPT.system }, { role: 'user', content: PROMPT.user }], max_tokens: 777 },
  };
}

/** A key no generic secret pattern recognises: only the provider's own `secrets` list can hide it. */
const KEY = 'test-key-anthropic-123';
const OPENAI_KEY = 'test-key-openai-456';

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

// ---------------------------------------------------------------------------------------------

describe('makeProvider', () => {
  it('builds the configured provider with its model name', async () => {
    const a = await makeProvider(options(config({ provider: 'anthropic', name: 'claude-sonnet-4-5' }), {}));
    expect(a).toBeInstanceOf(AnthropicProvider);
    expect(a.provider).toBe('anthropic');
    expect(a.model).toBe('claude-sonnet-4-5');
    const o = await makeProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), {}));
    expect(o).toBeInstanceOf(OpenAIProvider);
    expect(o.provider).toBe('openai');
    expect(o.model).toBe('gpt-4.1-mini');
    const c = await makeProvider(options(config({ provider: 'command', name: 'local', command: 'true' }), {}));
    expect(c).toBeInstanceOf(CommandProvider);
    expect(c.provider).toBe('command');
    expect(c.model).toBe('local');
  });
});

describe('anthropic provider', () => {
  it('POSTs /v1/messages with the key, the API version, a cached system prompt and one user message', async () => {
    const s = await anthropicServer(() => ({ body: anthropicMessage('{"items":[]}') }));
    // a trailing slash on the base URL must not give //v1/messages
    const p = await makeProvider(options(config({ name: 'claude-haiku-4-5' }), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: `${s.url}/` }));
    const c = await p.complete(PROMPT);

    expect(s.requests).toHaveLength(1);
    const r = s.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/messages');
    expect(r.headers['x-api-key']).toBe(KEY);
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.authorization).toBeUndefined();
    expect(r.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 777,
      system: [{ type: 'text', text: PROMPT.system, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: PROMPT.user }],
    });

    expect(c.text).toBe('{"items":[]}');
    expect(c.truncated).toBe(false);
    // input + cache reads + cache writes
    expect(c.inputTokens).toBe(11 + 100 + 1000);
    expect(c.outputTokens).toBe(7);
  });

  it('joins the text blocks of the answer and skips other block types', async () => {
    const s = await anthropicServer(() => ({
      body: { ...anthropicMessage(''), content: [{ type: 'text', text: 'hel' }, { type: 'tool_use', id: 't', name: 'x', input: {} }, { type: 'text', text: 'lo' }] },
    }));
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }));
    expect((await p.complete(PROMPT)).text).toBe('hello');
  });

  it('counts input tokens without cache fields, and reports none when usage is absent', async () => {
    const s = await anthropicServer((n) => ({ body: n === 0 ? anthropicMessage('a', 'end_turn', { input_tokens: 5, output_tokens: 3 }) : { ...anthropicMessage('b'), usage: undefined } }));
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }));
    const first = await p.complete(PROMPT);
    expect(first.inputTokens).toBe(5);
    expect(first.outputTokens).toBe(3);
    const second = await p.complete(PROMPT);
    expect(second.text).toBe('b');
    expect(second.inputTokens).toBeUndefined();
    expect(second.outputTokens).toBeUndefined();
  });

  it('marks an answer cut off by max_tokens as truncated', async () => {
    const s = await anthropicServer(() => ({ body: anthropicMessage('{"items":[{"ti', 'max_tokens') }));
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }));
    const c = await p.complete(PROMPT);
    expect(c.truncated).toBe(true);
    expect(c.text).toBe('{"items":[{"ti');
  });

  it('takes the key from the variable api_key_env names', async () => {
    const s = await anthropicServer();
    const p = new AnthropicProvider(options(config({ api_key_env: 'TEAM_CLAUDE_KEY' }), { ANTHROPIC_API_KEY: 'the-wrong-key', TEAM_CLAUDE_KEY: 'the-team-key', ANTHROPIC_BASE_URL: s.url }));
    await p.complete(PROMPT);
    expect(s.requests[0]!.headers['x-api-key']).toBe('the-team-key');
  });

  it('prefers the configured base_url to ANTHROPIC_BASE_URL', async () => {
    const used = await anthropicServer();
    const ignored = await anthropicServer();
    const p = new AnthropicProvider(options(config({ base_url: used.url }), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: ignored.url }));
    await p.complete(PROMPT);
    expect(used.requests).toHaveLength(1);
    expect(ignored.requests).toHaveLength(0);
  });

  it('without a key fails before any request, naming the variable and no key value', async () => {
    const s = await anthropicServer();
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_BASE_URL: s.url }));
    const e = await rejection(p.complete(PROMPT));
    expect(e).toBeInstanceOf(MissingKeyError);
    expect(e).toBeInstanceOf(CompoundError);
    expect((e as CompoundError).code).toBe('E_USAGE');
    expect(e.message).toContain('$ANTHROPIC_API_KEY');
    expect(s.requests).toHaveLength(0);

    // api_key_env names another variable: the message names that one, and never shows the
    // value of the default variable (which is set here)
    const q = new AnthropicProvider(options(config({ api_key_env: 'MY_CLAUDE_KEY' }), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }));
    const e2 = await rejection(q.complete(PROMPT));
    expect(e2).toBeInstanceOf(MissingKeyError);
    expect(e2.message).toContain('$MY_CLAUDE_KEY');
    expect(e2.message).not.toContain(KEY);
    expect((e2 as CompoundError).fix).toContain('MY_CLAUDE_KEY');
    expect((e2 as CompoundError).fix).not.toContain(KEY);
    expect(s.requests).toHaveLength(0);
  });

  it('treats an empty key variable as missing', async () => {
    const s = await anthropicServer();
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: s.url }));
    expect(await rejection(p.complete(PROMPT))).toBeInstanceOf(MissingKeyError);
    expect(s.requests).toHaveLength(0);
  });
});

describe('openai provider', () => {
  it('POSTs {OPENAI_BASE_URL}/chat/completions with a Bearer key and system + user messages', async () => {
    const s = await openaiServer(() => ({ body: chatCompletion('{"items":[1]}') }));
    const p = await makeProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${s.url}/v1/` }));
    const c = await p.complete(PROMPT);

    expect(s.requests).toHaveLength(1);
    const r = s.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-api-key']).toBeUndefined();
    expect(r.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: PROMPT.system },
        { role: 'user', content: PROMPT.user },
      ],
      max_tokens: 777,
    });

    expect(c).toEqual({ text: '{"items":[1]}', inputTokens: 42, outputTokens: 9, truncated: false });
  });

  it.each([
    ['gpt-5-mini', 'max_completion_tokens'],
    ['gpt-5', 'max_completion_tokens'],
    ['o3', 'max_completion_tokens'],
    ['o4-mini', 'max_completion_tokens'],
    ['o1', 'max_completion_tokens'],
    ['gpt-4.1-mini', 'max_tokens'],
    ['gpt-4o', 'max_tokens'],
    ['llama3.1:8b', 'max_tokens'],
  ])('model %s gets its output limit as %s', async (name, field) => {
    const s = await openaiServer();
    const p = new OpenAIProvider(options(config({ provider: 'openai', name }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${s.url}/v1` }));
    await p.complete(PROMPT);
    const body = s.requests[0]!.body as Record<string, unknown>;
    const other = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
    expect(body[field]).toBe(777);
    expect(body).not.toHaveProperty(other);
    expect(body.model).toBe(name);
  });

  it('marks finish_reason length as truncated', async () => {
    const s = await openaiServer(() => ({ body: chatCompletion('{"it', 'length') }));
    const p = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${s.url}/v1` }));
    const c = await p.complete(PROMPT);
    expect(c.truncated).toBe(true);
    expect(c.text).toBe('{"it');
  });

  it('reads a null content as empty text and absent usage as no token counts', async () => {
    const s = await openaiServer(() => ({ body: { ...chatCompletion(null), usage: undefined } }));
    const p = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${s.url}/v1` }));
    const c = await p.complete(PROMPT);
    expect(c).toEqual({ text: '', truncated: false });
  });

  it('talks to a local compatible server without a key and sends no Authorization header', async () => {
    const s = await openaiServer(() => ({ body: chatCompletion('local answer') }));
    const p = new OpenAIProvider(options(config({ provider: 'openai', name: 'llama3.1:8b' }), { OPENAI_BASE_URL: `${s.url}/v1` }));
    const c = await p.complete(PROMPT);
    expect(c.text).toBe('local answer');
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('takes base_url from the config and the key from api_key_env', async () => {
    const used = await openaiServer();
    const ignored = await openaiServer();
    const p = new OpenAIProvider(
      options(config({ provider: 'openai', name: 'gpt-4.1-mini', base_url: `${used.url}/v1`, api_key_env: 'ROUTER_KEY' }), { OPENAI_API_KEY: 'the-wrong-key', ROUTER_KEY: 'router-key-1', OPENAI_BASE_URL: `${ignored.url}/v1` }),
    );
    await p.complete(PROMPT);
    expect(ignored.requests).toHaveLength(0);
    expect(used.requests[0]!.headers.authorization).toBe('Bearer router-key-1');
  });

  it('against OpenAI itself, without a key, fails before any request and names the variable', async () => {
    // guard: if the check were broken, this must not reach the network
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network is not allowed in tests'));
    const p = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), {}));
    const e = await rejection(p.complete(PROMPT));
    expect(e).toBeInstanceOf(MissingKeyError);
    expect(e.message).toContain('$OPENAI_API_KEY');
    const q = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini', api_key_env: 'OTHER_OPENAI' }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: 'https://api.openai.com/v1' }));
    const e2 = await rejection(q.complete(PROMPT));
    expect(e2).toBeInstanceOf(MissingKeyError);
    expect(e2.message).toContain('$OTHER_OPENAI');
    expect(e2.message).not.toContain(OPENAI_KEY);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('postJson retry policy (through the providers)', () => {
  function anthropic(s: TestServer, retry: RetryPolicy): AnthropicProvider {
    return new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }, retry));
  }

  it('on 429 waits as retry-after says (in seconds), then succeeds', async () => {
    const s = await anthropicServer((n) => (n === 0 ? { status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, headers: { 'retry-after': '2' } } : { body: anthropicMessage('after the wait') }));
    const retry = policy({ maxDelayMs: 5000 });
    const c = await anthropic(s, retry).complete(PROMPT);
    expect(c.text).toBe('after the wait');
    expect(s.requests).toHaveLength(2);
    expect(retry.waits).toEqual([2000]);
    // the retry sends the same request again
    expect(s.requests[1]!.body).toEqual(s.requests[0]!.body);
    expect(s.requests[1]!.headers['x-api-key']).toBe(KEY);
  });

  it('caps a retry-after wait at maxDelayMs', async () => {
    const s = await anthropicServer((n) => (n === 0 ? { status: 429, body: {}, headers: { 'retry-after': '2' } } : {}));
    const retry = policy({ maxDelayMs: 50 });
    await anthropic(s, retry).complete(PROMPT);
    expect(retry.waits).toEqual([50]);
  });

  it('honours a retry-after given as an HTTP date', async () => {
    const s = await anthropicServer((n) => (n === 0 ? { status: 503, body: {}, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } } : {}));
    const retry = policy({ maxDelayMs: 7000 });
    await anthropic(s, retry).complete(PROMPT);
    // an hour away: capped
    expect(retry.waits).toEqual([7000]);
  });

  it('on 500 backs off (jittered) and succeeds on the next attempt', async () => {
    const s = await anthropicServer((n) => (n === 0 ? { status: 500, body: { type: 'error', error: { type: 'api_error', message: 'oops' } } } : { body: anthropicMessage('second time') }));
    const retry = policy({ random: () => 1 });
    const c = await anthropic(s, retry).complete(PROMPT);
    expect(c.text).toBe('second time');
    expect(s.requests).toHaveLength(2);
    // first backoff: baseDelayMs * 2^0 = 5; full jitter in [2.5, 5], random 1 -> 5
    expect(retry.waits).toEqual([5]);
  });

  it('backs off exponentially up to maxDelayMs, with jitter between half and all of it', async () => {
    const s = await anthropicServer((n) => (n < 3 ? { status: 503, body: {} } : {}));
    const high = policy({ attempts: 4, baseDelayMs: 5, maxDelayMs: 12, random: () => 1 });
    await anthropic(s, high).complete(PROMPT);
    expect(high.waits).toEqual([5, 10, 12]);

    const s2 = await anthropicServer((n) => (n < 3 ? { status: 503, body: {} } : {}));
    const low = policy({ attempts: 4, baseDelayMs: 8, maxDelayMs: 1000, random: () => 0 });
    await anthropic(s2, low).complete(PROMPT);
    expect(low.waits).toEqual([4, 8, 16]);
  });

  it.each([408, 409, 429, 500, 502, 503, 529])('retries HTTP %i', async (status) => {
    const s = await anthropicServer((n) => (n === 0 ? { status, body: { type: 'error' } } : {}));
    const retry = policy();
    await anthropic(s, retry).complete(PROMPT);
    expect(s.requests).toHaveLength(2);
    expect(retry.waits).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 413, 422])('does not retry HTTP %i', async (status) => {
    const s = await anthropicServer(() => ({ status, body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } } }));
    const retry = policy();
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toContain(`HTTP ${status}`);
    expect((e as RequestError).status).toBe(status);
    expect((e as RequestError).retryable).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(retry.waits).toEqual([]);
  });

  it('puts the status and an excerpt of the answer in a 400 message', async () => {
    const s = await anthropicServer(() => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: 999999 > 64000' } } }));
    const e = await rejection(anthropic(s, policy()).complete(PROMPT));
    expect(e.message).toContain('HTTP 400');
    expect(e.message).toContain('max_tokens: 999999 > 64000');
    expect(e.message).toContain(`${s.url}/v1/messages`);
  });

  it('gives up after `attempts` tries, with the last status in the message', async () => {
    const s = await anthropicServer(() => ({ status: 503, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));
    const retry = policy({ attempts: 3 });
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect((e as RequestError).retryable).toBe(true);
    expect((e as RequestError).status).toBe(503);
    expect(e.message).toContain('HTTP 503');
    expect(e.message).toContain('Overloaded');
    expect(e.message).toContain('(after 3 attempts)');
    expect(s.requests).toHaveLength(3);
    // no sleep after the last attempt
    expect(retry.waits).toHaveLength(2);
  });

  it('with attempts 1 never retries', async () => {
    const s = await anthropicServer(() => ({ status: 500, body: {} }));
    const retry = policy({ attempts: 1 });
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(e.message).toContain('(after 1 attempts)');
    expect(s.requests).toHaveLength(1);
    expect(retry.waits).toEqual([]);
  });

  it('fails a 200 answer that is not JSON at once', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy login</html>');
    });
    const retry = policy();
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toContain('not JSON');
    expect(e.message).toContain('proxy login');
    expect((e as RequestError).retryable).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it('abandons an attempt that gets no answer within timeoutMs, and retries it', async () => {
    const s = await startServer(() => {
      /* never answers */
    });
    const retry = policy({ attempts: 2, timeoutMs: 100 });
    const t0 = Date.now();
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(e).toBeInstanceOf(RequestError);
    expect((e as RequestError).retryable).toBe(true);
    expect((e as RequestError).status).toBeUndefined();
    expect(e.message).toContain('no answer within');
    expect(e.message).toContain('(after 2 attempts)');
    expect(s.requests).toHaveLength(2);
    expect(retry.waits).toHaveLength(1);
  });

  it('times out an answer whose body stalls after the headers', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"msg_01",');
      // ... and never the rest
    });
    const retry = policy({ attempts: 2, timeoutMs: 150 });
    const e = await rejection(anthropic(s, retry).complete(PROMPT));
    expect(e.message).toContain('no answer within');
    expect(s.requests).toHaveLength(2);
  });

  it('retries a refused connection and then fails with a retryable RequestError', async () => {
    const dead = await startServer(() => {});
    await dead.close();
    const retry = policy({ attempts: 3 });
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: dead.url }, retry));
    const e = await rejection(p.complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect((e as RequestError).retryable).toBe(true);
    expect((e as RequestError).status).toBeUndefined();
    expect(e.message).toContain('network error');
    expect(e.message).toContain('ECONNREFUSED');
    expect(e.message).toContain('(after 3 attempts)');
    expect(retry.waits).toHaveLength(2);
    expect(e.message).not.toContain(KEY);
  });

  it('never puts the key in an error message, even when the server echoes it', async () => {
    const echo = (req: Recorded) => ({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${String(req.headers['x-api-key'])}` } });
    const s = await anthropicServer((_n, req) => ({ status: 401, body: echo(req) }));
    const e = await rejection(anthropic(s, policy()).complete(PROMPT));
    expect(s.requests[0]!.headers['x-api-key']).toBe(KEY); // the server did get (and echo) it
    expect(e.message).toContain('HTTP 401');
    expect(e.message).not.toContain(KEY);
    expect(e.message).toContain('[REDACTED]');

    // the same for an answer retried to exhaustion
    const s2 = await anthropicServer((_n, req) => ({ status: 500, body: echo(req) }));
    const e2 = await rejection(anthropic(s2, policy({ attempts: 2 })).complete(PROMPT));
    expect(e2.message).toContain('(after 2 attempts)');
    expect(e2.message).not.toContain(KEY);

    // and for OpenAI's Bearer key
    const s3 = await openaiServer((_n, req) => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization).replace('Bearer ', '')}` } } }));
    const o = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${s3.url}/v1` }, policy()));
    const e3 = await rejection(o.complete(PROMPT));
    expect(e3.message).toContain('HTTP 401');
    expect(e3.message).not.toContain(OPENAI_KEY);
  });

  // BUG (src/harvest/model/http.ts, snippet()): the answer is cut to 300 characters BEFORE the
  // secrets are replaced, so a key that straddles the cut is no longer found whole and its first
  // characters stay in the message. Flip to `it` once snippet() replaces secrets before slicing.
  it('never puts part of the key in an error message when the excerpt cuts through it', async () => {
    const key = 'test-key-0123456789-abcdefghij-klmnopqrst';
    const s = await anthropicServer(() => ({ status: 400, body: `${'x'.repeat(290)}${key}` }));
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: s.url }, policy()));
    const e = await rejection(p.complete(PROMPT));
    expect(e.message).toContain('HTTP 400');
    expect(e.message).not.toContain(key.slice(0, 10));
  });

  it('sends content-type and the given headers (postJson directly)', async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
    const answer = await postJson(`${s.url}/anything`, { 'x-custom': 'v1' }, { a: [1, 2] }, policy());
    expect(answer).toEqual({ ok: true });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.method).toBe('POST');
    expect(s.requests[0]!.url).toBe('/anything');
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
    expect(s.requests[0]!.headers['x-custom']).toBe('v1');
    expect(s.requests[0]!.raw).toBe('{"a":[1,2]}');
  });

  it('strips every listed secret from a message (postJson directly)', async () => {
    const s = await startServer((_req, res) => sendJson(res, 403, 'denied for alpha-secret-1 and beta-secret-2'));
    const e = await rejection(postJson(`${s.url}/x`, {}, {}, policy(), ['alpha-secret-1', 'beta-secret-2', '']));
    expect(e.message).toContain('HTTP 403');
    expect(e.message).not.toContain('alpha-secret-1');
    expect(e.message).not.toContain('beta-secret-2');
    expect(e.message.split('[REDACTED]')).toHaveLength(3);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads seconds', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('1.5')).toBe(1500);
    expect(retryAfterMs(' 30 ')).toBe(30_000);
  });

  it('reads an HTTP date as the time until then, never below zero', () => {
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 08:28:00 GMT', now)).toBe(3_600_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('gives undefined for no value or garbage', () => {
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('')).toBeUndefined();
    expect(retryAfterMs('   ')).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('Infinity')).toBeUndefined();
    expect(retryAfterMs('NaN')).toBeUndefined();
  });
});

describe('Batch API lines', () => {
  const anthropic = new AnthropicProvider(options(config({ name: 'claude-haiku-4-5' }), {}));
  const openai = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-4.1-mini' }), {}));

  it('anthropic batchLine is {custom_id, params} with the Messages request', () => {
    expect(anthropic.batchLine('s1-part0', PROMPT)).toEqual({
      custom_id: 's1-part0',
      params: {
        model: 'claude-haiku-4-5',
        max_tokens: 777,
        system: [{ type: 'text', text: PROMPT.system, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: PROMPT.user }],
      },
    });
  });

  it('anthropic batchLine params are exactly what complete() sends', async () => {
    const s = await anthropicServer();
    const p = new AnthropicProvider(options(config(), { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: s.url }));
    await p.complete(PROMPT);
    expect((p.batchLine('x', PROMPT) as { params: unknown }).params).toEqual(s.requests[0]!.body);
  });

  it('openai batchLine is {custom_id, method, url, body} with the Chat Completions request', () => {
    expect(openai.batchLine('s2', PROMPT)).toEqual(chatBatchLine('s2', 'gpt-4.1-mini'));
    const reasoning = new OpenAIProvider(options(config({ provider: 'openai', name: 'gpt-5-mini' }), {}));
    const body = (reasoning.batchLine('s3', PROMPT) as { body: Record<string, unknown> }).body;
    expect(body.max_completion_tokens).toBe(777);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('openai batchLine body is exactly what complete() sends', async () => {
    const s = await openaiServer();
    const p = new OpenAIProvider(options(config({ provider: 'openai', name: 'o3' }), { OPENAI_BASE_URL: `${s.url}/v1` }));
    await p.complete(PROMPT);
    expect((p.batchLine('x', PROMPT) as { body: unknown }).body).toEqual(s.requests[0]!.body);
  });

  it('reads anthropic results lines', () => {
    const ok = { custom_id: 's1', result: { type: 'succeeded', message: anthropicMessage('{"items":[]}', 'end_turn', { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 2, cache_creation_input_tokens: 3 }) } };
    expect(anthropic.batchResult(ok)).toEqual({ customId: 's1', completion: { text: '{"items":[]}', inputTokens: 15, outputTokens: 4, truncated: false } });

    const cut = { custom_id: 's2', result: { type: 'succeeded', message: anthropicMessage('{"it', 'max_tokens') } };
    expect(anthropic.batchResult(cut)?.completion?.truncated).toBe(true);

    const errored = { custom_id: 's3', result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } } } };
    const r3 = anthropic.batchResult(errored);
    expect(r3?.customId).toBe('s3');
    expect(r3?.completion).toBeUndefined();
    expect(r3?.error).toContain('errored');

    for (const type of ['expired', 'canceled']) {
      const r = anthropic.batchResult({ custom_id: `s-${type}`, result: { type } });
      expect(r).toEqual({ customId: `s-${type}`, error: `batch result ${type}` });
    }
    // succeeded without a message is no answer
    expect(anthropic.batchResult({ custom_id: 's4', result: { type: 'succeeded' } })?.error).toBeDefined();
  });

  it('reads OpenAI batch output lines', () => {
    const ok = { id: 'batch_req_1', custom_id: 's1', response: { status_code: 200, request_id: 'req_1', body: chatCompletion('{"items":[2]}', 'length') }, error: null };
    expect(openai.batchResult(ok)).toEqual({ customId: 's1', completion: { text: '{"items":[2]}', inputTokens: 42, outputTokens: 9, truncated: true } });

    const failed = { id: 'batch_req_2', custom_id: 's2', response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } };
    const r2 = openai.batchResult(failed);
    expect(r2?.customId).toBe('s2');
    expect(r2?.completion).toBeUndefined();
    expect(r2?.error).toBe('batch error: This request could not be executed before the completion window expired.');

    const http400 = { id: 'batch_req_3', custom_id: 's3', response: { status_code: 400, request_id: 'req_3', body: { error: { message: 'bad model' } } }, error: null };
    expect(openai.batchResult(http400)).toEqual({ customId: 's3', error: 'batch result HTTP 400' });

    const long = { id: 'batch_req_4', custom_id: 's4', response: null, error: { message: 'e'.repeat(1000) } };
    expect(openai.batchResult(long)?.error).toBe(`batch error: ${'e'.repeat(200)}`);
  });

  it('gives undefined for lines that are not results', () => {
    for (const line of [null, undefined, 42, 'text', [], {}, { id: 'x' }, { custom_id: 7, result: { type: 'succeeded' } }, { custom_id: 'a' }, { custom_id: 'a', result: null }, { custom_id: 'a', result: 'succeeded' }]) {
      expect(anthropic.batchResult(line)).toBeUndefined();
    }
    // an Anthropic request line is not a result either
    expect(anthropic.batchResult(anthropic.batchLine('a', PROMPT))).toBeUndefined();
    for (const line of [null, undefined, 42, 'text', [], {}, { id: 'batch_req_1' }, { custom_id: 3, response: { status_code: 200 } }]) {
      expect(openai.batchResult(line)).toBeUndefined();
    }
  });
});

describe('command provider', () => {
  let dir: string;
  const pids: number[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compound-command-provider-'));
  });

  afterAll(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function script(name: string, source: string): string {
    const file = join(dir, name);
    writeFileSync(file, source);
    return `"${process.execPath}" "${file}"`;
  }

  function commandProvider(command: string, over: Partial<RetryPolicy> = {}, env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' }): ModelProvider {
    return new CommandProvider(options(config({ provider: 'command', name: 'x', command }), env, policy(over)));
  }

  const ECHO = `
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      const input = Buffer.concat(chunks).toString('utf8');
      const sys = ${JSON.stringify(PROMPT.system)};
      process.stdout.write(JSON.stringify({
        chars: input.length,
        startsWithSystemThenBlank: input.startsWith(sys + '\\n\\n'),
        input,
        marker: process.env.COMPOUND_TEST_MARKER ?? null,
        args: process.argv.slice(2),
      }));
    });
  `;

  it('writes the system prompt, a blank line and the user text to stdin, and answers with stdout', async () => {
    const p = commandProvider(script('echo.cjs', ECHO));
    const c = await p.complete(PROMPT);
    const answer = JSON.parse(c.text) as { chars: number; startsWithSystemThenBlank: boolean; input: string; marker: string | null };
    expect(answer.input).toBe(`${PROMPT.system}\n\n${PROMPT.user}`);
    expect(answer.chars).toBe(PROMPT.system.length + 2 + PROMPT.user.length);
    expect(answer.startsWithSystemThenBlank).toBe(true);
    expect(c.truncated).toBe(false);
    expect(c.inputTokens).toBeUndefined();
    expect(c.outputTokens).toBeUndefined();
  });

  it('passes non-ASCII text through intact and copes with a large input', async () => {
    const big: Prompt = { system: 'Système ✓', user: `naïve 日本語 ${'x'.repeat(2_000_000)}`, maxOutputTokens: 10 };
    const c = await commandProvider(script('echo-big.cjs', ECHO)).complete(big);
    const answer = JSON.parse(c.text) as { chars: number; startsWithSystemThenBlank: boolean; input: string };
    expect(answer.chars).toBe(big.system.length + 2 + big.user.length);
    expect(answer.input.startsWith('Système ✓\n\nnaïve 日本語 x')).toBe(true);
  });

  it('runs the command line with the given env (not the test process env)', async () => {
    const p = commandProvider(script('env.cjs', ECHO) + ' --flag "two words"', {}, { PATH: process.env.PATH ?? '', COMPOUND_TEST_MARKER: 'm-42' });
    const answer = JSON.parse((await p.complete(PROMPT)).text) as { marker: string | null; args: string[] };
    expect(answer.marker).toBe('m-42');
    expect(answer.args).toEqual(['--flag', 'two words']);
  });

  it('fails a request whose command exits non-zero, with the last stderr line', async () => {
    const p = commandProvider(script('fail.cjs', `process.stdin.resume(); process.stdin.on('end', () => { process.stderr.write('warming up\\nquota exceeded\\n'); process.exit(3); });`));
    const e = await rejection(p.complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toContain('exited with 3');
    expect(e.message).toContain('quota exceeded');
    expect(e.message).not.toContain('warming up');
    expect((e as RequestError).retryable).toBe(false);
  });

  it('fails a request whose command does not exist', async () => {
    const e = await rejection(commandProvider('definitely-not-a-command-compound-test').complete(PROMPT));
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toContain('exited with 127');
  });

  it('fails, on time, a command that never answers', async () => {
    const pidFile = join(dir, 'hang.pid');
    // bounded, so that a process the provider fails to kill does not outlive the tests for long
    const p = commandProvider(script('hang.cjs', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000);`), { timeoutMs: 500 });
    const t0 = Date.now();
    const e = await rejection(p.complete(PROMPT));
    const elapsed = Date.now() - t0;
    if (existsSync(pidFile)) pids.push(Number(readFileSync(pidFile, 'utf8')));
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toContain('no answer within');
    expect((e as RequestError).retryable).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(5000);
  });

  // BUG (src/harvest/model/providers/command.ts, runCommand): the command runs under `sh -c`
  // (shell: true) and the timeout kills only the shell (child.kill('SIGKILL')); /bin/sh (dash)
  // does not exec the program, so the program itself (e.g. `claude -p`) keeps running after the
  // request has failed. Flip to `it` once the whole process group is killed.
  it('kills the program itself, not only its shell, when the command times out', async () => {
    const pidFile = join(dir, 'orphan.pid');
    const p = commandProvider(script('orphan.cjs', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000);`), { timeoutMs: 500 });
    await rejection(p.complete(PROMPT));
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    pids.push(pid);
    await new Promise((r) => setTimeout(r, 200));
    let alive = true;
    try {
      process.kill(pid, 0);
      // a killed process nobody has reaped yet (a container's init may not) is a zombie: dead
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
      if (/^\d+ \(.*\) Z/.test(stat)) alive = false;
    } catch {
      alive = false;
    }
    expect(alive).toBe(false);
  });

  it('writes and reads batch lines in the OpenAI format', () => {
    const p = commandProvider('true');
    expect(p.batchLine('c1', PROMPT)).toEqual(chatBatchLine('c1', 'x'));
    expect(p.batchResult({ id: 'b', custom_id: 'c1', response: { status_code: 200, request_id: 'r', body: chatCompletion('hi') }, error: null })).toEqual({
      customId: 'c1',
      completion: { text: 'hi', inputTokens: 42, outputTokens: 9, truncated: false },
    });
    expect(p.batchResult({ nope: true })).toBeUndefined();
  });
});
