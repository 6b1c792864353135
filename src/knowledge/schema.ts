/**
 * Validates front matter against the item schema. Each problem names the field and its line
 * and says what to do, the way Astro's content layer reports zod errors.
 */
import { CATEGORIES, META_KEYS, SCOPES, STATUSES, MAX_SOURCES, type ItemMeta, type ItemSource } from './item.js';
import { ID_PATTERN } from './ids.js';
import type { Problem } from './problem.js';
import { lineOfKey } from './frontmatter.js';

const DATE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const REQUIRED: readonly (keyof ItemMeta)[] = ['id', 'category', 'scope', 'confidence', 'evidence', 'first_seen', 'last_seen', 'status'];
const SOURCE_KEYS = new Set(['session', 'format', 'event', 'line', 'extractor']);
const META_KEY_SET: ReadonlySet<string> = new Set(META_KEYS);
const CATEGORY_SET: ReadonlySet<unknown> = new Set(CATEGORIES);
const SCOPE_SET: ReadonlySet<unknown> = new Set(SCOPES);
const STATUS_SET: ReadonlySet<unknown> = new Set(STATUSES);

export interface SchemaResult {
  meta?: ItemMeta;
  problems: Problem[];
}

function onlyKeys(rec: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in rec) if (!allowed.has(k)) return false;
  return true;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** `matterText` may be a function: it is needed only to give a problem its line. */
