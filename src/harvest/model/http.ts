/**
 * One JSON POST with the retry policy every provider shares: a timeout per attempt; retries with
 * exponential backoff and full jitter on 429, 5xx and network errors, honouring `retry-after`;
 * other 4xx fail at once (a bad request does not get better). Error messages carry the status
 * and a redacted snippet of the answer, never a header: the key stays out of every log.
 */
import { redact } from '../../redact/index.js';

export interface RetryPolicy {
  /** Attempts in all (1: no retry). */
  attempts: number;
  timeoutMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** For tests: the jitter's random source and the clock's sleep. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: Omit<RetryPolicy, 'timeoutMs'> = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

export class RequestError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

const sleepReal = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `retry-after` as milliseconds: seconds, or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A short, redacted excerpt of an error answer, for the message. */
function snippet(text: string, secrets: readonly string[]): string {
  // redacted whole, shortened afterwards: a key cut in two would no longer be found
  let t = text;
  for (const s of secrets) if (s) t = t.split(s).join('[REDACTED]');
  return redact(t).text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** POSTs `body` as JSON and returns the parsed answer, retrying as the policy says. `secrets`:
 * values (the key) to strip from any message. */
export async function postJson(url: string, headers: Record<string, string>, body: unknown, policy: RetryPolicy, secrets: readonly string[] = []): Promise<unknown> {
  const sleep = policy.sleep ?? sleepReal;
  const random = policy.random ?? Math.random;
  const payload = JSON.stringify(body);
  let last: RequestError | undefined;
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    let wait: number | undefined;
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload, signal: AbortSignal.timeout(policy.timeoutMs) });
      const text = await res.text();
      if (res.ok) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new RequestError(`${url}: the answer is not JSON (${snippet(text, secrets)})`, false, res.status);
        }
      }
      const retryable = res.status === 429 || res.status === 408 || res.status === 409 || res.status >= 500;
      last = new RequestError(`${url}: HTTP ${res.status} (${snippet(text, secrets)})`, retryable, res.status);
      if (!retryable) throw last;
      wait = retryAfterMs(res.headers.get('retry-after'));
    } catch (err) {
      if (err instanceof RequestError) {
        if (!err.retryable) throw err;
        last = err;
      } else {
        const e = err as Error;
        const timeout = e.name === 'TimeoutError' || e.name === 'AbortError';
        last = new RequestError(`${url}: ${timeout ? `no answer within ${Math.round(policy.timeoutMs / 1000)} s` : `network error (${snippet(String((e as { cause?: Error }).cause?.message ?? e.message), secrets)})`}`, true);
      }
    }
    if (attempt + 1 >= policy.attempts) break;
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    await sleep(wait !== undefined ? Math.min(wait, policy.maxDelayMs) : backoff / 2 + random() * (backoff / 2));
  }
  throw new RequestError(`${last?.message ?? url} (after ${policy.attempts} attempts)`, true, last?.status);
}
