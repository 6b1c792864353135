/**
 * The extractor's shortcuts give what the plain forms they replace give: words() against the
 * split it stands for, a step's simple commands, families and main command against the string
 * helpers, reportsOf asked twice against once, and the output marks that gate some rules' regexes.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { commandFamilies, family, mainCommand, program, simpleCommands } from '../../src/harvest/extract/commands.js';
import { MARK, marksOf } from '../../src/harvest/extract/marks.js';
import { NOTICE } from '../../src/harvest/extract/retired.js';
import { PAGER_PROMPT } from '../../src/harvest/extract/rules/pager.js';
import { reportsOf } from '../../src/harvest/extract/report.js';
import { windowKeys } from '../../src/harvest/extract/rules/command-patterns.js';
import { CUT } from '../../src/harvest/extract/rules/oversized-output.js';
import { PACKAGE_JSON } from '../../src/harvest/extract/rules/toolchain.js';
import { BACKGROUND, showsMissingModule, TRUNCATED } from '../../src/harvest/extract/rules/tool-quirks.js';
import { TextCache } from '../../src/harvest/extract/text-cache.js';
import { emptyList } from '../../src/core/elements-kind.js';
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
          expect([step.simple, step.families, step.main, step.program, step.family]).toEqual([[], [], '', program(''), family('')]);
          continue;
        }
        commands++;
        expect(step.simple).toEqual(simpleCommands(step.command));
        expect(step.families).toEqual(simpleCommands(step.command).map(family));
        expect(commandFamilies(step.command)).toEqual(step.families);
        expect(step.main).toBe(mainCommand(step.command));
        expect(step.program).toBe(program(step.main));
        expect(step.family).toBe(family(step.main));
      }
    }
    expect(commands).toBeGreaterThan(20);
  });

  it('give an empty list, a new one each time, for a line with no simple command', () => {
    for (const line of ['&&', ' ; ', '||']) {
      expect(simpleCommands(line)).toEqual([]);
      expect(commandFamilies(line)).toEqual([]);
    }
    const [a, b] = [emptyList<string>(), emptyList<string>()];
    expect(a).toEqual([]);
    expect(a).not.toBe(b);
    a.push('x');
    expect(emptyList()).toEqual([]);
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

describe('output marks', () => {
  // Each regex that a mark gates, with the mark: where the mark is not set the regex must fail.
  const gated: [number, (s: string) => boolean][] = [
    [MARK.cut, (s) => TRUNCATED.test(s)],
    [MARK.cut, (s) => CUT.test(s)],
    [MARK.background, (s) => BACKGROUND.test(s)],
    [MARK.dependencies, (s) => PACKAGE_JSON.test(s)],
    [MARK.module, (s) => showsMissingModule(s)],
    [MARK.deprecated, (s) => NOTICE.test(s)],
    [MARK.pager, (s) => PAGER_PROMPT.test(s)],
  ];
  const pieces = [
    '[... omitted 12 of 400 lines ...]', '<persisted-output>', 'Output too large', 'OUTPUT TOO LARGE', 'Shell cwd was reset',
    'Command running in background with ID: b3x9', 'RUNNING IN BACKGROUND WITH ID 7', '"devDependencies": {', '"dependencies" : {',
    "ModuleNotFoundError: No module named 'yaml'", "Error: Cannot find module 'x'", 'persisted-outpu', 'omitte', 'depend',
    'output too', ' large', 'background with', '\n', ' ', 'ok', 'é', '→',
    "The 'shadcn-ui' package is deprecated", 'The init command has been deprecated', 'deprecate', '(END)', '(END)...skipping...', ':...skipping...', '(EN', '...skip', ':',
  ];
  it('is set wherever a gated regex matches, in any case and with overlapping literals', () => {
    const next = prng(11);
    let matched = 0;
    for (let n = 0; n < 4000; n++) {
      let text = '';
      const parts = 1 + Math.floor(next() * 6);
      for (let i = 0; i < parts; i++) {
        let p = pieces[Math.floor(next() * pieces.length)]!;
        if (next() < 0.2) p = p.toUpperCase();
        else if (next() < 0.2) p = p.toLowerCase();
        text += p;
      }
      const marks = marksOf(text);
      for (const [mark, matches] of gated) {
        if (!matches(text)) continue;
        matched++;
        expect(marks & mark, JSON.stringify(text)).toBe(mark);
      }
    }
    expect(matched).toBeGreaterThan(1000);
    expect(marksOf('persisted-output too large running in background')).toBe(MARK.cut | MARK.background);
    expect(marksOf('nothing to see')).toBe(0);
    // literals of two marks that share letters: the scan resumes inside a match, not after it
    expect(marksOf('OUTPUT TOO LARGEPENDENCIES"')).toBe(MARK.cut | MARK.dependencies);
    expect(marksOf('cannot find modulependencies"')).toBe(MARK.module | MARK.dependencies);
  });
});

describe('TextCache', () => {
  it('makes each value once while cached, and empties itself at its entry or character bound', () => {
    let made = 0;
    const make = (t: string): number => {
      made++;
      return t.length;
    };
    const byCount = new TextCache<number>(3, 1000);
    for (const t of ['a', 'bb', 'a', 'ccc', 'bb']) byCount.get(t, make);
    expect(made).toBe(3);
    byCount.get('dddd', make); // a fourth entry: the cache starts again
    byCount.get('a', make);
    expect(made).toBe(5);
    made = 0;
    const byChars = new TextCache<number>(100, 10);
    expect(byChars.get('x'.repeat(6), make)).toBe(6);
    expect(byChars.get('y'.repeat(6), make)).toBe(6); // 12 characters: emptied first
    byChars.get('y'.repeat(6), make);
    byChars.get('x'.repeat(6), make);
    expect(made).toBe(3);
  });
});

describe('recurring-sequence window keys', () => {
  const sameKeysAsText = (fams: readonly string[], from = 0): void => {
    const key = windowKeys(fams);
    for (let n = 3; n <= 5; n++) {
      for (let i = from; i + n <= fams.length; i++) {
        for (let j = from; j + n <= fams.length; j++) {
          const sameText = fams.slice(i, i + n).join(' → ') === fams.slice(j, j + n).join(' → ');
          expect(key(i, n) === key(j, n)).toBe(sameText);
        }
      }
    }
  };

  it('are equal for two windows exactly when their families joined with arrows are', () => {
    const rand = prng(11);
    const plain = ['git add', 'git commit', 'npm test', 'npx tsx', 'make', 'python3 x.py', 'cd'];
    sameKeysAsText(Array.from({ length: 80 }, () => plain[Math.floor(rand() * plain.length)]!));
    // families holding '→': different windows join to one string ("a → → b → c" twice)
    sameKeysAsText(['a →', 'b', 'c', 'a', '→ b', 'c']);
    // more than 1024 families: ids past 1023 would make numbers collide ([1, 0, 0] and [0, 1024, 0])
    const many = Array.from({ length: 1100 }, (_, i) => `tool-${i}`);
    sameKeysAsText([...many, 'tool-1', 'tool-0', 'tool-0', 'tool-0', 'tool-1024', 'tool-0'], 1095);
  });
});
