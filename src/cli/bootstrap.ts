import type { Command } from 'commander';
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, UsageError } from '../core/errors.js';
import { findRoot, loadConfig, DEFAULT_CONFIG } from '../core/config.js';
import { sanitizeName } from '../knowledge/paths.js';
import { upsertSection } from '../bootstrap/agents-md.js';
import { bootstrap, emptyBootstrap, type BootstrapOptions, type BootstrapResult } from '../bootstrap/bootstrap.js';
import { detectAgent, detectRepo, findGit } from '../bootstrap/detect.js';
import { aliasOf } from '../sessions/repo-identity.js';
import { FORMATS, type Format } from '../bootstrap/render.js';
import { DEFAULT_ENCODING, ENCODINGS, isEncodingName } from '../bootstrap/tokens.js';
import { action } from './run.js';
import { note, warn } from './io.js';

/** Items below this confidence are left out unless --min-confidence says otherwise. */
export const DEFAULT_MIN_CONFIDENCE = 0.3;

interface BootstrapFlags {
  repo?: string;
  agent?: string;
  task?: string;
  taskFile?: string;
  budget?: string;
  format: string;
  minConfidence: string;
  explain?: boolean;
  write?: string;
  tokenizer: string;
}

interface Settings {
  format: Format;
  budget?: number;
  minConfidence: number;
  encoding: (typeof ENCODINGS)[number];
  writeTo?: string;
}

/** Flag mistakes are usage errors (exit 2): they are found the first time a hook is set up. */
function validate(flags: BootstrapFlags): Settings {
  if (!(FORMATS as readonly string[]).includes(flags.format)) throw new UsageError(`--format ${flags.format} is not one of ${FORMATS.join(', ')}`, { fix: `pass one of: ${FORMATS.join(', ')}` });
  const format = flags.format as Format;
  let budget: number | undefined;
  if (flags.budget !== undefined) {
    budget = Number(flags.budget);
    if (!/^\d+$/.test(flags.budget.trim()) || !Number.isSafeInteger(budget) || budget < 1) throw new UsageError(`--budget ${flags.budget} is not a positive whole number of tokens`, { fix: 'pass e.g. --budget 2000' });
  }
  const minConfidence = Number(flags.minConfidence);
  if (flags.minConfidence.trim() === '' || !Number.isFinite(minConfidence) || minConfidence < 0 || minConfidence > 1) throw new UsageError(`--min-confidence ${flags.minConfidence} is not a number from 0 to 1`, { fix: 'pass e.g. --min-confidence 0.5' });
  if (!isEncodingName(flags.tokenizer)) throw new UsageError(`--tokenizer ${flags.tokenizer} is not a known encoding`, { fix: `pass one of: ${ENCODINGS.join(', ')}` });
  if (flags.task !== undefined && flags.taskFile !== undefined) throw new UsageError('--task and --task-file cannot be used together', { fix: 'pass the task one way' });
  if (flags.write !== undefined && (format === 'json' || format === 'claude-code')) throw new UsageError(`--write keeps a markdown section; --format ${format} cannot be written into it`, { fix: 'use --format markdown (or codex, text) with --write' });
  // AGENTS.md and its like live at the repository root: a bare file name goes there, as --format
  // codex writes it, wherever in the repository the command runs; a path with a folder is the user's
  const repoRoot = findGit(process.cwd())?.root ?? process.cwd();
  const writeTo = flags.write !== undefined ? (/[\\/]/.test(flags.write) ? resolve(flags.write) : resolve(repoRoot, flags.write)) : format === 'codex' ? resolve(repoRoot, 'AGENTS.md') : undefined;
  return { format, budget, minConfidence, encoding: flags.tokenizer, writeTo };
}

/** The budget and repo aliases from the config; a broken config must not stop a session. */
function settingsFromConfig(root: string): { budget: number; aliases: Record<string, string> } {
  try {
    const config = loadConfig(root);
    return { budget: config.bootstrap_budget, aliases: config.repo_aliases };
  } catch (err) {
    warn(`compound.config.yaml ignored: ${(err as Error).message}`);
    return { budget: DEFAULT_CONFIG.bootstrap_budget, aliases: {} };
  }
}

/** A task longer than this is read up to here: ranking needs its words, not a whole file, and a
 * device such as /dev/zero or a pipe that never ends must not hang a session start. */
export const TASK_FILE_MAX_BYTES = 256 * 1024;

/** Reads at most `max` bytes of a file (a device or a FIFO included) with one descriptor. */
function readCapped(file: string, max: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(max);
    let filled = 0;
    while (filled < max) {
      const n = readSync(fd, buf, filled, max - filled, null);
      if (n === 0) break;
      filled += n;
    }
    if (filled === max) warn(`--task-file ${file}: only its first ${max / 1024} KiB are read`);
    // a cut in the middle of a character is dropped, not turned into a replacement character
    return new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(0, filled)).replace(/\uFFFD$/, '');
  } finally {
    closeSync(fd);
  }
}

