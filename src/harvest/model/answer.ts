/**
 * The model's answer, parsed and checked against the schema the prompt asks for: a JSON array
 * (or `{"items": [...]}`, fenced or not) of items, `same_as` reinforcements and `contradicts`
 * corrections. Pure: text in, entries and the problems found out. A problem makes the caller
 * ask once for a repaired answer.
 */
import { CATEGORIES, SCOPES, type Category, type Scope } from '../../knowledge/item.js';

export interface Quote {
  event: number;
  quote: string;
}

export interface NewEntry {
  kind: 'item';
  category: Category;
  scope: Scope;
  title: string;
  knowledge: string;
  confidence: number;
  tags: string[];
  evidence: Quote[];
  /** The id of a known item this one corrects. */
  contradicts?: string;
}

export interface SameEntry {
  kind: 'same';
  sameAs: string;
  evidence: Quote[];
}

export type AnswerEntry = NewEntry | SameEntry;

export interface ParsedAnswer {
  entries: AnswerEntry[];
  /** What was wrong (empty when the answer is valid). Entries that were wrong are left out. */
  problems: string[];
  /** The text held no JSON array at all. */
  unreadable: boolean;
}

/** The JSON the answer holds: the whole text, else a fenced block, else the outermost [...] or {...}. */
function jsonOf(text: string): unknown {
  const attempts: string[] = [text.trim()];
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  if (fence) attempts.push(fence[1]!.trim());
  const a = text.indexOf('[');
  const b = text.lastIndexOf(']');
  if (a !== -1 && b > a) attempts.push(text.slice(a, b + 1));
  const c = text.indexOf('{');
  const d = text.lastIndexOf('}');
  if (c !== -1 && d > c) attempts.push(text.slice(c, d + 1));
  for (const t of attempts) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      // next form
    }
  }
  return undefined;
}

const ID = /^[0-9a-f]{10}$/;

function eventNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string') {
    const m = /^\s*\[?E?(\d+)\]?\s*$/i.exec(v);
    if (m) return Number(m[1]);
  }
  return undefined;
}

function evidenceOf(v: unknown, problems: string[], where: string): Quote[] | undefined {
  if (!Array.isArray(v) || v.length === 0) {
    problems.push(`${where}: evidence must be a non-empty list of {event, quote}`);
    return undefined;
  }
  const out: Quote[] = [];
  for (const e of v) {
    const rec = e as Record<string, unknown>;
    const event = eventNumber(rec?.event);
    if (event === undefined || typeof rec.quote !== 'string' || rec.quote.trim() === '') {
      problems.push(`${where}: each evidence entry needs an event number and a non-empty quote`);
      return undefined;
    }
    out.push({ event, quote: rec.quote });
  }
  return out;
}

function entryOf(v: unknown, i: number, problems: string[]): AnswerEntry | undefined {
  const where = `item ${i + 1}`;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.push(`${where}: not an object`);
    return undefined;
  }
  const rec = v as Record<string, unknown>;
  if (rec.same_as !== undefined) {
    if (typeof rec.same_as !== 'string' || !ID.test(rec.same_as)) {
      problems.push(`${where}: same_as must be the 10-character id of a known item`);
      return undefined;
    }
    const evidence = evidenceOf(rec.evidence, problems, where);
    return evidence ? { kind: 'same', sameAs: rec.same_as, evidence } : undefined;
  }
  const before = problems.length;
  const category = typeof rec.category === 'string' ? rec.category.toLowerCase().replace(/[_ ]/g, '-') : rec.category;
  if (!(CATEGORIES as readonly unknown[]).includes(category)) problems.push(`${where}: category must be one of ${CATEGORIES.join(', ')}`);
  if (!(SCOPES as readonly unknown[]).includes(rec.scope)) problems.push(`${where}: scope must be one of ${SCOPES.join(', ')}`);
  if (typeof rec.title !== 'string' || rec.title.trim() === '') problems.push(`${where}: title must be a non-empty string`);
  if (typeof rec.knowledge !== 'string' || rec.knowledge.trim() === '') problems.push(`${where}: knowledge must be a non-empty string`);
  const confidence = typeof rec.confidence === 'string' ? Number(rec.confidence) : rec.confidence;
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) problems.push(`${where}: confidence must be a number from 0 to 1`);
  if (rec.tags !== undefined && !(Array.isArray(rec.tags) && rec.tags.every((t) => typeof t === 'string'))) problems.push(`${where}: tags must be a list of strings`);
  if (rec.contradicts !== undefined && !(typeof rec.contradicts === 'string' && ID.test(rec.contradicts))) problems.push(`${where}: contradicts must be the 10-character id of a known item`);
  const evidence = evidenceOf(rec.evidence, problems, where);
  if (problems.length > before || !evidence) return undefined;
  return {
    kind: 'item',
    category: category as Category,
    scope: rec.scope as Scope,
    title: (rec.title as string).replace(/\s+/g, ' ').trim().replace(/\.$/, ''),
    knowledge: (rec.knowledge as string).trim(),
    confidence: confidence as number,
    tags: ((rec.tags as string[] | undefined) ?? []).map((t) => t.trim().toLowerCase()).filter((t) => t !== '').slice(0, 5),
    evidence,
    ...(rec.contradicts !== undefined ? { contradicts: rec.contradicts as string } : {}),
  };
}

export function parseAnswer(text: string): ParsedAnswer {
  const json = jsonOf(text);
  let list: unknown;
  if (Array.isArray(json)) list = json;
  else if (typeof json === 'object' && json !== null && Array.isArray((json as { items?: unknown }).items)) list = (json as { items: unknown[] }).items;
  if (!Array.isArray(list)) return { entries: [], problems: ['the answer is not a JSON array of items (nor {"items": [...]})'], unreadable: true };
  const problems: string[] = [];
  const entries: AnswerEntry[] = [];
  list.forEach((v, i) => {
    const e = entryOf(v, i, problems);
    if (e) entries.push(e);
  });
  return { entries, problems, unreadable: false };
}
