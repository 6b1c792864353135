/** A problem found in the store, printed as `file:line: what, why, how to fix`. */
export interface Problem {
  /** Stable code, e.g. E_SCHEMA_FIELD; tests assert these, never the text. */
  code: string;
  file: string;
  line: number;
  what: string;
  why: string;
  fix: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.what}, ${p.why}; ${p.fix}`;
}

export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)));
}
