/**
 * compound.config.yaml beside knowledge/: optional settings a team commits with its store.
 * Missing file = defaults. Unknown keys are an error, so a typo never silently does nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as YamlModule from 'yaml';
import { lazy } from './lazy.js';

const loadYaml = lazy<typeof YamlModule>('yaml');
import { InputError } from './errors.js';
import { parseModelConfig, type ModelConfig } from './model-config.js';

export const CONFIG_FILE = 'compound.config.yaml';

export interface Config {
  /** Transcript repo name -> canonical repo name (e.g. a fork's directory name -> the project). */
  repo_aliases: Record<string, string>;
  /** Extra user names to scrub from everything harvested (home-path users are found anyway). */
  redact_users: string[];
  /** Default bootstrap budget in tokens. */
  bootstrap_budget: number;
  /** The model that harvests (model-config.ts); none: the rules do. */
  model?: ModelConfig;
}

export const DEFAULT_CONFIG: Config = { repo_aliases: {}, redact_users: [], bootstrap_budget: 2000 };

export const CONFIG_TEMPLATE = `# compound configuration: see "Configuration" in the README of compounding-intelligence.
# Map the repo names found in transcripts to the names used in knowledge/repos/.
repo_aliases: {}
# User names to scrub from harvested text, besides those found in home paths.
redact_users: []
# Default token budget for \`compound bootstrap\`.
bootstrap_budget: 2000
`;

/** The store root: the nearest directory at or above `start` holding knowledge/ or the config. */
export function findRoot(start: string): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'knowledge', 'index.json')) || existsSync(join(dir, CONFIG_FILE))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(start);
    dir = parent;
  }
}

export function loadConfig(root: string): Config {
  const file = join(root, CONFIG_FILE);
  if (!existsSync(file)) return { ...DEFAULT_CONFIG };
  const text = readFileSync(file, 'utf8');
  // The file as `init` wrote it, which most stores keep, holds the defaults: the YAML library
  // is not loaded for it (about 60 ms of every command's start, `bootstrap` and `harvest` too).
  if (text === CONFIG_TEMPLATE) return { ...DEFAULT_CONFIG, repo_aliases: {}, redact_users: [] };
  let data: unknown;
  try {
    data = loadYaml().parse(text) ?? {};
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new InputError('E_CONFIG_YAML', CONFIG_FILE, line, `${CONFIG_FILE}${line ? `:${line}` : ''}: invalid YAML`, { why: (err as Error).message.split('\n')[0], fix: 'fix the YAML syntax' });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new InputError('E_CONFIG_SHAPE', CONFIG_FILE, 1, `${CONFIG_FILE}:1: not a mapping`, { fix: 'write key: value pairs' });
  }
  return parseConfig(data as Record<string, unknown>);
}

/** The settings of the parsed file. */
function parseConfig(rec: Record<string, unknown>): Config {
  const cfg: Config = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(rec)) {
    const bad = (what: string) => new InputError('E_CONFIG_FIELD', CONFIG_FILE, undefined, `${CONFIG_FILE}: ${key} ${what}`, { fix: `see ${CONFIG_FILE} in the README` });
    if (key === 'repo_aliases') {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) throw bad('must map names to names');
      cfg.repo_aliases = value as Record<string, string>;
    } else if (key === 'redact_users') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw bad('must be a list of names');
      cfg.redact_users = value as string[];
    } else if (key === 'bootstrap_budget') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw bad('must be a positive whole number');
      cfg.bootstrap_budget = value;
    } else if (key === 'model') {
      if (value !== null) cfg.model = parseModelConfig(value, CONFIG_FILE);
    } else {
      throw new InputError('E_CONFIG_UNKNOWN', CONFIG_FILE, undefined, `${CONFIG_FILE}: unknown key \`${key}\``, { fix: `use one of: ${[...Object.keys(DEFAULT_CONFIG), 'model'].join(', ')}` });
    }
  }
  return cfg;
}
