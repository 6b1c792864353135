import type { Command } from 'commander';
import { loadStore } from '../knowledge/store.js';
import { indexEntry } from '../knowledge/index-file.js';
import { InputError } from '../core/errors.js';
import { action } from './run.js';
import { context } from './context.js';
import { out, printJson } from './io.js';
import { relative, resolve } from 'node:path';

export function register(program: Command): void {
  program
    .command('show <idOrPath>')
    .description('print one item (by id, id prefix, or path)')
    .option('--json', 'print the index entry and sources as JSON')
    .addHelpText('after', '\nExample:\n  $ compound show 3f2a9c1d7e\n  $ compound show knowledge/global/tool-quirk/read-tool-rejects-large-files-0a1b2c3d4e.md')
    .action(
      action((key: string, opts: { json?: boolean }) => {
        const { root } = context();
        const store = loadStore(root);
        const rel = relative(root, resolve(key)).split('\\').join('/');
        const matches = store.items.filter((i) => i.meta.id === key || i.path === key || i.path === rel || (key.length >= 4 && i.meta.id.startsWith(key)));
        if (matches.length !== 1) {
          throw new InputError(matches.length ? 'E_SHOW_AMBIGUOUS' : 'E_SHOW_NOT_FOUND', key, undefined, matches.length ? `\`${key}\` matches ${matches.length} items` : `no item \`${key}\``, {
            why: matches.length ? 'an id prefix must name exactly one item' : 'no valid item has that id or path',
            fix: matches.length ? 'give more characters of the id' : key.length < 4 && /^[0-9a-f]+$/.test(key) ? 'an id prefix needs at least 4 of the 10 characters; run `compound list` to see ids' : 'run `compound list` to see ids (or `compound check` if the file is invalid)',
          });
        }
        const item = matches[0]!;
        if (opts.json) return printJson({ ...indexEntry(item), sources: item.meta.sources, body: item.body });
        out(item.raw);
      }),
    );
}
