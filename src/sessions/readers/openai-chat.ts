/**
 * Generic OpenAI-chat JSONL: one chat message per line ({role, content, tool_calls} /
 * {role:"tool", tool_call_id, content}). Many home-grown agents log this shape. Detection scores
 * it below every specific reader so Claude Code, Codex and Hermes files are never taken.
 */
import { forEachLine, type Preloaded } from '../lines.js';
import type { Session, SessionFormat } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import { baseName, errorMessage, fileSize, isRecord, lineOptionsFor, makeSession, pathHash, str, warnLineQuality, Warnings } from './common.js';
import { newChatState, pushChatMessage } from './openai-messages.js';
import { parseHeadLine, takeHeadParse } from '../jsonl.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
// Keys that belong to other formats' envelopes (Claude Code, Codex, ShareGPT, Hermes meta).
const FOREIGN_KEYS = ['type', 'uuid', 'parentUuid', 'payload', 'sessionId', 'record_type', 'conversations'];

function detectChat(head: string): number {
  // The first 20 newline-terminated lines (the last line of the head may be cut short), or the
  // whole head when it has no newline; found one at a time, not by splitting all 64 KiB.
  let seen = 0;
  let from = 0;
  for (let n = 0; n < 20; n++) {
    const nl = head.indexOf('\n', from);
    if (nl === -1 && n > 0) break;
    const raw = nl === -1 ? head : head.slice(from, nl);
    from = nl + 1;
    const line = raw.trim();
    if (line === '') continue;
    // only a line from `{` to `}` can parse to an object; skip the thrown error of any other
    if (line[0] !== '{' || !line.endsWith('}')) return 0;
    const v = parseHeadLine(line);
    if (!isRecord(v) || typeof v.role !== 'string') return 0;
    if (v.role === 'session_meta') return 0; // Hermes
    if (!ROLES.has(v.role)) return 0;
    if (FOREIGN_KEYS.some((k) => k in v)) return 0;
    seen++;
  }
  return seen > 0 ? 0.4 : 0;
}

export interface ChatJsonlSettings {
  format: SessionFormat;
  agent: string;
  /** Session id for a file that records none. */
  id: (file: string) => string;
}

/** Reads a JSONL file of chat messages (plus Hermes' session_meta line) into one Session. */
export async function readChatJsonl(file: string, options: (ReadOptions & Preloaded) | undefined, settings: ChatJsonlSettings): Promise<Session[]> {
  const warnings = new Warnings(file, options);
  const state = newChatState();
  let lineCount = 0;
  let startedAt: string | undefined;
  let firstTime: string | undefined;
  let lastTime: string | undefined;
  let cwd: string | undefined;
  let readFailed = false;
  try {
    const lineOptions = lineOptionsFor(options);
    lineOptions.reuseLine = true; // no Line is kept past its call
    await forEachLine(file, lineOptions, (line) => {
      warnLineQuality(warnings, line, 'skipped');
      if (line.truncated) return;
      const text = line.text.trim();
      if (text === '') return;
      lineCount++;
      let v = takeHeadParse(text, line.lineNo); // parsed by detection already?
      if (v === undefined) {
        try {
          v = JSON.parse(text);
        } catch (err) {
          warnings.add(line.lineNo, `invalid JSON (${errorMessage(err)}); line skipped`);
          return;
        }
      }
      if (!isRecord(v)) {
        warnings.add(line.lineNo, 'line is not a JSON object; skipped');
        return;
      }
      const source = { file, line: line.lineNo, offset: line.offset };
      if (v.role === 'session_meta') {
        const model = str(v.model);
        if (model) {
          state.defaultModel = model;
          state.models.add(model);
        }
        startedAt ??= str(v.timestamp);
        cwd ??= str(v.cwd);
        return;
      }
      if (!pushChatMessage(state, v, source)) {
        warnings.add(line.lineNo, `not a chat message (role ${JSON.stringify(v.role)}); skipped`);
        return;
      }
      const t = str(v.timestamp);
      if (t) {
        firstTime ??= t;
        lastTime = t;
      }
    });
  } catch (err) {
    readFailed = true;
    warnings.add(undefined, `cannot read file: ${errorMessage(err)}`);
  }
  if (lineCount === 0) {
    if (!readFailed) warnings.add(undefined, 'file is empty');
    return [];
  }
  const bytes = await fileSize(file, options?.content);
  return [
    makeSession({
      id: settings.id(file),
      format: settings.format,
      agent: settings.agent,
      file,
      bytes,
      events: state.events,
      warnings: warnings.list,
      models: state.models.names,
      cwd,
      repo: cwd ? cwd.split(/[\\/]/).filter(Boolean).pop() : undefined,
      startedAt: startedAt ?? firstTime,
      endedAt: lastTime,
    }),
  ];
}

export const openaiChatReader: SessionReader & DetectBound = {
  format: 'openai-chat',
  maxScore: 0.4,
  detect: (head) => detectChat(head),
  read: (file, options) =>
    readChatJsonl(file, options, {
      format: 'openai-chat',
      agent: 'openai-chat',
      // generic names (chat.jsonl) repeat across folders, so the path hash keeps ids apart
      id: (f) => `${baseName(f)}-${pathHash(f, 8)}`,
    }),
};
