/**
 * Messages between the harvest and its workers. A worker gets a file to hash and read and
 * answers with what the main thread keeps of it (candidates already redacted, ledger entries,
 * warnings, counts): never Session objects, whose copying would cost as much as parsing them.
 */
import type { ReadWarning, SessionFormat } from '../../sessions/model.js';
import type { FileHarvest } from '../file-sessions.js';

/** `workerData` of every worker. */
export interface WorkerSetup {
  /** File and session content hashes already in the ledger: such files are not read. */
  knownHashes: string[];
  /** [session id, events harvested] from the ledger before this run. */
  eventsSeen: [string, number][];
  repoAliases: Record<string, string>;
  repo?: string;
  redactUsers: string[];
  maxLineBytes?: number;
  format?: SessionFormat;
}

export interface FileTask {
  index: number;
  file: string;
  /** The content hash when the hash cache already knows it (otherwise the worker hashes). */
  hash?: string;
}

export type FileOutcome =
  /** `hash` null: the file could not be hashed (it is still read, to report why). */
  /** `byLegacyHash`: the ledger knows the file by its old hash only (see file-hash.ts). */
  | { index: number; kind: 'known'; hash: string; byLegacyHash?: true }
  | { index: number; kind: 'read'; hash: string | null; ok: boolean; warnings: ReadWarning[]; harvest: FileHarvest; notTranscript?: true }
  /** An unexpected exception: the harvest fails with it, as it would on the main thread. */
  | { index: number; kind: 'failed'; error: string };
