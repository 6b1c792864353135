import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aiderReader, sameWords } from '../../src/sessions/readers/aider.js';
import { detectFile } from '../../src/sessions/detect.js';
import { tempDir, TEST_SESSIONS } from './support.js';
import { counts, expectDeterministic, expectWarningAt, expectWellFormed, ofKind, put, readWith, withInvalidUtf8 } from './reader-checks.js';
import { prng } from '../prng.js';

const FILE = join(TEST_SESSIONS, 'aider', 'inventory-api', '.aider.chat.history.md');

/**
 * Line-regex counts per `# aider chat started at` section. Prompts: runs of `#### ` lines. Calls:
 * SEARCH markers in replies, /run and /test inputs, auto-lint blocks, commits, and auto-test
 * failures. Errors: lint blocks, /test runs followed by "Added N lines of output" (only added on a
 * non-zero exit), blocks that failed to match, auto-test failures.
 */
function aiderCounts(text: string): { prompts: number; toolCalls: number; toolErrors: number }[] {
  const sections = text.split(/^# aider chat started at .*$/m).slice(1);
  return sections.map((sec) => {
    const lines = sec.split('\n');
    let prompts = 0;
    let toolCalls = 0;
    let toolErrors = 0;
    lines.forEach((l, i) => {
      if (l.startsWith('#### ') && !lines[i - 1]?.startsWith('####')) prompts++;
      if (/^<<<<<<< SEARCH/.test(l)) toolCalls++;
      if (/^#### (\/run|\/test) /.test(l)) toolCalls++;
      if (/^#### \/test /.test(l) && /^> Added \d+ lines of output/.test(lines[i + 1] ?? '')) toolErrors++;
      if (/^> # Fix any errors below/.test(l)) toolCalls++, toolErrors++;
      if (/^> Commit [0-9a-f]{7}/.test(l)) toolCalls++;
      if (/^> Attempt to fix test errors\?/.test(l)) toolCalls++, toolErrors++;
      if (/^> # \d+ SEARCH\/REPLACE blocks? failed to match/.test(l)) toolErrors++;
    });
    return { prompts, toolCalls, toolErrors };
  });
}

describe('Aider reader on test_sessions', () => {
  it('one session per chat start; no warnings; counts match a line-regex count', async () => {
    const detected = await detectFile(FILE);
    expect(detected.ok && detected.reader.format).toBe('aider');
    const { sessions, warnings } = await readWith(aiderReader, FILE);
    expect(warnings).toEqual([]);
    expect(sessions.map(counts)).toEqual(aiderCounts(readFileSync(FILE, 'utf8')));
    for (const s of sessions) expectWellFormed(s, FILE);
    await expectDeterministic(aiderReader, FILE);
  });

  it('ids from path + start time, models from the banner, repo from the project folder', async () => {
    const [a, b] = (await readWith(aiderReader, FILE)).sessions;
    expect(a!.id).toMatch(/^aider-[0-9a-f]{10}-20250512T090211$/);
    expect(b!.id).toMatch(/^aider-[0-9a-f]{10}-20250514T164003$/);
    expect(a!.id.slice(0, 17)).toBe(b!.id.slice(0, 17));
    expect(a).toMatchObject({ format: 'aider', agent: 'aider', repo: 'inventory-api', startedAt: '2025-05-12T09:02:11' });
    expect(a!.models).toEqual(['anthropic/claude-3-7-sonnet-20250219', 'anthropic/claude-3-5-haiku-20241022']);
    expect(ofKind(a!, 'assistant')[0]!.model).toBe('anthropic/claude-3-7-sonnet-20250219');
    const banner = ofKind(a!, 'system')[0]!;
    expect(banner.injected).toBe(true);
    expect(banner.text).toContain('Aider v0.82.2');
    // session bytes add up to the file
    expect(a!.bytes + b!.bytes + 1).toBe(readFileSync(FILE).length); // + the blank first line
  });

  it('repeated routine: black → ruff → pytest before every commit', async () => {
    const s = (await readWith(aiderReader, FILE)).sessions[0]!;
    const calls = ofKind(s, 'tool_call');
    const commits = calls.filter((c) => c.name === 'commit');
    expect(commits.map((c) => c.input.hash)).toEqual(['3f9c2d1', '8a41e07', 'c07d5b3']);
    for (const commit of commits) {
      const before = calls.filter((c) => c.index < commit.index && (c.name === 'run' || c.name === 'test')).map((c) => c.command);
      const routine = before.filter((c, i) => c !== before[i - 1]); // a re-run after a fix is the same step
      expect(routine.slice(-3)).toEqual(['black app tests', 'ruff check app tests', 'pytest -q']);
    }
    const edits = calls.filter((c) => c.name === 'edit');
    expect(edits[0]!.input).toMatchObject({ path: 'app/routes/items.py' });
    expect(String(edits[0]!.input.replace)).toContain('def get_stock');
    const results = ofKind(s, 'tool_result');
    for (const e of edits) expect(results.find((r) => r.name === 'edit' && r.index > e.index)).toBeDefined();
    const lint = results.find((r) => r.name === 'lint')!;
    expect(lint.isError).toBe(true);
    expect(lint.output).toContain('F821 Undefined name `StockOut`');
    expect(calls.find((c) => c.name === 'lint')!.command).toBe('/home/dev/inventory-api/.venv/bin/ruff check app/routes/items.py');
    const failedTests = results.filter((r) => r.name === 'test' && r.isError);
    expect(failedTests).toHaveLength(2);
    const diagnosis = s.events[failedTests[0]!.index + 1]!;
    expect(diagnosis.kind === 'assistant' && diagnosis.text).toContain("ImportError: cannot import name 'StockOut'");
  });

  it('failure: an edit that did not match, its retry, failing auto-tests, /undo, stop', async () => {
    const s = (await readWith(aiderReader, FILE)).sessions[1]!;
    const results = ofKind(s, 'tool_result');
    const miss = results[0]!;
    expect(miss).toMatchObject({ name: 'edit', isError: true });
    expect(miss.output).toContain('SearchReplaceNoExactMatch');
    expect(miss.output).toContain('def find(self, sku: str) -> Optional[Item]:');
    expect(results.filter((r) => r.name === 'test').map((r) => r.isError)).toEqual([true, true]);
    expect(ofKind(s, 'system').map((e) => e.text)).toContain('Removed: 1d9a3c6 refactor: use select() in ItemRepo.find');
    const last = s.events.at(-1)!;
    expect(last.kind === 'assistant' && last.text).toContain('`sqlite://` in-memory engine');
  });
});

describe('Aider reader on tricky and bad input', () => {
  const text = readFileSync(FILE, 'utf8');

  it('empty file: no session, a warning', async () => {
    const f = put(tempDir(), '.aider.chat.history.md', '');
    const { sessions, warnings } = await readWith(aiderReader, f);
    expect(sessions).toEqual([]);
    expectWarningAt(warnings, f);
  });

  it('history cut inside a reply’s code block: warned at the fence, the rest of the session kept', async () => {
    const cut = text.slice(0, text.indexOf('    return StockOut(sku=item.sku'));
    const f = put(tempDir(), '.aider.chat.history.md', cut);
    const { sessions, warnings } = await readWith(aiderReader, f);
    const fence = cut.split('\n').lastIndexOf('```python') + 1;
    expect(warnings).toHaveLength(1);
    expectWarningAt(warnings, f, fence);
    expect(sessions).toHaveLength(1);
    expect(ofKind(sessions[0]!, 'assistant')).toHaveLength(1);
  });

  it('a reply cut short (^C) inside its code block still ends at the next input line', async () => {
    const f = put(
      tempDir(),
      '.aider.chat.history.md',
      [
        '# aider chat started at 2025-07-01 08:00:00',
        '',
        "#### Let's use python instead of bash  ",
        '>  ',
        '> ^C again to exit  ',
        '',
        'Here is the Python version:',
        '',
        'metrics.py',
        '```python',
        '#### not an input: a heading inside the script',
        '<<<<<<< SE',
        '',
        '',
        "#### Actually, never mind. Let's continue using bash.  ",
        '',
        'I will keep the bash script.',
        '',
      ].join('\n'),
    );
    const { sessions } = await readWith(aiderReader, f);
    expect(ofKind(sessions[0]!, 'user').map((u) => u.text)).toEqual(["Let's use python instead of bash", "Actually, never mind. Let's continue using bash."]);
    expect(ofKind(sessions[0]!, 'assistant')[0]!.text).toContain('#### not an input: a heading inside the script');
  });

  it("keeps aider's question whether to edit a file not added to the chat (the edit was written blind), drops other confirmations", async () => {
    const f = put(
      tempDir(),
      '.aider.chat.history.md',
      [
        '# aider chat started at 2025-01-30 13:07:52',
        '',
        '#### rewrite MMM-Miku.js  ',
        '',
        'Here it is.',
        '',
        '> Tokens: 7.5k sent, 2.3k received.  ',
        '> MMM-Miku.js  ',
        '> Allow edits to file that has not been added to the chat? (Y)es/(N)o [Yes]: y  ',
        '> Add URL to the chat? (Y)es/(N)o/(D)on\'t ask again [Yes]: y  ',
        '',
      ].join('\n'),
    );
    const { sessions } = await readWith(aiderReader, f);
    const notes = ofKind(sessions[0]!, 'system').map((e) => e.text).join('\n');
    expect(notes).toContain('Allow edits to file that has not been added to the chat?');
    expect(notes).not.toContain('Add URL to the chat?');
  });

  it('invalid UTF-8: warned with its line', async () => {
    const line = text.split('\n').findIndex((l) => l.startsWith('#### add `GET')) + 1;
    const f = put(tempDir(), '.aider.chat.history.md', withInvalidUtf8(text, line, '#### add '));
    const { sessions, warnings } = await readWith(aiderReader, f);
    expectWarningAt(warnings, f, line);
    expect(ofKind(sessions[0]!, 'user')[1]!.text).toMatch(/^add \uFFFD`GET/);
  });

  it('trailing white space of every kind is cut from each line, as trimEnd cuts it', async () => {
    const f = put(
      tempDir(),
      '.aider.chat.history.md',
      [
        '# aider chat started at 2025-07-01 08:00:00',
        '> Model: openai/gpt-4.1 with diff edit format\u00a0 ',
        '#### fix the parser\u3000\t  ',
        '',
        'Done, the parser is fixed.\u2003\u00a0',
        '> Applied edit to src/parse.ts\u00a0  ',
        '#### \u00a0  ',
        '',
      ].join('\n'),
    );
    const s = (await readWith(aiderReader, f)).sessions[0]!;
    expect(ofKind(s, 'user').map((e) => e.text)).toEqual(['fix the parser']);
    expect(ofKind(s, 'assistant').map((e) => e.text)).toEqual(['Done, the parser is fixed.']);
    expect(s.events.filter((e) => e.kind === 'tool_result').map((e) => e.kind === 'tool_result' && e.output)).toEqual(['Applied edit to src/parse.ts']);
    expect(s.models).toEqual(['openai/gpt-4.1']);
  });

  it('a history whose trailing spaces were stripped (an editor, a commit hook) still tells aider from the reply', async () => {
    const lines = [
      '# aider chat started at 2025-06-11 15:37:15',
      '> /home/dev/.local/bin/aider --model ollama_chat/devstral',
      '> Aider v0.84.0',
      '> Model: ollama_chat/devstral:latest with whole edit format',
      '',
      '#### add a prompt argument',
      '',
      'main.py',
      '```',
      'import sys',
      '```',
      '',
      '> Tokens: 1.3k sent, 273 received.',
      '> Applied edit to main.py',
      '> Commit 96ffb8d feat: accept the prompt as an argument',
      '',
      '#### /undo',
      '> The last commit was not made by aider in this chat session.',
      '',
    ];
    const s = (await readWith(aiderReader, put(tempDir(), '.aider.chat.history.md', lines.join('\n')))).sessions[0]!;
    expect(ofKind(s, 'assistant').map((e) => e.text)).toEqual(['main.py\n```\nimport sys\n```']);
    expect(ofKind(s, 'tool_result').map((e) => e.output)).toContain('Applied edit to main.py');
    expect(ofKind(s, 'user').map((e) => e.text)).toEqual(['add a prompt argument', '/undo']);
  });

  it('headings and quotes in a reply are reply text; /ask echoes and /help prompts are injected', async () => {
    const f = put(
      tempDir(),
      '.aider.chat.history.md',
      [
        '# aider chat started at 2025-07-01 08:00:00',
        '',
        '> Aider v0.86.1  ',
        '> Model: openai/gpt-4.1 with diff edit format  ',
        '',
        '#### /ask why is the cache cold after deploy?  ',
        '',
        '#### why is the cache cold after deploy?  ',
        '',
        'The warmup job runs before the new pods are ready.',
        '',
        '#### The fix',
        '> quoted from the runbook',
        '',
        'Run the warmup after the rollout.',
        '',
        '#### # Question: how do I add a test command  ',
        '#### # Announcement lines from when this session of aider was launched:  ',
        '#### Aider v0.86.1  ',
        '',
        'Use `--test-cmd`.',
        '',
        '# aider chat started at 2025-07-01 08:00:00',
        '',
        '#### hi  ',
        '',
      ].join('\n'),
    );
    const { sessions, warnings } = await readWith(aiderReader, f);
    expect(warnings).toEqual([]);
    const [s, twin] = sessions;
    expect(s!.models).toEqual(['openai/gpt-4.1']);
    expect(ofKind(s!, 'user').map((u) => [u.text.split('\n')[0], Boolean(u.injected)])).toEqual([
      ['/ask why is the cache cold after deploy?', false],
      ['why is the cache cold after deploy?', true],
      ['# Question: how do I add a test command', true],
    ]);
    expect(ofKind(s!, 'assistant')[0]!.text).toContain('#### The fix\n> quoted from the runbook');
    expect(counts(s!).prompts).toBe(1);
    expect(twin!.id).toBe(`${s!.id}-2`); // same start second, still distinct ids
  });

  /** A fenced SEARCH/REPLACE block of the model's for `file`: `name = 1` becomes `name = 2`. */
  const block = (file: string, decl: string): string[] => ['```ts', file, '<<<<<<< SEARCH', `${decl} = 1;`, '=======', `${decl} = 2;`, '>>>>>>> REPLACE', '```', ''];
  /** Aider's unquoted message about a block for `file` that failed to match, as 0.84 writes it. */
  const failedMessage = (file: string, decl: string): string[] => [
    `## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in ${file}`,
    ...block(file, decl).slice(2, 7),
    '',
    'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc',
    '',
  ];

  /** An aider 0.84 history file of one session holding `lines`. */
  const history = (lines: string[]): string => put(tempDir(), '.aider.chat.history.md', ['# aider chat started at 2025-06-02 14:29:21', '', '> Aider v0.84.0  ', ...lines].join('\n'));

  it("aider's unquoted message about a failed edit is that edit's output; each edit gets its own outcome", async () => {
    // as aider 0.84 writes it on Windows: "Applied edit to" with backslashes, the failed block's
    // message unquoted from "## SearchReplaceNoExactMatch" to "Just reply with fixed versions …"
    const f = history(
      [
        '> Main model: gemini/gemini-2.5-pro with diff-fenced edit format  ',
        '',
        '#### add the async variant  ',
        '',
        'Here are the edits:',
        '',
        ...block('src/a.ts', 'export const a'),
        ...block('src/b.ts', 'export const b'),
        '> Tokens: 15k sent, 993 received.  ',
        '> Applied edit to src\\a.ts  ',
        '> The LLM did not conform to the edit format.  ',
        '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
        '> # 1 SEARCH/REPLACE block failed to match!',
        '',
        ...failedMessage('src\\b.ts', 'export const b'),
        '# The other 1 SEARCH/REPLACE block were applied successfully.',
        "Don't re-send them.",
        'Just reply with fixed versions of the block above that failed to match.  ',
        '',
        'The file uses `let`. Here is the fixed block:',
        '',
      ],
    );
    const { sessions } = await readWith(aiderReader, f);
    const s = sessions[0]!;
    const edits = ofKind(s, 'tool_call').filter((c) => c.name === 'edit');
    expect(edits.map((c) => c.input.path)).toEqual(['src/a.ts', 'src/b.ts']);
    const outcome = (path: string) => ofKind(s, 'tool_result').find((r) => r.callId === edits.find((c) => c.input.path === path)!.callId)!;
    expect(outcome('src/a.ts')).toMatchObject({ isError: false, output: 'Applied edit to src\\a.ts' });
    expect(outcome('src/b.ts').isError).toBe(true);
    expect(outcome('src/b.ts').output).toContain('The SEARCH section must exactly match');
    expect(outcome('src/b.ts').output).toContain('Just reply with fixed versions');
    // the model's words are only its own reply, and aider's quoted block is no edit of the model's
    expect(ofKind(s, 'assistant').map((a) => a.text)).toEqual(['Here are the edits:\n\n```ts\nsrc/a.ts\n<<<<<<< SEARCH\nexport const a = 1;\n=======\nexport const a = 2;\n>>>>>>> REPLACE\n```\n\n```ts\nsrc/b.ts\n<<<<<<< SEARCH\nexport const b = 1;\n=======\nexport const b = 2;\n>>>>>>> REPLACE\n```', 'The file uses `let`. Here is the fixed block:']);
  });

  it("when every block failed, aider's message ends at its rule line and the model's retry after it is read", async () => {
    const f = history(
      [
        '',
        '#### make b 2  ',
        '',
        ...block('src/b.ts', 'export const b'),
        '> Tokens: 15k sent, 993 received.  ',
        '> # 1 SEARCH/REPLACE block failed to match!',
        '',
        ...failedMessage('src\\b.ts', 'export const b'),
        'The file uses `let`. Here is the fixed block:',
        '',
        ...block('src/b.ts', 'export let b'),
        '> Applied edit to src\\b.ts  ',
        '',
      ],
    );
    const s = (await readWith(aiderReader, f)).sessions[0]!;
    const edits = ofKind(s, 'tool_call').filter((c) => c.name === 'edit');
    expect(edits.map((c) => [c.input.path, c.input.search])).toEqual([
      ['src/b.ts', 'export const b = 1;'],
      ['src/b.ts', 'export let b = 1;'],
    ]);
    const results = ofKind(s, 'tool_result');
    expect(results.map((r) => r.isError)).toEqual([true, false]);
    expect(results[0]!.output).not.toContain('Here is the fixed block');
    expect(ofKind(s, 'assistant').at(-1)!.text).toContain('The file uses `let`. Here is the fixed block:');
  });

  it("cuts the model's next proposal from a run's output only after aider's note that the output went to the chat", async () => {
    const run = (after: string) => `# aider chat started at 2024-07-27 22:13:31\n\n#### run it  \n\nRun:\n\n> python test.py  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running python test.py  \n${after}> ls  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running ls  \n`;
    const outputs = async (after: string) => ofKind((await readWith(aiderReader, put(tempDir(), '.aider.chat.history.md', run(after)))).sessions[0]!, 'tool_result').map((r) => r.output);
    // newer aider keeps only its note: the line after it is the next proposal
    expect((await outputs('> Added 2 lines of output to the chat.  \n'))[0]).toBe('Added 2 lines of output to the chat.');
    // an older one logged the output itself, and no note: nothing is cut
    expect((await outputs('> workspace: D:\\work  \n> task: craft  \n'))[0]).toContain('task: craft');
  });

  it('text before the first header is read as its own session', async () => {
    const f = put(tempDir(), '.aider.chat.history.md', '#### hello  \n\nHi! What should we work on?\n');
    const { sessions, warnings } = await readWith(aiderReader, f);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id).toMatch(/-preamble$/);
    expect(sessions[0]!.startedAt).toBeUndefined();
    expect(counts(sessions[0]!).prompts).toBe(1);
    // it ended before the first launch the history records, which dates it (not the file's mtime)
    const g = put(tempDir(), '.aider.chat.history.md', '#### hello  \n\nHi!\n\n# aider chat started at 2024-08-04 23:10:26\n\n#### next  \n\nOk.\n');
    const both = (await readWith(aiderReader, g)).sessions;
    expect(both.map((x) => [x.startedAt, x.endedAt])).toEqual([[undefined, '2024-08-04T23:10:26'], ['2024-08-04T23:10:26', undefined]]);
  });
});

describe('marker lines holding a line terminator', () => {
  // `^#### (.*)$`: `.` stops at \r, U+2028 and U+2029, so such a line is no input or note. A file
  // without any of them skips that check; one with them makes every line take it.
  it('are reply text, in a file with or without other terminators', async () => {
    const dir = tempDir();
    for (const [name, extra] of [
      ['plain', ''],
      ['crlf', 'trailing\r\n'],
    ] as const) {
      const text = `# aider chat started at 2026-01-05 10:00:00\n\n#### run the tests  \n\n#### odd\u2028input  \n\nSure.\n> ok\u2029done  \n> Applied edit to a.py  \n${extra}`;
      const f = put(dir, `${name}.md`, text);
      const { sessions } = await readWith(aiderReader, f);
      const users = sessions[0]!.events.filter((e) => e.kind === 'user').map((e) => (e as { text: string }).text);
      expect(users, name).toEqual(['run the tests']);
      const replies = sessions[0]!.events.filter((e) => e.kind === 'assistant').map((e) => (e as { text: string }).text);
      expect(replies.join('\n'), name).toContain('#### odd\u2028input');
      expect(replies.join('\n'), name).toContain('> ok\u2029done');
    }
  });
});

describe('sameWords', () => {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  it('agrees with comparing whitespace-normalised copies', () => {
    const next = prng(7);
    // few letters and many kinds of space, so that equal word sequences come up often
    const alphabet = ['a', 'b', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', 'é', '\u{1F600}'];
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]!).join('');
    let equal = 0;
    for (let k = 0; k < 20000; k++) {
      const a = pick(Math.floor(next() * 8));
      // b: a with its spaces redrawn half the time, else a fresh string
      const b = next() < 0.5 ? a.replace(/\s+/g, () => pick(1).replace(/[^\s]/g, ' ')) : pick(Math.floor(next() * 8));
      const want = norm(a) === norm(b);
      if (want) equal++;
      expect(sameWords(a, b), JSON.stringify([a, b])).toBe(want);
      expect(sameWords(b, a), JSON.stringify([b, a])).toBe(want);
    }
    expect(equal).toBeGreaterThan(2000);
  });
});
