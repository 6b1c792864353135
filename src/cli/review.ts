/**
 * `compound review`: what reviewers did with harvested items, per category and extractor: kept
 * as written, edited, deleted (and, on the harvest branch, not merged yet). Read from the harvest
 * commits in git history against the store as it is now; `measure` puts the same table on the
 * dashboard.
 */
import type { Command } from 'commander';
import { EXIT } from '../core/errors.js';
import { loadStore, readLedger } from '../knowledge/store.js';
import { buildData } from '../measure/data.js';
import { readHistory } from '../measure/history.js';
import { reviewOutcomes, type ReviewRow } from '../measure/metrics/review.js';
import { action } from './run.js';
import { context, requireStore } from './context.js';
import { out, printJson } from './io.js';
import { renderTable } from './format.js';

const share = (n: number, of: number) => (of === 0 ? '–' : `${Math.round((100 * n) / of)}%`);

function totalsOf(rows: readonly ReviewRow[], label: string): ReviewRow {
  const t: ReviewRow = { category: label, extractor: '', kept: 0, edited: 0, deleted: 0, pending: 0 };
  for (const r of rows) for (const k of ['kept', 'edited', 'deleted', 'pending'] as const) t[k] += r[k];
  return t;
}

export function register(program: Command): void {
  program
    .command('review')
    .description('what reviewers did with harvested items, per category and extractor: kept as written, edited, deleted')
    .option('--json', 'print JSON for scripts')
    .addHelpText(
      'after',
      '\nRead from the harvest commits in the history of HEAD and of knowledge/nightly (local or origin):\n' +
        'an item still as the harvest wrote it (category, title, text) was kept, a changed one edited,\n' +
        'one whose file is gone while the ledger lists it deleted. A squash-merged pull request keeps\n' +
        "what the harvester wrote only on its branch: keep the branch, or merge with a merge commit.\n\nExamples:\n  $ compound review\n  $ compound review --json",
    )
    .action(
      action(async (flags: { json?: boolean }) => {
        const { root } = context();
        requireStore(root);
        const history = await readHistory(root);
        const store = loadStore(root);
        const data = buildData({ items: store.items, sessions: [], emitted: readLedger(root).emitted, history, cost: { sessions: 0 } });
        const rows = reviewOutcomes(history.written ?? [], data);
        const total = totalsOf(rows, 'total');
        if (flags.json) {
          printJson({ history: history.available ? 'yes' : (history.reason ?? 'no'), harvested: (history.written ?? []).length, rows, total });
          return EXIT.ok;
        }
        if (!history.available) {
          out(`No git history (${history.reason ?? 'unknown'}): review outcomes come from the harvest commits.`);
          return EXIT.ok;
        }
        if (rows.length === 0) {
          out('No harvest commit in the history of HEAD or knowledge/nightly yet (harvest with --commit or --branch).');
          return EXIT.ok;
        }
        const n = (k: 'kept' | 'edited' | 'deleted' | 'pending') => ({ header: k === 'pending' ? 'not merged yet' : k, value: (r: ReviewRow) => String(r[k]), align: 'right' as const });
        out(
          renderTable(
            [...rows, total],
            [
              { header: 'category', value: (r: ReviewRow) => r.category },
              { header: 'extractor', value: (r: ReviewRow) => r.extractor },
              n('kept'),
              n('edited'),
              n('deleted'),
              { header: 'kept as written', value: (r: ReviewRow) => share(r.kept, r.kept + r.edited + r.deleted), align: 'right' },
              n('pending'),
            ],
          ),
        );
        return EXIT.ok;
      }),
    );
}
