/**
 * `compound measure` without the CLI: load the store, measure sessions (through the cache),
 * read git history and the ledger, compute every metric, and write metrics/metrics.json,
 * metrics/dashboard.md and metrics/cache.json. I/O lives here; everything it calls is pure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../knowledge/fsutil.js';
import { loadStore, readLedger } from '../knowledge/store.js';
import type { ReadWarning } from '../sessions/model.js';
import { CACHE_FILE, emptyCache, readCache, renderCache, sameCache } from './cache.js';
import { collectMeasures, type CollectCounters } from './collect.js';
import { buildReport, type MetricsReport } from './compute.js';
import { renderDashboard } from './dashboard.js';
import { buildData, itemProbe, type History } from './data.js';
import { readHistory } from './history.js';
import { readLedgerCost } from './ledger-cost.js';
import type { ItemProbe, SessionMeasure } from './session-measure.js';
import { stableStringify } from './stable-json.js';

export const METRICS_DIR = 'metrics';
export const METRICS_FILE = `${METRICS_DIR}/metrics.json`;
export const DASHBOARD_FILE = `${METRICS_DIR}/dashboard.md`;

export interface MeasureOptions {
  /** Directory holding knowledge/; metrics/ is written beside it. */
  root: string;
  /** Transcript files, directories or globs. */
  inputs: readonly string[];
  /** Default locations (`--from claude,codex`). */
  from?: readonly string[];
  since?: number;
  asOf?: number;
  repoAliases?: Record<string, string>;
  /** Skip reading git history (the review metric then says so). */
  noHistory?: boolean;
  onWarning?: (w: ReadWarning) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface MeasureResult {
  report: MetricsReport;
  json: string;
  dashboard: string;
  counters: CollectCounters;
  /** Item files that failed validation (left out of the metrics). */
  invalidItems: number;
  /** Files written (relative to root), in order; unchanged files are not rewritten. */
  written: string[];
  warnings: number;
}

const NO_COUNTERS: CollectCounters = { files: 0, statHits: 0, hashed: 0, parsed: 0, failed: 0, sessionsMeasured: 0, sessionsCached: 0 };

function writeIfChanged(root: string, rel: string, text: string, written: string[]): void {
  const file = join(root, ...rel.split('/'));
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileAtomic(file, text);
  written.push(rel);
}

export async function measure(options: MeasureOptions): Promise<MeasureResult> {
  const store = loadStore(options.root);
  const ledger = readLedger(options.root);
  const probes = new Map<string, ItemProbe>(store.items.map((i) => [i.meta.id, itemProbe(i)]));
  const cacheFile = join(options.root, ...CACHE_FILE.split('/'));
  const readsSessions = options.inputs.length > 0 || (options.from?.length ?? 0) > 0;

  let sessions: SessionMeasure[] = [];
  let counters = NO_COUNTERS;
  let warnings = 0;
  const prevCache = readsSessions ? readCache(cacheFile) : emptyCache();
  let nextCache = prevCache;
  if (readsSessions) {
    const collected = await collectMeasures({
      inputs: options.inputs,
      cache: prevCache,
      probe: (id) => probes.get(id),
      ...(options.from ? { from: options.from } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    sessions = collected.sessions;
    counters = collected.counters;
    warnings = collected.warnings;
    nextCache = collected.cache;
  }

  const history: History = options.noHistory ? { available: false, reason: 'not read (--no-history)', commits: 0, deletions: [] } : await readHistory(options.root);
  const data = buildData({
    items: store.items,
    sessions,
    emitted: ledger.emitted,
    history,
    cost: readLedgerCost(options.root),
    probes,
    ...(options.repoAliases ? { repoAliases: options.repoAliases } : {}),
    ...(options.asOf !== undefined ? { asOf: options.asOf } : {}),
    ...(options.since !== undefined ? { since: options.since } : {}),
  });
  const report = buildReport(data);
  const json = stableStringify(report);
  const dashboard = renderDashboard(report);

  const written: string[] = [];
  writeIfChanged(options.root, METRICS_FILE, json, written);
  writeIfChanged(options.root, DASHBOARD_FILE, dashboard, written);
  // without session inputs the cache is left as it is: a store-only run must not empty it
  if (readsSessions && (!sameCache(prevCache, nextCache) || !existsSync(cacheFile))) {
    writeFileAtomic(cacheFile, renderCache(nextCache, prevCache));
    written.push(CACHE_FILE);
  }
  return { report, json, dashboard, counters, invalidItems: store.problems.length > 0 ? store.files - store.items.length : 0, written, warnings };
}
