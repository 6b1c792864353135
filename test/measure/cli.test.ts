import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers.js';
import { writeFixture } from './fixture.js';

describe('compound measure (CLI)', () => {
  it('writes metrics.json and dashboard.md under the store root and prints a summary', () => {
    const root = tempDir('compound-measure-cli-');
    writeFixture(root);
    const r = runCli(['measure', '--sessions', 'transcripts', '--as-of', '2026-03-12'], { cwd: root });
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'metrics', 'metrics.json'))).toBe(true);
    expect(existsSync(join(root, 'metrics', 'dashboard.md'))).toBe(true);
    expect(r.stdout).toContain('Hit rate: 66.7% of 3 sessions; 50.0% of given items used');
    expect(r.stderr).toContain('measured 7 sessions from 7 files (7 parsed, 0 from the cache)');
    const again = runCli(['measure', '--sessions', 'transcripts', '--as-of', '2026-03-12'], { cwd: root });
    expect(again.stderr).toContain('(0 parsed, 7 from the cache); nothing changed');
  });

  it('--json prints metrics.json; --since narrows the sessions', () => {
    const root = tempDir('compound-measure-cli-');
    writeFixture(root);
    const r = runCli(['measure', '--sessions', 'transcripts', '--since', '2026-03-09', '--as-of', '2026-03-12', '--json'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(root, 'metrics', 'metrics.json'), 'utf8'));
    const report = JSON.parse(r.stdout) as { since: string; inputs: { sessions: number } };
    expect(report.since).toBe('2026-03-09T00:00:00Z');
    expect(report.inputs.sessions).toBe(4); // s4, s5, s6, s7
  });

  it('a bad date or a path that does not exist is a usage error (exit 2); sessions asked for but none found is exit 1 with a dashboard', () => {
    const root = tempDir('compound-measure-cli-');
    writeFixture(root);
    const bad = runCli(['measure', '--as-of', 'last tuesday'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('[E_USAGE]');
    const typo = runCli(['measure', '--sessions', 'nowhere'], { cwd: root });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--sessions: nowhere does not exist');
    mkdirSync(join(root, 'empty-folder'));
    const none = runCli(['measure', '--sessions', 'empty-folder'], { cwd: root });
    expect(none.code).toBe(1);
    expect(readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8')).toContain('No sessions measured');
  });
});
