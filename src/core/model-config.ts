/**
 * The `model:` section of compound.config.yaml: which model harvests, through which provider,
 * at what price and within what cap. Keys never live here: `api_key_env` names the environment
 * variable that holds one.
 */
import { InputError } from './errors.js';

export const PROVIDERS = ['anthropic', 'openai', 'command'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface Price {
  /** USD per million input tokens. */
  input_per_mtok: number;
  /** USD per million output tokens. */
  output_per_mtok: number;
}

export interface ModelConfig {
  provider: ProviderName;
  /** The model id the provider knows (e.g. claude-haiku-4-5, gpt-4.1-mini). */
  name: string;
  base_url?: string;
  /** Environment variable holding the API key (default: ANTHROPIC_API_KEY / OPENAI_API_KEY). */
  api_key_env?: string;
  /** For provider `command`: the program to run, e.g. `claude -p --model haiku`. */
  command?: string;
  max_concurrency: number;
  /** Input tokens per request: a longer session is cut into parts. */
  max_input_tokens: number;
  /** Output tokens the model may write per request. */
  max_output_tokens: number;
  /** Seconds before a request is abandoned (and retried). */
  timeout_seconds: number;
  price?: Price;
  /** USD: sessions that would go beyond it are left for the next run. */
  max_cost_per_run?: number;
}

/** List prices (USD per million tokens) of a few well-known models; `price:` overrides them. */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'claude-haiku-4-5': { input_per_mtok: 1, output_per_mtok: 5 },
  'claude-sonnet-4-5': { input_per_mtok: 3, output_per_mtok: 15 },
  'claude-opus-4-5': { input_per_mtok: 5, output_per_mtok: 25 },
  'claude-3-5-haiku-latest': { input_per_mtok: 0.8, output_per_mtok: 4 },
  'gpt-4.1-mini': { input_per_mtok: 0.4, output_per_mtok: 1.6 },
  'gpt-4.1': { input_per_mtok: 2, output_per_mtok: 8 },
  'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 },
  'gpt-4o': { input_per_mtok: 2.5, output_per_mtok: 10 },
  'gpt-5-mini': { input_per_mtok: 0.25, output_per_mtok: 2 },
};

/** The model a configuration without `name` uses, per provider. */
export const DEFAULT_MODEL: Readonly<Record<ProviderName, string>> = {
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4.1-mini',
  command: 'command',
};

export const MODEL_DEFAULTS = { max_concurrency: 4, max_input_tokens: 32000, max_output_tokens: 4096, timeout_seconds: 180 } as const;

const KEYS = ['provider', 'name', 'base_url', 'api_key_env', 'command', 'max_concurrency', 'max_input_tokens', 'max_output_tokens', 'timeout_seconds', 'price', 'max_cost_per_run'];

/** The price of `config`'s model: its own `price:`, else the shipped list price, else none. */
export function priceOf(config: Pick<ModelConfig, 'name' | 'price'>): Price | undefined {
  return config.price ?? DEFAULT_PRICES[config.name];
}

export function parseModelConfig(value: unknown, file: string): ModelConfig {
  const bad = (what: string) => new InputError('E_CONFIG_FIELD', file, undefined, `${file}: model.${what}`, { fix: 'see "Model-backed harvest" in the README' });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('must be a mapping (provider, name, ...)');
  const rec = value as Record<string, unknown>;
  for (const key of Object.keys(rec)) if (!KEYS.includes(key)) throw bad(`${key} is not a known key (use: ${KEYS.join(', ')})`);
  const provider = rec.provider;
  if (typeof provider !== 'string' || !(PROVIDERS as readonly string[]).includes(provider)) throw bad(`provider must be one of: ${PROVIDERS.join(', ')}`);
  const str = (key: string): string | undefined => {
    const v = rec[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw bad(`${key} must be a non-empty string`);
    return v;
  };
  const posInt = (key: keyof typeof MODEL_DEFAULTS): number => {
    const v = rec[key];
    if (v === undefined) return MODEL_DEFAULTS[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw bad(`${key} must be a positive whole number`);
    return v;
  };
  const cfg: ModelConfig = {
    provider: provider as ProviderName,
    name: str('name') ?? DEFAULT_MODEL[provider as ProviderName],
    max_concurrency: posInt('max_concurrency'),
    max_input_tokens: posInt('max_input_tokens'),
    max_output_tokens: posInt('max_output_tokens'),
    timeout_seconds: posInt('timeout_seconds'),
  };
  for (const key of ['base_url', 'api_key_env', 'command'] as const) {
    const v = str(key);
    if (v !== undefined) cfg[key] = v;
  }
  if (cfg.api_key_env !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(cfg.api_key_env)) throw bad('api_key_env must name an environment variable (the key itself never goes in this file)');
  if (cfg.provider === 'command' && cfg.command === undefined) throw bad('command is required with provider: command');
  if (cfg.max_input_tokens < 2000) throw bad('max_input_tokens must be at least 2000');
  if (rec.price !== undefined) {
    const p = rec.price as Record<string, unknown>;
    const ok = typeof p === 'object' && p !== null && typeof p.input_per_mtok === 'number' && typeof p.output_per_mtok === 'number' && p.input_per_mtok >= 0 && p.output_per_mtok >= 0 && Object.keys(p).length === 2;
    if (!ok) throw bad('price must be { input_per_mtok: <usd>, output_per_mtok: <usd> }');
    cfg.price = { input_per_mtok: p.input_per_mtok as number, output_per_mtok: p.output_per_mtok as number };
  }
  if (rec.max_cost_per_run !== undefined) {
    const v = rec.max_cost_per_run;
    if (typeof v !== 'number' || !(v >= 0)) throw bad('max_cost_per_run must be a number of USD >= 0');
    cfg.max_cost_per_run = v;
  }
  return cfg;
}
