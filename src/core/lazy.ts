/**
 * Heavy dependencies are loaded on first use, not at start-up: a `compound bootstrap` at session
 * start or a `check` of a clean store should not pay for YAML, gray-matter or isomorphic-git.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazy<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
