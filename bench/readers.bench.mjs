// Issue 3 figures: reading throughput against a raw-parse baseline over the same files, peak
// memory reading the corpus, and the sampler's time to score every session.
import { join } from 'node:path';
import { NODE, fmtMs, fmtRange, mdTable, peakRss, ratio, timeCommand, timeRounds } from './lib.mjs';
import { RAW_PARSE, corpus, warmCache } from './corpus.mjs';

export async function run({ quick, root }) {
  const c = corpus(root, quick);
  const warm = () => warmCache(c.dir);
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
      { cmd: NODE, args: ['--input-type=module', '-e', RAW_PARSE, c.dir], before: warm },
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '' }, before: warm },
      // the opt-in worker-thread reading (read-pool.ts): one worker besides the main thread
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '1' }, before: warm },
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
    `Corpus: \`bench/gen-corpus.mjs --sessions ${c.sessions} --bytes ${c.bytes} --seed 1\`: ${c.files.toLocaleString('en-US')} files, ${mb.toFixed(0)} MiB; read as ${sessions.toLocaleString('en-US')} sessions, ${events.toLocaleString('en-US')} events, ${failed} unreadable file(s) (the generator's \`manifest.json\` is no transcript). Baseline: one process reading every file, splitting it into lines and \`JSON.parse\`-ing each JSON line. Times are medians of ${runs} rounds that run the baseline and both reader rows in turn (range in brackets), each run right after an untimed read of every file (page cache warm). Throughput ratio = baseline median / reader median (higher is better; 1.0 = as fast as the baseline).`,
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
    'With `COMPOUND_READ_WORKERS=n` the files are cut into jobs that n worker threads and the main thread take in file order (the main thread takes one whenever it would otherwise wait for a worker), and results are handed to the caller in file order (same results). Each result a worker reads is copied to the main thread (structured clone: serialized there, deserialized here), and with two threads parsing at once each parses slower and collects more garbage: over the 1 GB corpus the two threads used 22 to 27 s of user CPU where one thread used 14 to 17.5 s (`/usr/bin/time`, 5 and 4 runs), so on this 2-core machine the wall time came out within 4% of the default, either way. Hence it is off by default; compare the worker row with the one above it, measured in the same run.',
  ].join('\n');
  return { title: 'Session readers and sampler', markdown };
}
