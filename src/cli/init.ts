import type { Command } from 'commander';
import { resolve } from 'node:path';
import { initStore } from '../knowledge/init.js';
import { action } from './run.js';
import { out, printJson } from './io.js';

export function register(program: Command): void {
  program
    .command('init [dir]')
    .description('create knowledge/ (README, empty index.json and ledger.json) and compound.config.yaml in dir (default: .)')
    .option('--json', 'print what was created as JSON')
    .addHelpText('after', '\nExample:\n  $ compound init\n  $ compound init ../my-repo')
    .action(
      action((dir: string | undefined, opts: { json?: boolean }) => {
        const root = resolve(dir ?? '.');
        const result = initStore(root);
        if (opts.json) return printJson({ root, ...result });
        for (const f of result.created) out(`created ${f}`);
        for (const f of result.existing) out(`exists  ${f} (left as it is)`);
      }),
    );
}