function readTask(flags: BootstrapFlags): string | undefined {
  if (flags.taskFile === undefined) return flags.task;
  try {
    return readCapped(flags.taskFile, TASK_FILE_MAX_BYTES);
  } catch (err) {
    warn(`--task-file ${flags.taskFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); ranking without a task`);
    return undefined;
  }
}

function writeSection(file: string, result: BootstrapResult): void {
  let existing: string | undefined;
  try {
    existing = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return warn(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); left as it is`);
  }
  if (result.output === '') return warn(`nothing fits the budget; ${file} left as it is`);
  const up = upsertSection(existing, result.output);
  if (!up.ok) return warn(`${file} left as it is: ${up.reason}; fix: remove the stray marker or add the closing one`);
  if (up.action !== 'unchanged') {
    try {
      writeFileSync(file, up.text);
    } catch (err) {
      return warn(`${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  note(`${file}: bootstrap section ${up.action} (${result.ids.length} item(s), ${result.tokens} tokens)`);
}

/** Store root, config, repo, agent and task for this session. */
function resolveSession(flags: BootstrapFlags, settings: Settings): Partial<BootstrapOptions> {
  const cwd = process.cwd();
  const root = findRoot(cwd);
  const config = settingsFromConfig(root);
  const repo = flags.repo !== undefined ? { value: aliasOf(flags.repo, config.aliases) ?? flags.repo, source: '--repo' } : detectRepo(cwd, config.aliases);
  const agent = flags.agent !== undefined ? { value: flags.agent, source: '--agent' } : detectAgent(process.env);
  return {
    root,
    repo: repo.value === undefined ? undefined : sanitizeName(repo.value),
    agent: agent.value === undefined ? undefined : sanitizeName(agent.value),
    task: readTask(flags),
    budget: settings.budget ?? config.budget,
    explain: flags.explain,
    repoSource: repo.source,
    agentSource: agent.source,
  };
}

export function register(program: Command): void {
  program
    .command('bootstrap')
    .description('print the knowledge that matters for this session, within a token budget')
    .option('--repo <repo>', 'repo name (default: from the git remote origin, else the directory name)')
    .option('--agent <agent>', 'agent name (default: detected from the environment, e.g. CLAUDECODE=1)')
    .option('--task <text>', 'what the session is about; ranks items by relevance to it')
    .option('--task-file <file>', 'read the task from a file')
    .option('--budget <tokens>', 'token budget for the whole output (default: bootstrap_budget, 2000)')
    .option('--format <format>', `output format (${FORMATS.join(', ')})`, 'markdown')
    .option('--min-confidence <c>', 'leave out items below this confidence', String(DEFAULT_MIN_CONFIDENCE))
    .option('--explain', 'list every candidate with its score and what was taken (stderr)')
    .option('--write <file>', 'keep the output as a marked section of this file (e.g. AGENTS.md)')
    .option('--tokenizer <encoding>', `encoding that counts tokens (${ENCODINGS.join(', ')})`, DEFAULT_ENCODING)
    .addHelpText(
      'after',
      '\nNever fails a session start: a missing or broken store gives an empty output, a note on stderr and exit 0.\n\nExamples:\n  $ compound bootstrap --task "fix the flaky vitest run" --budget 1500\n  $ compound bootstrap --format claude-code        # SessionStart hook\n  $ compound bootstrap --format codex              # keeps a section of AGENTS.md\n  $ compound bootstrap --explain --task-file issue.md > /dev/null',
    )
    .action(
      action(async (flags: BootstrapFlags) => {
        let settings: Settings;
        try {
          settings = validate(flags);
        } catch (err) {
          // a hook with a bad option still gets a valid (empty) block; the usage error goes to stderr
          const format = (FORMATS as readonly string[]).includes(flags.format ?? '') ? (flags.format as Format) : 'markdown';
          const empty = await emptyBootstrap({ root: process.cwd(), budget: DEFAULT_CONFIG.bootstrap_budget, format, minConfidence: DEFAULT_MIN_CONFIDENCE, encoding: DEFAULT_ENCODING }, 'usage error').catch(() => undefined);
          if (empty && !flags.write) process.stdout.write(empty.output);
          throw err;
        }
        const options: BootstrapOptions = { root: process.cwd(), budget: settings.budget ?? DEFAULT_CONFIG.bootstrap_budget, format: settings.format, minConfidence: settings.minConfidence, encoding: settings.encoding };
        let result: BootstrapResult;
        try {
          Object.assign(options, resolveSession(flags, settings));
          result = await bootstrap(options);
        } catch (err) {
          // a session start must never fail: report, and give the empty bootstrap
          result = await emptyBootstrap(options, `unexpected failure (${(err as Error).message})`).catch(() => ({ output: '', ids: [], tokens: 0, chars: 0, notes: ['unexpected failure; printing nothing'], counts: 'tokenizer' as const, source: 'index' as const }));
        }
        for (const n of result.notes) note(`compound bootstrap: ${n}`);
        if (result.explain) note(result.explain);
        if (settings.writeTo) writeSection(settings.writeTo, result);
        else if (result.output !== '') process.stdout.write(result.output);
        return EXIT.ok;
      }),
    );
}
