/**
 * The one entry point for "read these transcripts": walk the inputs, detect each file's format,
 * read it, and keep going past every bad file. Each problem is a warning naming file and line;
 * the summary says how much was read so the CLI can decide its exit code.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import type { ReadWarning, Session, SessionFormat } from './model.js';
import type { ReadOptions, SessionReader } from './reader.js';
import { detectFormat, HEAD_BYTES, looksBinary, readerFor } from './detect.js';
import { clearHeadParses, DEFAULT_READ_MAX_LINE_BYTES } from './jsonl.js';
import { startLines, type Preloaded } from './lines.js';
import { READERS } from './registry.js';
import { ReadPool, readWorkerCount, type PoolOptions } from './read-pool.js';
import { Prefetcher } from './prefetch.js';
import { loadFile, type LoadedFile } from './load-file.js';
import { walkInputs, type WalkOptions } from './walk.js';
import { holdOldGenerationFloor, stopPretenuringForBatchReading } from '../core/v8-tuning.js';

export { loadFile, WHOLE_FILE_BYTES, type LoadedFile } from './load-file.js';

export interface ReadSessionsOptions extends WalkOptions {
  /** Skip detection and read every file as this format. */
  format?: SessionFormat;
  /** Lines longer than this are skipped with a warning (default 16 MiB). */
  maxLineBytes?: number;
  /** Called for each warning as it happens (files in order). */
  onWarning?: (warning: ReadWarning) => void;
  /** Called after each file. */
  onProgress?: (done: number, total: number, file: string) => void;
  /** Readers to choose from (default: READERS). */
  readers?: readonly SessionReader[];
  /** Read the bytes of many files on a thread of their own, ahead of their parse (default true;
   * see prefetch.ts). Without read workers only. */
  prefetch?: boolean;
}

export interface ReadSummary {
  /** Files found by the walk. */
  files: number;
  /** Files read (possibly with warnings). */
  filesRead: number;
  /** Files that could not be read at all (unreadable, empty, binary, unknown format). */
  filesFailed: number;
  sessions: number;
  warnings: number;
  /** Files read on worker threads, when reading used them (COMPOUND_READ_WORKERS). */
  filesOnWorkers?: number;
  /** Files whose bytes a worker thread read ahead of their parse in this thread, when it read any
   * (see prefetch.ts). */
  filesPrefetched?: number;
}

export interface ReadResult {
  sessions: Session[];
  warnings: ReadWarning[];
  summary: ReadSummary;
}

export interface FileReadResult {
  file: string;
  /** False when the file could not be read at all. */
  ok: boolean;
  format?: SessionFormat;
  sessions: Session[];
  warnings: ReadWarning[];
  /** Set when detection found from the bytes alone that the file is no transcript (empty,
   * binary, blank, unknown format): the same bytes give the same warning, its only one. */
  notTranscript?: true;
}

/** Below this many files, starting the prefetch thread costs more than it saves. */
const PREFETCH_MIN_FILES = 64;
/** From this many files on, reading is batch work: V8's pretenuring is turned off for it, and
 * this thread's old generation gets a floor (see core/v8-tuning.ts). */
const BATCH_MIN_FILES = 64;

/** Reads one file: detection (unless `format`), then its reader. Never throws for bad input.
 * `loaded`: what loadFile(file) gave, when the caller has read the file already. */
