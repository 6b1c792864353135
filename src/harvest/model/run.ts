/**
 * The model's part of a harvest: every collected session's view cut into requests, each answered
 * from the cache, a batch results file, or the provider; answers parsed (one repair request for
 * a malformed one), grounded and turned into candidates. Sessions run side by side (at most
 * `max_concurrency` requests in flight), the parts of one session in order, each later part
 * told the titles of the earlier ones. A session whose requests did not all get an answer is
 * pending: nothing of it is kept and the ledger does not mark it, so the next run asks again.
 */
import { redact } from '../../redact/index.js';
import type { ModelConfig } from '../../core/model-config.js';
import { priceOf } from '../../core/model-config.js';
import type { Candidate } from '../candidate.js';
import { parseAnswer, type AnswerEntry } from './answer.js';
import { AnswerCache } from './cache.js';
import { costUsd, EXPECTED_OUTPUT_TOKENS } from './cost.js';
import { GroundingIndex } from './ground.js';
import type { KnownItems } from './known.js';
import type { HarvestPrompt } from './prompt.js';
import type { BatchResult, Completion, ModelProvider, Prompt } from './provider.js';
import { chunkEvents, halves, HEADER_RESERVE, requestId, requestText, type Chunk } from './request.js';
import { toCandidates } from './to-candidates.js';
import type { ModelView } from './view.js';
import type { Session } from '../../sessions/model.js';

/** A session as the model harvest keeps it between reading and asking: its view, not its events. */
export interface CollectedSession {
  key: string;
  /** For messages: the session id as the ledger writes it (redacted). */
  label: string;
  /** The session without its events (agent, repo, branch, format). */
  session: Session;
  view: ModelView;
  /** Events harvested before (a grown session): parts wholly before this are not sent. */
  from: number;
}

export type ModelMode = 'direct' | 'dry-run' | 'batch-out' | 'batch-in';

export interface ModelRunOptions {
  config: ModelConfig;
  prompt: HarvestPrompt;
  mode: ModelMode;
  /** Needed to send (direct, and the follow-ups of batch-in) and to write batch lines. */
  provider?: ModelProvider;
  known: KnownItems;
  cache?: AnswerCache;
  /** With mode batch-in: the provider's results by custom_id. */
  batchResults?: ReadonlyMap<string, BatchResult>;
  /** USD; sessions that would go beyond it are left pending. */
  maxCost?: number;
  countTokens: (text: string) => number;
  onWarning?: (message: string) => void;
  onProgress?: (progress: ModelProgress) => void;
}

export interface ModelProgress {
  done: number;
  total: number;
  inputTokens: number;
  costUsd: number;
}

export interface ModelStats {
  sessions: number;
  /** Sessions left for the next run (a failed request, the cost cap, a batch not yet answered). */
  pendingSessions: number;
  deferredByCost: number;
  requests: number;
  cached: number;
  sent: number;
  failed: number;
  repairs: number;
  /** Answers cut off by the output limit, asked again as two halves. */
  split: number;
  /** Parts skipped for an answer that stayed malformed. */
  skippedParts: number;
  /** Requests written to --batch-out, or not found in --batch-in's results. */
  batchPending: number;
  /** Input tokens of every request of the run (sent, cached or written). */
  inputTokens: number;
  /** Input and output tokens actually sent and received in this run. */
  sentInputTokens: number;
  outputTokens: number;
  /** USD spent in this run (batch answers at half price). */
  costUsd: number;
  /** USD the requests not answered would cost (dry run, batch out, the cost cap). */
  estimatedCostUsd: number;
  kept: number;
  ungrounded: number;
  dropped: number;
  /** Sessions with nothing but prompts: no request. */
  tooSmall: number;
}

export interface ModelRunResult {
  /** Candidates per session key, for every session that is complete. */
  bySession: Map<string, Candidate[]>;
  pending: Set<string>;
  stats: ModelStats;
  /** With mode batch-out: one line per request, in session order. */
  batchLines: object[];
  /** Every request id of the run (to tell --batch-in results this run did not ask for). */
  asked: Set<string>;
  /** Tokens (input and output) and USD spent per session key in this run. */
  usage: Map<string, { tokens: number; usd: number }>;
}

function newStats(): ModelStats {
  return { sessions: 0, pendingSessions: 0, deferredByCost: 0, requests: 0, cached: 0, sent: 0, failed: 0, repairs: 0, split: 0, skippedParts: 0, batchPending: 0, inputTokens: 0, sentInputTokens: 0, outputTokens: 0, costUsd: 0, estimatedCostUsd: 0, kept: 0, ungrounded: 0, dropped: 0, tooSmall: 0 };
}

/** At most `n` tasks at once. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Deepest halving of a part whose answer keeps being cut off. */
const MAX_SPLIT_DEPTH = 2;

const REPAIR_INSTRUCTION = 'Your answer above could not be used. Answer again with only the corrected JSON array, following the output schema of the instructions exactly.';

