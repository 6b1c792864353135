import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { aiderReader } from '../../src/sessions/readers/aider.js';
import { consoleMdReader } from '../../src/sessions/readers/console-md.js';
import { geminiCliReader } from '../../src/sessions/readers/gemini-cli.js';
import { hermesReader } from '../../src/sessions/readers/hermes.js';
import { openaiChatReader } from '../../src/sessions/readers/openai-chat.js';
import { specstoryReader } from '../../src/sessions/readers/specstory.js';
import { tempDir } from './support.js';
import { readWith } from './reader-checks.js';

const READERS = [hermesReader, openaiChatReader, aiderReader, geminiCliReader, specstoryReader, consoleMdReader];

describe('readers never throw on paths they cannot read', () => {
  for (const reader of READERS) {
    it(`${reader.format}: a missing file and a directory give one warning each`, async () => {
      const dir = tempDir();
      for (const target of [join(dir, 'missing.txt'), dir]) {
        const { sessions, warnings } = await readWith(reader, target);
        expect(sessions).toEqual([]);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.file).toBe(target);
        expect(warnings[0]!.message).toMatch(/^cannot read file: /);
      }
    });
  }
});
