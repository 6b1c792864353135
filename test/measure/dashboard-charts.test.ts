/** The dashboard's charts are read by people (issue 36): weekly buckets, not 30 overlapping days. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

describe('dashboard charts', () => {
  it('show items per week with at most five labels', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    expect(runCli(['harvest', join(PROJECT_ROOT, 'test_sessions')], { cwd: root }).code).toBe(0);
    expect(runCli(['measure', '--sessions', join(PROJECT_ROOT, 'test_sessions')], { cwd: root }).code).toBe(0);
    const dashboard = readFileSync(join(root, 'metrics', 'dashboard.md'), 'utf8');
    const velocity = /title "Items added and reinforced per week"\n\s+x-axis \[([^\]]*)\]/.exec(dashboard);
    expect(velocity).not.toBeNull();
    const labels = velocity![1]!.split(', ');
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThanOrEqual(5);
    for (const l of labels) expect(l).toMatch(/^"from \d\d-\d\d"$/);
    expect(dashboard).not.toContain('1970-');
  });
});
