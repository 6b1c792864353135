/**
 * Error recurrence: for each pitfall with a recognisable error signature, how often that error
 * happened in sessions before the item existed and after, and after it, in sessions that were
 * given the item versus not. Sessions are those the item applies to (its repo, its agent, or all
 * for a global item); sessions without a timestamp cannot be placed and are left out.
 */
import type { MeasureData, MeasuredItem, MeasuredSession } from '../data.js';
import { pct, ratio, windowTrend, type Metric } from '../metric.js';
import { isoSeconds, upperBound, type Window } from '../time.js';

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

type SignedPitfall = MeasuredItem & { sigHash: string; signature: string };

/** A time-sorted list of dated sessions with their times, for range counts by binary search. */
interface Timeline {
  sessions: MeasuredSession[];
  times: number[];
}

/** Sessions with time in (lo, hi]. */
function countIn(line: Timeline, lo: number, hi: number): number {
  return Math.max(0, upperBound(line.times, hi) - upperBound(line.times, lo));
}


function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The indexes recurrence needs: dated sessions per repo, per agent and overall (to count the
 * sessions an item applies to), the sessions showing each error signature, and the sessions
 * given each item. Counting is then a binary search plus a walk over the few sessions with the
 * error, not a pass over every session for every pitfall.
 */
export class RecurrenceIndex {
  private readonly all: Timeline;
  private readonly byRepo = new Map<string, Timeline>();
  private readonly byAgent = new Map<string, Timeline>();
  private readonly bySig = new Map<string, MeasuredSession[]>();
  private readonly givenTo = new Map<string, Set<MeasuredSession>>();

  /** `data.sessions` is sorted by time with the dated ones first, `data.times` their times. */
  constructor(data: Pick<MeasureData, 'sessions' | 'times'>) {
    this.all = { sessions: data.sessions.slice(0, data.times.length), times: data.times };
    const repos = new Map<string, MeasuredSession[]>();
    const agents = new Map<string, MeasuredSession[]>();
    for (const s of this.all.sessions) {
      if (s.repoName) push(repos, s.repoName, s);
      push(agents, s.agent, s);
      for (const sig of Object.keys(s.sigs ?? {})) push(this.bySig, sig, s);
      for (const g of s.given ?? []) {
        const set = this.givenTo.get(g.id) ?? new Set<MeasuredSession>();
        set.add(s);
        this.givenTo.set(g.id, set);
      }
    }
    for (const [k, v] of repos) this.byRepo.set(k, { sessions: v, times: v.map((s) => s.time!) });
    for (const [k, v] of agents) this.byAgent.set(k, { sessions: v, times: v.map((s) => s.time!) });
  }

  private scope(item: MeasuredItem): Timeline {
    const none: Timeline = { sessions: [], times: [] };
    if (item.scope === 'repo') return this.byRepo.get(item.repo ?? '') ?? none;
    if (item.scope === 'agent') return this.byAgent.get(item.agent ?? '') ?? none;
    return this.all;
  }

  private applies(item: MeasuredItem, s: MeasuredSession): boolean {
    if (item.scope === 'repo') return s.repoName === item.repo;
    if (item.scope === 'agent') return s.agent === item.agent;
    return true;
  }

  /** Counts for one pitfall over sessions with time in (lo, hi] (the whole timeline by default). */
  recurrence(item: SignedPitfall, lo = Number.NEGATIVE_INFINITY, hi = Number.POSITIVE_INFINITY): PitfallRecurrence {
    const line = this.scope(item);
    const split = Math.min(Math.max(item.firstSeen, lo), hi);
    const before: SideCounts = { ...side(), sessions: countIn(line, lo, split) };
    const after: SideCounts = { ...side(), sessions: countIn(line, split, hi) };
    const givenSet = this.givenTo.get(item.id);
    const yes = side();
    for (const s of givenSet ?? []) {
      if (s.time! > split && s.time! <= hi && this.applies(item, s)) add(yes, s.sigsAfter?.[item.sigHash] ?? 0);
    }
    const no: SideCounts = { ...side(), sessions: after.sessions - yes.sessions };
    for (const s of this.bySig.get(item.sigHash) ?? []) {
      const t = s.time!;
      if (t <= lo || t > hi || !this.applies(item, s)) continue;
      const n = s.sigs![item.sigHash]!;
      const bucket = t <= split ? before : after;
      bucket.with_error++;
      bucket.occurrences += n;
      // a session given the item counts the error only after it was handed over (in `yes`)
      if (t > split && !givenSet?.has(s)) {
        no.with_error++;
        no.occurrences += n;
      }
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
}

export function errorRecurrence(data: MeasureData): Metric<RecurrenceDetails> {
  const pitfalls = data.items.filter((i): i is SignedPitfall => i.sigHash !== undefined && i.signature !== undefined);
  const index = new RecurrenceIndex(data);
  const rows = pitfalls.map((p) => index.recurrence(p));
  const pooled = {
    before: sum(rows.map((r) => r.before)),
    after: sum(rows.map((r) => r.after)),
    given: sum(rows.map((r) => r.given)),
    not_given: sum(rows.map((r) => r.not_given)),
  };
  const withoutSig = data.items.filter((i) => i.category === 'pitfall' && i.sigHash === undefined).length;
  const afterRateIn = (w: Window) => sum(pitfalls.map((p) => index.recurrence(p, w.start, w.end).after)).rate;
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
