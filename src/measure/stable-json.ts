/**
 * JSON with object keys sorted at every level, so a file's bytes depend only on its content and
 * never on the order in which maps were filled.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function sortValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortValue(v);
    }
    return out;
  }
  return value;
}

export function stableStringify(value: unknown, indent = 2): string {
  return `${JSON.stringify(sortValue(value), null, indent)}\n`;
}

/** Rounds to `digits` decimals so floating-point noise never reaches a file. */
export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
