/**
 * What a reviewer rejects whatever rule wrote it: the last filter before a candidate is kept.
 * Each test below states one principle; none names a session or a gold item. Dropping a doubtful
 * item costs less than a nightly pull request a team learns to ignore.
 */
import type { Candidate } from '../candidate.js';

/** Below this the evidence is speculative: not written. */
export const MIN_CONFIDENCE = 0.5;

/** A progress report, a changelog or a celebration says what happened, not what is true. */
const PROGRESS = /^(?:user correction: )?(?:completed(?: tasks?)?|all (?:done|pushed|tests pass(?:ed|ing)?|set|green)|done[:!.]|task \d+\s*[:.-]|step \d+\s*[:.-]|summary of (?:changes|work)|changes made|what (?:i|we) did|progress|status update|implementation (?:assessment|complete)|successfully (?:created|added|implemented|updated|fixed|completed))\b|[\u{1F389}\u{2705}\u{1F680}\u{2728}\u{1F44D}]/iu;

const CODE_STATEMENT = /\bfrom\s+[\w.]+\s+import\s+[\w, ]+|\bimport\s+[\w.]+(?:\s+as\s+\w+)?(?=\s*(?:$|[;\n#]))|#\s*(?:pylint|noqa|type|eslint)[:\s][^#\n]*|\brequire\(\s*['"][^'"]+['"]\s*\)|\b\w+\s*=\s*[\w.]+\([^)]*\)/g;

/** Code pasted as a statement: declarations, braces and semicolons rather than sentences. */
function mostlyCode(text: string): boolean {
  const body = text.replace(/`[^`]*`/g, ' ');
  if (/^\s*(?:function|class|def|const|let|var|import|export|public|private|fn|func|package)\s+\w/.test(body)) return true;
  // statements of languages without braces (Python imports, lint pragmas, calls assigned)
  const statements = body.match(CODE_STATEMENT) ?? [];
  if (statements.length >= 2 && (body.replace(CODE_STATEMENT, ' ').match(/\b[a-z]{3,}\b/gi) ?? []).length < 8) return true;
  const symbols = (body.match(/[{};=<>()[\]]/g) ?? []).length;
  const words = (body.match(/\b[a-z]{3,}\b/gi) ?? []).length;
  return symbols >= 8 && symbols > words / 2;
}

/** A value that only meant something in the session it came from: a commit SHA, a background
 * job or shell id, a device code. */
const TRANSIENT = [
  /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/, // a commit SHA
  /\b(?:bash|shell)_\d+\b|\bshell id:? ?\d+\b|\bjob (?:id )?#?\d+\b/i, // a background job
  /\bdevice code\b/i,
];

/** Why a candidate is not written, or undefined. */
export function rejectReason(c: Candidate): string | undefined {
  if (c.confidence < MIN_CONFIDENCE) return 'confidence below 0.5';
  const text = `${c.title} ${c.text}`;
  if (PROGRESS.test(c.title) || PROGRESS.test(c.text)) return 'a progress report';
  if (c.category !== 'pitfall' && c.category !== 'tool-quirk' && mostlyCode(c.text)) return 'code, not a statement';
  if (TRANSIENT.some((re) => re.test(c.title))) return 'names a value of that session only';
  if (/\b(?:session|conversation) (?:id|uuid)\b/i.test(text)) return 'names a value of that session only';
  return undefined;
}
