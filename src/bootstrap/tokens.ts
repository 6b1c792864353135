/**
 * Real token counts from gpt-tokenizer. An encoding's vocabulary costs a few hundred
 * milliseconds to load, so each is imported lazily, once per process, and only when a count is
 * not already known (index.json carries the counts of the default one, see index-tokens.ts).
 * Special-token strings such as `<|endoftext|>` in an item are counted as the plain text they
 * are, never rejected.
 */

import { createRequire } from 'node:module';

export const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

export interface TokenCounter {
  readonly encoding: EncodingName;
  count(text: string): number;
}

export function isEncodingName(name: string): name is EncodingName {
  return (ENCODINGS as readonly string[]).includes(name);
}

type CountFn = (text: string, options: { disallowedSpecial: Set<string> }) => number;

async function importCount(name: EncodingName): Promise<CountFn> {
  switch (name) {
    case 'o200k_base':
      return (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
    case 'cl100k_base':
      return (await import('gpt-tokenizer/encoding/cl100k_base')).countTokens;
    case 'p50k_base':
      return (await import('gpt-tokenizer/encoding/p50k_base')).countTokens;
    case 'r50k_base':
      return (await import('gpt-tokenizer/encoding/r50k_base')).countTokens;
  }
}

function counterOf(name: EncodingName, countTokens: CountFn): TokenCounter {
  const options = { disallowedSpecial: new Set<string>() };
  return { encoding: name, count: (text: string) => (text === '' ? 0 : countTokens(text, options)) };
}

const loading = new Map<EncodingName, Promise<TokenCounter>>();
/** Counters whose vocabulary is in memory, whichever way it was loaded. */
const ready = new Map<EncodingName, TokenCounter>();

/** The counter for an encoding, loading its vocabulary on first use only. */
export function loadCounter(name: EncodingName): Promise<TokenCounter> {
  const have = ready.get(name);
  if (have) return Promise.resolve(have);
  let counter = loading.get(name);
  if (!counter) {
    counter = importCount(name).then((countTokens) => {
      const made = ready.get(name) ?? counterOf(name, countTokens);
      ready.set(name, made);
      return made;
    });
    loading.set(name, counter);
  }
  return counter;
}

/**
 * The counter, for code that cannot wait (index.json is written inside a synchronous plan):
 * the one already loaded, else the CommonJS build of the same vocabulary (about 100 ms slower to
 * load than the ES module, so callers that know they will count call loadCounter first).
 */
export function loadCounterSync(name: EncodingName): TokenCounter {
  let counter = ready.get(name);
  if (!counter) {
    const require = createRequire(import.meta.url);
    const { countTokens } = require(`gpt-tokenizer/encoding/${name}`) as { countTokens: CountFn };
    counter = counterOf(name, countTokens);
    ready.set(name, counter);
  }
  return counter;
}
