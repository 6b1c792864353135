/**
 * Error recurrence: for each pitfall with a recognisable error signature, how often that error
 * happened in sessions before the item existed and after, and after it, in sessions that were
 * given the item versus not. Sessions are those the item applies to (its repo, its agent, or all
 * for a global item); sessions without a timestamp cannot be placed and are left out.
 */
import type { MeasureData, MeasuredItem, MeasuredSession } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { inWindow, isoSeconds, type Window } from '../time.js';

export interface SideCounts {
  sessions: number;
  with_error: number;
  occurrences: number;
  rate: number | null;
}

export interface PitfallRecurrence {
  id: string;
  title: string;
  signature: string;
  first_seen: string;
  before: SideCounts;
  after: SideCounts;
  given: SideCounts;
  not_given: SideCounts;
}

export interface RecurrenceDetails {
  pitfalls: PitfallRecurrence[];
  pooled: { before: SideCounts; after: SideCounts; given: SideCounts; not_given: SideCounts };
}

function side(): SideCounts {
  return { sessions: 0, with_error: 0, occurrences: 0, rate: null };
}

function add(c: SideCounts, occurrences: number): void {
  c.sessions++;
  if (occurrences > 0) {
    c.with_error++;
    c.occurrences += occurrences;
  }
}

function finish(c: SideCounts): SideCounts {
  return { ...c, rate: ratio(c.with_error, c.sessions) };
}

function sum(rows: readonly SideCounts[]): SideCounts {
  const c = side();
  for (const r of rows) {
    c.sessions += r.sessions;
    c.with_error += r.with_error;
    c.occurrences += r.occurrences;
  }
  return finish(c);
}

function given(s: MeasuredSession, id: string): boolean {
  return s.given?.some((g) => g.id === id) ?? false;
}

type SignedPitfall = MeasuredItem & { sigHash: string; signature: string };

/** `sessions` must be those the item applies to (see `applicable`). */
export function pitfallRecurrence(item: SignedPitfall, sessions: readonly MeasuredSession[]): PitfallRecurrence {
  const before = side();
  const after = side();
  const yes = side();
  const no = side();
  for (const s of sessions) {
    if (s.time === undefined) continue;
    const n = s.sigs?.[item.sigHash] ?? 0;
    if (s.time <= item.firstSeen) {
      add(before, n);
      continue;
    }
    add(after, n);
    // a session given the item counts the error only after it was handed over
    if (given(s, item.id)) add(yes, s.sigsAfter?.[item.sigHash] ?? 0);
    else add(no, n);
  }
  return {
    id: item.id,
    title: item.title,
    signature: item.signature,
    first_seen: isoSeconds(item.firstSeen),
    before: finish(before),
    after: finish(after),
    given: finish(yes),
    not_given: finish(no),
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Sessions by repo and by agent, so a scoped pitfall only looks at its own sessions. */
function applicable(sessions: readonly MeasuredSession[]): (item: MeasuredItem) => readonly MeasuredSession[] {
  const byRepo = new Map<string, MeasuredSession[]>();
  const byAgent = new Map<string, MeasuredSession[]>();
  for (const s of sessions) {
    if (s.repoName) push(byRepo, s.repoName, s);
    push(byAgent, s.agent, s);
  }
  return (item) => (item.scope === 'repo' ? (byRepo.get(item.repo ?? '') ?? []) : item.scope === 'agent' ? (byAgent.get(item.agent ?? '') ?? []) : sessions);
}

export function errorRecurrence(data: MeasureData): Metric<RecurrenceDetails> {
  const pitfalls = data.items.filter((i): i is SignedPitfall => i.sigHash !== undefined && i.signature !== undefined);
  const sessionsFor = applicable(data.sessions);
  const rows = pitfalls.map((p) => pitfallRecurrence(p, sessionsFor(p)));
  const pooled = {
    before: sum(rows.map((r) => r.before)),
    after: sum(rows.map((r) => r.after)),
    given: sum(rows.map((r) => r.given)),
    not_given: sum(rows.map((r) => r.not_given)),
  };
  const withoutSig = data.items.filter((i) => i.category === 'pitfall' && i.sigHash === undefined).length;
  const afterRateIn = (w: Window) => {
    return sum(pitfalls.map((p) => pitfallRecurrence(p, sessionsFor(p).filter((s) => inWindow(s.time, w))).after)).rate;
  };
  const value = pooled.after.rate;
  return {
    title: 'Error recurrence',
    definition:
      'For each pitfall with a recognisable error signature (its quoted error line, normalised), the share of the sessions it applies to in which that error occurred: sessions that started on or before its first_seen (before the item existed) and after; and after, in sessions given the item (error after the bootstrap block) versus not. Pooled over pitfalls; the value is the share after.',
    value,
    display:
      rows.length === 0
        ? 'n/a (no pitfall with a recognisable error signature)'
        : `before ${pct(pooled.before.rate)}, after ${pct(pooled.after.rate)}; given ${pct(pooled.given.rate)} vs not given ${pct(pooled.not_given.rate)}`,
    trend: windowTrend(data.asOf, afterRateIn),
    counts: {
      pitfalls: pitfalls.length + withoutSig,
      pitfalls_with_signature: pitfalls.length,
      sessions_before: pooled.before.sessions,
      sessions_before_with_error: pooled.before.with_error,
      sessions_after: pooled.after.sessions,
      sessions_after_with_error: pooled.after.with_error,
      sessions_given: pooled.given.sessions,
      sessions_given_with_error: pooled.given.with_error,
      sessions_not_given: pooled.not_given.sessions,
      sessions_not_given_with_error: pooled.not_given.with_error,
    },
    details: {
      pitfalls: rows.sort((a, b) => b.before.with_error + b.after.with_error - (a.before.with_error + a.after.with_error) || (a.id < b.id ? -1 : 1)),
      pooled,
    },
  };
}
