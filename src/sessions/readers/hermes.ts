/**
 * Hermes Agent (NousResearch) sessions, two on-disk shapes of the same conversation:
 * - gateway transcript JSONL (`<YYYYMMDD_HHMMSS>_<hex>.jsonl`): a `session_meta` line, then OpenAI
 *   chat messages with naive local timestamps; the file name is the session id;
 * - session JSON log (`session_<id>.json`): one pretty-printed object with session_id, model,
 *   session_start, last_updated, system_prompt and the same messages without timestamps.
 * Both yield the same session id, so a walker that meets both can keep one.
 */
import { pushText } from '../events.js';
import type { Session } from '../model.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import type { Preloaded } from '../lines.js';
import { baseName, isRecord, makeSession, readHead, readTextFile, str, Warnings } from './common.js';
import { firstLineObject } from '../jsonl.js';
import { scanJson } from './json-scan.js';
import { newChatState, pushChatMessage } from './openai-messages.js';
import { readChatJsonl } from './openai-chat.js';

// Line 1 can be hundreds of KB of tool schemas, so the head may not hold a whole line.
const GATEWAY_HEAD = /^\s*\{[^\n]*?"role"\s*:\s*"session_meta"/;

/** The line where GATEWAY_HEAD needs `"role"`: from the first non-blank character (when it is
 * `{`) to the end of that line. Checking it first spares other JSON files a search of the whole
 * 64 KiB head. */
function firstObjectLine(head: string): string {
  const start = head.search(/\S/);
  if (start === -1 || head.charCodeAt(start) !== 0x7b /* { */) return '';
  const end = head.indexOf('\n', start);
  return head.slice(start, end === -1 ? head.length : end);
}

function detectLog(head: string): number {
  if (!/^\s*\{/.test(head)) return 0;
  // the keys must open lines of a pretty-printed object: a file whose first line is a whole
  // object (JSONL) has none, and the head need not be searched for them
  if (firstLineObject(head)) return 0;
  // the literal checks are cheap and rule out almost every head before the multiline regexes
  if (!head.includes('"session_id"') || !head.includes('"session_start"')) return 0;
  return /^\s*"session_id"\s*:/m.test(head) && /^\s*"session_start"\s*:/m.test(head) ? 0.9 : 0;
}

/** `Current working directory: /home/luffy` on a line of Hermes's system prompt. */
const WORKING_DIRECTORY = /^Current working directory: ?(\S[^\n]*)$/m;

async function readLog(file: string, options?: ReadOptions & Preloaded): Promise<Session[]> {
  const warnings = new Warnings(file, options);
  const tf = await readTextFile(file, warnings, options);
  if (!tf) return [];
  if (tf.text.trim() === '') {
    warnings.add(undefined, 'file is empty');
    return [];
  }
  const text = tf.text;
  const top = new Map<string, [number, number]>();
  const messages: [number, number][] = [];
  const complete = scanJson(text, 2, (path, start, end) => {
    if (path.length === 1) top.set(path[0] as string, [start, end]);
    else if (path.length === 2 && path[0] === 'messages') messages.push([start, end]);
  });

  // Fast path: one JSON.parse. Otherwise (cut short mid-write) parse each complete part alone.
  let doc: Record<string, unknown> | undefined;
  if (complete) {
    try {
      const v: unknown = JSON.parse(text);
      if (isRecord(v)) doc = v;
    } catch {
      doc = undefined;
    }
  }
  const parsePart = (span: [number, number]): unknown => {
    try {
      return JSON.parse(text.slice(span[0], span[1]));
    } catch {
      warnings.add(tf.lineAt(span[0]), 'invalid JSON value; skipped');
      return undefined;
    }
  };
  if (!doc) {
    warnings.add(tf.lineAt(text.length), 'JSON document is truncated or malformed; reading its complete parts');
  }
  const field = (key: string): unknown => {
    if (doc) return doc[key];
    const span = top.get(key);
    return span ? parsePart(span) : undefined;
  };
  const msgs: unknown[] = doc
    ? Array.isArray(doc.messages)
      ? doc.messages
      : []
    : messages.map((span) => parsePart(span));

  const state = newChatState();
  const model = str(field('model'));
  if (model) {
    state.defaultModel = model;
    state.models.add(model);
  }
  const source = (charOffset: number) => {
    const line = tf.lineAt(charOffset);
    return { file, line, offset: tf.byteOffsetOfLine(line) };
  };
  const systemPrompt = str(field('system_prompt'));
  if (systemPrompt) {
    pushText(state.events, 'system', systemPrompt, { source: source(top.get('system_prompt')?.[0] ?? 0), injected: true });
  }
  msgs.forEach((m, i) => {
    const start = messages[i]?.[0] ?? 0;
    if (!isRecord(m)) {
      if (m !== undefined) warnings.add(tf.lineAt(start), 'message is not a JSON object; skipped');
      return;
    }
    if (!pushChatMessage(state, m, source(start))) {
      warnings.add(tf.lineAt(start), `not a chat message (role ${JSON.stringify(m.role)}); skipped`);
    }
  });
  const sessionId = str(field('session_id')) ?? baseName(file).replace(/^session_/, '');
  // newer Hermes builds write the working directory into their own system prompt
  const cwd = systemPrompt ? WORKING_DIRECTORY.exec(systemPrompt)?.[1]?.trim() : undefined;
  return [
    makeSession({
      id: sessionId,
      format: 'hermes',
      agent: 'hermes',
      file,
      bytes: tf.bytes,
      events: state.events,
      warnings: warnings.list,
      models: state.models.names,
      startedAt: str(field('session_start')),
      endedAt: str(field('last_updated')),
      cwd,
    }),
  ];
}

export const hermesReader: SessionReader & DetectBound = {
  format: 'hermes',
  maxScore: 0.95,
  detect: (head) => {
    // GATEWAY_HEAD needs both on the first line: a search of that line, not of the whole head
    const first = firstObjectLine(head);
    return first.includes('"role"') && first.includes('"session_meta"') && GATEWAY_HEAD.test(head) ? 0.95 : detectLog(head);
  },
  async read(file, options?: ReadOptions & Preloaded) {
    // A pretty-printed object is the JSON log; anything else is read as the gateway JSONL.
    const head = await readHead(file, 8192, options?.content);
    if (detectLog(head) > 0 || /^\s*\{\s*\n/.test(head)) return readLog(file, options);
    return readChatJsonl(file, options, { format: 'hermes', agent: 'hermes', id: baseName });
  },
};
