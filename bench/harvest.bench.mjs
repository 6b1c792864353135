// Issue 4 figures: end-to-end harvest of the synthetic corpus against the raw-parse baseline,
// peak memory, and an incremental rerun with nothing new.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE, fmtRange, mdTable, peakRss, roundRatio, timeCommand, timeRounds } from './lib.mjs';
import { RAW_PARSE, corpus, warmCache } from './corpus.mjs';

export async function run({ quick, root }) {
  const c = corpus(root, quick);
  const cli = join(root, 'dist/cli/main.js');
  const { HASH_CACHE_FILE } = await import(join(root, 'dist/harvest/file-hash.js'));
  // Every full run gets an empty store of its own, and all are removed only when the bench ends:
  // on an ext4 file system without a journal, creating files within 30 s of deleting many from
  // the same block group makes the kernel check each recently deleted inode before it reuses one
  // (recently_deleted() in ext4's inode allocator), and removing the last round's store just
  // before the next run slowed that run's writing of its 1,271 item files from about 0.1 s to
  // 1-1.7 s (perf record of such file creation: most of its time in recently_deleted under
  // ext4_create).
  const stores = [];
  const emptyStore = () => {
    const store = mkdtempSync(join(tmpdir(), 'compound-bench-harvest-'));
    stores.push(store);
    timeCommand(NODE, [cli, 'init', store], { runs: 1 });
    return store;
  };
  try {
    // peak RSS of the full run, measured on a store of its own
    const rss = peakRss([cli, '-C', emptyStore(), 'harvest', c.dir, '--json']);
    // rounds of baseline and full harvest (each into an empty store), interleaved: each ratio is
    // taken within a round (see roundRatio); the reruns below use the last round's store
    const rounds = quick ? 1 : 5;
    const [base, full] = timeRounds(
      [
        { cmd: NODE, args: ['--input-type=module', '-e', RAW_PARSE, c.dir], before: () => warmCache(c.dir) },
        {
          cmd: NODE,
          args: () => [cli, '-C', stores.at(-1), 'harvest', c.dir, '--json'],
          before: () => {
            emptyStore();
            warmCache(c.dir);
          },
        },
      ],
      rounds,
    );
    const stats = JSON.parse(full.result.stdout).stats;
    const counts = JSON.parse(full.result.stdout).counts;
    const store = stores.at(-1);
    // reruns with nothing new, in rounds: the first finds every transcript's hash in
    // knowledge/.cache by its stat; the second has that cache deleted first, so it reads and
    // hashes every file again (the ledger still skips all of them) and writes the cache anew
    const [again, cold] = timeRounds(
      [
        { cmd: NODE, args: [cli, '-C', store, 'harvest', c.dir, '--json'] },
        {
          cmd: NODE,
          args: [cli, '-C', store, 'harvest', c.dir, '--json'],
          before: () => {
            // (the name from the build itself: a stale copy of it would delete nothing)
            const cache = join(store, ...HASH_CACHE_FILE.split('/'));
            if (!existsSync(cache)) throw new Error(`no hash cache at ${cache} to delete`);
            rmSync(cache);
            warmCache(c.dir);
          },
        },
      ],
      rounds,
    );
    const againCounts = JSON.parse(again.result.stdout).counts;
    const coldCounts = JSON.parse(cold.result.stdout).counts;
    const mb = c.totalBytes / 1024 / 1024;
    const markdown = [
      `Corpus as in "Session readers" (${c.files.toLocaleString('en-US')} files, ${mb.toFixed(0)} MiB). \`compound harvest <corpus>\` into an empty store, as a fresh process: read, extract, redact, merge, write items, index and ledger. Each full run has an empty store of its own, and the stores are removed only when the bench ends: on an ext4 file system without a journal (this machine's), files created within 30 s of deleting many others in the same place make the kernel check every recently deleted inode before reusing one, which slowed the writing of the item files from about 0.1 s to 1-1.7 s when each run deleted the last run's store first, as this bench did until 2026-11-22. Baseline and full harvest run in turn in ${rounds} round(s), each run right after an untimed read of every file (page cache warm); times are the medians of the rounds (range in brackets), and the throughput is baseline time / harvest time within each round, median of the rounds (range in brackets; see "Session readers" for why). A rerun skips every transcript whose content hash is in the ledger; it takes that hash from \`knowledge/.cache/\` when the file's size, mtime, ctime and inode are unchanged (the corpus's \`manifest.json\`, no transcript, is remembered there as such and not read again), and parses the store only when its stamp there no longer holds (the stat of every item file and of index.json; a store written less than 2 s before is not stamped, so the first rerun after the full harvest loads it); the last row shows the rerun without the hash cache (every file read and hashed, page cache warm). The reruns are medians of as many rounds, as a percentage of the full harvest's median.`,
      '',
      mdTable(
        ['what', 'time', 'vs baseline', 'peak RSS', 'result'],
        [
          ['baseline: split lines + JSON.parse', fmtRange(base), '1.00x', '', ''],
          ['full harvest', fmtRange(full), `${roundRatio(base, full)} throughput`, rss ? `${(rss / 1024).toFixed(0)} MiB` : 'n/a', `${stats.sessions.toLocaleString('en-US')} sessions, ${stats.candidates.toLocaleString('en-US')} candidates, ${counts.add} items added`],
          ['rerun, nothing new', fmtRange(again), `${((again.ms / full.ms) * 100).toFixed(1)}% of the full run`, '', `${againCounts.add} added, ${againCounts.update} updated`],
          ['rerun, nothing new, hash cache deleted', fmtRange(cold), `${((cold.ms / full.ms) * 100).toFixed(1)}% of the full run`, '', `${coldCounts.add} added, ${coldCounts.update} updated`],
        ],
      ),
    ].join('\n');
    return { title: 'Harvest end to end', markdown };
  } finally {
    for (const store of stores) rmSync(store, { recursive: true, force: true });
  }
}
