import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../../src/core/worker-exec-argv.js';

describe('workerExecArgv', () => {
  it('drops the flags of the parent entry point and keeps the others', () => {
    expect(workerExecArgv(['--input-type=module', '--max-old-space-size=999', '-e', 'code'])).toEqual(['--max-old-space-size=999']);
    expect(workerExecArgv(['--input-type', 'module', '--eval', 'x', '--cpu-prof'])).toEqual(['--cpu-prof']);
    expect(workerExecArgv(['-pe', '1+1', '-r', 'mod'])).toEqual(['-r', 'mod']);
    expect(workerExecArgv(['--print=1', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(workerExecArgv([])).toEqual([]);
  });
});
