/** `bootstrap --task-file` reads at most a bounded prefix: a device or an endless file never hangs a session start. */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers.js';

describe('bootstrap --task-file', () => {
  it.skipIf(!existsSync('/dev/zero'))('reads a bounded prefix of /dev/zero, prints the empty valid block and exits 0', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const r = runCli(['bootstrap', '--task-file', '/dev/zero'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<!-- compound:bootstrap ids= -->');
    expect(r.stderr).toContain('only its first 256 KiB are read');
  });

  it('reads a small file whole', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const task = join(root, 'task.md');
    writeFileSync(task, 'fix the flaky vitest run\n');
    const r = runCli(['bootstrap', '--task-file', task, '--explain'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('only its first');
  });

  it('a hook with a bad option value still prints the empty valid block, and the usage error on stderr', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const r = runCli(['bootstrap', '--format', 'claude-code', '--budget', 'abc'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--budget abc is not a positive whole number');
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('compound:bootstrap ids=');
  });
});
