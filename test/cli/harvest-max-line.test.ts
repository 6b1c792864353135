/** `harvest --max-line-bytes`: the limit the skipped-line warning tells users to raise (issue 32). */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers.js';
import { writeClaudeSession } from '../harvest/model/fake-model.js';

describe('harvest --max-line-bytes', () => {
  it('skips longer lines with a warning naming the flag, and reads them when raised', () => {
    const dir = tempDir();
    const output = `Error: Cannot find module 'left-pad'\n${'x'.repeat(3000)}`;
    writeClaudeSession(join(dir, 's.jsonl'), '11111111-2222-4c3d-9e8f-000000000001', '/srv/src/shop', [
      { user: 'run the tests' },
      { bash: 'npm test', output, error: true },
      { assistant: 'left-pad is missing; installing it.' },
      { bash: 'npm install left-pad && npm test', output: 'ok' },
    ]);
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const low = runCli(['harvest', dir, '--dry-run', '--json', '--max-line-bytes', '2000'], { cwd: root });
    expect(low.code, low.stderr).toBe(0);
    expect(low.stderr).toMatch(/s\.jsonl:\d+: line is \d+ bytes, over the line-size limit; skipped \(harvest and sessions read it with a higher --max-line-bytes\)/);
    const high = runCli(['harvest', dir, '--dry-run', '--json', '--max-line-bytes', '100000'], { cwd: root });
    expect(high.stderr).not.toMatch(/line-size limit/);
    expect(runCli(['harvest', dir, '--max-line-bytes', '0'], { cwd: root })).toMatchObject({ code: 2 });
  });
});
