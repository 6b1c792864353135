import type { Command } from 'commander';
import { checkStore } from '../knowledge/check.js';
import { formatProblem } from '../knowledge/problem.js';
import { EXIT } from '../core/errors.js';
import { action } from './run.js';
import { findRoot } from '../core/config.js';
import { note, out, printJson, style } from './io.js';

export function register(program: Command): void {
  program
    .command('check')
    .description('validate every item (schema, unique ids, paths, links), index.json sync, the ledger, and scan for secrets; exit 1 on any problem')
    .option('--json', 'print problems as JSON')
    .option('--no-cache', 'check every file from scratch, without reading or updating the per-user record of files already found clean (README: compound reindex)')
    .addHelpText('after', '\nEach problem is printed as `file:line: what, why; how to fix`.\n\nExample:\n  $ compound check\n  knowledge/repos/spotter/pitfall/mix-phx-server-3f2a9c1d7e.md:5: confidence `1.7` is outside 0..1, confidence is a probability; use a number between 0 and 1, e.g. 0.7')
    .action(
      action(async (opts: { json?: boolean; cache?: boolean }) => {
        // not context(): check does not use the config, and reading it would load the YAML parser
        const root = findRoot(process.cwd());
        const { store, problems } = await checkStore(root, { cache: opts.cache !== false });
        if (opts.json) printJson({ items: store.items.length, files: store.files, problems });
        else for (const p of problems) out(formatProblem(p));
        const summary = `${store.files} item file(s), ${store.items.length} valid, ${problems.length} problem(s)`;
        note(problems.length ? style.red(summary) : style.green(summary));
        return problems.length ? EXIT.problems : EXIT.ok;
      }),
    );
}
