import { describe, expect, it } from 'vitest';
import { copyFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eachMatchAt, sampleSessions, SAMPLE_WEIGHTS, type SampleRow } from '../../src/harvest/sample.js';
import { prng } from '../prng.js';
import { walkInputs } from '../../src/sessions/walk.js';
import { tempDir, TEST_SESSIONS } from './support.js';

async function sampleOf(dirs: string[], opts: Parameters<typeof sampleSessions>[1] = {}): Promise<SampleRow[]> {
  const { files } = await walkInputs(dirs);
  return sampleSessions(files, opts);
}

const OURS = [join(TEST_SESSIONS, 'claude-code'), join(TEST_SESSIONS, 'codex')];

describe('sampleSessions', () => {
  it('ranks every transcript with the parts of its score, best first', async () => {
    const rows = await sampleOf(OURS);
    expect(rows).toHaveLength(13);
    const weights = Object.values(SAMPLE_WEIGHTS).reduce((a, b) => a + b, 0);
    expect(weights).toBeCloseTo(1, 10);
    for (const r of rows) {
      for (const v of Object.values(r.parts)) expect(v >= 0 && v <= 1).toBe(true);
      const total = (Object.keys(SAMPLE_WEIGHTS) as (keyof typeof SAMPLE_WEIGHTS)[]).reduce((t, k) => t + SAMPLE_WEIGHTS[k] * r.parts[k], 0);
      expect(r.score).toBeCloseTo(total, 2);
    }
    const scores = rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('recency is measured against the newest session in the sample, not the clock', async () => {
    const rows = await sampleOf(OURS);
    const newest = rows.reduce((a, b) => ((a.endedAt ?? '') > (b.endedAt ?? '') ? a : b));
    expect(newest.parts.recency).toBe(1);
    expect(newest.file).toContain('019cc5e0'); // 2026-03-14, the latest fixture
  });

  it('failure signals raise the failures part; the first session of a repo is marked once per repo', async () => {
    const rows = await sampleOf(OURS);
    const byName = (s: string) => rows.find((r) => r.file.includes(s))!;
    expect(byName('failed-migration').signals.errorFlags).toBeGreaterThan(0);
    expect(byName('failed-migration').parts.failures).toBeGreaterThan(byName('open-questions').parts.failures);
    expect(byName('legacy-failed-fx-rates').signals.nonZeroExits).toBeGreaterThan(0);
    const firsts = rows.filter((r) => r.parts.firstForRepo === 1).map((r) => r.repo);
    expect(firsts.sort()).toEqual(['invoice-api', 'ledger-sync']);
    expect(byName('1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01.jsonl').repo).toBe('invoice-api');
    expect(byName('legacy-failed-fx-rates').repo).toBe('ledger-sync'); // from the git remote
  });

  it('is deterministic and ignores mtimes', async () => {
    const dir = tempDir();
    for (const name of readdirSync(join(TEST_SESSIONS, 'codex'))) copyFileSync(join(TEST_SESSIONS, 'codex', name), join(dir, name));
    const first = await sampleOf([dir]);
    for (const [i, name] of readdirSync(dir).entries()) utimesSync(join(dir, name), 1_000_000 + i * 1000, 1_000_000 + i * 1000);
    const second = await sampleOf([dir]);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('filters: count, repo, since, min-score', async () => {
    const all = await sampleOf(OURS);
    expect(await sampleOf(OURS, { count: 3 })).toEqual(all.slice(0, 3));
    const ledger = await sampleOf(OURS, { repo: 'LEDGER-SYNC' });
    expect(ledger.map((r) => r.repo)).toEqual(Array(6).fill('ledger-sync'));
    const recent = await sampleOf(OURS, { since: '2026-03-10' });
    expect(recent.every((r) => (r.endedAt ?? '') >= '2026-03-10')).toBe(true);
    expect(recent.length).toBeLessThan(all.length);
    const good = await sampleOf(OURS, { minScore: 0.4 });
    expect(good.every((r) => r.score >= 0.4)).toBe(true);
  });

  it('scans only the ends of a big file and says its counts are estimates', async () => {
    const dir = tempDir();
    const line = (i: number) =>
      JSON.stringify({ parentUuid: null, isSidechain: false, cwd: '/w/big', sessionId: 'big', type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: 'make' } }] }, uuid: `u${i}`, timestamp: '2026-01-05T10:00:00.000Z' });
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(line(i));
    writeFileSync(join(dir, 'big.jsonl'), lines.join('\n') + '\n');
    const warnings: string[] = [];
    writeFileSync(join(dir, 'notes.md'), 'just notes\n');
    const rows = await sampleOf([dir], { onWarning: (w) => warnings.push(w.file) });
    expect(rows).toHaveLength(1);
    expect(warnings).toEqual([join(dir, 'notes.md')]);
    expect(rows[0]!.signals.estimated).toBe(true);
    expect(rows[0]!.signals.toolCalls).toBeGreaterThan(2700);
    expect(rows[0]!.signals.toolCalls).toBeLessThan(3300);
    expect(rows[0]!.repo).toBe('big');
  });
});

describe('eachMatchAt', () => {
  it('finds what the global regex finds, openings that do not match and overlapping ones included', () => {
    const next = prng(11);
    const pieces = ['"timestamp"', ': ', ':', ' ', '"2026-01-05T10:00:00.000Z"', '"2026-01-05"', '"x"', '"type"', '"tool_use"', '\n', '<<<<<<< SEARCH', 'a', '"timestamp""timestamp"', '"timestamp": "2026-01-05T10:00:00.000Z"', '"type":"tool_use"', '\n<<<<<<< SEARCH\n'];
    const patterns: [RegExp, RegExp, string[]][] = [
      [/"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]{8,40})"/g, /"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]{8,40})"/y, ['"timestamp"']],
      [/"type"\s*:\s*"tool_use"|^<<<<<<< SEARCH$/gm, /"type"\s*:\s*"tool_use"|^<<<<<<< SEARCH$/my, ['"type"', '<<<<<<< SEARCH']],
    ];
    let found = 0;
    for (let k = 0; k < 5000; k++) {
      const text = Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]!).join('');
      for (const [global, sticky, openings] of patterns) {
        const want = [...text.matchAll(global)].map((m) => `${m.index}:${m[0]}:${m[1] ?? ''}`);
        const got: string[] = [];
        eachMatchAt(sticky, openings, text, (m) => got.push(`${m.index}:${m[0]}:${m[1] ?? ''}`));
        expect(got, JSON.stringify(text)).toEqual(want);
        found += got.length;
      }
    }
    expect(found).toBeGreaterThan(2000);
  });
});
