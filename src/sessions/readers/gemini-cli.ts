/**
 * Gemini CLI, files under ~/.gemini/tmp/<project hash or name>/:
 * - chats/session-<time>-<hex>.json: one pretty-printed object {sessionId, projectHash, startTime,
 *   lastUpdated, messages[]}, rewritten in place; tool calls and their results live inside the
 *   `gemini` message. Each event cites the line where its message / tool call starts.
 * - chats/session-<time>-<hex>.jsonl (the newer layout, 2026): the same messages appended one JSON
 *   object a line after a header line (see readChatLines).
 * - checkpoint-<tag>.json (`/chat save <tag>`): the chat as the Gemini API holds it (see
 *   gemini-checkpoint.ts).
 * - <name>.md (`/chat share <name>.md`, anywhere): the same history written as markdown (see
 *   gemini-markdown.ts).
 * - logs.json: an array of the prompts typed in every session of the project ({sessionId,
 *   messageId, type:"user", message, timestamp}). It holds no replies, so each session read from
 *   it has user events only; for sessions that also have a chat file it repeats their prompts
 *   under the same session id (a walker should prefer the chat file).
 */
import { pushCallOn, pushText, pushToolResult } from '../events.js';
import type { Session, SessionEvent, SourceRef, ToolResultEvent } from '../model.js';
import { firstLineObject, injectedBase } from '../jsonl.js';
import type { ReadOptions, SessionReader } from '../reader.js';
import type { DetectBound } from '../detect.js';
import type { Preloaded } from '../lines.js';
import { baseName, isRecord, makeSession, ModelList, readTextFile, str, type TextFile, Warnings } from './common.js';
import { scanJson } from './json-scan.js';
import { commandOf, contentText, parseArguments } from './openai-messages.js';
import { statedExitCode } from './outcome.js';
import { functionResponseText, unframedShellOutput } from './gemini-shell-output.js';
import { detectCheckpoint, readCheckpoint } from './gemini-checkpoint.js';
import { isCliContext } from './gemini-history.js';
import { detectMarkdownExport, readMarkdownExport } from './gemini-markdown.js';

