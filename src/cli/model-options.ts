/**
 * Which extractor a harvest uses and, for the model, its settings: compound.config.yaml's
 * `model:` with the flags on top. Default: the model when one is configured, else the rules.
 */
import { UsageError } from '../core/errors.js';
import type { Config } from '../core/config.js';
import { DEFAULT_MODEL, MODEL_DEFAULTS, PROVIDERS, type ModelConfig, type ProviderName } from '../core/model-config.js';
import type { ExtractorChoice } from '../harvest/model/harvest-model.js';

export interface ModelFlags {
  extractor?: string;
  modelProvider?: string;
  model?: string;
  modelCommand?: string;
  maxCost?: string;
  batchOut?: string;
  batchIn?: string;
}

export interface ExtractorSetup {
  extractor: ExtractorChoice;
  model?: ModelConfig;
  maxCost?: number;
}

export function extractorSetup(flags: ModelFlags, config: Config): ExtractorSetup {
  if (flags.extractor !== undefined && !['rules', 'model', 'both'].includes(flags.extractor)) {
    throw new UsageError(`--extractor ${flags.extractor} is not one of rules, model, both`);
  }
  if (flags.modelProvider !== undefined && !(PROVIDERS as readonly string[]).includes(flags.modelProvider)) {
    throw new UsageError(`--model-provider ${flags.modelProvider} is not one of ${PROVIDERS.join(', ')}`);
  }
  let model: ModelConfig | undefined = config.model ? { ...config.model } : undefined;
  const provider = (flags.modelProvider ?? (flags.modelCommand !== undefined && !model ? 'command' : undefined)) as ProviderName | undefined;
  if (provider && (!model || model.provider !== provider)) {
    // another provider than the file's: its defaults, keeping the file's limits and cap
    model = { ...MODEL_DEFAULTS, ...(model ? { max_concurrency: model.max_concurrency, max_input_tokens: model.max_input_tokens, max_output_tokens: model.max_output_tokens, timeout_seconds: model.timeout_seconds } : {}), ...(model?.max_cost_per_run !== undefined ? { max_cost_per_run: model.max_cost_per_run } : {}), provider, name: DEFAULT_MODEL[provider] };
  }
  if (model) {
    if (flags.model !== undefined) {
      model.name = flags.model;
      if (!flags.modelProvider && config.model?.name !== flags.model) delete model.price; // the file's price was for its model
    }
    if (flags.modelCommand !== undefined) model.command = flags.modelCommand;
    if (model.provider === 'command' && !model.command) throw new UsageError('the command provider needs a command', { fix: "pass --model-command '<program>' or set model.command in compound.config.yaml" });
  } else if (flags.model !== undefined) {
    throw new UsageError(`--model ${flags.model} needs a provider`, { fix: 'pass --model-provider anthropic|openai|command or set model: in compound.config.yaml' });
  }
  const extractor = (flags.extractor ?? (model ? 'model' : 'rules')) as ExtractorChoice;
  if (extractor !== 'rules' && !model) {
    throw new UsageError(`--extractor ${extractor} needs a model`, { fix: 'set model: (provider, name) in compound.config.yaml or pass --model-provider' });
  }
  if (extractor === 'rules' && (flags.batchOut !== undefined || flags.batchIn !== undefined)) {
    throw new UsageError('--batch-out and --batch-in need the model extractor', { fix: 'configure a model, or pass --extractor model' });
  }
  if (flags.batchOut !== undefined && flags.batchIn !== undefined) throw new UsageError('--batch-out and --batch-in are two steps: give one of them');
  let maxCost = model?.max_cost_per_run;
  if (flags.maxCost !== undefined) {
    maxCost = Number(flags.maxCost);
    if (!Number.isFinite(maxCost) || maxCost < 0) throw new UsageError(`--max-cost ${flags.maxCost} is not an amount of USD >= 0`);
  }
  return { extractor, ...(extractor !== 'rules' && model ? { model } : {}), ...(maxCost !== undefined ? { maxCost } : {}) };
}
