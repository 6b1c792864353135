/**
 * Every reader the tool knows, in detection-priority order (ties go to the earlier one).
 * Adding a format = one reader module under readers/ and one line here.
 */
import type { SessionReader } from './reader.js';
import { claudeCodeReader } from './readers/claude-code.js';
import { codexReader } from './readers/codex.js';
import { hermesReader } from './readers/hermes.js';
import { openaiChatReader } from './readers/openai-chat.js';
import { geminiCliReader } from './readers/gemini-cli.js';
import { specstoryReader } from './readers/specstory.js';
import { consoleMdReader } from './readers/console-md.js';
import { aiderReader } from './readers/aider.js';
import { capturedReader } from './readers/captured.js';

export const READERS: readonly SessionReader[] = [
  // READERS-LIST: one entry per format
  // a captured session says so on its first line: nothing else is tried
  capturedReader,
  // Codex first: its check reads only the first line's opening keys, while Claude Code's scans
  // the head for its keys; a Codex rollout then never pays for that scan
  codexReader,
  claudeCodeReader,
  // Gemini CLI before Hermes: a Gemini chat is settled by a search for its keys, where Hermes'
  // check (made first, it was) searched each such head twice for keys it never holds
  geminiCliReader,
  hermesReader,
  aiderReader,
  specstoryReader,
  consoleMdReader,
  openaiChatReader,
];
