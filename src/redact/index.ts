/**
 * The secret detector and redactor: one pure module (no I/O) behind `compound check` and the
 * harvester. See README.md in this folder for the kinds and the false-positive rules.
 */
export { findSecrets, ALLOW_MARKER, type FindOptions } from './detect.js';
export { redact, type RedactOptions, type RedactResult } from './redact.js';
export {
  SECRET_KINDS,
  KIND_INFO,
  placeholder,
  type SecretKind,
  type SecretFinding,
  type FindingCategory,
  type KindInfo,
} from './kinds.js';
export { isGenericUserName } from './personal.js';
export { ownAccountNames } from './people.js';
export { shannonEntropy } from './values.js';
