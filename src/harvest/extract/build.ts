/**
 * One place that turns a rule's draft into a Candidate: scope fields, evidence line, tags,
 * personal paths removed, lengths capped. Rules stay about reading the session.
 */
import type { Category, Scope } from '../../knowledge/item.js';
import type { Session } from '../../sessions/model.js';
import type { Candidate, Extractor } from '../candidate.js';
import { clip, clipTitle, depersonalize, extensionsIn, fitWhole, oneLine } from './text.js';
import { indexedByPosition } from './event-at.js';
import { type SessionView, viewOf } from './view.js';
import { emptyList } from '../../core/elements-kind.js';
import { findSecrets } from '../../redact/index.js';

export const MAX_TEXT = 400;
export const MAX_TITLE = 80;
const MAX_QUOTE = 200;

export interface Draft {
  category: Category;
  scope?: Scope;
  title: string;
  text: string;
  confidence: number;
  /** Event index (Session.events[i].index) of the evidence. */
  event: number;
  tags?: string[];
  quotes?: string[];
  rule: string;
  signature?: string;
  /** Rank within the session; higher is kept first. */
  score: number;
}

function lineOf(session: Session, index: number): number | undefined {
  const events = session.events;
  return (indexedByPosition(events) ? events[index] : events.find((e) => e.index === index))?.source.line;
}

function normalizeTag(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9.+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
}

/** The draft's quotes, cleaned, the empty ones left out: a list of one elements kind whether
 * empty or not (see emptyList). */
function quotesOf(d: Draft, clean: (s: string, max: number) => string): string[] {
  const quotes = emptyList<string>();
  for (const q of d.quotes ?? []) {
    const c = clean(q, MAX_QUOTE);
    if (oneLine(c).length > 0) quotes.push(c);
  }
  return quotes;
}

export function makeCandidate(session: Session, d: Draft): Candidate {
  const scope: Scope = d.scope ?? 'repo';
  const clean = (s: string, max: number): string => clip(depersonalize(s, session.cwd), max);
  const text = fitWhole(depersonalize(d.text, session.cwd), MAX_TEXT);
  const tags = new Set<string>();
  for (const t of [...(d.tags ?? []), ...extensionsIn(text)]) {
    // a tag is made a slug here, and redaction cannot find an address or a token in a slug
    // (`jane@corp.io` → `jane-corp.io`): a tag holding one is left out before
    if (findSecrets(t).length > 0) continue;
    const n = normalizeTag(t);
    if (n) tags.add(n);
  }
  const line = lineOf(session, d.event);
  // every key in the same order for every candidate, absent ones undefined: one hidden class
  // for all of them (see sessions/events.ts)
  return {
    category: d.category,
    scope,
    repo: scope === 'repo' && session.repo ? session.repo : undefined,
    agent: scope === 'agent' ? session.agent : undefined,
    title: clipTitle(depersonalize(d.title, session.cwd), MAX_TITLE).replace(/[.\s]+$/, ''),
    text,
    confidence: d.confidence,
    tags: [...tags].sort().slice(0, 8),
    evidence: { event: d.event, line },
    quotes: quotesOf(d, clean),
    rule: d.rule,
    score: d.score,
    signature: d.signature || undefined,
  };
}

/** A rule: its drafts from a session's view, and the rule as an Extractor of its own. */
export interface RuleExtractor extends Extractor {
  drafts(view: SessionView): Draft[];
}

/** A rule as an Extractor of its own: its drafts from the session's view, made candidates
 * (without the selection extractSession applies over all rules). */
export function ruleExtractor(name: string, drafts: (view: SessionView) => Draft[]): RuleExtractor {
  return { name, drafts, extract: (session: Session): Candidate[] => drafts(viewOf(session)).map((d) => makeCandidate(session, d)) };
}
