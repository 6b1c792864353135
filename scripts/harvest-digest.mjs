#!/usr/bin/env node
// Output-identity check for harvest changes: harvests each input directory into a new empty
// store with a build's CLI (`<dist>/cli/main.js init`, then `harvest --json`) and prints a
// sha256 over every file the harvest wrote under knowledge/ (derived caches in knowledge/.cache/
// left out) and its --json output. A change that keeps these digests keeps what users get.
//   node scripts/harvest-digest.mjs [--dist <dir>] [dir ...]
//   (default: this checkout's dist/; test_sessions and ../shared/transcripts)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--dist');
const dist = resolve(at >= 0 ? args[at + 1] ?? '' : join(root, 'dist'));
const inputs = args.filter((a, i) => a !== '--dist' && (at < 0 || i !== at + 1));
const dirs = (inputs.length ? inputs : [join(root, 'test_sessions'), join(root, '..', 'shared', 'transcripts')].filter((d) => existsSync(d))).map((d) => resolve(d));
const cli = join(dist, 'cli', 'main.js');

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .filter((f) => !relative(dir, f).split('/').includes('.cache'))
    .sort();
}

for (const dir of dirs) {
  const store = mkdtempSync(join(tmpdir(), 'compound-harvest-digest-'));
  try {
    execFileSync(process.execPath, [cli, 'init', store], { stdio: 'ignore' });
    const json = execFileSync(process.execPath, [cli, '-C', store, 'harvest', dir, '--json'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
    const hash = createHash('sha256');
    const knowledge = join(store, 'knowledge');
    const files = filesUnder(knowledge);
    for (const f of files) hash.update(`${relative(knowledge, f)}\0`).update(readFileSync(f)).update('\0');
    hash.update(json);
    console.log(`${hash.digest('hex').slice(0, 16)}  ${files.length} files  ${dir}`);
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}