export async function readSessionFile(file: string, options: ReadSessionsOptions = {}, loaded?: LoadedFile): Promise<FileReadResult> {
  const warnings: ReadWarning[] = [];
  const warn = (w: ReadWarning): void => {
    warnings.push(w);
    options.onWarning?.(w);
  };
  const readers = options.readers ?? READERS;
  try {
    let reader: SessionReader | undefined;
    if (options.format) {
      reader = readerFor(options.format, readers);
      if (!reader) {
        warn({ file, message: `no reader for format "${options.format}" is installed` });
        return { file, ok: false, sessions: [], warnings };
      }
      loaded ??= loadFile(file, 1); // still fail early and clearly on unreadable/empty files
      if (loaded.size === 0) {
        warn({ file, message: 'empty file' });
        return { file, ok: false, sessions: [], warnings };
      }
    } else {
      clearHeadParses(); // what detecting the last file kept is not this file's (see jsonl.ts)
      loaded ??= loadFile(file, HEAD_BYTES);
      // A whole file that is valid UTF-8 is decoded once for detection and its reader: an ASCII
      // file whole (one fast one-byte copy; detection gets its start, the reader all of it), any
      // other file its head, line by line (see startLines).
      if (loaded.content && loaded.size > 0 && !looksBinary(loaded.bytes)) {
        // the head first: most files that are not ASCII show it there, sparing a scan of the rest
        const { bytes, content } = loaded;
        if (loaded.ascii ?? (isAscii(bytes) && (bytes.length === content.length || isAscii(content)))) {
          const whole = content.toString('latin1');
          loaded.whole = whole;
          loaded.text = whole.length > HEAD_BYTES ? whole.slice(0, HEAD_BYTES) : whole;
          loaded.decoded = [];
        } else if (loaded.utf8 ?? isUtf8(content)) {
          loaded.lines = startLines(content, HEAD_BYTES);
          loaded.decoded = loaded.lines.lines;
        }
      }
      const outcome = detectFormat(loaded, file, readers);
      if (!outcome.ok) {
        warn({ file, message: outcome.message });
        return { file, ok: false, sessions: [], warnings, notTranscript: true };
      }
      reader = outcome.reader;
    }
    const readOptions: ReadOptions & Preloaded = { maxLineBytes: options.maxLineBytes ?? DEFAULT_READ_MAX_LINE_BYTES, onWarning: warn };
    if (loaded.content) {
      readOptions.content = loaded.content;
      if (loaded.decoded) {
        readOptions.decoded = loaded.decoded;
        // the head is the whole file when the file is no longer than the head
        if (loaded.whole !== undefined) readOptions.wholeText = loaded.whole;
        else if (loaded.content.length <= HEAD_BYTES) {
          const head = loaded.text ?? loaded.lines?.head; // when detection made it
          if (head !== undefined) readOptions.wholeText = head;
        }
      }
    }
    const sessions = await reader.read(file, readOptions);
    if (sessions.length === 0) warn({ file, message: `no session found in this ${reader.format} file` });
    return { file, ok: true, format: reader.format, sessions, warnings };
  } catch (err) {
    warn({ file, message: `cannot read: ${describeIoError(err)}` });
    return { file, ok: false, sessions: [], warnings };
  }
}

