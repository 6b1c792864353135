// `harvest --top N`: the N best of the transcripts not harvested yet, so that a nightly run over
// the same folder works through it instead of choosing the same N files every night.
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harvest, HASH_CACHE_FILE } from '../../src/harvest/harvest.js';
import { pathKey } from '../../src/harvest/file-hash.js';
import { applyPlan } from '../../src/knowledge/plan.js';
import { readLedger } from '../../src/knowledge/store.js';
import { sampleSessions } from '../../src/harvest/sample.js';
import { failedMigration, failureExtractor, storeWithTranscripts } from './transcripts.js';

const IDS = ['aaaaaaaa-1111-4000-8000-000000000001', 'bbbbbbbb-2222-4000-8000-000000000002', 'cccccccc-3333-4000-8000-000000000003'];

/** Three sessions; a later one fails more often. */
function setUp(): { root: string; t: string } {
  const { root, t } = storeWithTranscripts();
  IDS.forEach((id, i) => writeFileSync(join(t, `${id.slice(0, 1)}.jsonl`), failedMigration(id, `2026-03-0${i + 1}T10:00:00Z`, { failures: i + 1 })));
  return { root, t };
}

const harvested = (root: string): string[] => readLedger(root).sessions.map((s) => s.id).sort();

describe('harvest --top', () => {
  it('takes the best N of the transcripts not harvested yet, run after run, then finds nothing to do', async () => {
    const { root, t } = setUp();
    const order: string[][] = [];
    for (let run = 0; run < 3; run++) {
      const res = await harvest({ root, inputs: [t], top: 1, extract: failureExtractor });
      expect(res.stats).toMatchObject({ sessions: 1, files: run + 1, filesSkipped: run });
      applyPlan(root, res.plan);
      order.push(harvested(root));
    }
    // one more session each run, never one harvested before, the first the sampler's best of all
    expect(order.map((ids) => ids.length)).toEqual([1, 2, 3]);
    expect(order[0]!.every((id) => order[1]!.includes(id)) && order[1]!.every((id) => order[2]!.includes(id))).toBe(true);
    expect(order[2]).toEqual(IDS);
    const best = (await sampleSessions(IDS.map((id) => join(t, `${id.slice(0, 1)}.jsonl`)), { count: 1 }))[0]!.file;
    expect(readFileSync(best, 'utf8')).toContain(order[0]![0]!);

    const last = await harvest({ root, inputs: [t], top: 1, extract: failureExtractor });
    expect(last.stats).toMatchObject({ sessions: 0, files: 3, filesSkipped: 3, filesFailed: 0 });
    expect(applyPlan(root, last.plan).changed).toEqual([]);
  });

  it('ranks a transcript that grew since it was harvested again', async () => {
    const { root, t } = setUp();
    applyPlan(root, (await harvest({ root, inputs: [t], extract: failureExtractor })).plan);
    const grown = join(t, 'a.jsonl');
    writeFileSync(grown, readFileSync(grown, 'utf8') + failedMigration(IDS[0]!, '2026-03-09T10:00:00Z', { failures: 3 }).split('\n').slice(1).join('\n'));
    const res = await harvest({ root, inputs: [t], top: 5, extract: failureExtractor });
    expect(res.stats).toMatchObject({ files: 3, filesSkipped: 2, sessions: 1 });
  });

  it('keeps the hash records of the transcripts it did not choose', async () => {
    const { root, t } = setUp();
    await new Promise((r) => setTimeout(r, 2100)); // a file's stat is trusted once two seconds old
    applyPlan(root, (await harvest({ root, inputs: [t], top: 1, extract: failureExtractor })).plan);
    const cache = JSON.parse(readFileSync(join(root, ...HASH_CACHE_FILE.split('/')), 'utf8')) as { files: unknown[] };
    expect(cache.files).toHaveLength(3);
    // the next run knows the harvested file by its stat, and chooses among the other two
    const next = await harvest({ root, inputs: [t], top: 1, extract: failureExtractor });
    expect(next.stats).toMatchObject({ files: 2, filesSkipped: 1, sessions: 1 });
  });

  it('writes the hash cache anew when one transcript went and another came, as many as before', async () => {
    const { root, t } = setUp();
    await new Promise((r) => setTimeout(r, 2100));
    applyPlan(root, (await harvest({ root, inputs: [t], extract: failureExtractor })).plan);
    rmSync(join(t, 'a.jsonl'));
    writeFileSync(join(t, 'd.jsonl'), failedMigration('dddddddd-4444-4000-8000-000000000004', '2026-03-07T10:00:00Z'));
    await new Promise((r) => setTimeout(r, 2100));
    applyPlan(root, (await harvest({ root, inputs: [t], top: 1, extract: failureExtractor })).plan);
    const cache = JSON.parse(readFileSync(join(root, ...HASH_CACHE_FILE.split('/')), 'utf8')) as { files: [string, ...unknown[]][] };
    expect(cache.files.map((f) => f[0]).sort()).toEqual(['b', 'c', 'd'].map((n) => pathKey(join(t, `${n}.jsonl`))).sort());
  });
});
