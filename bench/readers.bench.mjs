// Issue 3 figures: reading throughput against a raw-parse baseline over the same files, peak
// memory reading the corpus, and the sampler's time to score every session.
import { join } from 'node:path';
import { NODE, fmtMs, fmtRange, mdTable, peakRss, ratio, timeCommand, timeRounds } from './lib.mjs';
import { RAW_PARSE, corpus } from './corpus.mjs';

export async function run({ quick, root }) {
  const c = corpus(root, quick);
  const read = `
    const { forEachSessionFile } = await import(${JSON.stringify(join(root, 'dist/sessions/read.js'))});
    let sessions = 0, events = 0;
    const r = await forEachSessionFile([process.argv[1]], {}, (f) => { for (const s of f.sessions) { sessions++; events += s.events.length; } });
    console.log(sessions, events, r.summary.filesFailed);`;
  // three rounds of baseline, readers and worker reading, interleaved: medians of the same
  // minutes of a shared machine (single runs moved by 10-15% between identical runs here)
  const runs = 3;
  const [base, ours, pooled] = timeRounds(
    [
      { cmd: NODE, args: ['--input-type=module', '-e', RAW_PARSE, c.dir] },
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '' } },
      // the opt-in worker-thread reading (read-pool.ts): one worker besides the main thread
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '1' } },
    ],
    runs,
  );
  if (pooled.result.stdout !== ours.result.stdout) throw new Error(`worker reading gave ${pooled.result.stdout.trim()}, not ${ours.result.stdout.trim()}`);
  const [sessions, events, failed] = ours.result.stdout.trim().split(' ').map(Number);
  const baseRss = peakRss(['--input-type=module', '-e', RAW_PARSE, c.dir]);
  const oursRss = peakRss(['--input-type=module', '-e', read, c.dir], { env: { COMPOUND_READ_WORKERS: '' } });
  const pooledRss = peakRss(['--input-type=module', '-e', read, c.dir], { env: { COMPOUND_READ_WORKERS: '1' } });
  const sample = timeCommand(NODE, [join(root, 'dist/cli/main.js'), 'sample', c.dir, '--count', '100', '--format', 'paths'], { runs });
  const mb = c.totalBytes / 1024 / 1024;
  const markdown = [
    `Corpus: \`bench/gen-corpus.mjs --sessions ${c.sessions} --bytes ${c.bytes} --seed 1\`: ${c.files.toLocaleString('en-US')} files, ${mb.toFixed(0)} MiB; read as ${sessions.toLocaleString('en-US')} sessions, ${events.toLocaleString('en-US')} events, ${failed} unreadable file(s) (the generator's \`manifest.json\` is no transcript). Baseline: one process reading every file, splitting it into lines and \`JSON.parse\`-ing each JSON line. Times are medians of ${runs} rounds that run the baseline and both reader rows in turn (range in brackets). Throughput ratio = baseline median / reader median (higher is better; 1.0 = as fast as the baseline).`,
    '',
    mdTable(
      ['what', 'time', 'MiB/s', 'throughput vs baseline', 'peak RSS'],
      [
        ['baseline: split lines + JSON.parse', fmtRange(base), (mb / (base.ms / 1000)).toFixed(0), '1.00x', baseRss ? `${(baseRss / 1024).toFixed(0)} MiB` : 'n/a'],
        ['`readSessions` (all readers, normalized events)', fmtRange(ours), (mb / (ours.ms / 1000)).toFixed(0), ratio(base.ms, ours.ms), oursRss ? `${(oursRss / 1024).toFixed(0)} MiB` : 'n/a'],
        ['the same with `COMPOUND_READ_WORKERS=1` (opt-in: one worker thread besides the main one)', fmtRange(pooled), (mb / (pooled.ms / 1000)).toFixed(0), ratio(base.ms, pooled.ms), pooledRss ? `${(pooledRss / 1024).toFixed(0)} MiB` : 'n/a'],
        [`\`compound sample\` over ${c.files.toLocaleString('en-US')} files (head+tail scan)`, fmtMs(sample.ms), '', '', ''],
      ],
    ),
    '',
    'The baseline holds one whole file in memory at a time. The readers read a file of up to 8 MiB whole, in one read (two files in flight), and stream bigger ones line by line, so their peak memory does not grow with file size (a single 100 MB line is cut at 16 MiB with a warning).',
    '',
    'With `COMPOUND_READ_WORKERS=n` the files are dealt in jobs to n worker threads and the main thread, and handed to the caller in file order (same results). Each result a worker reads is copied to the main thread (structured clone), which adds about a third to the CPU time (and a second heap to peak memory), so the wall time it saves depends on how idle the other cores are: on the 2-core machine these figures come from, shared with other jobs, paired runs over the 1 GB corpus ranged from 15% faster to 40% slower than the default. Hence it is off by default; compare the worker row with the one above it, measured in the same run.',
  ].join('\n');
  return { title: 'Session readers and sampler', markdown };
}
