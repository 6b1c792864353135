/**
 * Every failure the user can see is a CompoundError with a stable `code`, structured `data`,
 * and the three things a person needs: what happened (message), why, and what to do (fix).
 * Tests assert codes, never message text (the isomorphic-git habit).
 */

/** Documented process exit codes. */
export const EXIT = {
  ok: 0,
  problems: 1,
  usage: 2,
  runtime: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface ErrorDetails {
  why?: string;
  fix?: string;
  data?: Record<string, unknown>;
  cause?: unknown;
}

export class CompoundError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly why: string;
  readonly fix: string;
  readonly data: Record<string, unknown>;

  constructor(code: string, message: string, exitCode: ExitCode, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.why = details.why ?? '';
    this.fix = details.fix ?? '';
    this.data = details.data ?? {};
  }
}

/** Bad flags or arguments: exit 2. */
export class UsageError extends CompoundError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('E_USAGE', message, EXIT.usage, details);
  }
}

/** A file the user owns is malformed: names the file and line. */
export class InputError extends CompoundError {
  constructor(code: string, file: string, line: number | undefined, message: string, details: ErrorDetails = {}) {
    super(code, message, EXIT.runtime, { ...details, data: { file, line, ...(details.data ?? {}) } });
  }
  get file(): string {
    return String(this.data.file);
  }
  get line(): number | undefined {
    return typeof this.data.line === 'number' ? this.data.line : undefined;
  }
}

/** Something in the environment failed (I/O, git, lock held): exit 3. */
export class RuntimeError extends CompoundError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, EXIT.runtime, details);
  }
}

export function isCompoundError(err: unknown): err is CompoundError {
  return err instanceof CompoundError;
}
