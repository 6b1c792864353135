#!/usr/bin/env node
// `npm run bench [-- --quick] [name ...]`: runs bench/<name>.bench.mjs and rewrites its section
// of BENCHMARKS.md (between <!-- bench:name --> markers), leaving the other sections alone.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const wanted = args.filter((a) => !a.startsWith('--'));
const all = readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).map((f) => f.replace('.bench.mjs', '')).sort();
const names = wanted.length ? wanted : all;

if (!existsSync(join(root, 'dist/cli/main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const file = join(root, 'docs', 'BENCHMARKS.md');
let doc = existsSync(file)
  ? readFileSync(file, 'utf8')
  : '# Benchmarks\n\nWritten by `npm run bench` (`node bench/run.mjs [--quick] [name ...]`, one section per bench); every figure is a ratio against a baseline measured in the same run, plus the raw times. Rerun to check.\n';

for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no bench named ${name} (have: ${all.join(', ')})`);
    process.exit(2);
  }
  console.error(`bench ${name}${quick ? ' (quick)' : ''} ...`);
  const mod = await import(join(here, `${name}.bench.mjs`));
  const { title, markdown } = await mod.run({ quick, root });
  const machine = `_Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${quick ? 'quick run' : 'full run'}._`;
  const section = `<!-- bench:${name} -->\n## ${title}\n\n${machine}\n\n${markdown.trim()}\n<!-- /bench:${name} -->`;
  const re = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  doc = re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, doc.endsWith('\n') ? doc : `${doc}\n`);
  console.error(markdown);
}
