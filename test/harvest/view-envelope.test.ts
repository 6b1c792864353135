/** The view reads a command's own output without the envelope Codex puts around it. */
import { describe, expect, it } from 'vitest';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

describe("Codex's envelope around a command's output", () => {
  const envelopes = {
    'exec_command': 'Chunk ID: a1\nWall time: 0.2 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\n',
    'the older shell tool': 'Exit code: 2\nWall time: 0 seconds\nOutput:\n',
  };
  for (const [tool, envelope] of Object.entries(envelopes)) {
    it(`is not part of the output, and its exit code is the step's (${tool})`, () => {
      const session = new SessionBuilder({ format: 'codex', agent: 'codex' })
        .user('run the tests')
        .tool('shell', { command: ['bash', '-lc', 'pytest -q'] }, `${envelope}E   ModuleNotFoundError: No module named 'yaml'\n`)
        .build();
      const [step] = viewOf(session).steps;
      expect(step!.output).toBe("E   ModuleNotFoundError: No module named 'yaml'\n");
      expect(step!.exitCode).toBe(2);
      expect(step!.failed).toBe(true);
    });
  }
});
