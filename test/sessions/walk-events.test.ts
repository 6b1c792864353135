import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFromList, walkInputs } from '../../src/sessions/walk.js';
import { hasBootstrapMarker, pushText, pushToolResult } from '../../src/sessions/events.js';
import { bootstrapOpenMarker, BOOTSTRAP_CLOSE } from '../../src/sessions/bootstrap-markers.js';
import type { SessionEvent } from '../../src/sessions/model.js';
import { isCompoundError } from '../../src/core/errors.js';
import { tempDir } from './support.js';

function touch(path: string, text = '{}\n'): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('walkInputs', () => {
  it('walks directories recursively, keeps transcript-like files, skips tool-results and node_modules, sorts', async () => {
    const dir = tempDir();
    touch(join(dir, 'b/2.jsonl'));
    touch(join(dir, 'a/1.jsonl'));
    touch(join(dir, 'a/notes.md'));
    touch(join(dir, 'a/chat.json'));
    touch(join(dir, 'a/readme.txt'));
    touch(join(dir, 'a/sid/tool-results/toolu_1.jsonl'));
    touch(join(dir, 'node_modules/x/y.jsonl'));
    const { files, warnings } = await walkInputs([dir]);
    expect(warnings).toEqual([]);
    expect(files).toEqual([join(dir, 'a/1.jsonl'), join(dir, 'a/chat.json'), join(dir, 'a/notes.md'), join(dir, 'b/2.jsonl')]);
    // a directory named in any spelling gives the paths path.join gives (normalized)
    for (const spelling of [`${dir}/`, `${dir}/a/..`, `${dir}//./b/../`]) {
      expect((await walkInputs([spelling])).files).toEqual(files);
    }
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect((await walkInputs(['.'])).files).toEqual(['a/1.jsonl', 'a/chat.json', 'a/notes.md', 'b/2.jsonl']);
      expect((await walkInputs(['./a/'])).files).toEqual(['a/1.jsonl', 'a/chat.json', 'a/notes.md']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('calls a milestone once, when the walk has found its count of files (the prefetch thread starts then)', async () => {
    const dir = tempDir();
    for (const name of ['a/1.jsonl', 'a/2.jsonl', 'b/3.jsonl', 'b/4.md', 'c.json']) touch(join(dir, name));
    let calls = 0;
    const { files } = await walkInputs([dir, join(dir, 'a/1.jsonl')], {}, { count: 3, then: () => calls++ });
    expect(files).toHaveLength(5);
    expect(calls).toBe(1);
    const none: number[] = [];
    await walkInputs([dir], {}, { count: 6, then: () => none.push(1) });
    expect(none).toEqual([]);
  });

  it('adds <id>/subagents/agent-*.jsonl next to an explicitly named Claude Code session', async () => {
    const dir = tempDir();
    const main = touch(join(dir, 'abc.jsonl'));
    const sub = touch(join(dir, 'abc/subagents/agent-a1.jsonl'));
    touch(join(dir, 'abc/subagents/notes.txt'));
    expect((await walkInputs([main])).files).toEqual([main, sub]);
    expect((await walkInputs([main], { subagents: false })).files).toEqual([main]);
  });

  it('expands globs, de-duplicates, and warns for missing paths and empty globs', async () => {
    const dir = tempDir();
    const a = touch(join(dir, 'x/rollout-1.jsonl'));
    const b = touch(join(dir, 'y/rollout-2.jsonl'));
    const { files, warnings } = await walkInputs(['**/rollout-*.jsonl', 'x/rollout-1.jsonl', 'missing.jsonl', '*.nothing'], { cwd: dir });
    expect(files).toEqual([a, b].sort());
    expect(warnings).toEqual([
      { file: 'missing.jsonl', message: 'no such file or directory' },
      { file: '*.nothing', message: 'the pattern matched no files' },
    ]);
  });

  it('--from reads the default locations under the home directory; a missing one is a warning', async () => {
    const home = tempDir();
    const cwd = tempDir();
    const cc = touch(join(home, '.claude/projects/-home-u-app/s1.jsonl'));
    touch(join(home, '.claude/projects/-home-u-app/s1/tool-results/big.txt'));
    const codex = touch(join(home, '.codex/sessions/2026/01/05/rollout-2026-01-05T10-00-00-x.jsonl'));
    const gemini = touch(join(home, '.gemini/tmp/9f2e/chats/session-2026-01-05T10-00-abcd.json'));
    // newer versions write a chat one message a line; a tool's spilled output is no chat
    const geminiLines = touch(join(home, '.gemini/tmp/app/chats/session-2026-04-25T08-41-3494a697.jsonl'));
    touch(join(home, '.gemini/tmp/app/tool-outputs/session-3494a697/out.txt'));
    touch(join(home, '.gemini/tmp/9f2e/logs.json'));
    const aider = touch(join(cwd, '.aider.chat.history.md'), '# aider chat started at 2026-01-05 10:00:00\n');
    const { files, warnings } = await walkInputs([], { from: ['claude,codex', 'gemini', 'aider', 'hermes'], home, cwd });
    expect(files).toEqual([cc, codex, gemini, geminiLines, aider].sort());
    expect(warnings).toEqual([{ file: join(home, '.hermes/sessions'), message: 'no hermes transcripts here (location does not exist)' }]);
  });

  it('an unknown --from name is a usage error', () => {
    expect(parseFromList('claude, Codex')).toEqual(['claude', 'codex']);
    try {
      parseFromList('claude,cursor');
      expect.unreachable();
    } catch (err) {
      expect(isCompoundError(err) && err.code).toBe('E_USAGE');
    }
  });
});

describe('events helpers: bootstrap blocks', () => {
  const base = { source: { file: 'f.jsonl', line: 7, offset: 120 }, time: '2026-01-05T10:00:00.000Z' };
  const block = (ids: string[], body: string) => `${bootstrapOpenMarker(ids)}\n${body}\n${BOOTSTRAP_CLOSE}`;

  it('plain text becomes one event with its index', () => {
    const events: SessionEvent[] = [];
    pushText(events, 'user', 'hello', base);
    pushText(events, 'assistant', 'hi', base, 'm-1');
    expect(events).toEqual([
      { index: 0, kind: 'user', text: 'hello', ...base },
      { index: 1, kind: 'assistant', text: 'hi', model: 'm-1', ...base },
    ]);
  });

  it('a block inside a text is split off into an injected BootstrapEvent with its ids', () => {
    const events: SessionEvent[] = [];
    const n = pushText(events, 'user', `before\n${block(['k-1', 'k-2'], '- use pnpm')}\nafter`, base);
    expect(n).toBe(2);
    expect(events[0]).toEqual({ index: 0, kind: 'bootstrap', itemIds: ['k-1', 'k-2'], text: '- use pnpm', injected: true, ...base });
    expect(events[1]).toEqual({ index: 1, kind: 'user', text: 'before\n\nafter', ...base });
  });

  it('a text that is only a block adds only the BootstrapEvent; an unclosed block runs to the end', () => {
    const events: SessionEvent[] = [];
    pushText(events, 'system', block(['k-9'], 'x'), base);
    pushText(events, 'user', `${bootstrapOpenMarker(['k-3'])}\ncut off here`, base);
    expect(events.map((e) => e.kind)).toEqual(['bootstrap', 'bootstrap']);
    expect(events[1]).toMatchObject({ itemIds: ['k-3'], text: 'cut off here' });
  });

  it('tool output: the block is split off, the result keeps the rest', () => {
    const events: SessionEvent[] = [];
    pushToolResult(events, { ...base, callId: 'c1', name: 'Bash', output: `${block(['k-5'], 'note')}\nok`, isError: false, exitCode: 0 });
    expect(events.map((e) => e.kind)).toEqual(['bootstrap', 'tool_result']);
    expect(events[1]).toMatchObject({ index: 1, output: '\nok', callId: 'c1', exitCode: 0 });
  });
});

describe('hasBootstrapMarker', () => {
  it('says what includes("compound:bootstrap") says', () => {
    const cases = [
      '',
      'compound:bootstrap',
      'bootstrap',
      'compound bootstrap',
      'xcompound:bootstra',
      'bootstrap compound:bootstrap',
      'compound:bootstrapbootstrap',
      '<!-- compound:bootstrap ids=a -->',
      'ompound:bootstrap',
      'compound:compound:bootstrap',
    ];
    for (const t of cases) expect(hasBootstrapMarker(t), t).toBe(t.includes('compound:bootstrap'));
  });
});
