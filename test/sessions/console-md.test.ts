import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleMdReader } from '../../src/sessions/readers/console-md.js';
import { detectFile } from '../../src/sessions/detect.js';
import { SHARED, tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith, withInvalidUtf8 } from './reader-checks.js';

const DAY14 = join(SHARED, 'console-md', 'BookMinder', 'day-014.md');
const MINE = join(TEST_SESSIONS, 'console-md', 'gemini-terminal-copy.md');

/**
 * Line-regex counts: prompts are `> ` lines; a tool call is a panel title line with a status mark;
 * a call failed when its mark is x/✗/✕, or when it is a Shell panel whose body shows a failure.
 */
function consoleCounts(file: string): { prompts: number; toolCalls: number; toolErrors: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  let toolCalls = 0;
  let toolErrors = 0;
  for (let i = 0; i < lines.length; i++) {
    const title = /^ ?│ ([✔✓x✗✕?o⊷-]) {1,2}(\S+)/.exec(lines[i]!);
    if (!title) continue;
    toolCalls++;
    let j = i + 1;
    while (j < lines.length && !/^ ?╰/.test(lines[j]!)) j++;
    const body = lines.slice(i + 1, j).join('\n');
    if ('x✗✕'.includes(title[1]!) || (title[2] === 'Shell' && /FAILED|Traceback|Error:|error:/.test(body))) toolErrors++;
  }
  return { prompts: lines.filter((l) => l.startsWith('> ')).length, toolCalls, toolErrors };
}

describe.skipIf(!existsSync(SHARED))('console-md reader on the shared BookMinder copy', () => {
  it('detected, read without warnings, counts match a line-regex count', async () => {
    const detected = await detectFile(DAY14);
    expect(detected.ok && detected.reader.format).toBe('console-md');
    const { sessions, warnings } = await readWith(consoleMdReader, DAY14);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(counts(sessions[0]!)).toEqual(consoleCounts(DAY14));
    expectWellFormed(sessions[0]!, DAY14);
    await expectDeterministic(consoleMdReader, DAY14);
  });

  it('footer, model switch, cancelled edits, the failing pytest run and the pasted note', async () => {
    const s = (await readWith(consoleMdReader, DAY14)).sessions[0]!;
    expect(s).toMatchObject({ format: 'console-md', agent: 'gemini-cli', cwd: '~/Developer/BookMinder', repo: 'BookMinder', branch: 'main' });
    expect(s.models).toEqual(['gemini-2.5-pro', 'gemini-2.5-flash']);
    const switchAt = ofKind(s, 'system').find((e) => e.text.includes('switching from gemini-2.5-pro'))!;
    const replies = ofKind(s, 'assistant');
    expect(replies.filter((r) => r.index < switchAt.index).every((r) => r.model === 'gemini-2.5-pro')).toBe(true);
    expect(replies.filter((r) => r.index > switchAt.index).every((r) => r.model === 'gemini-2.5-flash')).toBe(true);
    const calls = ofKind(s, 'tool_call');
    expect(calls[1]).toMatchObject({ name: 'Shell', command: 'pytest --spec' });
    const results = ofKind(s, 'tool_result');
    expect(results.filter((r) => r.rejected)).toHaveLength(4); // the "-" panels: cancelled edits and a cancelled query
    const pytest = results[1]!;
    expect(pytest.isError).toBe(true);
    expect(pytest.output).toContain('1 failed, 12 passed, 1 skipped');
    expect(pytest.output.split('\n')[0]).toMatch(/^=+ test session starts =+$/); // panel borders stripped
    expect(ofKind(s, 'user')[0]!.text).toBe('Execute /hi');
    expect(ofKind(s, 'user')[1]!.text).toMatch(/^Our last session was't fully finished\.[\s\S]*p2\.jpg$/);
    const note = s.events.at(-1)!;
    expect(note.kind === 'system' && note.injected && note.text).toMatch(/^!!! Manual intervention required/);
  });
});

describe('console-md reader on test_sessions', () => {
  it('detected, no warnings, counts match a line-regex count; the x panel is an error', async () => {
    const detected = await detectFile(MINE);
    expect(detected.ok && detected.reader.format).toBe('console-md');
    const { sessions, warnings } = await readWith(consoleMdReader, MINE);
    expect(warnings).toEqual([]);
    const s = sessions[0]!;
    expect(counts(s)).toEqual(consoleCounts(MINE));
    expectWellFormed(s, MINE);
    const [build, edit, , , rebuild] = ofKind(s, 'tool_result');
    expect(build).toMatchObject({ name: 'Shell', isError: true });
    expect(build!.output).toContain('Found dead link ./guide/instalation');
    expect(edit).toMatchObject({ name: 'Edit', isError: true });
    expect(rebuild).toMatchObject({ isError: false });
    expect(s).toMatchObject({ repo: 'docs-site', branch: 'fix-links', models: ['gemini-2.5-pro'] });
  });
});

describe('console-md reader on bad input', () => {
  const text = readFileSync(MINE, 'utf8');

  it('empty file: no session, a warning', async () => {
    const f = put(tempDir(), 'empty.md', '');
    const { sessions, warnings } = await readWith(consoleMdReader, f);
    expect(sessions).toEqual([]);
    expectWarningAt(warnings, f);
  });

  it('copy cut inside a tool panel: warned at the panel, the partial panel kept', async () => {
    const cut = text.slice(0, text.indexOf('│    ✓ rendering pages'));
    const f = put(tempDir(), 'cut.md', cut);
    const { sessions, warnings } = await readWith(consoleMdReader, f);
    const panelTop = cut.split('\n').findLastIndex((l) => l.startsWith(' ╭')) + 1;
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, f, panelTop);
    expect(ofKind(sessions[0]!, 'tool_result').at(-1)!.output).toBe('✓ building client + server bundles...');
  });

  it('invalid UTF-8: warned with its line', async () => {
    const f = put(tempDir(), 'utf8.md', withInvalidUtf8(text, 1, 'the docs '));
    const { sessions, warnings } = await readWith(consoleMdReader, f);
    expectWarningAt(warnings, f, 1);
    expect(ofKind(sessions[0]!, 'user')[0]!.text).toMatch(/^the docs \uFFFDsite/);
  });
});
