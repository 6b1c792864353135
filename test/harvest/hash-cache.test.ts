// The harvest remembers each transcript's content hash with its stat (knowledge/.cache/), so an
// unchanged transcript is not read and hashed again; any change to the file is still noticed.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harvest, HASH_CACHE_FILE } from '../../src/harvest/harvest.js';
import { readHashCache, renderHashCache, unchangedCache, type HashRecord } from '../../src/harvest/file-hash.js';
import { applyPlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import type { Candidate } from '../../src/harvest/candidate.js';
import type { Session } from '../../src/sessions/model.js';
import { claudeSession } from './transcripts.js';
import { tempDir } from '../helpers.js';

function extractor(session: Session): Candidate[] {
  return session.events
    .filter((e) => e.kind === 'tool_result' && e.isError)
    .map((e) => ({
      category: 'pitfall' as const,
      scope: 'global' as const,
      title: `failure at event ${e.index}`,
      text: `A command failed at event ${e.index} of a session.`,
      confidence: 0.7,
      tags: [],
      evidence: { event: e.index },
      quotes: [],
      rule: 'test',
    }));
}

const session = (id: string, commands: string[]) =>
  claudeSession({
    id,
    cwd: '/home/alice/src/shop',
    start: '2026-03-01T10:00:00Z',
    turns: [{ user: 'run it' }, ...commands.map((command) => ({ bash: { command, output: `Exit code 1\nerror: ${command} broke`, error: true } }))],
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('harvest hash cache', () => {
  it('trusts an unchanged stat, notices a changed file, keeps no paths, and is not written on a dry run', async () => {
    const root = tempDir();
    initStore(root);
    const t = join(root, 'private-transcripts-alice');
    mkdirSync(t);
    writeFileSync(join(t, 'a.jsonl'), session('aaaaaaaa-1111-4000-8000-000000000001', ['make a']));
    writeFileSync(join(t, 'b.jsonl'), session('bbbbbbbb-2222-4000-8000-000000000002', ['make b']));
    const cacheFile = join(root, HASH_CACHE_FILE);

    // a dry run (plan made, never applied) writes nothing
    await harvest({ root, inputs: [t], extract: extractor });
    expect(existsSync(cacheFile)).toBe(false);

    // files changed within the last two seconds are not remembered ("racily clean")
    applyPlan(root, (await harvest({ root, inputs: [t], extract: extractor })).plan);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).files)).toHaveLength(0);

    await sleep(2100);
    const second = await harvest({ root, inputs: [t], extract: extractor });
    expect(second.stats.filesSkipped).toBe(2);
    applyPlan(root, second.plan);
    const text = readFileSync(cacheFile, 'utf8');
    const cache = JSON.parse(text) as { files: Record<string, [number, number, number, number, string]> };
    expect(Object.keys(cache.files)).toHaveLength(2);
    expect(text).not.toContain('alice');
    expect(text).not.toContain('.jsonl');
    expect(readFileSync(join(root, 'knowledge/.cache/.gitignore'), 'utf8')).toContain('*');

    // the cache is what decides: a remembered hash the ledger does not know makes that file "new"
    const [firstKey] = Object.keys(cache.files).sort();
    cache.files[firstKey!]![4] = '0'.repeat(64);
    writeFileSync(cacheFile, JSON.stringify({ version: 1, files: cache.files }));
    const fooled = await harvest({ root, inputs: [t], extract: extractor });
    expect(fooled.stats.filesSkipped).toBe(1);

    // a changed file is hashed again (its size, mtime and ctime moved) and its new events harvested
    applyPlan(root, second.plan); // restore the real cache
    writeFileSync(join(t, 'a.jsonl'), session('aaaaaaaa-1111-4000-8000-000000000001', ['make a', 'make c']));
    const grown = await harvest({ root, inputs: [t], extract: extractor });
    expect(grown.stats.filesSkipped).toBe(1);
    expect(grown.stats.sessions).toBe(1);
    expect(grown.stats.candidates).toBe(1); // only the new failure
  }, 15000);

  it('is left unrendered only when the harvest kept every record it read, as read', () => {
    const root = tempDir();
    initStore(root);
    const record = (hash: string): HashRecord => ({ size: 10, mtimeMs: 1, ctimeMs: 1, ino: 7, hash });
    const cacheFile = join(root, HASH_CACHE_FILE);
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, renderHashCache(new Map([['a1', record('aa')], ['b2', record('bb')]])));
    const read = readHashCache(root);
    expect(read.records.size).toBe(2);
    // the very records read, under the same keys: nothing to write
    expect(unchangedCache(new Map(read.records), read)).toBe(true);
    // an equal record that is a new object (a stat taken again) is rendered and compared
    expect(unchangedCache(new Map([['a1', read.records.get('a1')!], ['b2', record('bb')]]), read)).toBe(false);
    // one record fewer or more
    expect(unchangedCache(new Map([['a1', read.records.get('a1')!]]), read)).toBe(false);
    expect(unchangedCache(new Map([...read.records, ['c3', record('cc')]]), read)).toBe(false);
    // no cache file read: always written
    expect(unchangedCache(new Map(), { records: new Map(), text: '' })).toBe(false);
  });
});
