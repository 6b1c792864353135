/**
 * `compound repos [paths...]`: the repository a harvest would file each session's knowledge
 * under, and why, so that aliases can be set before the first harvest. `compound repos rename
 * <from> <to>`: existing items moved (or merged) from one repo to another, as a plan.
 */
import { entryCounterFor } from '../bootstrap/index-tokens.js';
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { EXIT, UsageError } from '../core/errors.js';
import { forEachSessionFile } from '../sessions/read.js';
import { parseFromList } from '../sessions/walk.js';
import { resolveRepo } from '../harvest/repo-name.js';
import { usersFromPath } from '../harvest/redact-candidate.js';
import { redact } from '../redact/index.js';
import { loadStore } from '../knowledge/store.js';
import { applyPlan, makePlan, planChanges } from '../knowledge/plan.js';
import { sanitizeName } from '../knowledge/paths.js';
import { planRename } from '../harvest/rename-repo.js';
import { action } from './run.js';
import { context, requireStore } from './context.js';
import { note, out, printJson, warn } from './io.js';
import { renderTable } from './format.js';
import { planJson, planLines, planSummary } from './plan-output.js';
import { addCommitOptions, assertGitRepository, commitIfAsked, commitIntent, writerLockWaitMs, type CommitFlags } from './commit-options.js';
import { acquireLock } from '../knowledge/lock.js';
import { LOCK_FILE } from '../knowledge/paths.js';
import { recoverStore } from '../knowledge/recover.js';
import { join } from 'node:path';

interface RepoRow {
  file: string;
  session: string;
  repo?: string;
  source: string;
  evidence: string;
}

export function register(program: Command): void {
  const repos = program.command('repos').description('which repository each session would be filed under, and why; rename a repo in the store');
  repos
    .command('list', { isDefault: true })
    .description('per transcript session: the repo a harvest would use and the evidence for it')
    .argument('[paths...]', 'transcript files, directories or globs')
    .option('--from <list>', 'also the default locations: claude,codex,hermes,gemini,specstory,aider')
    .option('--repo <name>', 'as harvest --repo: for transcripts that name no repository')
    .option('--json', 'print JSON for scripts')
    .addHelpText('after', '\nSet repo_aliases in compound.config.yaml (names or patterns such as `spotter-*: spotter`) for any row that is wrong; aliases always win.\n\nExamples:\n  $ compound repos ~/.claude/projects\n  $ compound repos --from claude,codex --json')
    .action(
      action(async (paths: string[], flags: { from?: string; repo?: string; json?: boolean }) => {
        const { config } = context();
        const from = flags.from ? parseFromList(flags.from) : undefined;
        if (paths.length === 0 && !from) throw new UsageError('no transcripts named', { fix: 'name transcript files or directories, or pass --from claude,codex,...' });
        const rows: RepoRow[] = [];
        await forEachSessionFile(paths.map((p) => resolve(p)), { ...(from ? { from } : {}) }, (result) => {
          for (const s of result.sessions) {
            const users = [...config.redact_users, ...usersFromPath(s.cwd), ...usersFromPath(result.file)];
            const id = resolveRepo(s, result.file, { aliases: config.repo_aliases, users, ...(flags.repo ? { fallback: flags.repo } : {}) });
            // the evidence may quote a path with a user name in it
            rows.push({ file: result.file, session: redact(s.id, { users }).text, ...(id.repo ? { repo: id.repo } : {}), source: id.source, evidence: redact(id.detail, { users }).text });
          }
        });
        if (flags.json) printJson({ sessions: rows });
        else {
          out(
            renderTable(rows, [
              { header: 'repo', value: (r) => r.repo ?? '(none)' },
              { header: 'evidence', value: (r) => `${r.source}: ${r.evidence}` },
              { header: 'session', value: (r) => r.session },
              { header: 'file', value: (r) => r.file },
            ]),
          );
          const none = rows.filter((r) => !r.repo).length;
          note(`${rows.length} session(s), ${new Set(rows.map((r) => r.repo).filter(Boolean)).size} repo(s)${none ? `; ${none} with no repo: their repo items are not written (global and agent items are)` : ''}`);
        }
        return rows.length === 0 ? EXIT.problems : EXIT.ok;
      }),
    );

  const rename = repos
    .command('rename <from> <to>')
    .description('move the items of one repo to another, merging the ones the target already holds')
    .option('--dry-run', 'print the plan without writing anything')
    .option('--json', 'print the plan as JSON');
  addCommitOptions(rename).action(
    action(async (fromName: string, toName: string, flags: CommitFlags & { dryRun?: boolean; json?: boolean }) => {
      const { root } = context();
      requireStore(root);
      if (flags.commit && !flags.dryRun) await assertGitRepository(root);
      const release = flags.dryRun ? () => {} : acquireLock(join(root, LOCK_FILE), { waitMs: writerLockWaitMs() });
      try {
      if (!flags.dryRun) await recoverStore(root, entryCounterFor);
      const from = sanitizeName(fromName);
      const to = sanitizeName(toName);
      if (from === to) throw new UsageError(`rename ${fromName} ${toName}: the same repo`);
      const store = loadStore(root);
      for (const p of store.problems) warn(`${p.file}${p.line ? `:${p.line}` : ''}: ${p.what} (left untouched)`);
      const r = planRename(store.items, from, to);
      if (r.moved + r.merged === 0) warn(`no item of repo ${from} in this store`);
      const plan = makePlan(store.items, r.desired, r.remove, r.reasons);
      let commit;
      if (!flags.dryRun && planChanges(plan).length > 0) {
        const message = `compound: repos rename ${from} ${to} (${r.moved} moved, ${r.merged} merged)`;
        const intent = commitIntent(flags, message);
        const res = applyPlan(root, plan, { indexCounts: entryCounterFor, ...(intent ? { commit: intent } : {}) });
        commit = await commitIfAsked(root, flags, res, message);
      }
      if (flags.json) printJson({ dryRun: Boolean(flags.dryRun), moved: r.moved, merged: r.merged, ...planJson(plan), ...(commit ? { commit } : {}) });
      else for (const line of planLines(plan)) out(line);
      note(`${r.moved} item(s) moved, ${r.merged} merged into ${to}; ${flags.dryRun ? 'plan (dry run, nothing written)' : 'applied'}: ${planSummary(plan)}`);
      if (commit) note(`committed ${commit.sha.slice(0, 12)} on ${commit.branch}`);
      return EXIT.ok;
      } finally {
        release();
      }
    }),
  );
}
