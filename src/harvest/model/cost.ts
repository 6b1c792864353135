/** Money: tokens at the model's price, half of it through a Batch API. */
import type { Price } from '../../core/model-config.js';

/** What a request is expected to write, for estimates before it is sent. */
export const EXPECTED_OUTPUT_TOKENS = 700;

export function costUsd(price: Price | undefined, inputTokens: number, outputTokens: number, batch = false): number {
  if (!price) return 0;
  const usd = (inputTokens * price.input_per_mtok + outputTokens * price.output_per_mtok) / 1_000_000;
  return batch ? usd / 2 : usd;
}

export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
