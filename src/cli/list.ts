import type { Command } from 'commander';
import { loadStore } from '../knowledge/store.js';
import { indexEntry, type IndexEntry } from '../knowledge/index-file.js';
import { formatProblem } from '../knowledge/problem.js';
import { CATEGORIES, SCOPES, STATUSES } from '../knowledge/item.js';
import { UsageError } from '../core/errors.js';
import { action } from './run.js';
import { context } from './context.js';
import { note, out, printJson } from './io.js';
import { table } from './table.js';

interface ListOptions {
  repo?: string;
  agent?: string;
  category?: string;
  scope?: string;
  status?: string;
  json?: boolean;
}

function oneOf(name: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) throw new UsageError(`--${name} ${value} is not one of ${allowed.join(', ')}`, { fix: `pass one of: ${allowed.join(', ')}` });
}

export function filterEntries(entries: IndexEntry[], o: ListOptions): IndexEntry[] {
  return entries.filter(
    (e) =>
      (o.repo === undefined || e.repo === o.repo) &&
      (o.agent === undefined || e.agent === o.agent) &&
      (o.category === undefined || e.category === o.category) &&
      (o.scope === undefined || e.scope === o.scope) &&
      (o.status === undefined || e.status === o.status),
  );
}

export function register(program: Command): void {
  program
    .command('list')
    .description('list items, filtered by repo, agent, category, scope or status')
    .option('--repo <repo>', 'only items of this repo')
    .option('--agent <agent>', 'only items of this agent')
    .option('--category <category>', `only this category (${CATEGORIES.join(', ')})`)
    .option('--scope <scope>', `only this scope (${SCOPES.join(', ')})`)
    .option('--status <status>', `only this status (${STATUSES.join(', ')})`)
    .option('--json', 'print index entries as JSON')
    .addHelpText('after', '\nExample:\n  $ compound list --repo spotter --category pitfall')
    .action(
      action((opts: ListOptions) => {
        oneOf('category', opts.category, CATEGORIES);
        oneOf('scope', opts.scope, SCOPES);
        oneOf('status', opts.status, STATUSES);
        const { root } = context();
        const store = loadStore(root);
        for (const p of store.problems) note(formatProblem(p));
        const entries = filterEntries(store.items.map(indexEntry), opts);
        if (opts.json) return printJson(entries);
        if (entries.length === 0) return note('no items match');
        out(
          table(
            ['id', 'category', 'scope', 'where', 'conf', 'seen', 'title'],
            entries.map((e) => [e.id, e.category, e.scope, e.repo ?? e.agent ?? '', e.confidence.toFixed(2), String(e.evidence), e.title]),
          ),
        );
      }),
    );
}