function detectChat(head: string): number {
  if (!/^\s*\{/.test(head)) return 0;
  // a first line that is a whole object is the whole document (a chat is one object): without
  // the session id among its keys it is no chat, and the head need not be searched (JSONL files)
  const first = firstLineObject(head);
  if (first && !('sessionId' in first)) return 0;
  // the newer layout's header line: the chat's fields without its messages
  if (first && isChatHeader(first)) return 0.95;
  // literal checks first: cheap, and they rule out almost every head before the regexes
  if (!head.includes('"sessionId"') || !head.includes('"projectHash"') || !head.includes('"messages"')) return 0;
  return /"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head) && /"messages"\s*:/.test(head) ? 0.95 : 0;
}

function detectLogs(head: string): number {
  // the anchored opening first: it rules out every other file without a search of the head
  if (!/^\s*\[\s*\{\s*"sessionId"\s*:/.test(head) || !head.includes('"messageId"')) return 0;
  return /"messageId"\s*:/.test(head) && /"type"\s*:\s*"user"/.test(head)
    ? 0.9
    : 0;
}

type Span = [number, number];

/** JSON.parse of a whole document, undefined when it is not valid JSON. */
function tryParseDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Parsed document plus the spans the scan found, with a per-part fallback for cut-off files. */
class PrettyJson {
  /** `doc`: JSON.parse of the whole text, undefined when it is not valid JSON. */
  constructor(
    readonly tf: TextFile,
    readonly warnings: Warnings,
    readonly doc: unknown,
  ) {
    if (doc === undefined) {
      warnings.add(tf.lineAt(tf.text.length), 'JSON document is truncated or malformed; reading its complete parts');
    }
  }
  part(span: Span | undefined): unknown {
    if (!span) return undefined;
    try {
      return JSON.parse(this.tf.text.slice(span[0], span[1]));
    } catch {
      this.warnings.add(this.tf.lineAt(span[0]), 'invalid JSON value; skipped');
      return undefined;
    }
  }
  /** Where character `charOffset` of the text is. */
  pos(charOffset: number): Pos {
    const line = this.tf.lineAt(charOffset);
    return { line, offset: this.tf.byteOffsetOfLine(line) };
  }
}

function sourceAt(file: string, pos: Pos): SourceRef {
  return { file, line: pos.line, offset: pos.offset };
}

/** The id of a `{functionResponse: {id, …}}` result, if it has one. */
function responseId(r: unknown): string | undefined {
  return isRecord(r) && isRecord(r.functionResponse) ? str(r.functionResponse.id) : undefined;
}

function toolOutput(call: Record<string, unknown>): { output: string; hasError: boolean } {
  const parts: string[] = [];
  let hasError = false;
  const all = Array.isArray(call.result) ? call.result : [];
  // newer Gemini CLI files store, in each of several calls made at once, the responses of all of
  // them: the call's own is the one with its id (older files hold one result, or none with ids)
  const id = str(call.id);
  const own = id === undefined ? [] : all.filter((r) => responseId(r) === id);
  const results = own.length > 0 ? own : all;
  for (const r of results) {
    const got = functionResponseText(isRecord(r) && isRecord(r.functionResponse) ? r.functionResponse.response : undefined);
    if (!got) continue;
    hasError ||= got.isError;
    parts.push(got.output);
  }
  if (parts.length === 0 && typeof call.resultDisplay === 'string') parts.push(call.resultDisplay);
  return { output: parts.join('\n'), hasError };
}

function pushGeminiMessage(
  events: SessionEvent[],
  models: ModelList,
  m: Record<string, unknown>,
  src: SourceRef,
  at: (key: string) => SourceRef | undefined,
): boolean {
  const time = str(m.timestamp);
  const base = time === undefined ? { source: src } : { source: src, time };
  switch (m.type) {
    case 'user': {
      const text = contentText(m.content);
      // the context Gemini CLI writes as the chat's first user message is none the person typed
      if (isCliContext(text)) pushText(events, 'system', text, injectedBase(base));
      else pushText(events, 'user', text, base);
      return true;
    }
    case 'info':
    case 'error':
    case 'warning':
      pushText(events, 'system', contentText(m.content), injectedBase(base));
      return true;
    case 'gemini':
    case 'model':
      break;
    default:
      return false;
  }
  const model = str(m.model);
  models.add(model);
  const thoughts = Array.isArray(m.thoughts) ? m.thoughts : [];
  thoughts.forEach((t, k) => {
    if (!isRecord(t)) return;
    const text = [str(t.subject), str(t.description)].filter(Boolean).join(': ');
    const tTime = str(t.timestamp) ?? time;
    const tSrc = at(`thoughts.${k}`) ?? src;
    pushText(events, 'reasoning', text, tTime === undefined ? { source: tSrc } : { source: tSrc, time: tTime });
  });
  pushText(events, 'assistant', contentText(m.content), base, model);
  const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
  calls.forEach((c, j) => {
    if (!isRecord(c)) return;
    const callId = str(c.id);
    const name = str(c.name) ?? 'unknown';
    const input = parseArguments(c.args);
    const command = commandOf(input);
    const cTime = str(c.timestamp) ?? time;
    const cSrc = at(`toolCalls.${j}`) ?? src;
    const cBase = cTime === undefined ? { source: cSrc } : { source: cSrc, time: cTime };
    pushCallOn(events, cBase, name, input, callId, command);
    const status = str(c.status);
    if (status === undefined && c.result === undefined) return; // still pending when the file was written
    const { output: framed, hasError } = toolOutput(c);
    const exitCode = statedExitCode(framed);
    const output = unframedShellOutput(framed);
    const rejected = status === 'cancelled' || status === 'canceled';
    const isError = hasError || (status !== undefined && status !== 'success') || (exitCode !== undefined && exitCode !== 0);
    const rSrc = at(`toolCalls.${j}.result`) ?? cSrc;
    const result = (cTime === undefined ? { source: rSrc } : { source: rSrc, time: cTime }) as Omit<ToolResultEvent, 'index' | 'kind'>;
    if (callId) result.callId = callId;
    result.name = name;
    result.output = output;
    result.isError = isError;
    if (exitCode !== undefined) result.exitCode = exitCode;
    if (rejected) result.rejected = true;
    pushToolResult(events, result);
  });
  return true;
}

/** A line of the file: its 1-based number and the byte offset where it starts (what an event
 * cites). */
interface Pos {
  line: number;
  offset: number;
}

/** Where each message, thought and tool call starts: message i's line, and for message i
 * "toolCalls.<j>", "toolCalls.<j>.result" and "thoughts.<k>" → their lines. */
interface Located {
  messages: Pos[];
  inner: Map<number, Map<string, Pos>>;
}

/**
 * The lines scanJson's offsets would fall on, read off the two-space layout Gemini CLI writes
 * its files in (JSON.stringify(chat, null, 2)) with one pass over the lines' bytes instead of one
 * over every character. In that layout a raw newline only stands between tokens (strings escape
 * theirs), so a line's indent is its depth: `    {` opens a message, `      "toolCalls": [` one
 * of its lists, `        {` an element of that list, `          "result": ` a tool call's result.
 * The pass counts the lines it crosses, so neither the text's line starts nor its bytes' are
 * needed (finding them and then walking them took half as long as parsing the file). What the
 * lines give is checked against the parsed messages (how many messages, thoughts, tool calls and
 * results); undefined when they disagree, i.e. the file is laid out otherwise.
 */
function locateByLayout(buf: Buffer, msgs: Record<string, unknown>[]): Located | undefined {
  const messages: Pos[] = [];
  const inner = new Map<number, Map<string, Pos>>();
  if (msgs.length === 0) return { messages, inner };
  let s = 0; // where the current line starts (bytes)
  let line = 1;
  while (!bytesAt(buf, s, '  "messages": [')) {
    const nl = buf.indexOf(0x0a, s);
    if (nl === -1) return undefined;
    s = nl + 1;
    line++;
  }
  if (!endsLine(buf, s + 15)) return undefined;
  let m: Record<string, unknown> | undefined; // the current message
  let at = new Map<string, Pos>(); // its inner lines
  let list: 'thoughts' | 'toolCalls' | undefined; // its list being read
  const seen = { thoughts: 0, toolCalls: 0, result: 0 };
  let call: Record<string, unknown> | undefined; // the tool call being read
  // the lines of a message agree with it: one element line per element, one result line per result
  const agrees = (): boolean =>
    m === undefined ||
    (seen.thoughts === lengthOf(m.thoughts) &&
      seen.toolCalls === lengthOf(m.toolCalls) &&
      seen.result === (Array.isArray(m.toolCalls) ? m.toolCalls.filter((c) => isRecord(c) && c.result !== undefined).length : 0));
  for (;;) {
    const nl = buf.indexOf(0x0a, s);
    if (nl === -1) return undefined; // the messages never end
    s = nl + 1;
    line++;
    let depth = 0;
    while (depth < 11 && buf[s + depth] === 0x20) depth++;
    const c = buf[s + depth];
    if (depth === 2) break; // `  ]`: the end of the messages array
    if (depth === 4) {
      if (c !== 0x7b /* { */) continue; // a message's closing brace
      if (!endsLine(buf, s + 5) || messages.length === msgs.length || !agrees()) return undefined;
      if (at.size > 0) inner.set(messages.length - 1, at);
      messages.push({ line, offset: s });
      m = msgs[messages.length - 1];
      at = new Map();
      list = undefined;
      call = undefined;
      seen.thoughts = seen.toolCalls = seen.result = 0;
    } else if (depth === 6) {
      list = bytesAt(buf, s + 6, '"toolCalls": [') ? 'toolCalls' : bytesAt(buf, s + 6, '"thoughts": [') ? 'thoughts' : undefined;
      if (list && !endsLine(buf, s + 6 + list.length + 5)) list = undefined; // an empty list: `[]`
      call = undefined;
    } else if (depth === 8 && list && m && c === 0x7b && endsLine(buf, s + 9)) {
      const items = m[list];
      const k = seen[list]++;
      const item: unknown = Array.isArray(items) ? items[k] : undefined;
      if (!isRecord(item)) return undefined;
      at.set(`${list}.${k}`, { line, offset: s });
      call = list === 'toolCalls' ? item : undefined;
    } else if (depth === 10 && call && bytesAt(buf, s + 10, '"result": ')) {
      const key = `toolCalls.${seen.toolCalls - 1}.result`;
      if (call.result === undefined || at.has(key)) return undefined;
      at.set(key, { line, offset: s });
      seen.result++;
    }
  }
  if (messages.length !== msgs.length || !agrees()) return undefined;
  if (at.size > 0) inner.set(messages.length - 1, at);
  return { messages, inner };
}

/** Whether the bytes at `i` are those of `ascii`. */
function bytesAt(buf: Buffer, i: number, ascii: string): boolean {
  if (i + ascii.length > buf.length) return false;
  for (let k = 0; k < ascii.length; k++) if (buf[i + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

function lengthOf(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

function endsLine(buf: Buffer, i: number): boolean {
  const c = buf[i];
  return c === 0x0a || c === 0x0d;
}

/** Offsets by a structural scan, for files laid out otherwise or cut short (then the spans are
 * what can be parsed piece by piece). */
function locateByScan(pj: PrettyJson): { top: Map<string, Span>; spans: Span[]; located: Located } {
  const top = new Map<string, Span>();
  const spans: Span[] = [];
  const inner = new Map<number, Map<string, Pos>>();
  scanJson(pj.tf.text, 5, (p, start, end) => {
    if (p.length === 1) top.set(p[0] as string, [start, end]);
    else if (p[0] !== 'messages') return;
    else if (p.length === 2) spans.push([start, end]);
    else if (p.length === 4 || (p.length === 5 && p[4] === 'result')) {
      if (p[2] !== 'toolCalls' && p[2] !== 'thoughts') return;
      const i = p[1] as number;
      let m = inner.get(i);
      if (!m) inner.set(i, (m = new Map()));
      m.set(p.slice(2).join('.'), pj.pos(start));
    }
  });
  return { top, spans, located: { messages: spans.map((s) => pj.pos(s[0])), inner } };
}

/** A chat's session, whichever layout it was read from. */
function chatSession(file: string, tf: TextFile, warnings: Warnings, events: SessionEvent[], models: ModelList, at: { id: string | undefined; startedAt: string | undefined; endedAt: string | undefined }): Session {
  return makeSession({
    id: at.id ?? baseName(file),
    format: 'gemini-cli',
    agent: 'gemini-cli',
    file,
    bytes: tf.bytes,
    events,
    warnings: warnings.list,
    models: models.names,
    startedAt: at.startedAt,
    endedAt: at.endedAt,
  });
}

async function readChat(file: string, warnings: Warnings, tf: TextFile): Promise<Session[]> {
  // the common case: the whole file parses and sits in Gemini's own layout, so no scan is needed
  const pj = new PrettyJson(tf, warnings, tryParseDocument(tf.text));
  const doc = isRecord(pj.doc) ? pj.doc : undefined;
  const docMsgs = doc ? (Array.isArray(doc.messages) ? (doc.messages as unknown[]) : []) : undefined;
  const fast = docMsgs?.every(isRecord) ? locateByLayout(tf.buffer, docMsgs) : undefined;
  const scan = fast ? undefined : locateByScan(pj);
  const field = (key: string): unknown => (doc ? doc[key] : pj.part(scan?.top.get(key)));
  const msgs: unknown[] = docMsgs ?? scan!.spans.map((s) => pj.part(s));
  const { messages, inner } = fast ?? scan!.located;

  const events: SessionEvent[] = [];
  const models = new ModelList();
  let firstTime: string | undefined;
  let lastTime: string | undefined;
  msgs.forEach((m, i) => {
    const start = messages[i] ?? pj.pos(0);
    if (!isRecord(m)) {
      if (m !== undefined) warnings.add(start.line, 'message is not a JSON object; skipped');
      return;
    }
    const inside = inner.get(i);
    const at = (key: string): SourceRef | undefined => {
      const p = inside?.get(key);
      return p === undefined ? undefined : sourceAt(file, p);
    };
    if (!pushGeminiMessage(events, models, m, sourceAt(file, start), at)) {
      warnings.add(start.line, `unknown message type ${JSON.stringify(m.type)}; skipped`);
      return;
    }
    const t = str(m.timestamp);
    if (t) {
      firstTime ??= t;
      lastTime = t;
    }
  });
  return [chatSession(file, tf, warnings, events, models, { id: str(field('sessionId')), startedAt: str(field('startTime')) ?? firstTime, endedAt: str(field('lastUpdated')) ?? lastTime })];
}

/** The first line of a chat in the newer layout: {sessionId, projectHash, startTime, lastUpdated,
 * kind} and no messages (a whole-object chat on one line holds them). */
function isChatHeader(o: Record<string, unknown>): boolean {
  return typeof o.sessionId === 'string' && typeof o.projectHash === 'string' && !('messages' in o) && !('type' in o);
}

/**
 * A chat in the newer layout, one JSON object a line:
 *   {"sessionId","projectHash","startTime","lastUpdated","kind":"main"}   the header
 *   {"id","timestamp","type":"user"|"gemini"|"info"|"error"|"warning",…}  a message, as in the .json chat
 *   {"$set":{"lastUpdated":…}}                                            an update of the header
 *   {"$set":{"messages":[…]}}                                             the messages, all of them anew
 * A message that grows is written again whole under the same id (a reply, then the reply with its
 * tool calls): the later line replaces it where it first stood, so nothing is read twice. Each
 * event cites the line its message was last written on.
 */
function readChatLines(file: string, warnings: Warnings, tf: TextFile, header: Record<string, unknown>): Session[] {
  const byId = new Map<string, { message: Record<string, unknown>; line: number }>();
  let unnamed = 0;
  const put = (m: unknown, line: number): void => {
    if (!isRecord(m)) {
      warnings.add(line, 'message is not a JSON object; skipped');
      return;
    }
    // (a Map keeps the place of the first write when a key is set again)
    byId.set(str(m.id) ?? `#${unnamed++}`, { message: m, line });
  };
  let lastUpdated = str(header.lastUpdated);
  const lines = tf.text.split('\n');
  let seenHeader = false;
  lines.forEach((raw, i) => {
    const text = raw.trim();
    if (text === '') return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      warnings.add(line, 'invalid JSON line; skipped');
      return;
    }
    if (!seenHeader) {
      seenHeader = true;
      return; // the header, read by the caller
    }
    if (!isRecord(value)) {
      warnings.add(line, 'line is not a JSON object; skipped');
      return;
    }
    if (isRecord(value.$set)) {
      const set = value.$set;
      lastUpdated = str(set.lastUpdated) ?? lastUpdated;
      if (Array.isArray(set.messages)) {
        byId.clear();
        for (const m of set.messages) put(m, line);
      }
      return;
    }
    put(value, line);
  });
  const events: SessionEvent[] = [];
  const models = new ModelList();
  let firstTime: string | undefined;
  for (const { message, line } of byId.values()) {
    const src = sourceAt(file, { line, offset: tf.byteOffsetOfLine(line) });
    if (!pushGeminiMessage(events, models, message, src, () => undefined)) {
      warnings.add(line, `unknown message type ${JSON.stringify(message.type)}; skipped`);
      continue;
    }
    firstTime ??= str(message.timestamp);
  }
  return [chatSession(file, tf, warnings, events, models, { id: str(header.sessionId), startedAt: str(header.startTime) ?? firstTime, endedAt: lastUpdated })];
}

async function readLogs(file: string, warnings: Warnings, tf: TextFile): Promise<Session[]> {
  const entries: Span[] = [];
  const complete = scanJson(tf.text, 1, (p, start, end) => {
    if (p.length === 1) entries.push([start, end]);
  });
  const pj = new PrettyJson(tf, warnings, complete ? tryParseDocument(tf.text) : undefined);
  const list: unknown[] = Array.isArray(pj.doc) ? pj.doc : entries.map((s) => pj.part(s));
  const bySession = new Map<string, { events: SessionEvent[]; bytes: number; first?: string; last?: string }>();
  list.forEach((e, i) => {
    const span = entries[i] ?? [0, 0];
    if (!isRecord(e)) {
      if (e !== undefined) warnings.add(tf.lineAt(span[0]), 'entry is not a JSON object; skipped');
      return;
    }
    const sid = str(e.sessionId);
    if (!sid) {
      warnings.add(tf.lineAt(span[0]), 'entry has no sessionId; skipped');
      return;
    }
    let s = bySession.get(sid);
    if (!s) bySession.set(sid, (s = { events: [], bytes: 0 }));
    s.bytes += Buffer.byteLength(tf.text.slice(span[0], span[1]));
    const time = str(e.timestamp);
    const src = sourceAt(file, pj.pos(span[0]));
    const base = time === undefined ? { source: src } : { source: src, time };
    const text = contentText(e.message);
    if (e.type === 'user') pushText(s.events, 'user', text, base);
    else pushText(s.events, 'system', text, injectedBase(base));
    if (time) {
      s.first ??= time;
      s.last = time;
    }
  });
  const sessions: Session[] = [];
  for (const [id, s] of bySession) {
    sessions.push(
      makeSession({
        id,
        format: 'gemini-cli',
        agent: 'gemini-cli',
        file,
        bytes: s.bytes,
        events: s.events,
        warnings: warnings.list.slice(),
        startedAt: s.first,
        endedAt: s.last,
      }),
    );
  }
  return sessions;
}

export const geminiCliReader: SessionReader & DetectBound = {
  format: 'gemini-cli',
  maxScore: 0.95,
  detect: (head) => Math.max(detectChat(head), detectLogs(head), detectCheckpoint(head), detectMarkdownExport(head)),
  async read(file: string, options?: ReadOptions & Preloaded): Promise<Session[]> {
    const warnings = new Warnings(file, options);
    const tf = await readTextFile(file, warnings, options);
    if (!tf) return [];
    if (tf.text.trim() === '') {
      warnings.add(undefined, 'file is empty');
      return [];
    }
    if (detectCheckpoint(tf.text.slice(0, 256)) > 0) return readCheckpoint(file, warnings, tf);
    if (detectMarkdownExport(tf.text) > 0) return readMarkdownExport(file, warnings, tf);
    if (/^\s*\[/.test(tf.text.slice(0, 256))) return readLogs(file, warnings, tf);
    const header = firstLineObject(tf.text.slice(0, 64 * 1024));
    return header && isChatHeader(header) ? readChatLines(file, warnings, tf, header) : readChat(file, warnings, tf);
  },
};
