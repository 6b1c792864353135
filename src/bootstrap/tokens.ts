/**
 * Real token counts from gpt-tokenizer. An encoding's vocabulary costs a few hundred
 * milliseconds to load, so each is imported lazily, once per process, and only when a count is
 * not already known (the search structure carries precomputed counts for the default one).
 * Special-token strings such as `<|endoftext|>` in an item are counted as the plain text they
 * are, never rejected.
 */

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

const loaded = new Map<EncodingName, Promise<TokenCounter>>();

/** The counter for an encoding, loading its vocabulary on first use only. */
export function loadCounter(name: EncodingName): Promise<TokenCounter> {
  let counter = loaded.get(name);
  if (!counter) {
    counter = importCount(name).then((countTokens) => {
      const options = { disallowedSpecial: new Set<string>() };
      return { encoding: name, count: (text: string) => (text === '' ? 0 : countTokens(text, options)) };
    });
    loaded.set(name, counter);
  }
  return counter;
}
