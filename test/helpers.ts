import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach } from 'vitest';
import type { Item, ItemMeta } from '../src/knowledge/item.js';
import { itemId } from '../src/knowledge/ids.js';

export const PROJECT_ROOT = resolve(__dirname, '..');
export const CLI = join(PROJECT_ROOT, 'dist', 'cli', 'main.js');
export const SHARED = resolve(PROJECT_ROOT, '..', 'shared');

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = 'compound-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a real child process. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): CliResult {
  if (!existsSync(CLI)) throw new Error(`build first: ${CLI} is missing (npm run build)`);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A valid item with sensible defaults; the id is derived from the text like the harvester does. */
export function makeItem(text: string, meta: Partial<ItemMeta> = {}): Item {
  const category = meta.category ?? 'fact';
  const scope = meta.scope ?? 'global';
  const id = meta.id ?? itemId({ category, scope, repo: meta.repo, agent: meta.agent, text });
  return {
    meta: {
      id,
      category,
      scope,
      ...(meta.repo ? { repo: meta.repo } : {}),
      ...(meta.agent ? { agent: meta.agent } : {}),
      confidence: meta.confidence ?? 0.7,
      evidence: meta.evidence ?? 1,
      first_seen: meta.first_seen ?? '2026-05-11T11:26:55Z',
      last_seen: meta.last_seen ?? '2026-05-11T11:26:55Z',
      status: meta.status ?? 'active',
      tags: meta.tags ?? [],
      sources: meta.sources ?? [{ session: 'sess-1', format: 'claude-code', event: 3, line: 10 }],
      ...(meta.title ? { title: meta.title } : {}),
      ...(meta.conflicts_with ? { conflicts_with: meta.conflicts_with } : {}),
      ...(meta.supersedes ? { supersedes: meta.supersedes } : {}),
    },
    body: `${text}\n`,
  };
}

/** Fixed identity and time so commit SHAs are reproducible. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test Bot',
  GIT_AUTHOR_EMAIL: 'bot@example.invalid',
  GIT_COMMITTER_DATE: '1767225600',
  GIT_AUTHOR_DATE: '1767225600',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent-home',
};
