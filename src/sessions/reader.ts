/**
 * A reader turns one transcript file into zero or more Sessions. Readers are chosen by content
 * (`detect` on the file's head), never by file name; `--format` overrides detection.
 */
import type { ReadWarning, Session, SessionFormat } from './model.js';

export interface ReadOptions {
  /** Lines longer than this are truncated with a warning. */
  maxLineBytes?: number;
  /** Called for every non-fatal problem (bad line, truncation), with file and line. */
  onWarning?: (warning: ReadWarning) => void;
}

export interface SessionReader {
  format: SessionFormat;
  /**
   * How sure the reader is that a file with this head (first ~64 KiB, decoded leniently) is its
   * format: 0 = not mine, 1 = certain. The highest score above 0 wins.
   */
  detect(head: string, file: string): number;
  /**
   * Optional, to spare building the head string: the score `detect` gives the head made of
   * `lines`, its complete lines (each without its newline; CR and a leading BOM kept), joined by
   * newlines, then `rest` (what follows them: the newline after the last, then the start of the
   * next line); undefined when the reader needs the head itself.
   */
  detectLines?(lines: readonly string[], rest: string): number | undefined;
  /** Reads the whole file. Multi-session files (Aider history) yield several sessions. */
  read(file: string, options?: ReadOptions): Promise<Session[]>;
}
