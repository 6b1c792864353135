/**
 * The extractor's shortcuts give what the plain forms they replace give: words() against the
 * split it stands for, a step's simple commands, families and main command against the string
 * helpers, and reportsOf asked twice against once.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { commandFamilies, family, mainCommand, simpleCommands } from '../../src/harvest/extract/commands.js';
import { reportsOf } from '../../src/harvest/extract/report.js';
import { words } from '../../src/harvest/extract/text.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { readSessions } from '../../src/sessions/read.js';
import { prng } from '../prng.js';
import { SessionBuilder } from './extract-session.js';

/** words() as it was written before its one-pass form. */
function wordsBySplit(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9_.\-/]+/)
      .filter((w) => w.length > 2),
  );
}

describe('words', () => {
  it('gives the same words, in the same order, as splitting on non-word characters', () => {
    const alphabet = 'abcXYZ019_.-/ \t\n,:;()`\'"éİßΣ→';
    const next = prng(7);
    for (let n = 0; n < 5000; n++) {
      const len = Math.floor(next() * 60);
      let text = '';
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      expect([...words(text)], JSON.stringify(text)).toEqual([...wordsBySplit(text)]);
    }
    for (const text of ['', 'ab', 'abc', 'Error: ENOENT /tmp/x.json', 'a.b-c/d_e ... ', '  npm ERR! code 1  ']) {
      expect([...words(text)]).toEqual([...wordsBySplit(text)]);
    }
  });
});

describe('step command fields', () => {
  it('hold what the string helpers give for the step command', async () => {
    const { sessions } = await readSessions([resolve('test_sessions')], {});
    let commands = 0;
    for (const session of sessions) {
      for (const step of viewOf(session).steps) {
        if (step.command === undefined) {
          expect([step.simple, step.families, step.main]).toEqual([[], [], '']);
          continue;
        }
        commands++;
        expect(step.simple).toEqual(simpleCommands(step.command));
        expect(step.families).toEqual(simpleCommands(step.command).map(family));
        expect(commandFamilies(step.command)).toEqual(step.families);
        expect(step.main).toBe(mainCommand(step.command));
      }
    }
    expect(commands).toBeGreaterThan(20);
  });
});

describe('reportsOf', () => {
  it('answers a view the same each time it is asked', () => {
    const report = ['## Findings', '', '- `src/a.ts` builds with `tsc -p .`', '- the tests live in `test/`', '- config in `vite.config.ts`', 'x'.repeat(600)].join('\n');
    const b = new SessionBuilder();
    b.user('look around');
    for (let i = 0; i < 3; i++) b.tool('Bash', { command: `ls dir${i}` }, 'a\nb');
    b.assistant(report);
    const view = viewOf(b.build());
    const first = reportsOf(view);
    expect(first.length).toBe(1);
    expect(reportsOf(view)).toBe(first);
    expect(reportsOf(viewOf(b.build()))).toEqual(first);
  });
});