export function validateMeta(data: Record<string, unknown>, file: string, matterText: string | (() => string)): SchemaResult {
  const problems: Problem[] = [];
  const at = (key: string) => lineOfKey(typeof matterText === 'string' ? matterText : matterText(), key);
  const bad = (code: string, key: string, what: string, why: string, fix: string) =>
    problems.push({ code, file, line: at(key), what, why, fix });

  for (const key in data) {
    if (!META_KEY_SET.has(key)) {
      bad('E_SCHEMA_UNKNOWN_FIELD', key, `unknown field \`${key}\``, 'the item schema has no such field and tools would silently ignore it', `remove it or rename it to one of: ${META_KEYS.join(', ')}`);
    }
  }
  for (const key of REQUIRED) {
    if (data[key] === undefined || data[key] === null) {
      problems.push({ code: 'E_SCHEMA_MISSING_FIELD', file, line: 2, what: `missing field \`${key}\``, why: 'every item needs it to be indexed and ranked', fix: `add \`${key}:\` to the front matter` });
    }
  }

  const { id, category, scope, repo, agent, confidence, evidence, first_seen, last_seen, status, tags, sources, title, supersedes, conflicts_with } = data;
  if (id !== undefined && (typeof id !== 'string' || !ID_PATTERN.test(id))) {
    bad('E_SCHEMA_ID', 'id', `id \`${String(id)}\` is not 10 lowercase hex characters`, 'ids are content hashes fixed at creation', 'restore the original id (it is also the end of the file name)');
  }
  if (title !== undefined && (typeof title !== 'string' || title.trim() === '' || title.includes('\n'))) {
    bad('E_SCHEMA_TITLE', 'title', '`title` is not a one-line string', 'the title is shown in lists and the bootstrap output', 'write a short one-line title or remove the field');
  }
  if (category !== undefined && !CATEGORY_SET.has(category)) {
    bad('E_SCHEMA_CATEGORY', 'category', `category \`${String(category)}\` is not allowed`, 'the ranking and the folder layout depend on it', `use one of: ${CATEGORIES.join(', ')}`);
  }
  if (scope !== undefined && !SCOPE_SET.has(scope)) {
    bad('E_SCHEMA_SCOPE', 'scope', `scope \`${String(scope)}\` is not allowed`, 'the scope decides which sessions see the item', `use one of: ${SCOPES.join(', ')}`);
  }
  if (scope === 'repo' && (typeof repo !== 'string' || repo.trim() === '')) {
    bad('E_SCHEMA_REPO', 'scope', 'scope is `repo` but `repo` is missing', 'a repo-scoped item must name its repository', 'add `repo: <name>` or change the scope');
  }
  if (scope === 'agent' && (typeof agent !== 'string' || agent.trim() === '')) {
    bad('E_SCHEMA_AGENT', 'scope', 'scope is `agent` but `agent` is missing', 'an agent-scoped item must name its agent', 'add `agent: <name>` or change the scope');
  }
  if (repo !== undefined && typeof repo !== 'string') bad('E_SCHEMA_REPO', 'repo', '`repo` is not a string', 'it names a repository', 'write the repository name');
  if (agent !== undefined && typeof agent !== 'string') bad('E_SCHEMA_AGENT', 'agent', '`agent` is not a string', 'it names an agent', 'write the agent name');
  if (confidence !== undefined && (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)) {
    bad('E_SCHEMA_CONFIDENCE', 'confidence', `confidence \`${String(confidence)}\` is outside 0..1`, 'confidence is a probability', 'use a number between 0 and 1, e.g. 0.7');
  }
  if (evidence !== undefined && (typeof evidence !== 'number' || !Number.isInteger(evidence) || evidence < 1)) {
    bad('E_SCHEMA_EVIDENCE', 'evidence', `evidence \`${String(evidence)}\` is not a whole number >= 1`, 'it counts the distinct sessions that support the item', 'use a positive whole number');
  }
  const firstOk = typeof first_seen === 'string' && DATE_RE.test(first_seen);
  const lastOk = typeof last_seen === 'string' && DATE_RE.test(last_seen);
  const badDate = (key: string, value: unknown) =>
    bad('E_SCHEMA_DATE', key, `\`${key}\` \`${String(value)}\` is not an ISO date`, 'dates come from session timestamps', 'use a date like 2026-05-11 or 2026-05-11T11:26:55Z');
  if (first_seen !== undefined && !firstOk) badDate('first_seen', first_seen);
  if (last_seen !== undefined && !lastOk) badDate('last_seen', last_seen);
  if (firstOk && lastOk && (last_seen as string) < (first_seen as string)) {
    bad('E_SCHEMA_DATE_ORDER', 'last_seen', '`last_seen` is before `first_seen`', 'an item cannot be seen last before it was seen first', 'swap or correct the dates');
  }
  if (status !== undefined && !STATUS_SET.has(status)) {
    bad('E_SCHEMA_STATUS', 'status', `status \`${String(status)}\` is not allowed`, 'only active items are given to agents', `use one of: ${STATUSES.join(', ')}`);
  }
  if (tags !== undefined && !isStringArray(tags)) bad('E_SCHEMA_TAGS', 'tags', '`tags` is not a list of strings', 'tags are matched against the task', 'write tags as [a, b]');
  const badLinks = (value: unknown) => value !== undefined && (!isStringArray(value) || value.some((v) => !ID_PATTERN.test(v)));
  for (const key of ['supersedes', 'conflicts_with'] as const) {
    if (badLinks(data[key])) {
      bad('E_SCHEMA_LINKS', key, `\`${key}\` is not a list of item ids`, 'it links to other items by id', 'write it as [<id>, <id>] with 10-hex-character ids');
    }
  }
  let parsedSources: ItemSource[] = [];
  if (sources !== undefined) {
    if (!Array.isArray(sources)) {
      bad('E_SCHEMA_SOURCES', 'sources', '`sources` is not a list', 'each source names the session the evidence came from', 'write sources as a list of { session, format, event, line }');
    } else {
      if (sources.length > MAX_SOURCES) {
        bad('E_SCHEMA_SOURCES', 'sources', `\`sources\` has ${sources.length} entries, more than ${MAX_SOURCES}`, 'sources are capped to keep items short; `evidence` keeps the full count', `keep the first and the ${MAX_SOURCES - 1} newest`);
      }
      for (const s of sources as unknown[]) {
        const rec = s as Record<string, unknown>;
        const ok =
          s !== null && typeof s === 'object' && !Array.isArray(s) &&
          typeof rec.session === 'string' && typeof rec.format === 'string' &&
          (rec.event === undefined || (typeof rec.event === 'number' && Number.isInteger(rec.event) && rec.event >= 0)) &&
          (rec.line === undefined || (typeof rec.line === 'number' && Number.isInteger(rec.line) && rec.line >= 1)) &&
          (rec.extractor === undefined || typeof rec.extractor === 'string') &&
          onlyKeys(rec, SOURCE_KEYS);
        if (!ok) {
          bad('E_SCHEMA_SOURCES', 'sources', 'a source is not { session, format, event?, line? }', 'sources cite the evidence event of a session', 'fix or remove the malformed source');
          break;
        }
      }
      parsedSources = sources as ItemSource[];
    }
  }
  if (problems.length > 0) return { problems };
  // assigned key by key in schema order (no spreads): cheaper, and the key order stays the same
  const meta = { id: id as string } as ItemMeta;
  if (typeof title === 'string') meta.title = title;
  meta.category = category as ItemMeta['category'];
  meta.scope = scope as ItemMeta['scope'];
  if (typeof repo === 'string') meta.repo = repo;
  if (typeof agent === 'string') meta.agent = agent;
  meta.confidence = confidence as number;
  meta.evidence = evidence as number;
  meta.first_seen = first_seen as string;
  meta.last_seen = last_seen as string;
  meta.status = status as ItemMeta['status'];
  meta.tags = (tags as string[] | undefined) ?? [];
  meta.sources = parsedSources;
  if (supersedes !== undefined) meta.supersedes = supersedes as string[];
  if (conflicts_with !== undefined) meta.conflicts_with = conflicts_with as string[];
  return { meta, problems };
}
