#!/usr/bin/env node
// Output-identity check for reader changes: reads each input with the built readers (dist/) and
// prints a sha256 over the JSON of every file result (file, ok, format, sessions, warnings) in
// order, twice: through forEachSessionFile (files held whole) and through each reader's own
// streaming path (no preloaded content). A reader change that keeps these digests keeps output.
// --canonical hashes every object with its keys sorted: the same content in another key order
// gives the same digest (for a change to how events are built, not to what they hold).
// --dist D reads with the build in D instead of dist/.
//   node scripts/sessions-digest.mjs [--canonical] [--dist D] [dir ...]   (default: test_sessions and ../shared/transcripts)
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const dist = distAt === -1 ? join(root, 'dist') : resolve(args.splice(distAt, 2)[1]);
const { forEachSessionFile } = await import(join(dist, 'sessions/read.js'));
const { READERS } = await import(join(dist, 'sessions/registry.js'));

const streamed = !args.includes('--no-stream');
const canonical = args.includes('--canonical');
const inputs = args.filter((a) => !a.startsWith('--'));
/** JSON.stringify, with every object's keys sorted under --canonical. */
const json = (v) => (canonical ? JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x)) : JSON.stringify(v));
const dirs = inputs.length ? inputs : [join(root, 'test_sessions'), join(root, '../shared/transcripts')].filter((d) => existsSync(d));

for (const dir of dirs) {
  const whole = createHash('sha256');
  const stream = createHash('sha256');
  let files = 0;
  let sessions = 0;
  const formats = [];
  const r = await forEachSessionFile([dir], {}, (f) => {
    files++;
    sessions += f.sessions.length;
    whole.update(json(f));
    whole.update('\n');
    formats.push([f.file, f.format]);
  });
  // how many files worker threads read (COMPOUND_READ_WORKERS) or read ahead is scheduling, not output
  const { filesOnWorkers: _scheduling, filesPrefetched: _prefetched, ...summary } = r.summary;
  whole.update(json({ ...r, summary }));
  let line = `${dir}: ${files} files, ${sessions} sessions, whole ${whole.digest('hex').slice(0, 16)}`;
  if (streamed) {
    for (const [file, format] of formats) {
      const reader = READERS.find((x) => x.format === format);
      if (!reader) continue;
      const warnings = [];
      const got = await reader.read(file, { onWarning: (w) => warnings.push(w) });
      stream.update(json({ file, got, warnings }));
      stream.update('\n');
    }
    line += `, streamed ${stream.digest('hex').slice(0, 16)}`;
  }
  console.log(line);
}
