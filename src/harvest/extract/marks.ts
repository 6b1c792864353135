/**
 * Literals that some rule's regex cannot match without, found in one scan of a step's output.
 * Several rules test every output with a regex of their own (truncation markers, background
 * jobs, package.json dependencies, missing modules); on outputs that hold none of their literals,
 * which is nearly all of them, those scans find nothing. viewOf scans each output once for all
 * the literals (any case, so each is a necessary condition for its regex, whatever that regex's
 * flags), and a rule runs its regex only where its mark is set. Over the 100 MB bench corpus's
 * 37,000 outputs the one scan took 64 ms where the regexes it spares took 120 (ad hoc, warm).
 */
export const MARK = {
  /** "[... omitted N of M lines", Codex's "…N tokens truncated…", "<persisted-output>", "Output too large". */
  cut: 1,
  /** "running in background with ID". */
  background: 2,
  /** `"dependencies"` or `"devDependencies"`. */
  dependencies: 4,
  /** "No module named", "Cannot find module". */
  module: 8,
  /** "deprecated" (a tool retiring the command that ran: retired.ts). */
  deprecated: 16,
  /** "(END)" or "...skipping...": less's prompt (pager.ts). */
  pager: 32,
} as const;

const ALL = MARK.cut | MARK.background | MARK.dependencies | MARK.module | MARK.deprecated | MARK.pager;

/** No two of these can match at one position (their first two letters differ), so resuming the
 * scan one character after each match finds every literal present. */
const LITERALS = /omitted|tokens truncated|persisted-output|output too large|running in background|ependencies"|no module named|cannot find module|deprecated|\(end\)|\.\.\.skipping\.\.\./gi;

function markOf(found: string): number {
  switch (found.charCodeAt(0) | 0x20) {
    case 0x72: // r
      return MARK.background;
    case 0x65: // e
      return MARK.dependencies;
    case 0x6e: // n
    case 0x63: // c
      return MARK.module;
    case 0x64: // d
      return MARK.deprecated;
    case 0x28: // (
    case 0x2e: // .
      return MARK.pager;
    default: // o, t, p
      return MARK.cut;
  }
}

/** The MARK bits of the literals `output` holds. */
export function marksOf(output: string): number {
  let marks = 0;
  LITERALS.lastIndex = 0;
  for (let m = LITERALS.exec(output); m !== null && marks !== ALL; m = LITERALS.exec(output)) {
    marks |= markOf(m[0]);
    LITERALS.lastIndex = m.index + 1;
  }
  return marks;
}
