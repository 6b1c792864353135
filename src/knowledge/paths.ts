/**
 * Where an item lives. Every path is built from sanitised parts, so a transcript that claims
 * repo `../../etc` can never make the store write outside knowledge/.
 */
import type { Category, ItemMeta } from './item.js';

export const KNOWLEDGE_DIR = 'knowledge';
export const INDEX_FILE = `${KNOWLEDGE_DIR}/index.json`;
export const LEDGER_FILE = `${KNOWLEDGE_DIR}/ledger.json`;
export const LOCK_FILE = `${KNOWLEDGE_DIR}/.lock`;

/** A repo or agent name as a single safe path segment: lowercase ASCII, digits, `.`, `_`, `-`. */
export function sanitizeName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64)
    .replace(/[-.]+$/g, '');
  return ascii === '' ? 'unnamed' : ascii;
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'is', 'are', 'be', 'with', 'when', 'it', 'its', 'by', 'at', 'as', 'this', 'that']);

/** Readable, stable, ASCII slug of at most 60 characters ending in the item id. */
export function slugFor(title: string, id: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && !STOP_WORDS.has(w));
  const budget = 60 - id.length - 1;
  let slug = '';
  for (const w of words) {
    const next = slug === '' ? w : `${slug}-${w}`;
    if (next.length > budget) break;
    slug = next;
  }
  return slug === '' ? id : `${slug}-${id}`;
}

/**
 * The directory (relative to the store root) that holds items of this scope and category.
 * `sanitize` lets a caller going over a whole store reuse the few names it has already sanitised.
 */
export function itemDir(meta: Pick<ItemMeta, 'scope' | 'repo' | 'agent' | 'category'>, sanitize: (name: string) => string = sanitizeName): string {
  const category: Category = meta.category;
  switch (meta.scope) {
    case 'global':
      return `${KNOWLEDGE_DIR}/global/${category}`;
    case 'repo':
      return `${KNOWLEDGE_DIR}/repos/${sanitize(meta.repo ?? '')}/${category}`;
    case 'agent':
      return `${KNOWLEDGE_DIR}/agents/${sanitize(meta.agent ?? '')}/${category}`;
  }
}

export function itemPath(meta: Pick<ItemMeta, 'scope' | 'repo' | 'agent' | 'category' | 'id'>, title: string): string {
  return `${itemDir(meta)}/${slugFor(title, meta.id)}.md`;
}

/** True when a relative path stays inside knowledge/ (no absolute path, no `..`). */
export function isInsideKnowledge(relPath: string): boolean {
  if (relPath.startsWith('/') || /^[a-zA-Z]:/.test(relPath) || relPath.includes('\\')) return false;
  const parts = relPath.split('/');
  return parts[0] === KNOWLEDGE_DIR && parts.every((p) => p !== '..' && p !== '.' && p !== '');
}
