import { hash } from 'node:crypto';

/** Normalises knowledge text so trivially different phrasings of the same item hash alike. */
export function normalizeForId(text: string): string {
  return text.toLowerCase().replace(/[`*_"'“”‘’]/g, '').replace(/\s+/g, ' ').trim();
}

/** Stable, content-derived id, fixed at creation: 10 hex characters of a SHA-256. */
export function itemId(parts: { category: string; scope: string; repo?: string; agent?: string; text: string }): string {
  const key = [parts.category, parts.scope, parts.repo ?? '', parts.agent ?? '', normalizeForId(parts.text)].join('\u0000');
  return hash('sha256', key, 'hex').slice(0, 10); // one-shot: no Hash object per candidate
}

export const ID_PATTERN = /^[0-9a-f]{10}$/;

export function sha256(text: string | Uint8Array): string {
  return hash('sha256', text, 'hex');
}
