/**
 * knowledge/ledger.json: which session contents the harvester has read (id, content hash, byte
 * length, events read), and every item id it has ever written, so an item a reviewer deleted is
 * never added again. Sorted and deterministic; no file paths (they hold user names).
 */
export const LEDGER_VERSION = 1;

export interface LedgerSession {
  id: string;
  format: string;
  hash: string;
  bytes: number;
  /** Events harvested so far: a grown session is harvested from here on. */
  events: number;
  /** Last event time seen, from the transcript. */
  last_event?: string;
  /** Model tokens (input and output) and USD spent harvesting this session, over all runs. */
  tokens?: number;
  cost_usd?: number;
}

export interface Ledger {
  version: number;
  sessions: LedgerSession[];
  /** Ids of every item the harvester has written; one missing from the store was rejected. */
  emitted: string[];
  /** Content hashes of transcript files read in full: such a file is not parsed again. A file
   * can hold several sessions (Aider) and a session can be recorded in two files (Hermes gateway
   * and log), so file hashes are kept apart from session hashes. */
  files: string[];
}

export function emptyLedger(): Ledger {
  return { version: LEDGER_VERSION, sessions: [], emitted: [], files: [] };
}

/** Whether `xs` is strictly increasing by `key` (so sorted with no repeat). */
function strictlyIncreasing<T>(xs: readonly T[] | undefined, key: (x: T) => string): boolean {
  if (!Array.isArray(xs)) return false; // (a ledger made in code may leave a list out)
  for (let i = 1; i < xs.length; i++) if (!(key(xs[i - 1]!) < key(xs[i]!))) return false;
  return true;
}
const identity = (s: string): string => s;
const sessionId = (s: LedgerSession): string => s.id;

export function normalizeLedger(ledger: Ledger): Ledger {
  // A ledger as written (sorted, no repeats) is normalized already: a rerun over tens of
  // thousands of known sessions spent about 2% of its time rebuilding the same lists.
  if (strictlyIncreasing(ledger.sessions, sessionId) && strictlyIncreasing(ledger.emitted, identity) && strictlyIncreasing(ledger.files, identity)) {
    return { version: LEDGER_VERSION, sessions: ledger.sessions, emitted: ledger.emitted, files: ledger.files };
  }
  const sessions = [...new Map(ledger.sessions.map((s) => [s.id, s])).values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const emitted = [...new Set(ledger.emitted)].sort();
  const files = [...new Set(ledger.files)].sort();
  return { version: LEDGER_VERSION, sessions, emitted, files };
}

export function renderLedger(ledger: Ledger): string {
  const n = normalizeLedger(ledger);
  const sessions = n.sessions.map((s) => {
    const rec: Record<string, unknown> = { id: s.id, format: s.format, hash: s.hash, bytes: s.bytes, events: s.events };
    if (s.last_event !== undefined) rec.last_event = s.last_event;
    if (s.tokens !== undefined) rec.tokens = s.tokens;
    if (s.cost_usd !== undefined) rec.cost_usd = s.cost_usd;
    return `    ${JSON.stringify(rec)}`;
  });
  const quoted = (xs: string[]) => xs.map((x) => `    ${JSON.stringify(x)}`);
  const list = (xs: string[]) => (xs.length ? `[\n${xs.join(',\n')}\n  ]` : '[]');
  return `{\n  "version": ${n.version},\n  "sessions": ${list(sessions)},\n  "emitted": ${list(quoted(n.emitted))},\n  "files": ${list(quoted(n.files))}\n}\n`;
}

export function parseLedger(text: string): Ledger {
  const value = JSON.parse(text) as Partial<Ledger>;
  if (typeof value !== 'object' || value === null || !Array.isArray(value.sessions) || !Array.isArray(value.emitted)) {
    throw new Error('ledger.json must have "sessions" and "emitted" lists');
  }
  if (value.files !== undefined && !Array.isArray(value.files)) throw new Error('ledger.json "files" must be a list');
  return normalizeLedger({ version: LEDGER_VERSION, sessions: value.sessions, emitted: value.emitted, files: value.files ?? [] });
}
