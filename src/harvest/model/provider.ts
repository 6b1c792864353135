/**
 * A model provider: how one request (system prompt + user text) becomes an answer, and how the
 * same request is written for, and read back from, the provider's Batch API.
 */
import type { ModelConfig, ProviderName } from '../../core/model-config.js';
import type { RetryPolicy } from './http.js';

export interface Prompt {
  system: string;
  user: string;
  maxOutputTokens: number;
}

export interface Completion {
  text: string;
  /** As the provider reports them (undefined when it does not). */
  inputTokens?: number;
  outputTokens?: number;
  /** The answer was cut off by the output limit. */
  truncated: boolean;
}

export interface BatchResult {
  customId: string;
  completion?: Completion;
  /** Why the provider gave no answer for this request. */
  error?: string;
}

export interface ModelProvider {
  readonly provider: ProviderName;
  readonly model: string;
  /** Throws a usage error when a request could not be sent (no key): checked before any work. */
  ready(): void;
  complete(prompt: Prompt): Promise<Completion>;
  /** One line (an object) of the provider's Batch API input file for this request. */
  batchLine(customId: string, prompt: Prompt): object;
  /** One parsed line of the provider's batch results file; undefined when it is not one. */
  batchResult(line: unknown): BatchResult | undefined;
}

export interface ProviderOptions {
  config: ModelConfig;
  env: NodeJS.ProcessEnv;
  retry: RetryPolicy;
}

/** The configured provider (loaded on demand: a rules harvest never loads one). */
export async function makeProvider(options: ProviderOptions): Promise<ModelProvider> {
  switch (options.config.provider) {
    case 'anthropic':
      return new (await import('./providers/anthropic.js')).AnthropicProvider(options);
    case 'openai':
      return new (await import('./providers/openai.js')).OpenAIProvider(options);
    case 'command':
      return new (await import('./providers/command.js')).CommandProvider(options);
  }
}
