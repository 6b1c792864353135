import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessions } from '../../src/sessions/read.js';
import { parentTranscript, withParentEdits } from '../../src/harvest/parent-edits.js';
import { TEST_SESSIONS, tempDir } from '../sessions/support.js';

const PARENT_ID = '1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01';
const DIR = join(TEST_SESSIONS, 'claude-code');
const SUBAGENT = join(DIR, PARENT_ID, 'subagents', 'agent-a1f2c3d.jsonl');

describe("a subagent session and its parent's later edits", () => {
  it('reads the parent transcript beside the subagent file: the files the parent edited after the subagent ended', async () => {
    expect(parentTranscript(SUBAGENT, PARENT_ID)).toBe(join(DIR, `${PARENT_ID}.jsonl`));
    const [sub] = await withParentEdits(SUBAGENT, (await readSessions([SUBAGENT])).sessions);
    expect(sub!.parentId).toBe(PARENT_ID);
    expect(sub!.parentEditsAfter).toEqual(['export.ts']);
  });

  it('gives nothing when the parent transcript is not where Claude Code keeps it', async () => {
    const alone = join(tempDir(), PARENT_ID, 'subagents');
    mkdirSync(alone, { recursive: true });
    const copy = join(alone, 'agent-a1f2c3d.jsonl');
    copyFileSync(SUBAGENT, copy);
    expect(parentTranscript(copy, PARENT_ID)).toBeUndefined();
    const [sub] = await withParentEdits(copy, (await readSessions([copy])).sessions);
    expect(sub!.parentEditsAfter).toBeUndefined();
    // a parent file that cannot be read as a Claude Code session says nothing
    writeFileSync(join(alone, '..', '..', `${PARENT_ID}.jsonl`), 'not a transcript\n{"broken": \n');
    expect(parentTranscript(copy, PARENT_ID)).toBeDefined();
    const [again] = await withParentEdits(copy, (await readSessions([copy])).sessions);
    expect(again!.parentEditsAfter).toBeUndefined();
    // a file that is not under <parent id>/subagents/ has no parent beside it
    expect(parentTranscript(join(DIR, 'failed-migration.jsonl'), PARENT_ID)).toBeUndefined();
  });
});
