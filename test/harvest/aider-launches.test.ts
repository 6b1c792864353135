import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { readSessions } from '../../src/sessions/read.js';
import { renderCaptured } from '../../src/sessions/captured.js';
import { withAiderLaunches } from '../../src/harvest/aider-launches.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';

const launch = (time: string, model: string, body: string) =>
  `\n# aider chat started at 2025-06-02 ${time}\n\n> /usr/local/bin/aider --model ${model}  \n> Aider v0.84.0  \n> Model: ${model} with diff edit format  \n> Git repo: .git with 40 files  \n\n${body}`;
const failed = (error: string) => `#### hi  \n> ${error}  \n\n`;
const answered = '#### hi  \n\nHello! What should we change?\n\n> Tokens: 2k sent, 12 received.  \n\n';
const NOT_PROVIDED = 'litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=qwen3-235b-a22b';
const NOT_VALID = 'litellm.BadRequestError: OpenrouterException - {"error":{"message":"qwen3-235b-a22b is not a valid model ID","code":400},"user_id":"user_2xuwz0Dux3"}';

async function sessionsOf(history: string) {
  const file = put(tempDir(), '.aider.chat.history.md', history);
  return withAiderLaunches((await readSessions([file])).sessions);
}

const modelItems = async (history: string) =>
  (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice' && c.category === 'pitfall').map((c) => c.text));

describe('the launches of an aider chat history', () => {
  it('gives every launch the models of the file and how each went', async () => {
    const sessions = await sessionsOf(launch('11:49:34', 'qwen3-235b-a22b', failed(NOT_PROVIDED)) + launch('11:54:05', 'openrouter/qwen3-235b-a22b', '') + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', answered));
    expect(sessions.map((s) => s.aiderLaunches?.at)).toEqual([0, 1, 2]);
    expect(sessions[0]!.aiderLaunches!.all).toEqual([
      { model: 'qwen3-235b-a22b', outcome: 'failed', editFormat: 'diff' },
      { model: 'openrouter/qwen3-235b-a22b', outcome: 'idle', editFormat: 'diff' },
      { model: 'openrouter/qwen/qwen3-235b-a22b', outcome: 'answered', editFormat: 'diff' },
    ]);
  });

  it('says which model names failed and which then worked, once per run of failed launches', async () => {
    const history = launch('11:49:34', 'qwen3-235b-a22b', failed(NOT_PROVIDED)) + launch('11:54:05', 'openrouter/qwen3-235b-a22b', '') + launch('12:02:21', 'openrouter/qwen3-235b-a22b', failed(NOT_VALID)) + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', answered);
    expect(await modelItems(history)).toEqual([
      // the launches that failed in between are not named: their errors may be others
      "Aider (through litellm) needs the provider in front of a model name: `qwen3-235b-a22b` alone failed (`LLM Provider NOT provided`); `openrouter/qwen/qwen3-235b-a22b` worked.",
    ]);
    // the provider's message, not its wrapping (nor the user id beside it)
    const alone = await modelItems(launch('12:02:21', 'openrouter/qwen3-235b-a22b', failed(NOT_VALID)) + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', answered));
    expect(alone).toEqual(["On 2025-06-02, aider's requests with `openrouter/qwen3-235b-a22b` failed (`qwen3-235b-a22b is not a valid model ID`); the launch with `openrouter/qwen/qwen3-235b-a22b` then worked."]);
    // a model aider picked itself from the key it found (no --model) is said to be its pick
    const picked = launch('12:02:21', 'openrouter/qwen3-235b-a22b', failed(NOT_VALID)).replace('#### hi', '> Using openrouter/qwen3-235b-a22b model with API key from environment.  \n\n#### hi');
    expect(await modelItems(picked + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', answered))).toEqual([
      "On 2025-06-02, aider's requests with `openrouter/qwen3-235b-a22b` failed (`qwen3-235b-a22b is not a valid model ID`); aider v0.84.0 had picked it itself from the API key in the environment (no `--model`); the launch with `openrouter/qwen/qwen3-235b-a22b` then worked. Pass `--model` to choose the model.",
    ]);
    // a router's answers (OpenRouter's free router, `…/auto`) come from a model it picks each time: no model that works
    expect(await modelItems(launch('12:02:21', 'openrouter/qwen3-235b-a22b', failed(NOT_VALID)) + launch('12:04:48', 'openrouter/openrouter/free', answered))).toEqual([
      "On 2025-06-02, aider's requests with `openrouter/qwen3-235b-a22b` failed (`qwen3-235b-a22b is not a valid model ID`).",
    ]);
  });

  it("quotes the first sentence of the provider's message, however long the message, and the next when it names what to use instead", async () => {
    const gone = `litellm.NotFoundError: Vertex_ai_betaException - b'{\\n  "error": {\\n    "code": 404,\\n    "message": "This model models/gemini-2.5-flash is no longer available to new users. Please update your code to use models/gemini-3.6-flash for the latest features and improvements. We recommend you to use the Interactions API.",\\n    "status": "NOT_FOUND"\\n  }\\n}\\n'`;
    expect(await modelItems(launch('10:00:00', 'gemini/gemini-2.5-flash', failed(gone)) + launch('10:05:00', 'gemini/gemini-3.6-flash', answered))).toEqual([
      "On 2025-06-02, aider's requests with `gemini/gemini-2.5-flash` failed (`This model models/gemini-2.5-flash is no longer available to new users. Please update your code to use models/gemini-3.6-flash for the latest features and improvements`); the launch with `gemini/gemini-3.6-flash` then worked.",
    ]);
  });

  it("titles a failure by the provider's reason when its message says it plainly; else by which model then worked", async () => {
    const titles = async (history: string) =>
      (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice' && c.category === 'pitfall').map((c) => c.title));
    const closed = 'litellm.NotFoundError: VertexException - {"error": {"code": 404, "message": "This model models/gemini-2.5-flash is no longer available to new users.", "status": "NOT_FOUND"}}';
    expect(await titles(launch('10:00:00', 'gemini/gemini-2.5-flash', failed(closed)) + launch('10:05:00', 'gemini/gemini-3-flash-preview', answered))).toEqual(['aider: gemini/gemini-2.5-flash is closed to new users']);
    const unknown = 'litellm.NotFoundError: GeminiException - {"error": {"code": 404, "message": "models/gemini-3-flash is not found for API version v1alpha, or is not supported for generateContent.", "status": "NOT_FOUND"}}';
    expect(await titles(launch('10:00:00', 'gemini/gemini-3-flash', failed(unknown)) + launch('10:05:00', 'gemini/gemini-2.5-flash', answered))).toEqual(['aider: gemini/gemini-3-flash is not a model the API knows']);
    expect(await titles(launch('12:02:21', 'openrouter/qwen3-235b-a22b', failed(NOT_VALID)) + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', answered))).toEqual(['aider: openrouter/qwen3-235b-a22b failed, openrouter/qwen/qwen3-235b-a22b worked']);
  });

  it('tells one failure once: two runs that hit the same error with one model share a signature, whatever they went on with', async () => {
    const gone = 'litellm.NotFoundError: VertexException - {"error": {"code": 404, "message": "This model models/gemini-2.5-flash is no longer available to new users.", "status": "NOT_FOUND"}}';
    const run = (model: string, worked: string) => launch('10:00:00', model, failed(gone)) + launch('10:05:00', worked, answered);
    const signatures = async (history: string) => (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice' && c.category === 'pitfall').map((c) => c.signature));
    const [a] = await signatures(run('gemini/gemini-2.5-flash', 'gemini/gemini-3.6-flash'));
    const [b] = await signatures(run('gemini/gemini-2.5-flash', 'gemini/gemini-3-flash-preview'));
    expect(a).toBeDefined();
    expect(b).toBe(a);
    const [c] = await signatures(run('gemini/gemini-2.0-flash', 'gemini/gemini-3.6-flash'));
    expect(c).not.toBe(a);
  });

  it("quotes a provider's {\"error\": \"…\"} message; a local model short of memory is no model failure (the context aider asked for counts as much)", async () => {
    const gone = 'litellm.NotFoundError: OllamaException - {"error":"model \'qwen9:14b\' not found, try pulling it first"}';
    expect(await modelItems(launch('07:09:05', 'ollama/qwen9:14b', failed(gone)) + launch('07:18:43', 'ollama/qwen2.5-coder:7b', answered))).toEqual([
      "On 2025-06-02, aider's requests with `ollama/qwen9:14b` failed (`model 'qwen9:14b' not found, try pulling it first`); the launch with `ollama/qwen2.5-coder:7b` then worked.",
    ]);
    const memory = 'litellm.APIConnectionError: OllamaException - {"error":"model requires more system memory (14.0 GiB) than is available (13.4 GiB)"}';
    expect(await modelItems(launch('07:09:05', 'ollama/qwen2.5:14b', failed(memory)) + launch('07:18:43', 'ollama/qwen2.5-coder:7b', answered))).toEqual([]);
  });

  it("says nothing of a tracked file missing from disk that only one launch warned of and a later launch no longer did", async () => {
    const missing = (n: string) => `> Git working dir: C:\\Users\\dev\\shop  \n> Repo-map can't include C:\\Users\\dev\\shop\\src\\${n}.ts  \n> Has it been deleted from the file system but not from git?  \n`;
    const warnedOnce = launch('10:00:00', 'gpt-4.1', `${missing('a')}${missing('b')}${answered}`) + launch('10:05:00', 'gpt-4.1', answered);
    const deleted = async (history: string) => (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.signature === 'aider repo-map tracked file deleted'));
    expect((await sessionsOf(warnedOnce))[0]!.aiderLaunches!.all).toEqual([
      { model: 'gpt-4.1', outcome: 'answered', missingTracked: true, gitRoot: 'C:\\Users\\dev\\shop', editFormat: 'diff' },
      { model: 'gpt-4.1', outcome: 'answered', editFormat: 'diff' },
    ]);
    expect(await deleted(warnedOnce)).toEqual([]);
    // one launch's warning alone, even the last one's, may be passing; one that recurs across launches is the checkout's state
    expect(await deleted(launch('10:00:00', 'gpt-4.1', answered) + launch('10:05:00', 'gpt-4.1', `${missing('a')}${missing('b')}${answered}`))).toEqual([]);
    const recurring = launch('10:00:00', 'gpt-4.1', `${missing('a')}${answered}`) + launch('11:00:00', 'gpt-4.1', `${missing('a')}${answered}`);
    expect(await deleted(recurring)).toHaveLength(2);
    // …until the history's last launch that got a reply no longer warns: by then it was fixed
    expect(await deleted(recurring + launch('12:00:00', 'gpt-4.1', answered))).toEqual([]);
    // (a later launch that never got as far as a reply says nothing either way)
    expect(await deleted(recurring + launch('12:00:00', 'gpt-4.1', ''))).toHaveLength(2);
  });

  it('names the same model under another name when a later launch used it, rather than the first that worked', async () => {
    const history = launch('10:00:00', 'DeepSeek-Coder-V2-Lite.gguf', failed('litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=DeepSeek-Coder-V2-Lite.gguf')) + launch('10:05:00', 'openai/Codestral-22B.gguf', answered) + launch('10:09:00', 'openai/DeepSeek-Coder-V2-Lite.gguf', answered);
    expect(await modelItems(history)).toEqual(["Aider (through litellm) needs the provider in front of a model name: `DeepSeek-Coder-V2-Lite.gguf` alone failed (`LLM Provider NOT provided`); `openai/DeepSeek-Coder-V2-Lite.gguf` worked."]);
    const [title] = (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice' && c.category === 'pitfall').map((c) => c.title));
    expect(title).toBe('aider needs the provider prefix on a model name (openai/…)');
  });

  it("names the provider prefix where litellm found no provider and a later launch with one worked, whatever the name after it", async () => {
    const bare = 'litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=local-llm';
    expect(await modelItems(launch('00:19:45', 'local-llm', failed(bare)) + launch('00:21:30', 'openai/local', failed('litellm.APIConnectionError: APIConnectionError: OpenAIException - Connection error.')) + launch('00:28:37', 'openai/local', answered))).toEqual([
      'Aider (through litellm) needs the provider in front of a model name: `local-llm` alone failed (`LLM Provider NOT provided`); a later launch with `openai/local` worked.',
    ]);
    // a model the launch reached through its own OpenAI-compatible server: the name is the server's, the prefix is litellm's
    const served = (time: string, model: string, body: string) => launch(time, model, body).replace(`--model ${model}`, `--openai-api-base http://localhost:1234/v1 --model ${model}`);
    const [item] = (await sessionsOf(served('00:19:45', 'local-llm', failed(bare)) + served('00:28:37', 'openai/local', answered))).flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice'));
    expect(item!.title).toBe('aider: a model on an OpenAI-compatible server is named openai/<name>');
    expect(item!.text).toBe("A model on an OpenAI-compatible server (aider's `--openai-api-base`) is named `openai/<name>` for litellm: `local-llm` alone failed (`LLM Provider NOT provided`); a later launch with `openai/local` worked.");
  });

  it("says nothing of model names after a quota of the account: another model answering says nothing of the name", async () => {
    const quota = "litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota'}}";
    expect(await modelItems(launch('19:38:01', 'gpt-3.5-turbo', failed(quota)) + launch('19:38:53', 'groq/llama3-70b-8192', answered))).toEqual([]);
    // a quota the provider counts per model (Gemini's metric names the model) does tell of the model
    const perModel = 'litellm.RateLimitError: RateLimitError: GeminiException - {"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro", "status": "RESOURCE_EXHAUSTED"}}';
    expect(await modelItems(launch('10:00:00', 'gemini/gemini-2.5-pro', failed(perModel)) + launch('10:05:00', 'gemini/gemini-2.5-flash', answered))).toHaveLength(1);
  });

  it('says nothing without a later launch that worked with another model, nor of an API key', async () => {
    expect(await modelItems(launch('11:49:34', 'qwen3-235b-a22b', failed(NOT_PROVIDED)))).toEqual([]);
    expect(await modelItems(launch('11:49:34', 'qwen3-235b-a22b', failed(NOT_PROVIDED)) + launch('11:50:00', 'qwen3-235b-a22b', answered))).toEqual([]);
    const key = 'litellm.AuthenticationError: AuthenticationError: Lm_studioException - Incorrect API key provided: fake-api-key.';
    expect(await modelItems(launch('22:40:12', 'lm_studio/qwen3', failed(key)) + launch('22:40:47', 'openai/qwen3', answered))).toEqual([]);
  });

  it('travels with a captured session, and a malformed list is none', async () => {
    const [first] = await sessionsOf(launch('11:49:34', 'qwen3-235b-a22b', failed(NOT_PROVIDED)) + launch('12:04:48', 'openrouter/qwen/qwen3-235b-a22b', `> Repo-map can't include src/a.ts  \n${answered}#### add a  \n\na.ts\n\`\`\`\nexport const a = 1;\n\`\`\`\n\n> Applied edit to a.ts  \n> Commit 8c7927a aider: add a  \n\n`));
    expect(first!.aiderLaunches!.all[1]!.missingTracked).toBe(true);
    expect(first!.aiderLaunches!.all[1]!.committed).toBe(true);
    // (with its edit format and its edits' count, which the edit-format lesson compares)
    expect(first!.aiderLaunches!.all[1]).toMatchObject({ editFormat: 'diff', edits: { applied: 1, rejected: 0 } });
    const dir = tempDir();
    const file = join(dir, 'captured.jsonl');
    writeFileSync(file, renderCaptured(first!, 'app', (t) => t));
    const [back] = (await readSessions([file])).sessions;
    expect(back!.aiderLaunches).toEqual(first!.aiderLaunches);
    const lines = renderCaptured(first!, 'app', (t) => t).split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    writeFileSync(file, [JSON.stringify({ ...header, aiderLaunches: { at: 5, all: [] } }), ...lines.slice(1)].join('\n'));
    expect((await readSessions([file])).sessions[0]!.aiderLaunches).toBeUndefined();
  });
});

describe('a model name aider does not know', () => {
  const unknown = (model: string, suggestions: string[]) =>
    `\n# aider chat started at 2026-08-31 15:20:26\n\n> aider --model ${model}  \n> Warning for ${model}: Unknown context window size and costs, using sane defaults.  \n> Did you mean one of these?  \n${suggestions.map((s) => `> - ${s}  \n`).join('')}> You can skip this check with --no-show-model-warnings  \n> Aider v0.86.2  \n> Model: ${model} with whole edit format  \n\n`;
  const named = async (history: string) => (await sessionsOf(history)).flatMap((s) => extractSession(s).filter((c) => c.title.startsWith('aider: use ')));

  it('is told with the suggested name that a later launch then used and got answers with', async () => {
    const history = unknown('gemini/gemini-3-flash', ['gemini/gemini-3-flash-preview']) + launch('15:21:47', 'gemini/gemini-3-flash-preview', answered);
    const [item] = await named(history);
    expect(item).toMatchObject({ title: 'aider: use gemini/gemini-3-flash-preview, not gemini/gemini-3-flash', scope: 'agent' });
    // which aider (its own table of models), and what it did with the name: no request may have gone out with it
    expect(item!.text).toBe('Aider v0.86.2 did not know `gemini/gemini-3-flash` (`Unknown context window size and costs`) and ran it with defaults (`Model: gemini/gemini-3-flash with whole edit format`); it suggested `gemini/gemini-3-flash-preview`, and a later launch naming `gemini/gemini-3-flash-preview` in full worked.');
    // of many names suggested (an alias such as `sonnet`), the one taken is one choice: the lesson is the full name
    const names = ['anthropic/claude-3-5-sonnet-20240620', 'anthropic/claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'openrouter/anthropic/claude-3.5-sonnet'];
    const [alias] = (await sessionsOf(unknown('sonnet', names) + launch('15:21:47', 'claude-3-5-sonnet-20240620', answered))).flatMap((s) => extractSession(s).filter((c) => c.title.includes('name the model in full')));
    expect(alias!.title).toBe('aider v0.86.2 does not know sonnet: name the model in full');
    expect(alias!.text).toBe('Aider v0.86.2 did not know `sonnet` (`Unknown context window size and costs`) and ran it with defaults (`Model: sonnet with whole edit format`); it listed 5 full names it knows, and a later launch naming one of them, `claude-3-5-sonnet-20240620`, worked.');
    // a banner without a version: the day it held
    const [undated] = await named(history.replace('> Aider v0.86.2  \n', ''));
    expect(undated!.text).toMatch(/^On 2026-08-31, aider did not know /);
  });

  it('is one claim with a failed request under that name in another history: the merge keeps one item', async () => {
    const signatureOf = async (history: string, rule: (c: { title: string }) => boolean) => (await sessionsOf(history)).flatMap((s) => extractSession(s).filter(rule).map((c) => c.signature))[0];
    const suggested = await signatureOf(unknown('gemini/gemini-3-flash', ['gemini/gemini-3-flash-preview']) + launch('15:21:47', 'gemini/gemini-3-flash-preview', answered), (c) => c.title.startsWith('aider: use '));
    const notFound = 'litellm.NotFoundError: GeminiException - {"error": {"code": 404, "message": "models/gemini-3-flash is not found for API version v1alpha, or is not supported for generateContent.", "status": "NOT_FOUND"}}';
    const failedRequest = await signatureOf(launch('10:00:00', 'gemini/gemini-3-flash', failed(notFound)) + launch('10:05:00', 'gemini/gemini-2.5-flash', answered), (c) => c.title.includes('not a model the API knows'));
    expect(suggested).toBeDefined();
    expect(failedRequest).toBe(suggested);
  });

  it('is nothing when the unknown model answered anyway, or no suggested name was used', async () => {
    expect(await named(`${unknown('ollama/llama3.2', ['ollama/llama3'])}#### hi  \n\nHello!\n\n> Tokens: 2k sent, 12 received.  \n\n` + launch('15:30:00', 'ollama/llama3', answered))).toEqual([]);
    expect(await named(unknown('deepseek/deepse', ['deepseek/deepseek-chat']) + launch('15:30:00', 'deepseek/deepseek-v4-pro', answered))).toEqual([]);
  });

  it('is nothing for a name cut off inside a word of the right one: a typing slip', async () => {
    expect(await named(unknown('deepseek/deepse', ['deepseek/deepseek-v4-pro', 'deepseek/deepseek-chat']) + launch('15:30:00', 'deepseek/deepseek-v4-pro', answered))).toEqual([]);
  });
});