function describeIoError(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Walks `inputs` and calls `onFile` for each file, in sorted order, with what was read. Files
 * are parsed in this thread, one at a time, their bytes read ahead on a thread of their own when
 * there are many (see prefetch.ts), or on worker threads when COMPOUND_READ_WORKERS asks (see
 * read-pool.ts); either way callbacks keep file order, so output is deterministic.
 */
export async function forEachSessionFile(
  inputs: readonly string[],
  options: ReadSessionsOptions,
  onFile: (result: FileReadResult) => void | Promise<void>,
): Promise<{ warnings: ReadWarning[]; summary: ReadSummary }> {
  // The prefetch thread is started as soon as the walk has found enough files for it, so that it
  // boots (25 to 80 ms) while the walk goes on (about 80 ms over the 1 GB corpus's 21,891 files).
  let early: Prefetcher | undefined;
  const milestone = mayPrefetch(options) ? { count: PREFETCH_MIN_FILES, then: () => (early = new Prefetcher(HEAD_BYTES)) } : undefined;
  let walked;
  try {
    walked = await walkInputs(inputs, options, milestone);
  } catch (err) {
    early?.close();
    throw err;
  }
  const warnings: ReadWarning[] = [];
  for (const w of walked.warnings) {
    warnings.push(w);
    options.onWarning?.(w);
  }
  const summary: ReadSummary = { files: walked.files.length, filesRead: 0, filesFailed: 0, sessions: 0, warnings: 0 };
  const files = walked.files;
  if (files.length >= BATCH_MIN_FILES) stopPretenuringForBatchReading();
  // Warnings are collected per file and forwarded in file order, not as reads interleave.
  const perFile = { ...options, onWarning: undefined };
  // custom readers cannot be sent to a worker
  const workers = options.readers ? 0 : readWorkerCount(files.length);
  const pool = workers > 0 ? new ReadPool(files, poolOptions(options), workers, (f) => readSessionFile(f, perFile)) : undefined;
  // for this thread, which parses every file when there are no read workers (V8's flag is
  // process-wide: with workers it would size their heaps by this thread's)
  const floor = !pool && files.length >= BATCH_MIN_FILES ? holdOldGenerationFloor() : undefined;
  // without workers, the bytes of many files are read on a thread of their own (see prefetch.ts)
  const prefetch = !pool && options.prefetch !== false && files.length >= PREFETCH_MIN_FILES ? (early ?? new Prefetcher(HEAD_BYTES)) : undefined;
  if (early !== prefetch) early?.close();
  prefetch?.begin(files);
  let prefetched = 0;
  const readAt = async (i: number): Promise<FileReadResult> => {
    const loaded = await prefetch?.get(i);
    if (loaded) prefetched++;
    return readSessionFile(files[i]!, perFile, loaded);
  };
  try {
    for (let i = 0; i < files.length; i++) {
      // One file at a time, read after the caller is done with the last. With the next file read
      // while the caller still held the last one's sessions, more objects outlived two
      // scavenges: the Claude Code part of the 1 GB corpus promoted 95 MB to the old generation
      // instead of 16 MB (scripts/read-gc.mjs), and the whole corpus read in 5.16 s against
      // 5.50 s, and 5.91 s against 6.45 s (one file against two; medians of 10 alternating fresh
      // processes, scripts/read-ab.mjs, twice). The prefetch thread reads the bytes ahead anyway;
      // only a file streamed from disk (over WHOLE_FILE_BYTES) waits for its I/O alone.
      floor?.check(i);
      const result = pool ? await pool.get(i) : await readAt(i);
      for (const w of result.warnings) {
        warnings.push(w);
        options.onWarning?.(w);
      }
      if (result.ok) summary.filesRead++;
      else summary.filesFailed++;
      summary.sessions += result.sessions.length;
      await onFile(result);
      options.onProgress?.(i + 1, files.length, result.file);
    }
  } finally {
    floor?.end();
    await pool?.close();
    prefetch?.close();
  }
  summary.warnings = warnings.length;
  if (pool) summary.filesOnWorkers = pool.filesFromWorkers;
  if (prefetched > 0) summary.filesPrefetched = prefetched;
  return { warnings, summary };
}

/** Whether the files may be read ahead on a thread of their own, if there are enough of them. */
function mayPrefetch(options: ReadSessionsOptions): boolean {
  return options.prefetch !== false && !options.readers && readWorkerCount(Number.MAX_SAFE_INTEGER) === 0;
}

function poolOptions(options: ReadSessionsOptions): PoolOptions {
  const out: PoolOptions = {};
  if (options.format !== undefined) out.format = options.format;
  if (options.maxLineBytes !== undefined) out.maxLineBytes = options.maxLineBytes;
  return out;
}

/** Reads every session under `inputs` (files, directories, globs, plus `options.from`). */
export async function readSessions(inputs: readonly string[], options: ReadSessionsOptions = {}): Promise<ReadResult> {
  const sessions: Session[] = [];
  const { warnings, summary } = await forEachSessionFile(inputs, options, (r) => {
    sessions.push(...r.sessions);
  });
  return { sessions, warnings, summary };
}
