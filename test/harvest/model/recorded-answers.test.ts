/**
 * The real transcripts of ../shared with recorded model answers (bench/model-answers: answers to
 * the requests `--batch-out` writes for them, fed back with `--batch-in`): harvesting in another
 * order gives the same items, and a rerun adds nothing. Skips when ../shared is absent.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, SHARED, runCli, tempDir } from '../../helpers.js';

const TRANSCRIPTS = join(SHARED, 'transcripts');
const ANSWERS = join(PROJECT_ROOT, 'bench', 'model-answers');

function transcriptFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return transcriptFiles(p);
      return ['FORMATS.md', 'MANIFEST.md', 'README.md'].includes(name) ? [] : [p];
    });
}

function resultsFile(dir: string): string {
  const lines = readdirSync(ANSWERS)
    .filter((f) => /^[0-9a-f]{32}\.json$/.test(f))
    .sort()
    .map((f) => JSON.stringify({ custom_id: f.slice(0, 32), result: { type: 'succeeded', message: { type: 'message', role: 'assistant', content: [{ type: 'text', text: readFileSync(join(ANSWERS, f), 'utf8') }], stop_reason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } } } }));
  const file = join(dir, 'results.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Nothing is sent: the base URL goes nowhere and every answer comes from the results file. */
const ENV = { ANTHROPIC_API_KEY: 'recorded', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };

function harvest(root: string, results: string, files: string[]): { items: number; pending: number } {
  const r = runCli(['-C', root, 'harvest', '--extractor', 'model', '--model-provider', 'anthropic', '--batch-in', results, '--json', ...files], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { stats: { sessionsPending: number } };
  const index = JSON.parse(readFileSync(join(root, 'knowledge', 'index.json'), 'utf8')) as { items: unknown[] };
  return { items: index.items.length, pending: out.stats.sessionsPending };
}

describe.skipIf(!existsSync(TRANSCRIPTS) || !existsSync(ANSWERS))('recorded model answers on the shared transcripts', () => {
  it('give the same items whatever the order of the harvests, and a rerun adds nothing', () => {
    const files = transcriptFiles(TRANSCRIPTS);
    const results = resultsFile(tempDir());
    const all = tempDir();
    expect(runCli(['init', all]).code).toBe(0);
    const once = harvest(all, results, files);
    expect(once.pending).toBe(0);
    expect(once.items).toBeGreaterThan(40);

    const parts = tempDir();
    expect(runCli(['init', parts]).code).toBe(0);
    const half = Math.ceil(files.length / 2);
    harvest(parts, results, files.slice(half));
    const second = harvest(parts, results, files.slice(0, half));
    expect(second.items).toBe(once.items);

    const rerun = harvest(all, results, files);
    expect(rerun.items).toBe(once.items);
  }, 120_000);
});
