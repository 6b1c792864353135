/**
 * One file's share of the harvest, as a worker does it: hash it (unless the hash cache knew the
 * hash), stop there when the ledger has that hash, else read it and harvest its sessions.
 * Reading before the main thread has decided the file is to be read is safe: reading depends on
 * nothing else, and the main thread drops outcomes it does not need.
 */
import { loadFile, readSessionFile, type LoadedFile } from '../../sessions/read.js';
import type { ReadWarning, SessionFormat } from '../../sessions/model.js';
import { hashBytes, hashFile, type HashAlgorithm } from '../file-hash.js';
import { withParentEdits } from '../parent-edits.js';
import { withAiderLaunches } from '../aider-launches.js';
import { harvestFileSessions, type ExtractFn, type FileHarvest, type SessionContext } from '../file-sessions.js';
import type { FileOutcome, FileTask } from './protocol.js';

export interface ReadOutcome {
  ok: boolean;
  warnings: ReadWarning[];
  harvest: FileHarvest;
  /** Detection found the bytes to be no transcript (see FileReadResult). */
  notTranscript?: true;
}

/** Reads one file as forEachSessionFile does inside the harvest, and harvests its sessions. */
export async function readAndHarvest(
  file: string,
  hash: string,
  ctx: SessionContext,
  format: SessionFormat | undefined,
  extract: () => Promise<ExtractFn>,
  loaded?: LoadedFile,
): Promise<ReadOutcome> {
  const result = await readSessionFile(file, { ...(format ? { format } : {}), ...(ctx.maxLineBytes ? { maxLineBytes: ctx.maxLineBytes } : {}) }, loaded);
  const harvest: FileHarvest = result.sessions.length
    ? harvestFileSessions(file, withAiderLaunches(await withParentEdits(file, result.sessions)), hash, ctx, await extract())
    : { sessions: 0, sessionsSkipped: 0, redactions: 0, candidates: [], ledger: [] };
  const outcome: ReadOutcome = { ok: result.ok, warnings: result.warnings, harvest };
  if (result.notTranscript && !format) outcome.notTranscript = true;
  return outcome;
}

/**
 * `legacy`: the older algorithms of some hashes in `known` (see file-hash.ts): a file whose hash
 * it does not know is looked up by each of those hashes too.
 */
export async function runFileTask(
  task: FileTask,
  known: ReadonlySet<string>,
  legacy: readonly HashAlgorithm[],
  ctx: SessionContext,
  format: SessionFormat | undefined,
  extract: () => Promise<ExtractFn>,
): Promise<FileOutcome> {
  let hash: string | null = task.hash ?? null;
  // A file to hash is read once: its bytes are hashed and, unless the ledger knows the hash,
  // handed to the reader (a file too big to hold whole is hashed and then streamed).
  let loaded: LoadedFile | undefined;
  if (hash === null) {
    try {
      loaded = loadFile(task.file);
      hash = loaded.content ? await hashBytes(loaded.content) : await hashFile(task.file);
    } catch {
      loaded = undefined;
      hash = null; // the read below reports the problem with a proper warning
    }
  }
  if (hash !== null && known.has(hash)) return { index: task.index, kind: 'known', hash };
  if (hash !== null && legacy.length > 0) {
    try {
      loaded ??= loadFile(task.file);
      for (const algorithm of legacy) {
        const old = loaded.content ? await hashBytes(loaded.content, algorithm) : await hashFile(task.file, algorithm);
        if (known.has(old)) return { index: task.index, kind: 'known', hash, byLegacyHash: true };
      }
    } catch {
      loaded = undefined; // the read below reports the problem
    }
  }
  const read = await readAndHarvest(task.file, hash ?? '', ctx, format, extract, loaded);
  return { index: task.index, kind: 'read', hash, ...read };
}
