// The synthetic corpus the reader, harvest and measure benchmarks share: generated once per
// size into bench/out/ (gitignored) by bench/gen-corpus.mjs, deterministic for its arguments.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { NODE } from './lib.mjs';

export const CORPORA = {
  quick: { sessions: 2000, bytes: '100M' },
  full: { sessions: 20000, bytes: '1G' },
};

export function corpus(root, quick) {
  const spec = quick ? CORPORA.quick : CORPORA.full;
  const dir = join(root, 'bench', 'out', `corpus-${spec.sessions}-${spec.bytes}`);
  const done = join(dir, '.complete');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    execFileSync(NODE, [join(root, 'bench', 'gen-corpus.mjs'), '--out', dir, '--sessions', String(spec.sessions), '--bytes', spec.bytes, '--seed', '1', '--quiet'], { stdio: 'inherit' });
    writeFileSync(done, '');
  }
  warmCache(dir);
  return { dir, ...spec, ...measure(dir) };
}

/**
 * Reads every file of the corpus once, untimed, so that the next timed run finds it in the page
 * cache. Run before every timed run, not once: on the machine of BENCHMARKS.md the kernel gives
 * cached pages back within minutes (the page cache held 0.7 GB some minutes after the 1.1 GB
 * corpus had been read, and shrank by 130 MB in two idle minutes), and reading the corpus from
 * disk took 6.0 s against 1.0 s from the cache.
 */
export function warmCache(dir) {
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) readFileSync(join(d.parentPath, d.name));
  }
}

function measure(dir) {
  let files = 0;
  let bytes = 0;
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (d.isFile() && TRANSCRIPT_FILE.test(d.name)) {
      files++;
      bytes += statSync(join(d.parentPath, d.name)).size;
    }
  }
  return { files, totalBytes: bytes };
}

/**
 * The files a directory walk of the readers picks up (src/sessions/walk.ts), hidden ones such as
 * `.aider.chat.history.md` included: the baseline reads exactly the files the readers read.
 */
const TRANSCRIPT_FILE = /\.(jsonl|json|md|markdown)$/i;

/** The raw-parse baseline: read every transcript file, split into lines, JSON.parse each JSON line. */
export const RAW_PARSE = `
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
let lines = 0, parsed = 0;
for (const d of readdirSync(process.argv[1], { recursive: true, withFileTypes: true })) {
  if (!d.isFile() || !${TRANSCRIPT_FILE}.test(d.name)) continue;
  const text = readFileSync(join(d.parentPath, d.name), 'utf8');
  if (d.name.endsWith('.json')) { JSON.parse(text); parsed++; continue; }
  for (const line of text.split('\\n')) { lines++; if (line.startsWith('{')) { try { JSON.parse(line); parsed++; } catch {} } }
}
console.log(lines, parsed);`;
