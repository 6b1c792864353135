/**
 * Answers cached by request: knowledge/.cache/model/<id>.json, where the id hashes the model, the
 * prompt and the request text, so a rerun sends nothing and a changed prompt or model asks again.
 * Git-ignored like every cache; answers are redacted before they are stored. A cache file that
 * cannot be read is treated as missing (the request is sent again).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, prepareCacheDir } from '../../knowledge/cache-dir.js';
import { writeFileAtomic } from '../../knowledge/fsutil.js';

export interface CachedAnswer {
  id: string;
  model: string;
  prompt: string;
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export class AnswerCache {
  private readonly dir: string;
  private ready: boolean | undefined;

  constructor(private readonly root: string) {
    this.dir = join(root, CACHE_DIR, 'model');
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  get(id: string): CachedAnswer | undefined {
    const file = this.file(id);
    if (!existsSync(file)) return undefined;
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as CachedAnswer;
      return data.id === id && typeof data.text === 'string' ? data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores an answer (atomically: a kill leaves the old file or the new one). False when the
   * store cannot be written; the harvest goes on without the cache. */
  set(answer: CachedAnswer): boolean {
    this.ready ??= prepareCacheDir(this.root);
    if (!this.ready) return false;
    try {
      writeFileAtomic(this.file(answer.id), `${JSON.stringify(answer)}\n`);
      return true;
    } catch {
      return false;
    }
  }
}