/** Why a part got no answer: pending (ask next run) or skipped for good (a malformed answer). */
type PartOutcome = { entries: AnswerEntry[] } | 'pending' | 'skipped';

export async function runModel(sessions: readonly CollectedSession[], options: ModelRunOptions): Promise<ModelRunResult> {
  const { config, prompt, mode, provider, known, cache } = options;
  const stats = newStats();
  const bySession = new Map<string, Candidate[]>();
  const pending = new Set<string>();
  const batchLines: { order: number; line: object }[] = [];
  const price = priceOf(config);
  const batchPrice = mode === 'batch-in' || mode === 'batch-out';
  const extractor = `model:${config.name}@${prompt.hash}`;
  const systemTokens = options.countTokens(prompt.text);
  const budget = Math.max(500, config.max_input_tokens - systemTokens - HEADER_RESERVE);
  const inFlight = limiter(config.max_concurrency);
  const warn = (message: string): void => options.onWarning?.(redact(message).text);
  let reserved = 0;
  let done = 0;
  let total = 0;
  const progress = (): void => options.onProgress?.({ done, total, inputTokens: stats.inputTokens, costUsd: stats.costUsd });

  const estimate = (inputTokens: number): number => costUsd(price, inputTokens, Math.min(EXPECTED_OUTPUT_TOKENS, config.max_output_tokens), batchPrice);
  const asked = new Set<string>();
  const usage = new Map<string, { tokens: number; usd: number }>();
  const account = (key: string, c: Completion, inputTokens: number, batch: boolean): void => {
    const input = c.inputTokens ?? inputTokens;
    const output = c.outputTokens ?? options.countTokens(c.text);
    const usd = costUsd(price, input, output, batch);
    stats.sentInputTokens += input;
    stats.outputTokens += output;
    stats.costUsd += usd;
    const u = usage.get(key) ?? { tokens: 0, usd: 0 };
    u.tokens += input + output;
    u.usd += usd;
    usage.set(key, u);
  };

  const send = async (key: string, p: Prompt, inputTokens: number, where: string): Promise<Completion | undefined> => {
    if (!provider) return undefined;
    try {
      const c = await inFlight(() => provider.complete(p));
      stats.sent++;
      account(key, c, inputTokens, false);
      return c;
    } catch (err) {
      stats.failed++;
      warn(`${where}: request failed, left for the next run: ${(err as Error).message}`);
      return undefined;
    }
  };

  /** Asks for one part (from the cache, the batch results or the provider) and parses the answer. */
  const askPart = async (cs: CollectedSession, chunk: Chunk, part: number, parts: number, earlier: readonly string[], depth: number, order: number): Promise<PartOutcome> => {
    const events = cs.view.events;
    const base = { session: cs.session, events, chunk, part, parts, earlier };
    const text = requestText({ ...base, known: known.relevant(events.slice(chunk.start, chunk.end).map((e) => e.text).join('\n'), cs.session.repo, cs.session.agent) });
    const p: Prompt = { system: prompt.text, user: text, maxOutputTokens: config.max_output_tokens };
    // A batch is answered a day later, when the store (and so the known items listed) may have
    // changed: its requests are known by what they ask about, the session's part, not by the list.
    const id = requestId(config.name, prompt.text, batchPrice ? requestText({ ...base, known: [] }) : text);
    const inputTokens = systemTokens + options.countTokens(text);
    const where = `session ${cs.label} part ${part}/${parts}${depth > 0 ? ` (half, depth ${depth})` : ''}`;
    stats.requests++;
    stats.inputTokens += inputTokens;
    asked.add(id);
    const hit = cache?.get(id);
    if (hit) {
      stats.cached++;
      return { entries: parseAnswer(hit.text).entries };
    }
    let completion: Completion | undefined;
    if (mode === 'dry-run' || mode === 'batch-out') {
      stats.estimatedCostUsd += estimate(inputTokens);
      if (mode === 'batch-out' && provider) {
        batchLines.push({ order, line: provider.batchLine(id, p) });
        stats.batchPending++;
      }
      return 'pending';
    }
    if (mode === 'batch-in' && depth === 0) {
      const r = options.batchResults?.get(id);
      if (!r) {
        stats.batchPending++;
        return 'pending';
      }
      if (!r.completion) {
        stats.failed++;
        warn(`${where}: ${r.error ?? 'no answer'} in the batch results; left for the next run`);
        return 'pending';
      }
      completion = r.completion;
      account(cs.key, completion, inputTokens, true);
    } else {
      completion = await send(cs.key, p, inputTokens, where);
      if (!completion) return 'pending';
    }
    if (completion.truncated) {
      // an answer cut off by the output limit: the part as two smaller ones
      const two = depth < MAX_SPLIT_DEPTH ? halves(chunk) : undefined;
      if (!two) {
        stats.skippedParts++;
        warn(`${where}: the answer was cut off by the output limit (max_output_tokens ${config.max_output_tokens}); part skipped`);
        return 'skipped';
      }
      stats.split++;
      const entries: AnswerEntry[] = [];
      for (const half of two) {
        const o = await askPart(cs, half, part, parts, earlier, depth + 1, order);
        if (o === 'pending') return 'pending';
        if (o !== 'skipped') entries.push(...o.entries);
      }
      return { entries };
    }
    let answer = redact(completion.text).text;
    let parsed = parseAnswer(answer);
    if (parsed.problems.length > 0) {
      stats.repairs++;
      const repair: Prompt = { ...p, user: `${text}\n---\nYour answer was:\n${answer}\n---\nIts problems:\n${parsed.problems.slice(0, 10).map((m) => `- ${m}`).join('\n')}\n\n${REPAIR_INSTRUCTION}` };
      const again = await send(cs.key, repair, inputTokens + options.countTokens(answer), where);
      if (!again) return 'pending';
      const repaired = redact(again.text).text;
      const second = parseAnswer(repaired);
      if (second.unreadable) {
        stats.skippedParts++;
        warn(`${where}: the answer is not valid JSON even after one repair request; part skipped`);
        // remembered as it is, so that a rerun does not pay for it again
        cache?.set({ id, model: config.name, prompt: prompt.hash, text: answer, inputTokens, outputTokens: completion.outputTokens ?? 0 });
        return 'skipped';
      }
      if (second.problems.length > 0) warn(`${where}: ${second.problems.length} malformed item(s) left out: ${second.problems[0]}`);
      answer = repaired;
      parsed = second;
    }
    cache?.set({ id, model: config.name, prompt: prompt.hash, text: answer, inputTokens, outputTokens: completion.outputTokens ?? 0 });
    return { entries: parsed.entries };
  };

  const harvestSession = async (cs: CollectedSession, order: number): Promise<void> => {
    const events = cs.view.events;
    // a prompt with no answer and no tool run teaches nothing: not worth a request
    if (!events.some((e) => !e.text.startsWith(`[E${e.index}] user:`))) {
      stats.tooSmall++;
      bySession.set(cs.key, []);
      return;
    }
    const chunks = events.length === 0 ? [] : chunkEvents(events.map((e) => options.countTokens(e.text) + 1), budget);
    // a session that grew: only parts with new events
    const todo = chunks.map((chunk, k) => ({ chunk, part: k + 1 })).filter(({ chunk }) => events[chunk.end - 1]!.index >= cs.from);
    total += todo.length;
    progress();
    if (todo.length === 0) {
      bySession.set(cs.key, []);
      return;
    }
    // the cost cap: a session starts only when what it may cost still fits
    let reservation = 0;
    if (options.maxCost !== undefined && mode === 'direct') {
      reservation = todo.reduce((sum, { chunk }) => sum + estimate(systemTokens + HEADER_RESERVE + events.slice(chunk.start, chunk.end).reduce((s, e) => s + options.countTokens(e.text) + 1, 0)), 0);
      if (stats.costUsd + reserved + reservation > options.maxCost) {
        stats.deferredByCost++;
        stats.estimatedCostUsd += reservation;
        pending.add(cs.key);
        done += todo.length;
        progress();
        return;
      }
      reserved += reservation;
    }
    const grounding = new GroundingIndex(events);
    const candidates: Candidate[] = [];
    const earlier: string[] = [];
    // batch requests are written (and read back) all at once: a later part cannot wait for the
    // titles of an earlier one, so none is told them (the merge still joins what repeats)
    const tellEarlier = mode === 'direct' || mode === 'dry-run';
    let complete = true;
    try {
      for (const { chunk, part } of todo) {
        const o = await askPart(cs, chunk, part, chunks.length, tellEarlier ? earlier : [], 0, order);
        done++;
        progress();
        if (o === 'pending') {
          complete = false;
          if (tellEarlier) break; // the later parts' requests depend on this answer
          continue;
        }
        if (o === 'skipped') continue;
        const conv = toCandidates(o.entries, cs.session, grounding, known, extractor);
        stats.ungrounded += conv.ungrounded;
        stats.dropped += conv.dropped;
        for (const c of conv.candidates) {
          candidates.push(c);
          if (c.sameAs === undefined) earlier.push(c.title);
        }
      }
    } finally {
      reserved -= reservation;
    }
    if (complete) {
      stats.kept += candidates.length;
      bySession.set(cs.key, candidates);
    } else pending.add(cs.key);
  };

  // sessions in their given order, a few more than the requests in flight so that a session
  // waiting for its next part never leaves a request slot idle
  const sessionSlots = limiter(config.max_concurrency * 2);
  stats.sessions = sessions.length;
  await Promise.all(sessions.map((cs, order) => sessionSlots(() => harvestSession(cs, order))));
  stats.pendingSessions = pending.size;
  return { bySession, pending, stats, batchLines: batchLines.sort((a, b) => a.order - b.order).map((l) => l.line), asked, usage };
}
