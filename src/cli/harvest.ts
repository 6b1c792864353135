import { DEFAULT_ENCODING, loadCounter } from '../bootstrap/tokens.js';
import { entryCounterFor } from '../bootstrap/index-tokens.js';
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { harvest } from '../harvest/harvest.js';
import { renderPrBody } from '../harvest/pr-body.js';
import { applyPlan, planChanges } from '../knowledge/plan.js';
import { commitMessage } from '../knowledge/commit-message.js';
import { formatProblem } from '../knowledge/problem.js';
import { parseFromList } from '../sessions/walk.js';
import { SESSION_FORMATS, type SessionFormat } from '../sessions/model.js';
import { EXIT, UsageError } from '../core/errors.js';
import { action } from './run.js';
import { context, requireStore } from './context.js';
import { addCommitOptions, assertGitRepository, commitIfAsked, commitIntent, restoreFiles, snapshotFiles, writerLockWaitMs, type CommitFlags } from './commit-options.js';
import { note, out, printJson, warn } from './io.js';
import { planJson, planLines, planSummary } from './plan-output.js';
import { progressReporter } from './progress.js';
import { parseMaxLineBytes } from './format.js';
import { refreshSearchCache, SearchCacheBuilder } from './search-cache.js';
import { INDEX_FILE, LEDGER_FILE, LOCK_FILE } from '../knowledge/paths.js';
import { stopPretenuringForBatchReading, tuneCompilerForBatchWork } from '../core/v8-tuning.js';
import { PhaseClock } from '../core/phase-clock.js';
import { acquireLock } from '../knowledge/lock.js';
import { recoverStore } from '../knowledge/recover.js';
import { extractorSetup, type ModelFlags } from './model-options.js';
import { runModelHarvest, modelSummary } from './harvest-model.js';
import type { ModelStats } from '../harvest/model/run.js';

/** Transcripts to read (not skipped as known) from which the harvest builds the search
 * structure on a worker thread (see SearchCacheBuilder). */
const BUILDER_MIN_FILES = 64;

interface HarvestFlags extends CommitFlags, ModelFlags {
  from?: string;
  format?: string;
  inputFormat?: string;
  maxLineBytes?: string;
  top?: string;
  repo?: string;
  dryRun?: boolean;
  json?: boolean;
  prBody?: string;
  prReport?: string;
  linkBase?: string;
  workers?: string;
  timings?: boolean;
}

