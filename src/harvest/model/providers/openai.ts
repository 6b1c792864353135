/**
 * OpenAI's Chat Completions API, which OpenAI-compatible servers speak too (Ollama, vLLM, LM
 * Studio, OpenRouter), and the OpenAI Batch format. Key and base URL from the environment as the
 * official SDK takes them: OPENAI_API_KEY (or `api_key_env`) and OPENAI_BASE_URL (with /v1). A
 * local server needs no key: without one, no Authorization header is sent.
 */
import { postJson, type RetryPolicy } from '../http.js';
import type { BatchResult, Completion, ModelProvider, Prompt, ProviderOptions } from '../provider.js';
import { MissingKeyError } from './keys.js';

interface ChatAnswer {
  choices?: { message?: { content?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export function completionOfChat(answer: ChatAnswer): Completion {
  const choice = answer.choices?.[0];
  const u = answer.usage ?? {};
  return {
    text: choice?.message?.content ?? '',
    ...(u.prompt_tokens !== undefined ? { inputTokens: u.prompt_tokens } : {}),
    ...(u.completion_tokens !== undefined ? { outputTokens: u.completion_tokens } : {}),
    truncated: choice?.finish_reason === 'length',
  };
}

/** Reasoning models (o1, o3, o4, gpt-5) take max_completion_tokens; everything else max_tokens. */
function usesCompletionTokens(model: string): boolean {
  return /^(?:o\d|gpt-5)/.test(model);
}

export class OpenAIProvider implements ModelProvider {
  readonly provider = 'openai' as const;
  readonly model: string;
  private readonly baseUrl: string;
  private readonly keyEnv: string;
  private readonly official: boolean;
  private readonly env: NodeJS.ProcessEnv;
  private readonly retry: RetryPolicy;

  constructor({ config, env, retry }: ProviderOptions) {
    this.model = config.name;
    this.baseUrl = (config.base_url ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    this.official = this.baseUrl.startsWith('https://api.openai.com');
    this.keyEnv = config.api_key_env ?? 'OPENAI_API_KEY';
    this.env = env;
    this.retry = retry;
  }

  private body(prompt: Prompt): object {
    return {
      model: this.model,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      [usesCompletionTokens(this.model) ? 'max_completion_tokens' : 'max_tokens']: prompt.maxOutputTokens,
    };
  }

  ready(): void {
    if (!this.env[this.keyEnv] && this.official) throw new MissingKeyError(this.keyEnv, 'openai');
  }

  async complete(prompt: Prompt): Promise<Completion> {
    const key = this.env[this.keyEnv];
    // OpenAI itself needs a key; a local compatible server usually does not
    if (!key && this.official) throw new MissingKeyError(this.keyEnv, 'openai');
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    const answer = await postJson(`${this.baseUrl}/chat/completions`, headers, this.body(prompt), this.retry, key ? [key] : []);
    return completionOfChat(answer as ChatAnswer);
  }

  batchLine(customId: string, prompt: Prompt): object {
    return { custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: this.body(prompt) };
  }

  batchResult(line: unknown): BatchResult | undefined {
    const rec = line as { custom_id?: unknown; response?: { status_code?: number; body?: ChatAnswer } | null; error?: { message?: string } | null };
    // (an input line has custom_id too, but neither response nor error)
    if (typeof rec?.custom_id !== 'string' || (rec.response === undefined && rec.error === undefined)) return undefined;
    if (rec.response && rec.response.status_code === 200 && rec.response.body) return { customId: rec.custom_id, completion: completionOfChat(rec.response.body) };
    return { customId: rec.custom_id, error: rec.error?.message ? `batch error: ${rec.error.message.slice(0, 200)}` : `batch result HTTP ${String(rec.response?.status_code ?? 'unknown')}` };
  }
}
