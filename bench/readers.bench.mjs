// Issue 3 figures: reading throughput against a raw-parse baseline over the same files, peak
// memory reading the corpus, and the sampler's time to score every session.
import { join } from 'node:path';
import { NODE, fmtMs, fmtRange, mdTable, peakRss, roundRatio, timeCommand, timeRounds } from './lib.mjs';
import { RAW_PARSE, corpus, warmCache } from './corpus.mjs';

export async function run({ quick, root }) {
  const c = corpus(root, quick);
  const warm = () => warmCache(c.dir);
  const read = `
    const { forEachSessionFile } = await import(${JSON.stringify(join(root, 'dist/sessions/read.js'))});
    let sessions = 0, events = 0;
    const r = await forEachSessionFile([process.argv[1]], {}, (f) => { for (const s of f.sessions) { sessions++; events += s.events.length; } });
    console.log(sessions, events, r.summary.filesFailed, r.summary.filesOnWorkers ?? 0, r.summary.filesPrefetched ?? 0);`;
  // rounds of baseline, readers and worker reading, interleaved: each ratio is taken within a
  // round (see roundRatio); single runs of one build moved by 20-70% between rounds here
  const runs = quick ? 3 : 5;
  const [base, ours, pooled] = timeRounds(
    [
      { cmd: NODE, args: ['--input-type=module', '-e', RAW_PARSE, c.dir], before: warm },
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '' }, before: warm },
      // the opt-in worker-thread reading (read-pool.ts): one worker besides the main thread
      { cmd: NODE, args: ['--input-type=module', '-e', read, c.dir], env: { COMPOUND_READ_WORKERS: '1' }, before: warm },
    ],
    runs,
  );
  const [sessions, events, failed, , prefetched] = ours.result.stdout.trim().split(' ').map(Number);
  // the prefetch thread, like a read worker, fails quietly (its files are then read here)
  if (!(prefetched > 0)) throw new Error('reading read no file ahead on the prefetch thread');
  const [pooledSessions, pooledEvents, pooledFailed, onWorkers] = pooled.result.stdout.trim().split(' ').map(Number);
  if (pooledSessions !== sessions || pooledEvents !== events || pooledFailed !== failed) throw new Error(`worker reading gave ${pooled.result.stdout.trim()}, not ${ours.result.stdout.trim()}`);
  // a worker that fails to start leaves every file to the main thread, silently (see startWorker)
  if (!(onWorkers > 0)) throw new Error('worker reading read no file on a worker thread');
  const baseRss = peakRss(['--input-type=module', '-e', RAW_PARSE, c.dir]);
  const oursRss = peakRss(['--input-type=module', '-e', read, c.dir], { env: { COMPOUND_READ_WORKERS: '' } });
  const pooledRss = peakRss(['--input-type=module', '-e', read, c.dir], { env: { COMPOUND_READ_WORKERS: '1' } });
  const sampleArgs = [join(root, 'dist/cli/main.js'), 'sample', c.dir, '--count', '100', '--format', 'paths'];
  const sample = timeCommand(NODE, sampleArgs, { runs });
  const sampleRss = peakRss(sampleArgs);
  const mb = c.totalBytes / 1024 / 1024;
  const markdown = [
    `Corpus: \`bench/gen-corpus.mjs --sessions ${c.sessions} --bytes ${c.bytes} --seed 1\`: ${c.files.toLocaleString('en-US')} files, ${mb.toFixed(0)} MiB; read as ${sessions.toLocaleString('en-US')} sessions, ${events.toLocaleString('en-US')} events, ${failed} unreadable file(s) (the generator's \`manifest.json\` is no transcript). Baseline: one process reading every file, splitting it into lines and \`JSON.parse\`-ing each JSON line. ${runs} rounds run the baseline and both reader rows in turn, each run right after an untimed read of every file (page cache warm). Times are the medians of the rounds (range in brackets). Throughput vs baseline = baseline time / reader time within each round, median of the rounds (range in brackets; higher is better, 1.0 = as fast as the baseline): the machine's speed drifts over minutes, so a ratio of two runs seconds apart is steadier than a ratio of medians.`,
    '',
    mdTable(
      ['what', 'time', 'MiB/s', 'throughput vs baseline', 'peak RSS'],
      [
        ['baseline: split lines + JSON.parse', fmtRange(base), (mb / (base.ms / 1000)).toFixed(0), '1.00x', baseRss ? `${(baseRss / 1024).toFixed(0)} MiB` : 'n/a'],
        ['`readSessions` (all readers, normalized events)', fmtRange(ours), (mb / (ours.ms / 1000)).toFixed(0), roundRatio(base, ours), oursRss ? `${(oursRss / 1024).toFixed(0)} MiB` : 'n/a'],
        [`the same with \`COMPOUND_READ_WORKERS=1\` (opt-in: one worker thread besides the main one; it read ${onWorkers.toLocaleString('en-US')} of the files)`, fmtRange(pooled), (mb / (pooled.ms / 1000)).toFixed(0), roundRatio(base, pooled), pooledRss ? `${(pooledRss / 1024).toFixed(0)} MiB` : 'n/a'],
        [`\`compound sample\` over ${c.files.toLocaleString('en-US')} files (head+tail scan)`, fmtMs(sample.ms), '', '', sampleRss ? `${(sampleRss / 1024).toFixed(0)} MiB` : 'n/a'],
      ],
    ),
    '',
    'The baseline holds one whole file in memory at a time. The readers read a file of up to 8 MiB whole, in one read, and stream bigger ones line by line, so their peak memory does not grow with file size (a single 100 MB line is cut at 16 MiB with a warning). Without read workers, a second thread reads the files\' bytes ahead of their parse, four batches of about 4 MiB or 64 files ahead (`src/sessions/prefetch.ts`: the copies out of the page cache then run on the other core; it starts once the walk has found 64 files); the bench fails when it read none. Reading 64 files or more turns V8\'s allocation-site pretenuring off for the process (`src/core/v8-tuning.ts`: the Aider part got the shared event builders pretenured, and the events of every later file were born old and kept their young strings alive through scavenges), and, while the old generation holds less than 64 MB, raises V8\'s heap growing factor so that it is not fully collected before it holds about 128 MB (`holdOldGenerationFloor`: V8 had started marking it about 40 times over the corpus, each time for the same 7-10 MB, partly on background threads that take the other core; now 9-13 times, for 40-60 MB more peak memory).',
    '',
    'With `COMPOUND_READ_WORKERS=n` the files are cut into jobs that n worker threads and the main thread take in file order (the main thread takes one whenever it would otherwise wait for a worker), and results are handed to the caller in file order (same results). A worker packs its results (`src/core/plain-data-codec.ts`: cheaper to move between threads than a structured clone), and the main thread unpacks them when the caller reaches them. Two threads parsing at once each parse slower than one alone: over the 1 GB corpus, with one worker, they used 26.5 to 30 s of user CPU where reading without workers used 19 to 20 s, for a wall time 6 to 10% shorter, on an Intel Xeon machine; on an AMD EPYC one, 11.5 to 11.9 s against 8.8 to 9.0 s, for a wall time 3 to 5% longer (`/usr/bin/time`, two alternating pairs of runs each). Hence it is off by default; compare the worker row with the one above it, measured in the same rounds. Until commit 5efcb85 this row measured no worker at all: run under `node --input-type=module -e`, every worker inherited that flag and failed at start-up, and the main thread read every file; the bench now fails when no file was read on a worker.',
  ].join('\n');
  return { title: 'Session readers and sampler', markdown };
}
