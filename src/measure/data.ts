/**
 * The measurer's inputs in one shape: items with their dates, key terms and error signature;
 * measured sessions with their time and canonical repo; deletions from git history; what the
 * harvest recorded about its cost; and the as-of date. Building it is pure.
 */
import { aliasOf } from '../sessions/repo-identity.js';
import { splitBody } from '../knowledge/body.js';
import type { ItemSource, StoredItem } from '../knowledge/item.js';
import { sanitizeName } from '../knowledge/paths.js';
import { hashSignature, pitfallSignatureText } from './signature.js';
import { sessionKey, type ItemProbe, type SessionMeasure } from './session-measure.js';
import { keyTerms, termsFingerprint } from './terms.js';
import { toMs, upperBound, type Window } from './time.js';

export interface MeasuredItem {
  id: string;
  title: string;
  path: string;
  category: string;
  scope: string;
  repo?: string;
  agent?: string;
  /** Agent for composition: the agent of an agent-scoped item, else its first source's format. */
  sourceAgent: string;
  confidence: number;
  evidence: number;
  status: string;
  firstSeen: number;
  lastSeen: number;
  sources: ItemSource[];
  /** What a reviewer may change (category, title, knowledge text), for review outcomes. */
  reviewFp: string;
  terms: string[];
  fp: string;
  /** Normalised error line of a pitfall, when it has a recognisable one. */
  signature?: string;
  sigHash?: string;
  /** Dated reinforcements (ms, ascending): see `reinforcementTimes`. */
  reinforcements: number[];
}

export interface MeasuredSession extends SessionMeasure {
  /** Start (else end) of the session in ms; undefined when the transcript has no timestamps. */
  time?: number;
  /** Canonical repo name (config aliases applied, sanitised like item repos). */
  repoName?: string;
}

export interface Deletion {
  id: string;
  path: string;
  time: number;
  commit: string;
}

/** An item as a harvest commit first wrote it: what a reviewer's version is compared with. */
export interface WrittenItem {
  id: string;
  category: string;
  /** `rules`, or the model extractor's name (`model:<name>@<prompt hash>`) without the hash. */
  extractor: string;
  /** reviewFingerprint of what the harvest wrote. */
  fp: string;
  time: number;
}

export interface History {
  available: boolean;
  /** Why there is no history, when there is none. */
  reason?: string;
  commits: number;
  deletions: Deletion[];
  /** Items harvest commits added (HEAD's history and the harvest branch's), each once. */
  written?: WrittenItem[];
}

export interface CostRecord {
  /** Ledger session records that carry a token or money figure. */
  sessions: number;
  tokens?: number;
  usd?: number;
}

export interface MeasureData {
  items: MeasuredItem[];
  /** Sessions inside --since .. as-of, sorted by time then key (undated ones last). */
  sessions: MeasuredSession[];
  /** Times of the dated sessions, in the same order (for window slices by binary search). */
  times: number[];
  emitted: string[];
  /** Ids of every valid item file now, whatever its dates (for "emitted but deleted"). */
  storeIds: string[];
  history: History;
  cost: CostRecord;
  /** The as-of time; undefined when nothing in the data carries a date. */
  asOf?: number;
  asOfSource: 'flag' | 'data' | 'none';
  since?: number;
}

/** Category, title and knowledge text with whitespace collapsed: equal when a reviewer kept the
 * item as written (the harvester itself only ever changes front matter and evidence). */
export function reviewFingerprint(category: string, title: string, text: string): string {
  return [category, title, text].map((s) => s.replace(/\s+/g, ' ').trim()).join('\n');
}

/** The extractor an item's first source names: `rules` or the model without its prompt hash. */
export function extractorOf(sources: readonly ItemSource[]): string {
  const e = sources[0]?.extractor;
  return e ? e.replace(/@[0-9a-f]+$/, '') : 'rules';
}

