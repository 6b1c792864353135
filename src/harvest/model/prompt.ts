/**
 * The harvest prompt: templates/harvest-prompt.md of the store when a team keeps its own
 * (edited), else the one shipped with compound. Its content hash versions the answer cache and
 * is written into each item's sources (`model:<name>@<hash>`), so a changed prompt is visible.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROMPT_FILE = 'templates/harvest-prompt.md';

export interface HarvestPrompt {
  text: string;
  /** First 8 hex characters of the SHA-256 of the text. */
  hash: string;
  /** Where it was read from. */
  file: string;
}

/** The shipped prompt (dist/harvest/model/ -> the package root's templates/). */
export function shippedPromptFile(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', PROMPT_FILE);
}

export function promptHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

export function loadPrompt(root: string): HarvestPrompt {
  const own = join(root, PROMPT_FILE);
  const file = existsSync(own) ? own : shippedPromptFile();
  const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  return { text, hash: promptHash(text), file };
}
