#!/usr/bin/env node
// Output-identity check for reader changes: reads each input with the built readers (dist/) and
// prints a sha256 over the JSON of every file result (file, ok, format, sessions, warnings) in
// order, twice: through forEachSessionFile (files held whole) and through each reader's own
// streaming path (no preloaded content). A reader change that keeps these digests keeps output.
//   node scripts/sessions-digest.mjs [dir ...]   (default: test_sessions and /work/shared/transcripts)
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const { forEachSessionFile } = await import(join(root, 'dist/sessions/read.js'));
const { READERS } = await import(join(root, 'dist/sessions/registry.js'));

const args = process.argv.slice(2);
const streamed = !args.includes('--no-stream');
const inputs = args.filter((a) => !a.startsWith('--'));
const dirs = inputs.length ? inputs : [join(root, 'test_sessions'), '/work/shared/transcripts'].filter((d) => existsSync(d));

for (const dir of dirs) {
  const whole = createHash('sha256');
  const stream = createHash('sha256');
  let files = 0;
  let sessions = 0;
  const formats = [];
  const r = await forEachSessionFile([dir], {}, (f) => {
    files++;
    sessions += f.sessions.length;
    whole.update(JSON.stringify(f));
    whole.update('\n');
    formats.push([f.file, f.format]);
  });
  // how many files worker threads read (COMPOUND_READ_WORKERS) or read ahead is scheduling, not output
  const { filesOnWorkers: _scheduling, filesPrefetched: _prefetched, ...summary } = r.summary;
  whole.update(JSON.stringify({ ...r, summary }));
  let line = `${dir}: ${files} files, ${sessions} sessions, whole ${whole.digest('hex').slice(0, 16)}`;
  if (streamed) {
    for (const [file, format] of formats) {
      const reader = READERS.find((x) => x.format === format);
      if (!reader) continue;
      const warnings = [];
      const got = await reader.read(file, { onWarning: (w) => warnings.push(w) });
      stream.update(JSON.stringify({ file, got, warnings }));
      stream.update('\n');
    }
    line += `, streamed ${stream.digest('hex').slice(0, 16)}`;
  }
  console.log(line);
}