export function itemProbe(item: StoredItem): ItemProbe {
  const terms = keyTerms(item.title, item.text);
  return { terms, fp: termsFingerprint(terms) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * When an item was reinforced: each source session after the one that created it, dated by that
 * session's time when it was measured; else, for an item seen more than once, its last_seen.
 */
export function reinforcementTimes(item: Pick<MeasuredItem, 'evidence' | 'sources' | 'firstSeen' | 'lastSeen'>, sessionTimes: ReadonlyMap<string, number>): number[] {
  const times = [...new Set(item.sources.map((s) => s.session))]
    .map((id) => sessionTimes.get(sessionKey(id)))
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  // sources keep the newest few: when some were dropped, the creating session is not among them
  const dated = item.evidence > item.sources.length ? times : times.slice(1);
  if (dated.length > 0) return dated;
  return item.evidence > 1 && item.lastSeen > item.firstSeen ? [item.lastSeen] : [];
}

export function toMeasuredItem(item: StoredItem, sessionTimes: ReadonlyMap<string, number>, probe: ItemProbe = itemProbe(item)): MeasuredItem {
  const m = item.meta;
  const firstSeen = toMs(m.first_seen) ?? 0;
  const lastSeen = Math.max(firstSeen, toMs(m.last_seen) ?? firstSeen);
  const out: MeasuredItem = {
    id: m.id,
    title: item.title,
    path: item.path,
    category: m.category,
    scope: m.scope,
    sourceAgent: m.scope === 'agent' && m.agent ? m.agent : (m.sources[0]?.format ?? 'unknown'),
    confidence: m.confidence,
    evidence: m.evidence,
    status: m.status,
    firstSeen,
    lastSeen,
    sources: m.sources,
    reviewFp: reviewFingerprint(m.category, item.title, item.text),
    terms: [...probe.terms],
    fp: probe.fp,
    reinforcements: [],
  };
  if (m.repo) out.repo = m.repo;
  if (m.agent) out.agent = m.agent;
  if (m.category === 'pitfall') {
    const sig = pitfallSignatureText(item.text, splitBody(item.body).evidence);
    if (sig) {
      out.signature = sig;
      out.sigHash = hashSignature(sig);
    }
  }
  out.reinforcements = reinforcementTimes(out, sessionTimes);
  return out;
}

export interface BuildOptions {
  items: readonly StoredItem[];
  sessions: readonly SessionMeasure[];
  emitted: readonly string[];
  history: History;
  cost: CostRecord;
  repoAliases?: Record<string, string>;
  /** Key terms already computed for the items, by id (computed here when missing). */
  probes?: ReadonlyMap<string, ItemProbe>;
  asOf?: number;
  since?: number;
}

/** One session per key: the copy with more events wins (a grown transcript beside its old copy). */
function dedupe(sessions: readonly MeasuredSession[]): MeasuredSession[] {
  const byKey = new Map<string, MeasuredSession>();
  for (const s of sessions) {
    const seen = byKey.get(s.key);
    if (!seen || s.events > seen.events || (s.events === seen.events && compare(JSON.stringify(s), JSON.stringify(seen)) > 0)) byKey.set(s.key, s);
  }
  return [...byKey.values()];
}

export function newestTime(items: readonly MeasuredItem[], sessions: readonly MeasuredSession[], history: History): number | undefined {
  let newest: number | undefined;
  const see = (t: number | undefined) => {
    if (t !== undefined && (newest === undefined || t > newest)) newest = t;
  };
  for (const i of items) see(i.lastSeen);
  for (const s of sessions) {
    see(s.time);
    see(s.end);
  }
  for (const d of history.deletions) see(d.time);
  return newest;
}

export function buildData(options: BuildOptions): MeasureData {
  const aliases = options.repoAliases ?? {};
  const repoNames = new Map<string, string>(); // a few dozen repos for 20,000 sessions
  const repoName = (repo: string): string => {
    let name = repoNames.get(repo);
    if (name === undefined) repoNames.set(repo, (name = sanitizeName(aliasOf(repo, aliases) ?? repo)));
    return name;
  };
  const all = dedupe(
    options.sessions.map((s) => {
      const m: MeasuredSession = { ...s };
      const time = s.start ?? s.end;
      if (time !== undefined) m.time = time;
      if (s.repo) m.repoName = repoName(s.repo);
      return m;
    }),
  );
  const sessionTimes = new Map<string, number>();
  for (const s of all) if (s.time !== undefined) sessionTimes.set(s.key, s.time);
  const allItems = options.items.map((i) => toMeasuredItem(i, sessionTimes, options.probes?.get(i.meta.id)));
  const newest = newestTime(allItems, all, options.history);
  const asOf = options.asOf ?? newest;
  const limit = asOf ?? Number.POSITIVE_INFINITY;
  const since = options.since;
  const sessions = all
    .filter((s) => (s.time === undefined ? since === undefined : s.time <= limit && (since === undefined || s.time >= since)))
    .sort((a, b) => (a.time ?? Number.POSITIVE_INFINITY) - (b.time ?? Number.POSITIVE_INFINITY) || compare(a.key, b.key));
  const items = allItems.filter((i) => i.firstSeen <= limit).sort((a, b) => compare(a.path, b.path));
  const data: MeasureData = {
    items,
    sessions,
    times: sessions.filter((s) => s.time !== undefined).map((s) => s.time!),
    emitted: [...new Set(options.emitted)].sort(),
    storeIds: allItems.map((i) => i.id).sort(),
    history: { ...options.history, deletions: options.history.deletions.filter((d) => d.time <= limit) },
    cost: options.cost,
    asOfSource: options.asOf !== undefined ? 'flag' : newest !== undefined ? 'data' : 'none',
  };
  if (asOf !== undefined) data.asOf = asOf;
  if (since !== undefined) data.since = since;
  return data;
}

/** Sessions whose time is in the window (start, end]: a slice of the time-sorted list. */
export function sessionsIn(data: Pick<MeasureData, 'sessions' | 'times'>, w: Window): MeasuredSession[] {
  return data.sessions.slice(upperBound(data.times, w.start), upperBound(data.times, w.end));
}
