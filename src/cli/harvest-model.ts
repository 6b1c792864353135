/**
 * The model side of `compound harvest`: the provider, the prompt, the token counter, the batch
 * files, the progress line (on a terminal) or one summary line per phase (in CI).
 */
import { resolve } from 'node:path';
import type { ModelConfig } from '../core/model-config.js';
import type { HarvestOptions, HarvestResult } from '../harvest/harvest.js';
import { harvestWithModel } from '../harvest/model/harvest-model.js';
import { readBatchResults, writeBatchRequests } from '../harvest/model/batch.js';
import { formatUsd } from '../harvest/model/cost.js';
import { DEFAULT_RETRY } from '../harvest/model/http.js';
import { loadPrompt } from '../harvest/model/prompt.js';
import { makeProvider } from '../harvest/model/provider.js';
import type { ModelMode, ModelStats } from '../harvest/model/run.js';
import { loadCounter } from '../bootstrap/tokens.js';
import { note, warn } from './io.js';
import type { ModelFlags } from './model-options.js';

export interface ModelRunSetup {
  root: string;
  model: ModelConfig;
  extractor: 'model' | 'both';
  maxCost?: number;
  flags: ModelFlags & { dryRun?: boolean };
}

export interface ModelRunOutcome {
  result: HarvestResult;
  stats: ModelStats;
  /** --batch-out: the requests were written, nothing else is. */
  batchOnly: boolean;
}

const thousands = (n: number): string => n.toLocaleString('en-US');

/** What the run did, for people: requests, tokens, cost, what was kept. */
export function modelSummary(s: ModelStats, dryRun: boolean): string[] {
  const lines = [`model: ${s.requests} request(s) for ${s.sessions} session(s): ${s.cached} answered from the cache, ${s.sent} sent${s.failed ? `, ${s.failed} failed` : ''}${s.batchPending ? `, ${s.batchPending} waiting for a batch` : ''}; ${thousands(s.inputTokens)} input tokens in all`];
  if (s.sent > 0 || s.costUsd > 0) lines.push(`model: ${thousands(s.sentInputTokens)} input and ${thousands(s.outputTokens)} output tokens sent, ${formatUsd(s.costUsd)}`);
  if (s.estimatedCostUsd > 0) lines.push(`model: ${dryRun ? 'estimated cost to send' : 'estimated cost of what was not sent'}: ${formatUsd(s.estimatedCostUsd)}`);
  lines.push(`model: ${s.kept} item(s) kept, ${s.ungrounded} dropped as ungrounded (no quote found in the session), ${s.dropped} dropped (low confidence, unknown id or no repo)${s.repairs ? `, ${s.repairs} repair request(s)` : ''}${s.split ? `, ${s.split} part(s) asked again in halves` : ''}${s.skippedParts ? `, ${s.skippedParts} part(s) skipped` : ''}`);
  if (s.deferredByCost) lines.push(`model: the cost cap left ${s.deferredByCost} session(s) for the next run`);
  return lines;
}

export async function runModelHarvest(options: HarvestOptions, setup: ModelRunSetup): Promise<ModelRunOutcome> {
  const { flags, model } = setup;
  const mode: ModelMode = flags.batchIn ? 'batch-in' : flags.batchOut ? 'batch-out' : flags.dryRun ? 'dry-run' : 'direct';
  const provider = await makeProvider({ config: model, env: process.env, retry: { ...DEFAULT_RETRY, timeoutMs: model.timeout_seconds * 1000 } });
  if (mode === 'direct') provider.ready(); // no key: say so before reading anything
  const batch = flags.batchIn ? readBatchResults(resolve(flags.batchIn), provider) : undefined;
  if (batch && batch.skipped.length > 0) warn(`${flags.batchIn}:${batch.skipped[0]}: ${batch.skipped.length} line(s) are not ${model.provider} batch results; skipped`);
  const counter = await loadCounter('o200k_base');
  const terminal = Boolean(process.stderr.isTTY) && !process.env.CI;
  let lastDraw = 0;
  const run = await harvestWithModel(options, {
    extractor: setup.extractor,
    config: model,
    prompt: loadPrompt(setup.root),
    mode,
    provider,
    ...(batch ? { batchResults: batch.byId } : {}),
    ...(setup.maxCost !== undefined ? { maxCost: setup.maxCost } : {}),
    countTokens: (t) => counter.count(t),
    onModelWarning: (m) => warn(m),
    onModelProgress: (p) => {
      if (!terminal) return;
      const now = Date.now();
      if (p.done !== p.total && now - lastDraw < 100) return;
      lastDraw = now;
      process.stderr.write(`\r\u001b[2Kmodel ${p.done}/${p.total} requests, ${thousands(p.inputTokens)} tokens, ${formatUsd(p.costUsd)}`);
    },
  });
  if (terminal) process.stderr.write('\r\u001b[2K');
  else note(`harvest: read ${run.model.stats.sessions} session(s) to ask the model about`);
  if (batch) {
    const unknown = [...batch.byId.keys()].filter((id) => !run.model.asked.has(id));
    if (unknown.length > 0) {
      const first = Math.min(...unknown.map((id) => batch.lineOf.get(id) ?? 0));
      warn(`${flags.batchIn}:${first}: ${unknown.length} result(s) answer requests this harvest did not make (the prompt, the model, the store or the transcripts changed since --batch-out); ignored`);
    }
  }
  if (flags.batchOut) {
    writeBatchRequests(resolve(flags.batchOut), run.model.batchLines);
    note(`wrote ${run.model.batchLines.length} request(s) to ${flags.batchOut} (${model.provider} batch format); submit it to the provider's Batch API, then run this harvest again with --batch-in <results.jsonl>`);
  }
  return { result: run, stats: run.model.stats, batchOnly: Boolean(flags.batchOut) };
}
