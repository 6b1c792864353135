/** Secrets and personal data in an item file, as problems: what `compound check` reports. */
import { findSecrets, KIND_INFO } from '../redact/index.js';
import type { Problem } from './problem.js';

export function secretProblems(path: string, text: string): Problem[] {
  return findSecrets(text).map((f) => ({
    code: `E_SECRET_${f.kind.toUpperCase().replace(/-/g, '_')}`,
    file: path,
    line: f.line,
    what: `${f.description} at column ${f.column}`,
    why: KIND_INFO[f.kind].why,
    fix: KIND_INFO[f.kind].fix,
  }));
}
