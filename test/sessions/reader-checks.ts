/**
 * Checks shared by the suites of the Hermes, OpenAI-chat, Aider, Gemini CLI, SpecStory and
 * console-md readers: read with warnings collected, invariants every Session must hold, and
 * small file builders for bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sessionStats, type ReadWarning, type Session, type SessionEvent } from '../../src/sessions/model.js';
import type { SessionReader } from '../../src/sessions/reader.js';

export interface ReadOutcome {
  sessions: Session[];
  warnings: ReadWarning[];
}

/** Reads a file with a reader, collecting warnings through onWarning. */
export async function readWith(reader: SessionReader, file: string): Promise<ReadOutcome> {
  const warnings: ReadWarning[] = [];
  const sessions = await reader.read(file, { onWarning: (w) => warnings.push(w) });
  return { sessions, warnings };
}

export function counts(s: Session): { prompts: number; toolCalls: number; toolErrors: number } {
  const { prompts, toolCalls, toolErrors } = sessionStats(s);
  return { prompts, toolCalls, toolErrors };
}

/** Byte offset of the start of every line of a file (index 0 = line 1). */
export function lineOffsets(file: string): number[] {
  const buf = readFileSync(file);
  const out = [0];
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) out.push(i + 1);
  return out;
}

/** What every Session read from `file` must satisfy. */
export function expectWellFormed(s: Session, file: string): void {
  const offsets = lineOffsets(file);
  expect(s.file).toBe(file);
  expect(s.events.map((e) => e.index)).toEqual(s.events.map((_, i) => i));
  for (const e of s.events) {
    expect(e.source.file).toBe(file);
    expect(e.source.line).toBeGreaterThanOrEqual(1);
    expect(e.source.line).toBeLessThanOrEqual(offsets.length);
    expect(e.source.offset).toBe(offsets[e.source.line - 1]);
    if (e.kind === 'bootstrap') expect(e.injected).toBe(true);
    if (e.kind === 'tool_result') expect(typeof e.isError).toBe('boolean');
  }
  for (const m of s.models) expect(typeof m).toBe('string');
}

/** Same bytes in, same JSON out. */
export async function expectDeterministic(reader: SessionReader, file: string): Promise<void> {
  const a = JSON.stringify(await reader.read(file));
  const b = JSON.stringify(await reader.read(file));
  expect(a).toBe(b);
}

export const ofKind = <K extends SessionEvent['kind']>(s: Session, kind: K): Extract<SessionEvent, { kind: K }>[] =>
  s.events.filter((e): e is Extract<SessionEvent, { kind: K }> => e.kind === kind);

/** The 1-based line of `file` holding the event's source. */
export function sourceLine(file: string, e: SessionEvent): string {
  return readFileSync(file, 'utf8').split('\n')[e.source.line - 1] ?? '';
}

/** Writes `bytes` to `dir/name` and returns the path. */
export function put(dir: string, name: string, bytes: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

/** The text with an invalid UTF-8 sequence (a lone continuation byte) inserted on `line` (1-based),
 * right after the first occurrence of `after` on that line. */
export function withInvalidUtf8(text: string, line: number, after: string): Buffer {
  const lines = text.split('\n');
  const target = lines[line - 1]!;
  const at = target.indexOf(after) + after.length;
  const head = Buffer.from(lines.slice(0, line - 1).map((l) => l + '\n').join('') + target.slice(0, at), 'utf8');
  const tail = Buffer.from(target.slice(at) + (line < lines.length ? '\n' + lines.slice(line).join('\n') : ''), 'utf8');
  return Buffer.concat([head, Buffer.from([0x80]), tail]);
}

/** Warnings must name the file, and a line when asked. */
export function expectWarningAt(warnings: ReadWarning[], file: string, line?: number): void {
  expect(warnings.length).toBeGreaterThan(0);
  for (const w of warnings) expect(w.file).toBe(file);
  if (line !== undefined) expect(warnings.map((w) => w.line)).toContain(line);
}
