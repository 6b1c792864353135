import { describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../../src/measure/measure.js';
import { parseDateFlag } from '../../src/measure/time.js';
import { loadStore } from '../../src/knowledge/store.js';
import { tempDir } from '../helpers.js';
import { ID, writeFixture } from './fixture.js';

const AS_OF = parseDateFlag('2026-03-12', '--as-of');
const read = (root: string, rel: string) => readFileSync(join(root, 'metrics', rel), 'utf8');

describe('measure: cache and determinism', () => {
  it('a second run reads no unchanged session: every file is a stat hit, nothing hashed or parsed', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    const first = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(first.counters).toMatchObject({ files: 7, statHits: 0, hashed: 7, parsed: 7, sessionsMeasured: 7, sessionsCached: 0 });
    const second = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(second.counters).toEqual({ files: 7, statHits: 7, hashed: 0, parsed: 0, failed: 0, sessionsMeasured: 0, sessionsCached: 7 });
    expect(second.json).toBe(first.json);
    expect(second.dashboard).toBe(first.dashboard);
    expect(second.written).toEqual([]); // nothing changed, nothing rewritten
  });

  it('two runs give byte-identical files, cold or warm, in another directory too', async () => {
    const a = tempDir('compound-measure-');
    const { transcripts } = writeFixture(a);
    await measure({ root: a, inputs: [transcripts] });
    const files = ['metrics.json', 'dashboard.md', 'cache.json'].map((f) => read(a, f));
    await measure({ root: a, inputs: [transcripts] });
    expect(['metrics.json', 'dashboard.md', 'cache.json'].map((f) => read(a, f))).toEqual(files);
    const b = tempDir('compound-measure-other-');
    writeFixture(b);
    await measure({ root: b, inputs: [join(b, 'transcripts')] });
    expect(read(b, 'metrics.json')).toBe(files[0]);
    expect(read(b, 'dashboard.md')).toBe(files[1]);
    // the as-of date came from the data: S7's last event, not the clock
    expect(JSON.parse(files[0]!).as_of).toBe('2026-03-12T09:00:05Z');
  });

  it('a touched file is hashed but not parsed; a grown file is parsed again', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    await measure({ root, inputs: [transcripts], asOf: AS_OF });
    const s2 = join(transcripts, 's2.jsonl');
    utimesSync(s2, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    const touched = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(touched.counters).toMatchObject({ statHits: 6, hashed: 1, parsed: 0, sessionsCached: 7 });
    const lines = readFileSync(s2, 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    appendFileSync(s2, `${JSON.stringify({ ...last, uuid: '22222222-0000-4000-8000-0000000000ff', parentUuid: last.uuid, timestamp: '2026-03-03T09:05:00.000Z', type: 'assistant', message: { model: 'claude-sonnet-4-5', id: 'msg_grown', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'All listed.' }] } })}\n`);
    const grown = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(grown.counters).toMatchObject({ statHits: 6, hashed: 1, parsed: 1, sessionsMeasured: 1, sessionsCached: 6 });
    // records carried over are written back from the lines they were read from: same bytes as cold
    const warm = read(root, 'cache.json');
    rmSync(join(root, 'metrics', 'cache.json'));
    await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(read(root, 'cache.json')).toBe(warm);
  });

  it('editing an item re-measures only the sessions that were given it', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    await measure({ root, inputs: [transcripts], asOf: AS_OF });
    const f1 = loadStore(root).items.find((i) => i.meta.id === ID.F1)!;
    const file = join(root, f1.path);
    // the reviewer names the command the session in s4 ran: F1 becomes used there
    writeFileSync(file, readFileSync(file, 'utf8').replace('from `config/test.env`.', 'from `config/test.env`; list it with `ls -la`.'));
    const after = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(after.counters).toMatchObject({ statHits: 7, parsed: 2, sessionsMeasured: 2, sessionsCached: 5 }); // s3 and s4 were given F1
    expect(after.report.metrics.hit_rate.counts).toMatchObject({ sessions_used: 3, items_used: 3 });
  });

  it('an unreadable or missing cache is only a cold start', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    const first = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    writeFileSync(join(root, 'metrics', 'cache.json'), '{ not json');
    const again = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(again.counters.parsed).toBe(7);
    expect(again.json).toBe(first.json);
  });

  it('identical transcripts at two paths are one entry, and the same session twice counts once', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    cpSync(join(transcripts, 's1.jsonl'), join(transcripts, 's1-copy.jsonl'));
    const r = await measure({ root, inputs: [transcripts], asOf: AS_OF });
    expect(r.counters.files).toBe(8);
    expect(r.report.inputs.sessions).toBe(7);
    const cache = JSON.parse(read(root, 'cache.json')) as { files: unknown[]; entries: unknown[] };
    expect(cache.files).toHaveLength(8);
    expect(cache.entries).toHaveLength(7);
  });

  it('the cache holds no path, no transcript text and no error text', async () => {
    const root = tempDir('compound-measure-');
    const { transcripts } = writeFixture(root);
    await measure({ root, inputs: [transcripts], asOf: AS_OF });
    const cache = read(root, 'cache.json');
    for (const leak of ['/home/dev', root, 'transcripts', 'relation', 'orders', 'npm run', 'migrate']) expect(cache).not.toContain(leak);
    const metrics = read(root, 'metrics.json');
    for (const leak of ['/home/dev', root, '11111111-0000']) expect(metrics).not.toContain(leak);
  });
});
