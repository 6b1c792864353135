/**
 * Worker-thread side of prefetch.ts: loads the files it is given, in order, with loadFile (the
 * whole file when small, else its head), and posts them in batches, each file's bytes
 * in an ArrayBuffer of its own that is moved, not copied. It reads ahead only as far as the
 * caller has granted (see Prefetcher), so memory stays bounded however many files there are.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { loadFile } from './load-file.js';
import type { PrefetchBatch, PrefetchEntry, PrefetchJob, PrefetchMessage } from './prefetch.js';

const port = parentPort;
if (!port) throw new Error('prefetch-worker.js runs as a worker thread of prefetch.js');
const job = workerData as PrefetchJob;
let files: readonly string[] = [];
let next = 0;
let credit = 0;

/** The file as loadFile gives it, read into memory of its own so that it can be moved. */
function load(file: string): PrefetchEntry {
  try {
    const loaded = loadFile(file, job.headBytes, (size) => Buffer.from(new ArrayBuffer(size)));
    const { content, size } = loaded;
    const view = content ?? loaded.bytes;
    const read = { size, whole: content !== undefined, bytes: view.buffer as ArrayBuffer, length: view.length };
    if (!content) return read;
    // checked here, on this thread, for the reading thread (see LoadedFile)
    const ascii = isAscii(content);
    return ascii ? { ...read, ascii } : { ...read, ascii, utf8: isUtf8(content) };
  } catch {
    return { failed: true }; // the caller reads it again and reports why
  }
}

/** Reads and posts batches while there is credit. */
function pump(): void {
  while (credit > 0 && next < files.length) {
    credit--;
    const start = next;
    const entries: PrefetchEntry[] = [];
    const moved: ArrayBuffer[] = [];
    let bytes = 0;
    while (next < files.length && entries.length < job.batchFiles && bytes < job.batchBytes) {
      const entry = load(files[next++]!);
      entries.push(entry);
      if (entry.bytes) {
        moved.push(entry.bytes);
        bytes += entry.bytes.byteLength;
      }
    }
    job.port.postMessage({ start, entries } satisfies PrefetchBatch, moved);
  }
}

port.on('message', (message: PrefetchMessage) => {
  if (typeof message === 'number') credit += message;
  else {
    files = message.files;
    credit += message.grant;
  }
  pump();
});
