/**
 * Anthropic's Messages API (and its Message Batches format). The system prompt, the same for
 * every request of a run, is marked for prompt caching; usage is read from the answer. Key and
 * base URL come from the environment as the official SDK takes them: ANTHROPIC_API_KEY (or the
 * variable `api_key_env` names) and ANTHROPIC_BASE_URL.
 */
import { MissingKeyError } from './keys.js';
import { postJson, type RetryPolicy } from '../http.js';
import type { BatchResult, Completion, ModelProvider, Prompt, ProviderOptions } from '../provider.js';

const API_VERSION = '2023-06-01';

interface MessageAnswer {
  content?: { type?: string; text?: string }[];
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
}

export function completionOfMessage(answer: MessageAnswer): Completion {
  const text = (answer.content ?? []).filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text).join('');
  const u = answer.usage ?? {};
  // cached and cache-writing input tokens are input tokens too (billed at other rates)
  const input = u.input_tokens === undefined ? undefined : u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  return { text, ...(input !== undefined ? { inputTokens: input } : {}), ...(u.output_tokens !== undefined ? { outputTokens: u.output_tokens } : {}), truncated: answer.stop_reason === 'max_tokens' };
}

export class AnthropicProvider implements ModelProvider {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  private readonly baseUrl: string;
  private readonly keyEnv: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly retry: RetryPolicy;

  constructor({ config, env, retry }: ProviderOptions) {
    this.model = config.name;
    this.baseUrl = (config.base_url ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/+$/, '');
    this.keyEnv = config.api_key_env ?? 'ANTHROPIC_API_KEY';
    this.env = env;
    this.retry = retry;
  }

  private params(prompt: Prompt): object {
    return {
      model: this.model,
      max_tokens: prompt.maxOutputTokens,
      system: [{ type: 'text', text: prompt.system, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: prompt.user }],
    };
  }

  ready(): void {
    if (!this.env[this.keyEnv]) throw new MissingKeyError(this.keyEnv, 'anthropic');
  }

  async complete(prompt: Prompt): Promise<Completion> {
    const key = this.env[this.keyEnv];
    if (!key) throw new MissingKeyError(this.keyEnv, 'anthropic');
    const answer = await postJson(`${this.baseUrl}/v1/messages`, { 'x-api-key': key, 'anthropic-version': API_VERSION }, this.params(prompt), this.retry, [key]);
    return completionOfMessage(answer as MessageAnswer);
  }

  batchLine(customId: string, prompt: Prompt): object {
    return { custom_id: customId, params: this.params(prompt) };
  }

  batchResult(line: unknown): BatchResult | undefined {
    const rec = line as { custom_id?: unknown; result?: { type?: string; message?: MessageAnswer; error?: unknown } };
    if (typeof rec?.custom_id !== 'string' || typeof rec.result !== 'object' || rec.result === null) return undefined;
    if (rec.result.type === 'succeeded' && rec.result.message) return { customId: rec.custom_id, completion: completionOfMessage(rec.result.message) };
    return { customId: rec.custom_id, error: `batch result ${String(rec.result.type ?? 'unknown')}` };
  }
}
