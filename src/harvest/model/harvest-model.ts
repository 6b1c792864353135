/**
 * A harvest whose extractor is a model (or the model and the rules). The model answers many
 * sessions at once and asynchronously, the file pipeline extracts one session at a time and
 * synchronously, so the harvest runs in three steps:
 *   1. read: the file pipeline walks, skips what the ledger knows and, for each session to
 *      harvest, keeps its redacted view (not its events) instead of extracting;
 *   2. ask: runModel turns the views into requests and the answers into candidates;
 *   3. merge: the file pipeline runs again with an extractor that hands out those candidates
 *      (plus the rules', with `both`) and leaves a session without all its answers pending:
 *      no ledger entry, so the next run asks again. Ledger, merge, plan: as for the rules.
 * Reading twice costs a few seconds on a corpus that costs dollars to ask a model about.
 */
import { loadStore, readLedger } from '../../knowledge/store.js';
import { redact } from '../../redact/index.js';
import type { LedgerSession } from '../../knowledge/ledger.js';
import type { ModelConfig } from '../../core/model-config.js';
import { harvest, type HarvestOptions, type HarvestResult } from '../harvest.js';
import { SessionPending, type ExtractFn } from '../file-sessions.js';
import type { Candidate } from '../candidate.js';
import type { Session } from '../../sessions/model.js';
import { AnswerCache } from './cache.js';
import { KnownItems } from './known.js';
import type { HarvestPrompt } from './prompt.js';
import type { BatchResult, ModelProvider } from './provider.js';
import { runModel, type CollectedSession, type ModelMode, type ModelProgress, type ModelRunResult } from './run.js';
import { modelView } from './view.js';

export type ExtractorChoice = 'rules' | 'model' | 'both';

export interface ModelHarvestOptions {
  extractor: Exclude<ExtractorChoice, 'rules'>;
  config: ModelConfig;
  prompt: HarvestPrompt;
  mode: ModelMode;
  provider?: ModelProvider;
  batchResults?: ReadonlyMap<string, BatchResult>;
  maxCost?: number;
  countTokens: (text: string) => number;
  /** The answer cache (default: on, under knowledge/.cache/model/). */
  cache?: boolean;
  onModelWarning?: (message: string) => void;
  onModelProgress?: (progress: ModelProgress) => void;
}

export interface ModelHarvestResult extends HarvestResult {
  model: ModelRunResult;
}

/** Tokens and cost of each session go on its ledger entry, added to what earlier runs spent on
 * it (the dashboard's cost metric reads them). Rounded: the same answers, the same bytes. */
function recordUsage(result: HarvestResult, run: ModelRunResult, collected: readonly CollectedSession[], before: readonly LedgerSession[]): void {
  const ledger = result.plan.ledger;
  if (!ledger) return;
  const earlier = new Map(before.filter((s) => s.tokens !== undefined || s.cost_usd !== undefined).map((s) => [s.id, s]));
  const labelOf = new Map(collected.map((c) => [c.key, c.label]));
  const byId = new Map<string, { tokens: number; usd: number }>();
  for (const [key, u] of run.usage) {
    const id = labelOf.get(key);
    if (id === undefined || run.pending.has(key)) continue;
    const sum = byId.get(id) ?? { tokens: 0, usd: 0 };
    sum.tokens += u.tokens;
    sum.usd += u.usd;
    byId.set(id, sum);
  }
  if (byId.size === 0 && earlier.size === 0) return;
  ledger.sessions = ledger.sessions.map((s) => {
    const u = byId.get(s.id);
    // a grown session's new entry replaces its old one: what was spent on it before carries on
    const old = s.tokens === undefined && s.cost_usd === undefined ? earlier.get(s.id) : undefined;
    if (!u && !old) return s;
    const tokens = (s.tokens ?? old?.tokens ?? 0) + (u?.tokens ?? 0);
    const usd = (s.cost_usd ?? old?.cost_usd ?? 0) + (u?.usd ?? 0);
    return { ...s, tokens, cost_usd: Math.round(usd * 1e6) / 1e6 };
  });
}

function keyOf(session: Session): string {
  return `${session.file}\u0000${session.id}`;
}

export async function harvestWithModel(options: HarvestOptions, model: ModelHarvestOptions): Promise<ModelHarvestResult> {
  // 1. read: every session to harvest, as the view the model will read
  const collected: CollectedSession[] = [];
  const collect: ExtractFn = (session, info) => {
    const { events: _events, warnings: _warnings, ...rest } = session;
    // (the request's header names the branch: redacted like the view)
    const branch = rest.branch !== undefined ? redact(rest.branch, { users: info.users }).text : undefined;
    collected.push({ key: keyOf(session), label: info.label, session: { ...rest, branch, events: [], warnings: [] }, view: modelView(session, info.users), from: info.from });
    return [];
  };
  const { onWarning: _w, onProgress: _p, clock: _c, ...quiet } = options;
  await harvest({ ...quiet, extract: collect });

  // 2. ask
  const run = await runModel(collected, {
    config: model.config,
    prompt: model.prompt,
    mode: model.mode,
    ...(model.provider ? { provider: model.provider } : {}),
    known: new KnownItems(loadStore(options.root).items),
    ...(model.cache !== false ? { cache: new AnswerCache(options.root) } : {}),
    ...(model.batchResults ? { batchResults: model.batchResults } : {}),
    ...(model.maxCost !== undefined ? { maxCost: model.maxCost } : {}),
    countTokens: model.countTokens,
    ...(model.onModelWarning ? { onWarning: model.onModelWarning } : {}),
    ...(model.onModelProgress ? { onProgress: model.onModelProgress } : {}),
  });

  // 3. merge: the same pipeline, with the answers as the extractor
  let rules: ExtractFn | undefined;
  if (model.extractor === 'both') rules = (await import('../extract/index.js')).extractSession;
  const answered: ExtractFn = (session, info) => {
    const key = keyOf(session);
    const found = run.bySession.get(key);
    if (found === undefined || run.pending.has(key)) throw new SessionPending();
    const own: Candidate[] = rules ? rules(session, info) : [];
    return [...own, ...found];
  };
  const before = readLedger(options.root).sessions;
  const result = await harvest({ ...options, extract: answered });
  recordUsage(result, run, collected, before);
  return { ...result, model: run };
}
