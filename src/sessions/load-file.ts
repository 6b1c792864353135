/**
 * One file into memory the way every reading path wants it: its size and first bytes, or all of
 * it when it is small. Kept apart from read.ts (which loads every reader) so that the prefetch
 * worker thread loads files exactly so without loading the readers.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FileHead } from './detect.js';

/** Bytes of a file's start that detection reads. */
export const HEAD_BYTES = 64 * 1024;

/** Files up to this size are read whole, once, and handed to their reader; bigger ones are
 * streamed (memory stays bounded by this, not by the file). */
export const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

export interface LoadedFile extends FileHead {
  /** The whole file when it is at most WHOLE_FILE_BYTES. */
  content?: Buffer;
  /** The first lines of `content`, decoded, when it is valid UTF-8 (see startLines); none
   * when `whole` holds it all. */
  decoded?: string[];
  /** All of `content` as text, when every byte of it is ASCII. */
  whole?: string;
  /** Whether `content` is all ASCII / valid UTF-8, when whoever read it checked already (the
   * prefetch thread does, sparing this thread the passes over the bytes). */
  ascii?: boolean;
  utf8?: boolean;
}

/** One open: the size and the first `headBytes` bytes, or the whole file when it is small.
 * Synchronous: for the small files that dominate, one read from the page cache costs less than
 * the thread-pool round trips of the async calls. `alloc` makes the buffer read into (the
 * prefetch worker needs one of its own memory, to move it to another thread). */
export function loadFile(file: string, headBytes = HEAD_BYTES, alloc: (size: number) => Buffer = Buffer.allocUnsafe): LoadedFile {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    const whole = size <= WHOLE_FILE_BYTES;
    const buf = alloc(whole ? size : Math.min(headBytes, size));
    let filled = 0;
    while (filled < buf.length) {
      const n = readSync(fd, buf, filled, buf.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    const bytes = filled === buf.length ? buf : buf.subarray(0, filled);
    if (!whole) return { bytes, size };
    return { bytes: bytes.length > headBytes ? bytes.subarray(0, headBytes) : bytes, size, content: bytes };
  } finally {
    closeSync(fd);
  }
}
