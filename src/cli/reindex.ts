import type { Command } from 'commander';
import { join } from 'node:path';
import { loadStoreParallel } from '../knowledge/store-parallel.js';
import { LoadCache } from '../knowledge/load-cache.js';
import { buildIndex, renderIndex } from '../knowledge/index-file.js';
import { readIndexText } from '../knowledge/store.js';
import { entryCounterFor, hasUsableCounts } from '../bootstrap/index-tokens.js';
import { INDEX_FILE, LOCK_FILE } from '../knowledge/paths.js';
import { acquireLock } from '../knowledge/lock.js';
import { writeFileAtomic, abs } from '../knowledge/fsutil.js';
import { formatProblem } from '../knowledge/problem.js';
import { EXIT } from '../core/errors.js';
import { action } from './run.js';
import { refreshSearchCache } from './search-cache.js';
import { addCommitOptions, assertGitRepository, commitIfAsked, writerLockWaitMs, type CommitFlags } from './commit-options.js';
import { recoverStore } from '../knowledge/recover.js';
import { findRoot } from '../core/config.js';
import { requireStore } from './context.js';
import { note, out, printJson } from './io.js';

export function register(program: Command): void {
  const cmd = program
    .command('reindex')
    .description('regenerate knowledge/index.json from the item files (invalid items are left out and reported; exit 1 if any)')
    .option('--dry-run', 'say whether the index would change, without writing it')
    .option('--json', 'print the result as JSON')
    .option('--no-cache', 'parse every file, without reading or updating the per-user record of files already found clean');
  addCommitOptions(cmd)
    .addHelpText('after', '\nExample:\n  $ compound reindex\n  index.json updated: 42 item(s)\n  $ compound reindex --commit --branch knowledge/reindex')
    .action(
      action(async (opts: { dryRun?: boolean; json?: boolean; cache?: boolean } & CommitFlags) => {
        // not context(): the config is not used here, and reading it would load the YAML parser
        const root = findRoot(process.cwd());
        requireStore(root);
        if (opts.commit && !opts.dryRun) await assertGitRepository(root);
        const release = opts.dryRun ? () => {} : acquireLock(join(root, LOCK_FILE), { waitMs: writerLockWaitMs(), onWait: (holder) => note(`waiting for the knowledge store (locked by ${holder}) ...`) });
        try {
          if (!opts.dryRun) await recoverStore(root, entryCounterFor);
          const cache = opts.cache === false ? undefined : LoadCache.open(root);
          const store = await loadStoreParallel(root, cache ? { cache } : {});
          // the same item files and index.json as a run that found them in sync: no rendering
          const digest = cache?.storeDigest();
          const current = readIndexText(root);
          // (an index written before token counts were carried, or with another renderer's, is redone)
          const inSync = current !== undefined && cache?.indexInSync(digest, current) === true && (hasUsableCounts(current) || !store.items.some((i) => i.meta.status === 'active'));
          const text = inSync ? current : renderIndex(buildIndex(store.items, entryCounterFor(current)));
          const changed = current !== text;
          if (changed && !opts.dryRun) writeFileAtomic(abs(root, INDEX_FILE), text);
          // the search structure is derived too: rebuilt when the index changed or it is not current
          if (!opts.dryRun && (changed || !(await import('../bootstrap/cache.js')).hasCurrentStructure(root))) await refreshSearchCache(root);
          if (!changed || !opts.dryRun) cache?.rememberIndex(digest, text);
          cache?.save();
          // a reviewer's edits and deletions of item files are committed with the index they led to
          let commit;
          if (opts.commit && !opts.dryRun) {
            const { knowledgeChanges } = await import('../knowledge/git.js');
            const edits = await knowledgeChanges(root);
            const applied = { changed: [...new Set([...edits.changed, ...(changed ? [INDEX_FILE] : [])])].sort(), removed: edits.removed };
            if (applied.changed.length + applied.removed.length > 0) commit = await commitIfAsked(root, opts, applied, `compound: reindex knowledge/index.json${edits.removed.length ? ` (${edits.removed.length} item(s) deleted by review)` : ''}\n`);
          }
          if (commit) note(`committed ${commit.sha.slice(0, 12)} on ${commit.branch}`);
          for (const p of store.problems) note(formatProblem(p));
          const verb = changed ? (opts.dryRun ? 'would be updated' : 'updated') : 'unchanged';
          if (opts.json) printJson({ changed, dryRun: Boolean(opts.dryRun), items: store.items.length, problems: store.problems });
          else out(`index.json ${verb}: ${store.items.length} item(s)${store.problems.length ? `, ${store.problems.length} problem(s) left out` : ''}`);
          return store.problems.length ? EXIT.problems : EXIT.ok;
        } finally {
          release();
        }
      }),
    );
}
