/** The dashboard's charts are read by people (issue 36): weekly buckets, not 30 overlapping days;
 * every chart parses with mermaid's own parser (in a jsdom window, as mermaid needs a DOM). */
import { describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

/** The dashboard of the bundled example, its files dated as the demo dates them (a transcript
 * without timestamps is dated by its file: a fresh clone's would be today). */
function exampleDashboard(): string {
  const root = tempDir();
  const sessions = join(tempDir(), 'test_sessions');
  cpSync(join(PROJECT_ROOT, 'test_sessions'), sessions, { recursive: true });
  const fixed = new Date('2026-03-15T00:00:00Z');
  for (const d of readdirSync(sessions, { recursive: true, withFileTypes: true })) if (d.isFile()) utimesSync(join(d.parentPath, d.name), fixed, fixed);
  expect(runCli(['init'], { cwd: root }).code).toBe(0);
  expect(runCli(['harvest', sessions], { cwd: root }).code).toBe(0);
  expect(runCli(['measure', '--sessions', sessions], { cwd: root }).code).toBe(0);
  return readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
}

/** mermaid.parse, with the DOM it needs for its text sanitizer. */
async function mermaidParse(): Promise<(text: string) => Promise<unknown>> {
  const { JSDOM } = await import('jsdom');
  const { window } = new JSDOM('');
  Object.assign(globalThis, { window, document: window.document });
  const { default: mermaid } = await import('mermaid');
  return (text) => mermaid.parse(text);
}

describe('dashboard charts', () => {
  it('parse with mermaid (and a broken chart would not)', async () => {
    const dashboard = exampleDashboard();
    const charts = [...dashboard.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(charts.length).toBeGreaterThanOrEqual(2);
    const parse = await mermaidParse();
    for (const chart of charts) await expect(parse(chart), chart).resolves.toMatchObject({ diagramType: 'xychart' });
    await expect(parse(charts[0]!.replace(/x-axis \[([^\]]*)\]/, 'x-axis [$1'))).rejects.toThrow(/Parse error/);
  }, 60_000);

  it('show items per week with at most five labels', () => {
    const dashboard = exampleDashboard();
    const velocity = /title "Items added and reinforced per week"\n\s+x-axis \[([^\]]*)\]/.exec(dashboard);
    expect(velocity).not.toBeNull();
    const labels = velocity![1]!.split(', ');
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThanOrEqual(5);
    for (const l of labels) expect(l).toMatch(/^"from \d\d-\d\d"$/);
    expect(dashboard).not.toContain('1970-');
  });
});
