/**
 * Chooses a reader by content: every reader scores the file's first 64 KiB and the highest score
 * above 0 wins (ties go to the earlier reader in READERS). A file no reader claims is reported,
 * never guessed. `--format` skips detection.
 *
 * A reader may state the highest score its `detect` ever returns (`maxScore`); once the best
 * score so far is at least that of every reader still to ask, none of them could win, so they
 * are not asked (a Claude Code file is not scanned by seven other detectors).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { SESSION_FORMATS, type SessionFormat } from './model.js';
import type { SessionReader } from './reader.js';
import { READERS } from './registry.js';
import { headOf, validUtf8Text, type HeadLines } from './lines.js';

import { HEAD_BYTES } from './load-file.js';

export { HEAD_BYTES };

export interface FileHead {
  /** First bytes of the file (at most HEAD_BYTES). */
  bytes: Buffer;
  /** Whole file size in bytes. */
  size: number;
  /** `decodeHead(bytes)`, when the caller has it already. */
  text?: string;
  /** When the caller has them and not `text`: the head's complete lines (see startLines), for
   * readers that judge by them (SessionReader.detectLines); `text` is made from them on demand. */
  lines?: HeadLines;
}

/** What a reader may add to SessionReader: the highest score its `detect` can return. */
export interface DetectBound {
  maxScore: number;
}

/** For each reader list: the highest maxScore of the readers from each position on (Infinity
 * when any of them states none). */
const boundsCache = new WeakMap<readonly SessionReader[], number[]>();

function remainingBounds(readers: readonly SessionReader[]): number[] {
  let bounds = boundsCache.get(readers);
  if (!bounds) {
    bounds = new Array<number>(readers.length);
    let max = -Infinity;
    for (let i = readers.length - 1; i >= 0; i--) {
      const stated = (readers[i] as Partial<DetectBound>).maxScore;
      max = Math.max(max, typeof stated === 'number' ? stated : Infinity);
      bounds[i] = max;
    }
    boundsCache.set(readers, bounds);
  }
  return bounds;
}

export type DetectOutcome =
  | { ok: true; reader: SessionReader; score: number }
  | { ok: false; reason: 'empty' | 'binary' | 'unknown'; message: string };

/** Reads the first `limit` bytes and the size of a file in one open. */
export async function readHead(file: string, limit = HEAD_BYTES): Promise<FileHead> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.min(limit, size));
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: filled === buf.length ? buf : buf.subarray(0, filled), size };
  } finally {
    await handle.close();
  }
}

const lenient = new TextDecoder('utf-8', { fatal: false });

/** NUL bytes never occur in UTF-8 text transcripts; they mark binary (or UTF-16) files. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.indexOf(0) !== -1;
}

export function decodeHead(bytes: Buffer): string {
  // ASCII bytes (most transcripts' heads and tails) decode to the same string as latin1, which
  // copies them where TextDecoder checks every byte: `compound sample` spent 0.83 of its 5.2 s
  // CPU decoding the 1 GB corpus's file ends (CPU profile)
  if (isAscii(bytes)) return bytes.toString('latin1');
  // Valid UTF-8 (all but 11 of the 15,685 non-ASCII ends of the 1 GB corpus's files) is made as
  // the readers make a line, the same string TextDecoder gives: over those ends 1.0 s against
  // 2.3-2.4 s for TextDecoder (ad hoc, 3 passes each)
  if (isUtf8(bytes)) return validUtf8Text(bytes);
  return lenient.decode(bytes); // strips a UTF-8 BOM, replaces invalid sequences
}

/** Streams the agents print while they run (`claude -p --output-format stream-json`, `codex exec
 * --json`) hold part of a session, not the session: a user who saved one is told where the
 * session file itself is, not only that the format is unknown. */
function lookAlikeOf(head: string): string | undefined {
  const first = head.slice(0, head.indexOf('\n') + 1 || head.length);
  if (/"type"\s*:\s*"system"/.test(first) && /"subtype"\s*:\s*"init"/.test(first) && /"session_id"/.test(first)) {
    return 'output of `claude -p --output-format stream-json`, not a session file: harvest the session Claude Code wrote under ~/.claude/projects/<folder>/<session id>.jsonl';
  }
  if (/"type"\s*:\s*"thread\.started"/.test(first)) {
    return 'output of `codex exec --json`, not a session file: harvest the rollout Codex wrote under ~/.codex/sessions/YYYY/MM/DD/';
  }
  return undefined;
}

export function detectFormat(head: FileHead, file: string, readers: readonly SessionReader[] = READERS): DetectOutcome {
  if (head.size === 0 || head.bytes.length === 0) return { ok: false, reason: 'empty', message: 'empty file' };
  if (looksBinary(head.bytes)) {
    return { ok: false, reason: 'binary', message: 'binary file (NUL bytes in the first 64 KiB), not a transcript' };
  }
  // the head as text, made when a reader needs it
  let text = head.text;
  const headText = (): string => (text ??= head.lines ? headOf(head.lines) : decodeHead(head.bytes));
  const start = text === undefined ? head.lines : undefined;
  // `\s` is exactly what trim() removes: the search stops at the first other character
  const blank = start?.lines.some((l) => /\S/.test(l)) ? false : !/\S/.test(headText());
  if (blank) return { ok: false, reason: 'empty', message: 'file holds only whitespace' };
  let best: SessionReader | undefined;
  let bestScore = 0;
  const bounds = remainingBounds(readers);
  for (let i = 0; i < readers.length; i++) {
    if (best && bestScore >= bounds[i]!) break; // no reader left can score higher
    const reader = readers[i]!;
    let score = 0;
    try {
      const byLines = start && reader.detectLines ? reader.detectLines(start.lines, start.after) : undefined;
      score = byLines ?? reader.detect(headText(), file);
    } catch {
      score = 0; // a reader that cannot judge the head does not claim it
    }
    if (score > bestScore) {
      best = reader;
      bestScore = score;
    }
  }
  if (!best) {
    const lookAlike = lookAlikeOf(headText());
    return {
      ok: false,
      reason: 'unknown',
      message: lookAlike ?? `unknown transcript format (no reader recognised it; pass --input-format one of ${SESSION_FORMATS.join(', ')} to force one)`,
    };
  }
  return { ok: true, reader: best, score: bestScore };
}

export async function detectFile(file: string, readers: readonly SessionReader[] = READERS): Promise<DetectOutcome> {
  return detectFormat(await readHead(file), file, readers);
}

export function isSessionFormat(value: string): value is SessionFormat {
  return (SESSION_FORMATS as readonly string[]).includes(value);
}

export function readerFor(format: SessionFormat, readers: readonly SessionReader[] = READERS): SessionReader | undefined {
  return readers.find((r) => r.format === format);
}