/** The PR body and report go where asked, e.g. metrics/ before `measure` first made it. */
function writeCreatingDir(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function register(program: Command): void {
  const cmd = program
    .command('harvest [paths...]')
    .description('read finished session transcripts, extract knowledge, redact it, merge it with knowledge/, print the plan and apply it')
    .option('--from <list>', 'also read the default locations: claude,codex,hermes,gemini,specstory,aider')
    .option('--input-format <format>', `read every file as this format (${SESSION_FORMATS.join(', ')})`)
    .option('--format <format>', 'deprecated: use --input-format')
    .option('--max-line-bytes <n>', 'skip (with a warning) transcript lines longer than this (default 16 MiB)')
    .option('--top <n>', "only the N most valuable transcripts not harvested yet (the sampler's ranking)")
    .option('--repo <name>', 'repository for sessions whose transcript names none (no working directory, or a generic one such as /workspace; default: the folder the transcript is in)')
    .option('--workers <n>', 'threads that read and extract transcripts (default: one per core, or 1 for a few files); the result is the same')
    .option('--dry-run', 'print the plan without writing anything')
    .option('--json', 'print the plan and statistics as JSON')
    .option('--pr-body <file>', 'write the markdown body for the nightly pull request (cut to fit GitHub\'s 65,536 characters)')
    .option('--pr-report <file>', 'also write the whole report there (e.g. metrics/harvest-report.md, committed with the branch); a cut body links to it')
    .option('--timings', 'print how long each phase took (walk, stat, reading, merge, plan, writing) on stderr')
    .option('--link-base <url>', 'prefix for file links in the PR body (e.g. https://github.com/org/repo/blob/knowledge/nightly/)')
    .option('--extractor <which>', 'rules, model or both (default: model when compound.config.yaml configures one, else rules)')
    .option('--model-provider <name>', 'anthropic, openai or command (overrides model.provider)')
    .option('--model <id>', 'the model id, e.g. claude-haiku-4-5 (overrides model.name)')
    .option('--model-command <cmd>', "for --model-provider command: the program that answers, e.g. 'claude -p --model haiku'")
    .option('--max-cost <usd>', 'stop sending at this cost; the sessions left are harvested next run (overrides model.max_cost_per_run)')
    .option('--batch-out <file>', "write the model requests in the provider's Batch API format and change nothing else")
    .option('--batch-in <file>', "complete the harvest with the provider's batch results file");
  addCommitOptions(cmd)
    .addHelpText(
      'after',
      '\nRerunning over the same transcripts is a no-op (knowledge/ledger.json); a transcript that grew is harvested for its new events only.\n\nExamples:\n  $ compound harvest test_sessions/\n  $ compound harvest --from claude,codex --top 50 --dry-run\n  $ compound harvest ~/.claude/projects --commit --branch knowledge/nightly --pr-body pr.md',
    )
    .action(
      action(async (paths: string[], flags: HarvestFlags) => {
        const { root, config } = context();
        requireStore(root);
        const top = flags.top === undefined ? undefined : Number(flags.top);
        if (top !== undefined && (!Number.isInteger(top) || top < 1)) throw new UsageError(`--top ${flags.top} is not a positive whole number`);
        const maxLineBytes = flags.maxLineBytes === undefined ? undefined : parseMaxLineBytes(flags.maxLineBytes);
        if (flags.format !== undefined && flags.inputFormat === undefined) warn('--format is deprecated here: use --input-format (--format names the output format everywhere else)');
        const inputFormat = flags.inputFormat ?? flags.format;
        if (inputFormat !== undefined && !(SESSION_FORMATS as readonly string[]).includes(inputFormat)) {
          throw new UsageError(`--input-format ${inputFormat} is not a known format`, { fix: `use one of: ${SESSION_FORMATS.join(', ')}` });
        }
        const workers = flags.workers === undefined ? 'auto' : Number(flags.workers);
        if (workers !== 'auto' && (!Number.isInteger(workers) || workers < 1)) throw new UsageError(`--workers ${flags.workers} is not a positive whole number`);
        const from = flags.from ? parseFromList(flags.from) : undefined;
        if (paths.length === 0 && !from) throw new UsageError('nothing to harvest', { fix: 'name transcript files or directories, or pass --from claude,codex,...' });
        const setup = extractorSetup(flags, config);
        const writes = !flags.dryRun && !flags.batchOut;
        if (flags.commit && writes) await assertGitRepository(root);
        // one writer from reading the store to the commit: a second harvest waits for this one
        const release = writes ? acquireLock(join(root, LOCK_FILE), { waitMs: writerLockWaitMs(), onWait: (holder) => note(`waiting for the knowledge store (locked by ${holder}) ...`) }) : () => {};
        try {
        if (writes) {
          const recovered = await recoverStore(root, entryCounterFor);
          if (recovered.replayed) note(`finished an interrupted run first${recovered.committed ? ` (committed ${recovered.committed.sha.slice(0, 12)})` : ''}`);
        }
        tuneCompilerForBatchWork();
        stopPretenuringForBatchReading();
        const progress = progressReporter('harvest');
        let builder: SearchCacheBuilder | undefined;
        const clock = flags.timings ? new PhaseClock() : undefined;
        clock?.mark('start-up');
        let warnings = 0;
        const harvestOptions = {
          root,
          inputs: paths.map((p) => resolve(p)),
          workers,
          ...(from ? { from } : {}),
          ...(inputFormat ? { format: inputFormat as SessionFormat } : {}),
          ...(clock ? { clock } : {}),
          ...(top !== undefined ? { top } : {}),
          repoAliases: config.repo_aliases,
          ...(flags.repo ? { repo: flags.repo } : {}),
          redactUsers: config.redact_users,
          ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
          onWarning: (w) => {
            warnings++;
            if (warnings <= 20) warn(`${w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`);
          },
          onProgress: (done, total) => {
            // many transcripts to read: index.json will likely change, so the thread that builds
            // the search structure starts now and loads what it needs while the workers read
            if (total >= BUILDER_MIN_FILES && !flags.dryRun) builder ??= new SearchCacheBuilder();
            progress(done, total);
          },
        } satisfies Parameters<typeof harvest>[0];
        let modelStats: ModelStats | undefined;
        let batchOnly = false;
        const result = await (setup.extractor === 'rules' || !setup.model
          ? harvest(harvestOptions)
          : runModelHarvest(harvestOptions, { root, model: setup.model, extractor: setup.extractor, ...(setup.maxCost !== undefined ? { maxCost: setup.maxCost } : {}), flags }).then((r) => {
              modelStats = r.stats;
              batchOnly = r.batchOnly;
              return r.result;
            })
        ).catch((err: unknown) => {
          builder?.close();
          throw err;
        });
        progress.done();
        if (warnings > 20) warn(`${warnings - 20} more warning(s) not shown`);
        for (const p of result.storeProblems) warn(`${formatProblem(p)} (left untouched)`);
        const { plan, stats } = result;
        if (flags.prBody && !batchOnly) {
          const bodyOptions = { ...(flags.linkBase ? { linkBase: flags.linkBase } : {}), ...(modelStats ? { model: modelStats } : {}) };
          // the whole list, uncut, where the (cut) body can link to it
          if (flags.prReport) writeCreatingDir(resolve(flags.prReport), renderPrBody(plan, result.records, stats, { ...bodyOptions, maxChars: Number.MAX_SAFE_INTEGER }));
          writeCreatingDir(resolve(flags.prBody), renderPrBody(plan, result.records, stats, { ...bodyOptions, ...(flags.prReport ? { fullReport: relative(root, resolve(flags.prReport)).split('\\').join('/') } : {}) }));
        }
        let commit;
        let applied = false;
        const message = commitMessage(`compound: harvest ${stats.sessions} session(s)`, plan);
        if (!flags.dryRun && !batchOnly) {
          const b = builder;
          let res;
          // --branch to another branch: what the working tree holds now comes back after the commit
          const before = flags.commit && flags.branch ? snapshotFiles(root, [...plan.entries.map((e) => e.path), INDEX_FILE, LEDGER_FILE]) : undefined;
          try {
            const intent = commitIntent(flags, message);
            // new and changed items get their token counts in index.json: the vocabulary loads
            // here as an ES module, faster than the synchronous load the index writer would do
            if (plan.entries.some((e) => e.action === 'add' || e.action === 'update')) await loadCounter(DEFAULT_ENCODING);
            res = applyPlan(root, plan, { indexWritten: (changed) => (changed ? b?.start(root) : b?.close()), indexCounts: entryCounterFor, ...(intent ? { commit: intent } : {}) });
            clock?.mark('write');
            applied = res.changed.length + res.removed.length > 0;
            if (res.changed.includes(INDEX_FILE)) {
              await (b ? b.finish(root) : refreshSearchCache(root));
              clock?.mark('search structure');
            }
          } finally {
            b?.close();
          }
          // (called with nothing applied too: it closes the run's journal)
          commit = await commitIfAsked(root, flags, res, message);
          if (commit?.elsewhere && before) restoreFiles(root, before);
          if (commit) clock?.mark('commit');
        }
        if (flags.json) {
          printJson({ dryRun: Boolean(flags.dryRun) || batchOnly, stats, ...(modelStats ? { model: modelStats } : {}), ...planJson(plan), ...(commit ? { commit } : {}) });
        } else {
          for (const line of planLines(plan)) out(line);
        }
        note(`${stats.sessions} session(s) from ${stats.files} file(s) (${stats.filesSkipped} unchanged, ${stats.filesFailed} unreadable), ${stats.candidates} candidate(s), ${stats.redactions} redaction(s)`);
        if (modelStats) for (const line of modelSummary(modelStats, Boolean(flags.dryRun))) note(line);
        if (stats.sessionsPending > 0) note(`${stats.sessionsPending} session(s) left for the next run (not marked harvested)`);
        note(`${flags.dryRun || batchOnly ? 'plan (dry run, nothing written)' : applied ? 'applied' : 'nothing to change'}: ${planSummary(plan)}`);
        if (commit) note(`committed ${commit.sha.slice(0, 12)} on ${commit.branch}`);
        if (clock) note(`timings: ${clock.summary()}`);
        // Nothing at all could be read: every file failed. An unchanged file counts as read (the
        // ledger has it), so a rerun over known transcripts and one stray unreadable file is not
        // a failure of the nightly job; that file still gets its warning.
        const nothingRead = stats.files > 0 && stats.filesFailed === stats.files;
        return nothingRead || (stats.files === 0 && planChanges(plan).length === 0 && paths.length > 0) ? EXIT.problems : EXIT.ok;
        } finally {
          release();
        }
      }),
    );
}
