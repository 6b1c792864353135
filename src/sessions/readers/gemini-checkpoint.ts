/**
 * Gemini CLI's saved chats (`/chat save <tag>` → ~/.gemini/tmp/<project hash>/checkpoint-<tag>.json):
 * the conversation as the Gemini API holds it, a pretty-printed array of `{role: "user"|"model",
 * parts: [...]}`. A part is `{text}`, `{functionCall: {name, args, id?}}` (the model's tool call) or
 * `{functionResponse: {id, name, response: {output} | {error}}}` (its result, in a `user` entry).
 * No timestamps, no model name: the first user entry is the context the CLI writes ("This is the
 * Gemini CLI. We are setting up the context for our chat. … I'm currently working in the
 * directory: /home/dev/app"), which names the working directory, and the model's "Got it." answers
 * it. Each event cites the line where its entry starts.
 */
import { pushCallOn, pushText, pushToolResult } from '../events.js';
import type { Session, SessionEvent, ToolResultEvent } from '../model.js';
import { injectedBase } from '../jsonl.js';
import { baseName, isRecord, makeSession, pathHash, str, type TextFile, Warnings } from './common.js';
import { scanJson } from './json-scan.js';
import { commandOf, parseArguments } from './openai-messages.js';
import { statedExitCode } from './outcome.js';
import { functionResponseText, unframedShellOutput } from './gemini-shell-output.js';

/** The opening of a saved chat: an array whose first entry has a Gemini API role. */
const OPENING = /^\s*\[\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:/;

export function detectCheckpoint(head: string): number {
  return OPENING.test(head) ? 0.9 : 0;
}

/** The context Gemini CLI writes as the chat's first message, and the directory it names. */
const CONTEXT = /^\s*(?:<session_context>\s*)?This is the Gemini CLI\. We are setting up the context for our chat\./;
const WORKING_DIR = /I'm currently working in the directory: ([^\n]+)/;

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
  const events: SessionEvent[] = [];
  let cwd: string | undefined;
  // the calls whose results have not come yet, by id and by name (older saves give no id)
  const open: { id?: string; name: string }[] = [];
  entries.forEach((entry, i) => {
    const at = spans[i]?.[0] ?? 0;
    const line = tf.lineAt(at);
    const source = { file, line, offset: tf.byteOffsetOfLine(line) };
    if (!isRecord(entry) || !Array.isArray(entry.parts)) {
      warnings.add(source.line, 'entry is not a {role, parts} object; skipped');
      return;
    }
    for (const part of entry.parts) {
      if (!isRecord(part)) continue;
      const text = str(part.text);
      if (text !== undefined) {
        if (entry.role === 'user' && i === 0 && CONTEXT.test(text)) {
          cwd ??= WORKING_DIR.exec(text)?.[1]?.trim().replace(/[.\s]+$/, '');
          pushText(events, 'system', text, injectedBase({ source }));
        } else if (entry.role === 'model' && i === 1 && events.length === 1 && /^Got it\./.test(text.trim())) {
          // the model's answer to that context, which nobody asked a question of
          pushText(events, 'system', text, injectedBase({ source }));
        } else if (part.thought === true) {
          pushText(events, 'reasoning', text, { source });
        } else {
          pushText(events, entry.role === 'model' ? 'assistant' : 'user', text, { source });
        }
      } else if (isRecord(part.functionCall)) {
        const call = part.functionCall;
        const name = str(call.name) ?? 'unknown';
        const input = parseArguments(call.args);
        const id = str(call.id);
        pushCallOn(events, { source }, name, input, id, commandOf(input));
        open.push({ ...(id ? { id } : {}), name });
      } else if (isRecord(part.functionResponse)) {
        const resp = part.functionResponse;
        const name = str(resp.name) ?? 'unknown';
        const id = str(resp.id);
        // its call: the one with its id, else the oldest open call of that name
        const k = open.findIndex((c) => (id !== undefined && c.id === id) || (c.name === name && (c.id === undefined || id === undefined)));
        const call = k >= 0 ? open.splice(k, 1)[0] : undefined;
        const { output: framed, isError: failed } = functionResponseText(resp.response) ?? { output: '', isError: false };
        const exitCode = statedExitCode(framed);
        const result = { source } as Omit<ToolResultEvent, 'index' | 'kind'>;
        const callId = call?.id ?? id;
        if (callId) result.callId = callId;
        result.name = name;
        result.output = unframedShellOutput(framed);
        result.isError = failed || (exitCode !== undefined && exitCode !== 0);
        if (exitCode !== undefined) result.exitCode = exitCode;
        // "[Operation Cancelled] Reason: User did not allow tool call": the user said no
        if (failed && /^\[Operation Cancelled\]/.test(framed)) result.rejected = true;
        pushToolResult(events, result);
      }
    }
  });
  return [
    makeSession({
      // (the tag names the save within its project only: the path tells two projects' apart)
      id: `gemini-${baseName(file)}-${pathHash(file)}`,
      format: 'gemini-cli',
      agent: 'gemini-cli',
      file,
      bytes: tf.bytes,
      events,
      warnings: warnings.list.slice(),
      ...(cwd ? { cwd } : {}),
    }),
  ];
}
