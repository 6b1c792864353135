/**
 * What the harvest recorded about its model cost. The ledger schema has no cost fields yet; an
 * LLM extractor that records them is expected to put `tokens` and `cost_usd` on its session
 * records. Read from the raw file because the ledger parser keeps only the fields it knows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { LEDGER_FILE } from '../knowledge/paths.js';
import { abs } from '../knowledge/fsutil.js';
import type { CostRecord } from './data.js';

export function costFromLedgerText(text: string): CostRecord {
  const out: CostRecord = { sessions: 0 };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return out; // readLedger reports a broken ledger; cost just stays unknown
  }
  const sessions = (raw as { sessions?: unknown }).sessions;
  if (!Array.isArray(sessions)) return out;
  for (const s of sessions as Record<string, unknown>[]) {
    const tokens = typeof s?.tokens === 'number' && Number.isFinite(s.tokens) ? s.tokens : undefined;
    const usd = typeof s?.cost_usd === 'number' && Number.isFinite(s.cost_usd) ? s.cost_usd : undefined;
    if (tokens === undefined && usd === undefined) continue;
    out.sessions++;
    if (tokens !== undefined) out.tokens = (out.tokens ?? 0) + tokens;
    if (usd !== undefined) out.usd = (out.usd ?? 0) + usd;
  }
  return out;
}

export function readLedgerCost(root: string): CostRecord {
  const file = abs(root, LEDGER_FILE);
  return existsSync(file) ? costFromLedgerText(readFileSync(file, 'utf8')) : { sessions: 0 };
}
