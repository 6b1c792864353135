/**
 * Turns what the user typed (files, directories, globs, `--from` sources) into a sorted,
 * de-duplicated list of transcript files. Problems (a path that does not exist, a glob that
 * matches nothing) become warnings, so one bad argument does not stop the rest.
 */
import { readdirSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, normalize, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { ReadWarning } from './model.js';

export const SOURCE_NAMES = ['claude', 'codex', 'hermes', 'gemini', 'specstory', 'aider'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

interface SourceSpec {
  /** Location relative to the home directory (`home`) or the working directory (`cwd`). */
  base: 'home' | 'cwd';
  path: string;
  /** Which files under the location are transcripts. */
  accept: (name: string, relDir: string) => boolean;
}

const jsonl = (name: string): boolean => name.endsWith('.jsonl');

export const SOURCES: Record<SourceName, SourceSpec> = {
  claude: { base: 'home', path: '.claude/projects', accept: jsonl },
  codex: { base: 'home', path: '.codex/sessions', accept: jsonl },
  hermes: {
    base: 'home',
    path: '.hermes/sessions',
    accept: (name) => jsonl(name) || (name.startsWith('session_') && name.endsWith('.json')),
  },
  gemini: {
    base: 'home',
    path: '.gemini/tmp',
    // (`.jsonl`: the chats of newer versions, one message a line)
    accept: (name, relDir) => name.startsWith('session-') && (name.endsWith('.json') || name.endsWith('.jsonl')) && basename(relDir) === 'chats',
  },
  specstory: { base: 'cwd', path: '.specstory/history', accept: (name) => name.endsWith('.md') },
  aider: { base: 'cwd', path: '.aider.chat.history.md', accept: () => true },
};

/** Files a directory walk picks up when the user names a directory. */
const DIR_FILE_RE = /\.(jsonl|json|md|markdown)$/i;
/** Directories that never hold transcripts (Claude Code spills big tool output to tool-results/). */
const SKIP_DIRS = new Set(['node_modules', '.git', 'tool-results']);
const GLOB_CHARS = /[*?[\]{}]/;

export interface WalkOptions {
  /** Default locations to add, e.g. ['claude', 'codex']. */
  from?: readonly string[];
  /** Home directory for `--from` (default: os.homedir()); tests point it at a temp dir. */
  home?: string;
  /** Working directory for relative `--from` locations and globs (default: process.cwd()). */
  cwd?: string;
  /** Add `<id>/subagents/agent-*.jsonl` next to an explicitly named Claude Code session (default true). */
  subagents?: boolean;
}

export interface WalkResult {
  files: string[];
  warnings: ReadWarning[];
}

/** Parses `--from claude,codex`; an unknown name is a usage error (exit 2). */
export function parseFromList(list: string | readonly string[]): SourceName[] {
  const names = (typeof list === 'string' ? list.split(',') : list.flatMap((s) => s.split(',')))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const out: SourceName[] = [];
  for (const name of names) {
    if (!(SOURCE_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`unknown source "${name}" in --from`, { fix: `use a comma-separated list of: ${SOURCE_NAMES.join(', ')}` });
    }
    if (!out.includes(name as SourceName)) out.push(name as SourceName);
  }
  return out;
}

export function sourceLocation(name: SourceName, options: WalkOptions = {}): string {
  const spec = SOURCES[name];
  const root = spec.base === 'home' ? (options.home ?? homedir()) : (options.cwd ?? process.cwd());
  return spec.base === 'cwd' && !options.cwd ? spec.path : join(root, spec.path);
}

/** Code-unit order: the same on every machine and locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `then` is called once, as soon as the walk has found `count` files (see read.ts). */
export interface WalkMilestone {
  count: number;
  then: () => void;
}

/** The walk's found files, calling a milestone's `then` when their number reaches its count. */
class FoundFiles extends Set<string> {
  constructor(private readonly milestone: WalkMilestone | undefined) {
    super();
  }

  override add(file: string): this {
    super.add(file);
    if (this.size === this.milestone?.count) this.milestone.then();
    return this;
  }
}

export async function walkInputs(inputs: readonly string[], options: WalkOptions = {}, milestone?: WalkMilestone): Promise<WalkResult> {
  const found = new FoundFiles(milestone);
  const warnings: ReadWarning[] = [];
  const subagents = options.subagents ?? true;

  for (const input of inputs) {
    const path = options.cwd && !isAbsolute(input) ? join(options.cwd, input) : input;
    const st = await statOrUndefined(path);
    if (st?.isDirectory()) {
      walkDir(path, '', (name) => DIR_FILE_RE.test(name), found);
    } else if (st?.isFile()) {
      found.add(path);
      if (subagents && path.endsWith('.jsonl')) await addSubagents(path, found);
    } else if (GLOB_CHARS.test(input)) {
      // loaded only for a pattern: importing it took about 45 ms of every command's start
      const { glob } = await import('tinyglobby');
      const matches = await glob([input], { cwd: options.cwd ?? process.cwd(), onlyFiles: true, dot: true, expandDirectories: false });
      if (matches.length === 0) warnings.push({ file: input, message: 'the pattern matched no files' });
      for (const m of matches) found.add(options.cwd ? join(options.cwd, m) : m);
    } else if (st) {
      warnings.push({ file: input, message: 'not a regular file or directory; skipped' });
    } else {
      warnings.push({ file: input, message: 'no such file or directory' });
    }
  }

  for (const name of options.from ? parseFromList(options.from) : []) {
    const location = sourceLocation(name, options);
    const st = await statOrUndefined(location);
    const spec = SOURCES[name];
    if (!st) warnings.push({ file: location, message: `no ${name} transcripts here (location does not exist)` });
    else if (st.isDirectory()) walkDir(location, '', spec.accept, found);
    else if (st.isFile()) found.add(location);
  }

  return { files: [...found].sort(comparePaths), warnings };
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/** Synchronous: one thread-pool round trip per directory made walking a tree of many small
 * directories (Claude Code's subagents/) take ~6x longer; the found set is sorted afterwards,
 * so the order of the walk does not matter. */
function walkDir(root: string, rel: string, accept: (name: string, relDir: string) => boolean, found: Set<string>): void {
  const dir = rel ? join(root, rel) : normalize(root);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // an unreadable sub-directory is skipped, like `find` does
  }
  // join(dir, name) for an entry's name (no separator, never . or ..) of a normalized dir, built
  // by concatenation: join per file was about 5% of a rerun over 20,000 known transcripts
  const prefix = sep !== '/' ? undefined : dir === '.' ? '' : dir.endsWith('/') ? dir : `${dir}/`;
  for (const entry of entries) {
    const name = entry.name;
    const relPath = rel ? (sep === '/' ? `${rel}/${name}` : join(rel, name)) : name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(name)) walkDir(root, relPath, accept, found);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && accept(name, rel)) {
      found.add(prefix === undefined ? join(dir, name) : prefix + name);
    }
  }
}

/** `<dir>/<id>.jsonl` → `<dir>/<id>/subagents/agent-*.jsonl` (Claude Code >= 2.1). */
async function addSubagents(file: string, found: Set<string>): Promise<void> {
  const dir = join(file.slice(0, -'.jsonl'.length), 'subagents');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith('agent-') && name.endsWith('.jsonl')) found.add(join(dir, name));
}
