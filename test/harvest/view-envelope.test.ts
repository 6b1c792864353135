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

describe("a tool's status line after a command's output (`Exit code: 1`, Hermes and OpenAI-chat logs)", () => {
  it('is not part of the output, and its exit code is the step\'s', () => {
    const session = new SessionBuilder({ format: 'openai-chat', agent: 'openai-chat' })
      .user('install the deps')
      .tool('terminal', { command: 'pip3 install --user spotipy' }, 'Requirement already satisfied: spotipy in ./.local/lib/python3.11/site-packages (2.26.0)\nExit code: 0')
      .tool('terminal', { command: 'pipx --version' }, '/usr/bin/bash: line 1: pipx: command not found\nExit code: 1')
      .build();
    const [installed, missing] = viewOf(session).steps;
    expect([installed!.output, installed!.exitCode, installed!.failed]).toEqual(['Requirement already satisfied: spotipy in ./.local/lib/python3.11/site-packages (2.26.0)', 0, false]);
    expect([missing!.output, missing!.exitCode, missing!.failed]).toEqual(['/usr/bin/bash: line 1: pipx: command not found', 1, true]);
  });
});
