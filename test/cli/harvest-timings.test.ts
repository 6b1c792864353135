// `compound harvest --timings` ends with one line on stderr naming each phase's wall-clock time
// in order; without the flag there is no such line. Real CLI, real store in a temp dir.
import { describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { initStore } from '../../src/knowledge/init.js';
import { PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

const ms = String.raw`\d+(?:\.\d)? m?s`;

describe('harvest --timings', () => {
  it('prints the phases on workers, in order, after the summary', () => {
    const root = tempDir();
    initStore(root);
    cpSync(join(PROJECT_ROOT, 'test_sessions'), join(root, 't'), { recursive: true });
    const res = runCli(['harvest', 't', '--workers', '2', '--timings'], { cwd: root });
    expect(res.code, res.stderr).toBe(0);
    const last = res.stderr.trim().split('\n').at(-1)!;
    const phases = ['start-up', 'prepare', 'walk', 'stat', 'first file answered', 'last file answered', 'files', 'plan', 'write', 'search structure', 'total'];
    expect(last).toMatch(new RegExp(`^timings: ${phases.map((p) => `${p} ${ms}`).join(', ')}$`));
    const rerun = runCli(['harvest', 't', '--workers', '2'], { cwd: root });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toContain('timings:');
  });
});
