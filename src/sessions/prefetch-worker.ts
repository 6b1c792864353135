/**
 * Worker-thread side of prefetch.ts: reads the files it is given, in order, as loadFile reads
 * them (the whole file when small, else its head), and posts them in batches, each file's bytes
 * in an ArrayBuffer of its own that is moved, not copied. It reads ahead only as far as the
 * caller has granted (see Prefetcher), so memory stays bounded however many files there are.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { PrefetchBatch, PrefetchEntry, PrefetchJob } from './prefetch.js';

const port = parentPort;
if (!port) throw new Error('prefetch-worker.js runs as a worker thread of prefetch.js');
const job = workerData as PrefetchJob;
let next = 0;
let credit = 0;

function load(file: string): PrefetchEntry {
  try {
    const fd = openSync(file, 'r');
    try {
      const { size } = fstatSync(fd);
      const whole = size <= job.wholeBytes;
      const want = whole ? size : Math.min(job.headBytes, size);
      const bytes = new Uint8Array(new ArrayBuffer(want));
      let filled = 0;
      while (filled < want) {
        const n = readSync(fd, bytes, filled, want - filled, filled);
        if (n === 0) break;
        filled += n;
      }
      const buffer = filled === want ? bytes.buffer : bytes.buffer.slice(0, filled);
      if (!whole) return { size, whole, bytes: buffer };
      // checked here, on this thread, for the reading thread (see LoadedFile)
      const view = Buffer.from(buffer);
      const ascii = isAscii(view);
      return ascii ? { size, whole, bytes: buffer, ascii } : { size, whole, bytes: buffer, ascii, utf8: isUtf8(view) };
    } finally {
      closeSync(fd);
    }
  } catch {
    return { failed: true }; // the caller reads it again and reports why
  }
}

/** Reads and posts batches while there is credit. */
function pump(out: NonNullable<typeof parentPort>): void {
  while (credit > 0 && next < job.files.length) {
    credit--;
    const start = next;
    const entries: PrefetchEntry[] = [];
    const moved: ArrayBuffer[] = [];
    let bytes = 0;
    while (next < job.files.length && entries.length < job.batchFiles && bytes < job.batchBytes) {
      const entry = load(job.files[next++]!);
      entries.push(entry);
      if (entry.bytes) {
        moved.push(entry.bytes);
        bytes += entry.bytes.byteLength;
      }
    }
    out.postMessage({ start, entries } satisfies PrefetchBatch, moved);
  }
}

port.on('message', (grant: number) => {
  credit += grant;
  pump(port);
});
