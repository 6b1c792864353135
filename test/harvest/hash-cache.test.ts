// The harvest remembers each transcript's content hash with its stat (knowledge/.cache/), so an
// unchanged transcript is not read and hashed again; any change to the file is still noticed.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harvest, HASH_CACHE_FILE } from '../../src/harvest/harvest.js';
import { hashBytes, hashFile, isLegacyHash, legacyAlgorithms, readHashCache, renderHashCache, unchangedCache, type HashRecord } from '../../src/harvest/file-hash.js';
import { parseLedger, renderLedger } from '../../src/knowledge/ledger.js';
import { LEDGER_FILE } from '../../src/knowledge/paths.js';
import { applyPlan } from '../../src/knowledge/plan.js';
import { initStore } from '../../src/knowledge/init.js';
import { claudeSession, failureExtractor } from './transcripts.js';
import { tempDir } from '../helpers.js';
import { VERSION } from '../../src/core/version.js';

const extractor = failureExtractor;

const session = (id: string, commands: string[]) =>
  claudeSession({
    id,
    cwd: '/home/alice/src/shop',
    start: '2026-03-01T10:00:00Z',
    turns: [{ user: 'run it' }, ...commands.map((command) => ({ bash: { command, output: `Exit code 1\nerror: ${command} broke`, error: true } }))],
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new store, and an empty folder of transcripts named `folder` inside it. */
function storeWithFolder(folder: string): { root: string; t: string } {
  const root = tempDir();
  initStore(root);
  const t = join(root, folder);
  mkdirSync(t);
  return { root, t };
}

describe('harvest hash cache', () => {
  it('trusts an unchanged stat, notices a changed file, keeps no paths, and is not written on a dry run', async () => {
    const { root, t } = storeWithFolder('private-transcripts-alice');
    writeFileSync(join(t, 'a.jsonl'), session('aaaaaaaa-1111-4000-8000-000000000001', ['make a']));
    writeFileSync(join(t, 'b.jsonl'), session('bbbbbbbb-2222-4000-8000-000000000002', ['make b']));
    const cacheFile = join(root, HASH_CACHE_FILE);

    // a dry run (plan made, never applied) writes nothing
    await harvest({ root, inputs: [t], extract: extractor });
    expect(existsSync(cacheFile)).toBe(false);

    // files changed within the last two seconds are not remembered ("racily clean")
    applyPlan(root, (await harvest({ root, inputs: [t], extract: extractor })).plan);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).files).toHaveLength(0);

    await sleep(2100);
    const second = await harvest({ root, inputs: [t], extract: extractor });
    expect(second.stats.filesSkipped).toBe(2);
    // a cache of an older version is deleted when this version's is written
    const older = join(root, 'knowledge/.cache/harvest-hashes-v3.json');
    writeFileSync(older, '{"version": 3, "files": {}}\n');
    applyPlan(root, second.plan);
    expect(existsSync(older)).toBe(false);
    const text = readFileSync(cacheFile, 'utf8');
    const cache = JSON.parse(text) as { version: number; files: [string, number, number, number, number, string][] };
    expect(cache.files).toHaveLength(2);
    expect(cache.files.map((f) => f[0])).toEqual(cache.files.map((f) => f[0]).sort()); // in key order
    expect(text).not.toContain('alice');
    expect(text).not.toContain('.jsonl');
    expect(readFileSync(join(root, 'knowledge/.cache/.gitignore'), 'utf8')).toContain('*');

    // the cache is what decides: a remembered hash the ledger does not know makes that file "new"
    cache.files[0]![5] = '0'.repeat(32);
    writeFileSync(cacheFile, JSON.stringify({ version: cache.version, files: cache.files }));
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

  it('remembers a file found to be no transcript: a rerun of the same version warns the same without reading it', async () => {
    const { root, t } = storeWithFolder('transcripts');
    writeFileSync(join(t, 'a.jsonl'), session('aaaaaaaa-1111-4000-8000-000000000001', ['make a']));
    const notes = join(t, 'notes.json');
    writeFileSync(notes, '{"shopping": ["milk", "bread"]}\n');
    const cacheFile = join(root, HASH_CACHE_FILE);
    const run = async (format?: 'openai-chat') => {
      const warnings: string[] = [];
      const r = await harvest({ root, inputs: [t], extract: extractor, onWarning: (w) => warnings.push(`${w.file}: ${w.message}`), ...(format ? { format } : {}) });
      return { r, warnings };
    };
    const unknown = `${notes}: unknown transcript format (no reader recognised it; pass --input-format one of claude-code, codex, hermes, openai-chat, aider, gemini-cli, specstory, console-md, captured to force one)`;

    applyPlan(root, (await run()).r.plan);
    await sleep(2100); // remembered only once their stat is older than two seconds
    const first = await run();
    expect(first.warnings).toEqual([unknown]);
    applyPlan(root, first.r.plan);
    const noted = () => (JSON.parse(readFileSync(cacheFile, 'utf8')) as { files: unknown[][] }).files.filter((v) => v.length === 7);
    expect(noted()).toHaveLength(1);
    expect(noted()[0]![6]).toBe(`${VERSION}\t${unknown.slice(notes.length + 2)}`);

    // the rerun gives the same warning and counts, taken from the cache (a note edited in the
    // cache shows up as it is, which proves the file was not read)
    const again = await run();
    expect(again.warnings).toEqual([unknown]);
    expect(again.r.stats).toMatchObject({ files: 2, filesSkipped: 1, filesFailed: 1, sessions: 0, warnings: 1 });
    expect(again.r.plan.entries).toEqual([]);
    const text = readFileSync(cacheFile, 'utf8');
    writeFileSync(cacheFile, text.replace('unknown transcript format', 'remembered: unknown transcript format'));
    expect((await run()).warnings).toEqual([unknown.replace(': unknown', ': remembered: unknown')]);

    // the same when another input is no plain file (then files are taken in walk order at the end)
    mkdirSync(join(root, 'more'));
    symlinkSync(join(root, 'more'), join(t, 'z-link.jsonl'));
    const mixed = await run();
    expect(mixed.warnings).toEqual([unknown.replace(': unknown', ': remembered: unknown')]);
    expect(mixed.r.stats).toMatchObject({ filesSkipped: 1, filesFailed: 1, sessions: 0 });
    rmSync(join(t, 'z-link.jsonl'));

    // another version's note is not trusted: the file is read, and the note is this version's again
    writeFileSync(cacheFile, text.replace(`"${VERSION}\\t`, '"0.0.0-another\\t'));
    expect(readFileSync(cacheFile, 'utf8')).toContain('0.0.0-another');
    const other = await run();
    expect(other.warnings).toEqual([unknown]);
    applyPlan(root, other.r.plan);
    expect(noted()[0]![6]).toBe(`${VERSION}\t${unknown.slice(notes.length + 2)}`);

    // --format forces a reader on it: read, whatever the note says
    expect((await run('openai-chat')).warnings.join('\n')).not.toContain('unknown transcript format');

    // a changed file is detected again
    writeFileSync(notes, '{"role":"user","content":"hello"}\n');
    const changed = await run();
    expect(changed.warnings).not.toContain(unknown);
    expect(changed.r.stats.sessions).toBe(1);
  }, 15000);

  it('hashes with XXH3-128 (the reference vectors) and tells older hashes by their length', async () => {
    expect(await hashBytes(new Uint8Array(0))).toBe('99aa06d3014798d86001c324468d497f');
    expect(await hashBytes(Buffer.from('abc'))).toBe('06b05ab6733a618578af5f94892f3950');
    expect(await hashBytes(Buffer.from('abc'), 'sha1')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    // a file hashed piece by piece (1 MiB reads) gives the hash of its bytes whole
    const big = Buffer.alloc(3 * (1 << 20) + 17, 'x');
    big.write('a different tail', big.length - 16);
    const file = join(tempDir(), 'big.jsonl');
    writeFileSync(file, big);
    expect(await hashFile(file)).toBe(await hashBytes(big));
    expect(await hashFile(file, 'sha256')).toBe(await hashBytes(big, 'sha256'));
    // calls in flight together share the thread's one XXH3 hasher and still hash their own bytes
    const small = Buffer.from('abc');
    const together = await Promise.all([hashFile(file), hashBytes(small), hashBytes(big), hashFile(file), hashBytes(small, 'sha1')]);
    expect(together).toEqual([await hashBytes(big), '06b05ab6733a618578af5f94892f3950', await hashBytes(big), await hashBytes(big), 'a9993e364706816aba3e25717850c26c9cd0d89d']);
    expect(isLegacyHash(await hashBytes(big))).toBe(false);
    expect(isLegacyHash(await hashBytes(big, 'sha1'))).toBe(true);
    expect(isLegacyHash(await hashBytes(big, 'sha256'))).toBe(true);
    expect(legacyAlgorithms(['a'.repeat(32), 'b'.repeat(64)])).toEqual(['sha256']);
    expect(legacyAlgorithms(['b'.repeat(64), 'c'.repeat(40)])).toEqual(['sha1', 'sha256']);
    expect(legacyAlgorithms(['a'.repeat(32)])).toEqual([]);
  });

  it.each(['sha1', 'sha256'] as const)('skips the transcripts of a ledger that holds %s hashes, and gives it their new hash once', async (algorithm) => {
    const { root, t } = storeWithFolder('transcripts');
    const files = [join(t, 'a.jsonl'), join(t, 'b.jsonl')];
    writeFileSync(files[0]!, session('aaaaaaaa-1111-4000-8000-000000000001', ['make a']));
    writeFileSync(files[1]!, session('bbbbbbbb-2222-4000-8000-000000000002', ['make b']));
    const first = await harvest({ root, inputs: [t], extract: extractor });
    expect(first.stats.candidates).toBe(2);
    applyPlan(root, first.plan);

    // the store as a version that hashed with SHA-256 left it: its ledger, and no hash cache
    const bytes = files.map((f) => readFileSync(f));
    const oldHash = new Map(await Promise.all(bytes.map(async (b) => [await hashBytes(b), await hashBytes(b, algorithm)] as const)));
    const newHashes = [...oldHash.keys()].sort();
    const ledgerPath = join(root, LEDGER_FILE);
    const ledger = parseLedger(readFileSync(ledgerPath, 'utf8'));
    expect([...ledger.files].sort()).toEqual(newHashes);
    ledger.files = ledger.files.map((h) => oldHash.get(h)!);
    ledger.sessions = ledger.sessions.map((s) => ({ ...s, hash: oldHash.get(s.hash)! }));
    expect([...ledger.files, ...ledger.sessions.map((s) => s.hash)].every(isLegacyHash)).toBe(true);
    writeFileSync(ledgerPath, renderLedger(ledger));
    rmSync(join(root, HASH_CACHE_FILE), { force: true });

    // both files known by their old hash: nothing read again, and the ledger learns the new ones
    const migrated = await harvest({ root, inputs: [t], extract: extractor });
    expect(migrated.stats.filesSkipped).toBe(2);
    expect(migrated.stats.sessions).toBe(0);
    expect(migrated.stats.candidates).toBe(0);
    const applied = applyPlan(root, migrated.plan);
    expect(applied.changed).toContain(LEDGER_FILE);
    expect(applied.changed.filter((p) => p.endsWith('.md'))).toEqual([]);
    const after = parseLedger(readFileSync(ledgerPath, 'utf8'));
    expect(after.files).toEqual(expect.arrayContaining(newHashes));

    // from then on a rerun changes nothing
    const again = await harvest({ root, inputs: [t], extract: extractor });
    expect(again.stats.filesSkipped).toBe(2);
    expect(applyPlan(root, again.plan).changed).toEqual([]);

    // a new file is still read (looked up by both hashes, known by neither)
    writeFileSync(join(t, 'c.jsonl'), session('cccccccc-3333-4000-8000-000000000003', ['make c']));
    const grown = await harvest({ root, inputs: [t], extract: extractor });
    expect(grown.stats.filesSkipped).toBe(2);
    expect(grown.stats.candidates).toBe(1);
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
    expect(unchangedCache(new Map(), { records: new Map(), text: '' }, 0)).toBe(false);
    // the harvest's count of records set as read (no lookup per key): all of them, or not
    expect(unchangedCache(new Map(read.records), read, 2)).toBe(true);
    expect(unchangedCache(new Map([['a1', read.records.get('a1')!], ['b2', record('bb')]]), read, 1)).toBe(false);
    expect(unchangedCache(new Map([['a1', read.records.get('a1')!]]), read, 1)).toBe(false);
  });
});
