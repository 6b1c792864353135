/** Shared by commands: where the store is, and its config. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, findRoot, loadConfig, type Config } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { KNOWLEDGE_DIR } from '../knowledge/paths.js';

export interface Context {
  root: string;
  config: Config;
}

export function context(): Context {
  const root = findRoot(process.cwd());
  return { root, config: loadConfig(root) };
}

/** For commands that read or write a store: none at or above the current directory is a usage
 * error that says how to make one, never a store made on the spot. */
export function requireStore(root: string): void {
  if (!existsSync(join(root, KNOWLEDGE_DIR)) && !existsSync(join(root, CONFIG_FILE))) {
    throw new UsageError(`no knowledge store at or above ${process.cwd()}`, { fix: 'run `compound init` in the repository that keeps knowledge/, or pass -C <dir>' });
  }
}
