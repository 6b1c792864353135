/**
 * The Batch API round trip: `--batch-out` writes one line per request in the provider's own
 * format (custom_id = the request id), `--batch-in` reads the provider's results file back.
 * A line that is not JSON stops the harvest with its file and line; a line that is no result
 * is warned about and skipped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { InputError } from '../../core/errors.js';
import type { BatchResult, ModelProvider } from './provider.js';

export function writeBatchRequests(file: string, lines: readonly object[]): void {
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

export interface BatchResults {
  byId: Map<string, BatchResult>;
  /** The line of each result, for messages. */
  lineOf: Map<string, number>;
  /** Lines that are JSON but no result of this provider. */
  skipped: number[];
}

export function readBatchResults(file: string, provider: ModelProvider): BatchResults {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError('E_BATCH_READ', file, undefined, `${file}: cannot read the batch results (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { fix: 'pass the results file the provider returned for --batch-out' });
  }
  const out: BatchResults = { byId: new Map(), lineOf: new Map(), skipped: [] };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InputError('E_BATCH_JSON', file, i + 1, `${file}:${i + 1}: not a JSON line`, { fix: "pass the provider's results file (JSONL) unchanged" });
    }
    const r = provider.batchResult(value);
    if (!r) {
      out.skipped.push(i + 1);
      return;
    }
    out.byId.set(r.customId, r);
    out.lineOf.set(r.customId, i + 1);
  });
  return out;
}
