import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { measure } from '../../src/measure/measure.js';
import { readSessionFile } from '../../src/sessions/read.js';
import { measureSession } from '../../src/measure/session-measure.js';
import { PROJECT_ROOT, tempDir } from '../helpers.js';

const TS = join(PROJECT_ROOT, 'test_sessions');
const GIVEN = [
  ['claude-code/bootstrap-given.jsonl', ['k-7f3a2c', 'k-91c2e0']],
  ['hermes/session_20260304_101010_0f9e8d.json', ['k-3f2a91c0', 'k-77b1e2d4']],
  ['codex/rollout-2026-03-14T08-30-00-019cc5e0-2b65-7f84-9e55-6c7d8e9fa005.jsonl', ['k-0b1d9e', 'k-44e07a']],
  ['specstory/shop-frontend/.specstory/history/2025-06-02_14-05-jest-fails-after-switching-to-esm.md', ['k-a41c09e2', 'k-5d0e7731']],
] as const;

describe('measure: bootstrap blocks in every format that carries them', () => {
  it.each(GIVEN)('%s: the given ids, once each, in order', async (file, ids) => {
    const read = await readSessionFile(join(TS, file));
    const given = read.sessions.flatMap((s) => measureSession(s, () => undefined).given ?? []);
    expect(given).toEqual(ids.map((id) => ({ id, fp: 'missing', used: false })));
  });

  it('items given but not in the store are counted, not judged', async () => {
    const root = tempDir('compound-measure-');
    const r = await measure({ root, inputs: GIVEN.map(([f]) => join(TS, f)) });
    expect(r.report.metrics.hit_rate.counts).toMatchObject({ sessions_given: 4, sessions_judged: 0, items_given_not_in_store: 8 });
    expect(r.report.metrics.hit_rate.value).toBeNull();
  });
});
