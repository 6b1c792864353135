/** Shared by commands: where the store is, and its config. */
import { findRoot, loadConfig, type Config } from '../core/config.js';

export interface Context {
  root: string;
  config: Config;
}

export function context(): Context {
  const root = findRoot(process.cwd());
  return { root, config: loadConfig(root) };
}
