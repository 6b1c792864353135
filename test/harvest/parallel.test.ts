// The harvest on worker threads must write the same store as on the main thread: every
// knowledge file, the index, the ledger and the hash cache, with the same statistics and the
// same warnings in the same order. Real transcripts in temp dirs; the workers run dist/ (build first).
import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { harvest, HASH_CACHE_FILE, type HarvestOptions, type HarvestResult } from '../../src/harvest/harvest.js';
import { applyPlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import type { ReadWarning } from '../../src/sessions/model.js';
import { claudeSession } from './transcripts.js';
import { PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

const WORKER = join(PROJECT_ROOT, 'dist', 'harvest', 'parallel', 'worker.js');

/** Every file under knowledge/, path → content. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const dir = join(root, 'knowledge');
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) out[relative(dir, join(d.parentPath, d.name))] = readFileSync(join(d.parentPath, d.name), 'utf8');
  }
  return out;
}

interface Run {
  result: HarvestResult;
  warnings: ReadWarning[];
}

async function harvestInto(root: string, inputs: string[], workers: number, extra: Partial<HarvestOptions> = {}): Promise<Run> {
  if (!existsSync(WORKER)) throw new Error(`build first: ${WORKER} is missing (npm run build)`);
  const warnings: ReadWarning[] = [];
  const result = await harvest({ root, inputs, workers, redactUsers: ['alice'], onWarning: (w) => warnings.push(w), ...extra });
  applyPlan(root, result.plan);
  return { result, warnings };
}

function expectSame(a: Run, b: Run, rootA: string, rootB: string): void {
  expect(b.result.stats).toEqual(a.result.stats);
  expect(b.warnings).toEqual(a.warnings);
  expect(b.result.records).toEqual(a.result.records);
  expect(snapshot(rootB)).toEqual(snapshot(rootA));
}

/** Files changed in the last two seconds are left out of the hash cache: wait, so both runs agree. */
const settle = () => new Promise((r) => setTimeout(r, 2100));

/** Harvests `dir` into two fresh stores, once on this thread and once on two workers (after
 * settle, so both runs keep the same files in their hash caches). */
async function harvestOnBoth(dir: string): Promise<{ a: Run; b: Run; one: string; two: string }> {
  await settle();
  const [one, two] = [tempDir(), tempDir()];
  initStore(one);
  initStore(two);
  const a = await harvestInto(one, [dir], 1);
  const b = await harvestInto(two, [dir], 2);
  return { a, b, one, two };
}

/** A failure whose error line carries a token and a home path: its candidate needs redaction. */
const secretSession = claudeSession({
  id: 'dddddddd-4444-4000-8000-000000000004',
  cwd: '/home/alice/src/shop',
  start: '2026-03-02T10:00:00Z',
  turns: [
    { user: 'deploy it' },
    { bash: { command: 'toolbravo deploy --fast', output: 'Exit code 1\nerror: toolbravo rejected token ghp_abcdefghijklmnopqrstuvwxyz0123456789 from /home/alice/.config/toolbravo.toml', error: true } },
    { say: 'The problem is that toolbravo needs a fresh token because the stored one expired; I will pass --login to renew it.' },
    { bash: { command: 'toolbravo deploy --fast --login', output: 'done' } },
  ],
});

/** A session that first only says hello, then grows a failure, its explanation and its fix. */
const grownSession = (grown: boolean) =>
  claudeSession({
    id: 'cccccccc-3333-4000-8000-000000000003',
    cwd: '/home/alice/src/shop',
    start: '2026-03-01T10:00:00Z',
    turns: [
      { user: 'hello, set up the tool please' },
      { say: 'Sure.' },
      ...(grown
        ? [
            { bash: { command: 'toolalpha setup --fast', output: 'Exit code 1\nerror: toolalpha needs a config file named toolalpha.toml', error: true } },
            { say: 'The problem is that toolalpha needs its toolalpha.toml config because it reads settings from it; I will pass --init to create it.' },
            { bash: { command: 'toolalpha setup --fast --init', output: 'done' } },
          ]
        : []),
    ],
  });

describe('parallel harvest', () => {
  it('writes the same store from test_sessions/ on two workers as on the main thread', async () => {
    const t = tempDir();
    cpSync(join(PROJECT_ROOT, 'test_sessions'), t, { recursive: true });
    const { a, b, one, two } = await harvestOnBoth(t);
    expect(a.result.stats.candidates).toBeGreaterThan(0);
    expectSame(a, b, one, two);
  });

  it('stays identical for unreadable files, a directory posing as a transcript, a grown session and a rerun', async () => {
    const t = tempDir();
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'codex'), join(t, 'codex'), { recursive: true });
    writeFileSync(join(t, 'empty.jsonl'), '');
    writeFileSync(join(t, 'binary.jsonl'), Buffer.from([0, 1, 2, 3, 0, 255, 254]));
    writeFileSync(join(t, 'grown.jsonl'), grownSession(false));
    writeFileSync(join(t, 'secret.jsonl'), secretSession);
    // a symlink named like a transcript that points at a folder of transcripts: it is walked
    mkdirSync(join(t, 'real-folder'));
    writeFileSync(join(t, 'real-folder', 'inner.md'), '# not a transcript\n');
    symlinkSync(join(t, 'real-folder'), join(t, 'folder-link.jsonl'));
    const { a: first, b: second, one, two } = await harvestOnBoth(t);
    expect(first.result.stats.redactions).toBeGreaterThan(0);
    expectSame(first, second, one, two);
    expect(Object.values(snapshot(two)).join('\n')).not.toMatch(/ghp_abc|alice/);

    // a session that grew is harvested for its new events only; the unchanged files are skipped
    // by their hash (the workers hash them: the hash cache is gone)
    appendFileSync(join(t, 'grown.jsonl'), grownSession(true).slice(grownSession(false).length));
    await settle();
    for (const root of [one, two]) rmSync(join(root, HASH_CACHE_FILE), { force: true });
    const a = await harvestInto(one, [t], 1);
    const b = await harvestInto(two, [t], 2);
    expect(a.result.stats.filesSkipped).toBeGreaterThan(0);

    expect(a.result.stats.candidates).toBeGreaterThan(0);
    expectSame(a, b, one, two);

    // a rerun takes every hash from the cache, on three workers too, and changes nothing
    const c = await harvestInto(one, [t], 1);
    const d = await harvestInto(two, [t], 3);
    expect(c.result.stats.candidates).toBe(0);
    expectSame(c, d, one, two);
  });

  it('a first harvest of enough files starts its workers during the walk and writes the same store', async () => {
    // 40 transcripts, over AUTO_PARALLEL_MIN_FILES: with no hash cache the workers start at the
    // walk's milestone, before the stat pass (see startWorkers)
    const t = tempDir();
    for (let i = 0; i < 40; i++) {
      const id = `${String(i).padStart(8, '0')}-5555-4000-8000-000000000005`;
      const tool = `tool${String.fromCharCode(97 + (i % 20))}`;
      writeFileSync(
        join(t, `s${String(i).padStart(2, '0')}.jsonl`),
        claudeSession({
          id,
          cwd: `/home/alice/src/app${i % 3}`,
          start: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
          turns: [
            { user: 'build it' },
            { bash: { command: `${tool} build --fast`, output: `Exit code 1\nerror: ${tool} needs ${tool}.toml in the project root`, error: true } },
            { say: `The problem is that ${tool} reads its settings from ${tool}.toml because it has no defaults; I will pass --init to create it.` },
            { bash: { command: `${tool} build --fast --init`, output: 'done' } },
          ],
        }),
      );
    }
    const { a, b, one, two } = await harvestOnBoth(t);
    expect(a.result.stats.files).toBe(40);
    expect(a.result.stats.candidates).toBeGreaterThan(0);
    expectSame(a, b, one, two);
  });

  it('the exit code: 1 only when no file at all could be read; a rerun with a stray unreadable file is 0', () => {
    const store = tempDir();
    expect(runCli(['init', store]).code).toBe(0);
    const dir = tempDir();
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code'), join(dir, 'claude-code'), { recursive: true });
    writeFileSync(join(dir, 'notes.json'), '{"not": "a transcript"}\n');
    const first = runCli(['-C', store, 'harvest', dir]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('notes.json');
    // every transcript is known now: only the stray file is left to read, and it cannot be
    const again = runCli(['-C', store, 'harvest', dir]);
    expect(again.stderr).toContain('notes.json');
    expect(again.stderr).toMatch(/\(\d+ unchanged, 1 unreadable\)/);
    expect(again.code).toBe(0);
    // nothing readable at all
    const junk = tempDir();
    writeFileSync(join(junk, 'notes.json'), '{"not": "a transcript"}\n');
    expect(runCli(['-C', store, 'harvest', junk]).code).toBe(1);
  });

  it('the CLI gives the same output and store with --workers 2 as with --workers 1, and refuses --workers 0', () => {
    const [one, two] = [tempDir(), tempDir()];
    for (const root of [one, two]) expect(runCli(['init', root]).code).toBe(0);
    const sessions = join(PROJECT_ROOT, 'test_sessions');
    const a = runCli(['-C', one, 'harvest', sessions, '--json', '--workers', '1']);
    const b = runCli(['-C', two, 'harvest', sessions, '--json', '--workers', '2']);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(b.code).toBe(a.code);
    // the bootstrap search cache records index.json's mtime, so it differs between any two stores
    const withoutSearchCache = (root: string) => Object.fromEntries(Object.entries(snapshot(root)).filter(([p]) => !/bootstrap-v\d+\.bin$/.test(p)));
    expect(withoutSearchCache(two)).toEqual(withoutSearchCache(one));

    const bad = runCli(['-C', one, 'harvest', sessions, '--workers', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--workers 0');
  });
});
