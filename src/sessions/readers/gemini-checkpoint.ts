/**
 * Gemini CLI's saved chats (`/chat save <tag>` → ~/.gemini/tmp/<project hash>/checkpoint-<tag>.json):
 * the conversation as the Gemini API holds it, a pretty-printed array of `{role: "user"|"model",
 * parts: [...]}`. A part is `{text}`, `{functionCall: {name, args, id?}}` (the model's tool call) or
 * `{functionResponse: {id, name, response: {output} | {error}}}` (its result, in a `user` entry).
 * No timestamps, no model name: the first user entry is the context the CLI writes ("This is the
 * Gemini CLI. We are setting up the context for our chat. … I'm currently working in the
 * directory: /home/dev/app"), which names the working directory, and the model's "Got it." answers
 * it (see gemini-history.ts). Each event cites the line where its entry starts.
 */
import type { Session } from '../model.js';
import { isRecord, str, type TextFile, Warnings } from './common.js';
import { scanJson } from './json-scan.js';
import { GeminiHistory, historySession } from './gemini-history.js';

/** The opening of a saved chat: an array whose first entry has a Gemini API role. */
const OPENING = /^\s*\[\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:/;

export function detectCheckpoint(head: string): number {
  return OPENING.test(head) ? 0.9 : 0;
}

export function readCheckpoint(file: string, warnings: Warnings, tf: TextFile): Session[] {
  const spans: [number, number][] = [];
  const complete = scanJson(tf.text, 1, (p, start, end) => {
    if (p.length === 1) spans.push([start, end]);
  });
  let doc: unknown;
  try {
    doc = complete ? JSON.parse(tf.text) : undefined;
  } catch {
    doc = undefined;
  }
  // a cut-off file: the entries that ended before the cut
  const entries: unknown[] = Array.isArray(doc)
    ? doc
    : spans.map(([s, e]) => {
        try {
          return JSON.parse(tf.text.slice(s, e)) as unknown;
        } catch {
          return undefined;
        }
      });
  if (!complete) warnings.add(tf.lineAt(spans.at(-1)?.[1] ?? 0), 'file ends before the saved chat does (cut short?): read up to the last whole entry');
  const history = new GeminiHistory();
  entries.forEach((entry, i) => {
    const at = spans[i]?.[0] ?? 0;
    const line = tf.lineAt(at);
    const source = { file, line, offset: tf.byteOffsetOfLine(line) };
    if (!isRecord(entry) || !Array.isArray(entry.parts)) {
      warnings.add(source.line, 'entry is not a {role, parts} object; skipped');
      return;
    }
    const role = entry.role === 'model' ? 'model' : 'user';
    for (const part of entry.parts) {
      if (!isRecord(part)) continue;
      const text = str(part.text);
      if (text !== undefined) history.text(role, text, source, part.thought === true);
      else if (isRecord(part.functionCall)) history.call(part.functionCall, source);
      else if (isRecord(part.functionResponse)) history.response(part.functionResponse, source);
    }
    history.endEntry();
  });
  // (the tag names the save within its project only: the path tells two projects' apart)
  return [historySession(file, tf, warnings, history)];
}
