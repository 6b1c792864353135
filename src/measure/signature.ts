/**
 * Error signatures: an error line with its variable parts (paths, ids, numbers, quoted values)
 * replaced, cut to a fixed prefix, and hashed. The same rule is applied to a pitfall's quoted
 * error and to every line of every failing tool result, so "this error happened again" is an
 * exact lookup. Only hashes are stored: error lines can carry secrets.
 */
import { createHash } from 'node:crypto';

/** Normalised signatures are compared on this many characters: quotes are clipped by the
 * harvester, and the head of an error line is what identifies it. */
const SIGNATURE_CHARS = 72;
/** Lines of one failing tool result that are looked at (a traceback's error is at its end). */
const MAX_LINES_PER_RESULT = 200;
const MAX_LINE_CHARS = 400;

const PATH_RE = /(?:~|\.{1,2})?\/?(?:[\w@.#+-]+\/)+[\w@.#+-]*/g;
const QUOTED_RE = /(['"`])[^'"`\n]{0,80}\1/g;
const HEX_RE = /\b[0-9a-f]{7,}\b/g;
const NUMBER_RE = /\d+(?:\.\d+)*/g;
/** Lines that say nothing about which error it was. */
const NOISE_RE = /^(?:exit code <n>|\^+|~+|-+|=+|at .+|hint: .*|error|errors?:?|failed|command failed.*)$/;

/** The normalised form of one error line ('' when there is nothing to normalise). */
export function normalizeErrorLine(line: string): string {
  return line
    .trim()
    .replace(/^stderr:\s*/i, '')
    .replace(/(?:…|\.\.\.)$/, '')
    .toLowerCase()
    .replace(PATH_RE, '<path>')
    .replace(HEX_RE, '<id>')
    .replace(NUMBER_RE, '<n>')
    .replace(QUOTED_RE, '<s>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SIGNATURE_CHARS)
    .trim();
}

/** True when a normalised line names an error specifically enough to be recognised again:
 * at least three words of three letters besides the placeholders, and not a generic line. */
export function isRecognisable(normalized: string): boolean {
  if (normalized.length < 12 || NOISE_RE.test(normalized)) return false;
  const words = normalized.replace(/<(?:path|id|n|s)>/g, ' ').match(/[a-z]{3,}/g) ?? [];
  return words.length >= 3;
}

export function hashSignature(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}

/** The signature hash of one error line, or undefined when it is not recognisable. */
export function signatureOf(line: string): string | undefined {
  const n = normalizeErrorLine(line);
  return isRecognisable(n) ? hashSignature(n) : undefined;
}

/**
 * Signature hashes found in a failing tool result's output: one per recognisable line, plus a
 * line ending in ':' joined with the next one (the harvester quotes "paths are ignored: x").
 */
export function signaturesInOutput(output: string): Set<string> {
  const out = new Set<string>();
  const lines = output.replace(/\\n/g, '\n').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length && seen < MAX_LINES_PER_RESULT; i++) {
    const line = lines[i]!.trim();
    if (line.length < 8 || line.length > MAX_LINE_CHARS) continue;
    seen++;
    const sig = signatureOf(line);
    if (sig) out.add(sig);
    const next = lines[i + 1]?.trim();
    if (line.endsWith(':') && next && next.length < 80) {
      const joined = signatureOf(`${line} ${next}`);
      if (joined) out.add(joined);
    }
  }
  return out;
}

const ERRORISH = /error|fail|denied|not found|cannot|can't|unable|invalid|missing|refused|exception|no such|unknown|undefined|fatal|not a |timed? ?out/i;

/** Quoted lines of an item's `## Evidence` section (the harvester writes `- \`error line\``). */
export function evidenceQuotes(evidence: string): string[] {
  const out: string[] = [];
  for (const raw of evidence.split('\n')) {
    const m = /^\s*[-*]\s+(.*)$/.exec(raw);
    if (!m) continue;
    const body = m[1]!.trim();
    if (/^session\s/i.test(body)) continue; // "session `id` (format), event N": where, not what
    const code = /^`([^`]+)`$/.exec(body);
    out.push(code ? code[1]! : body);
  }
  return out;
}

/**
 * The error a pitfall is about, as a normalised line: its first recognisable evidence quote,
 * else the code span after "fails with" in its text, else the first error-looking code span.
 */
export function pitfallSignatureText(text: string, evidence: string): string | undefined {
  const candidates: string[] = [];
  for (const q of evidenceQuotes(evidence)) if (ERRORISH.test(q)) candidates.push(q);
  const failsWith = /fails? with\s+`([^`]+)`/i.exec(text);
  if (failsWith) candidates.push(failsWith[1]!);
  for (const m of text.matchAll(/`([^`\n]+)`/g)) if (ERRORISH.test(m[1]!)) candidates.push(m[1]!);
  for (const m of text.matchAll(/"([^"\n]{8,})"/g)) if (ERRORISH.test(m[1]!)) candidates.push(m[1]!);
  for (const c of candidates) {
    const n = normalizeErrorLine(c);
    if (isRecognisable(n)) return n;
  }
  return undefined;
}
