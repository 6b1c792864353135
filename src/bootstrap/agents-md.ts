/**
 * The marked section of AGENTS.md (what Codex and other agents read at start). The section is
 * the bootstrap block itself, so its markers are the bootstrap markers. Only the first block is
 * replaced; every byte outside it is kept, and writing the same block twice changes nothing.
 */
import { BOOTSTRAP_CLOSE, BOOTSTRAP_OPEN_RE } from '../sessions/bootstrap-markers.js';

export type UpsertResult =
  | { ok: true; text: string; action: 'created' | 'appended' | 'replaced' | 'unchanged' }
  | { ok: false; reason: string };

/** `block` is a rendered bootstrap output (markers included, ending with a newline). */
export function upsertSection(existing: string | undefined, block: string): UpsertResult {
  if (existing === undefined || existing === '') return { ok: true, text: block, action: 'created' };
  const open = BOOTSTRAP_OPEN_RE.exec(existing);
  if (!open) {
    const gap = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { ok: true, text: `${existing}${gap}${block}`, action: 'appended' };
  }
  const close = existing.indexOf(BOOTSTRAP_CLOSE, open.index + open[0].length);
  if (close === -1) return { ok: false, reason: `it has a \`compound:bootstrap\` marker without its closing \`${BOOTSTRAP_CLOSE}\`` };
  const end = close + BOOTSTRAP_CLOSE.length;
  const replacement = block.endsWith('\n') ? block.slice(0, -1) : block;
  const text = existing.slice(0, open.index) + replacement + existing.slice(end);
  return { ok: true, text, action: text === existing ? 'unchanged' : 'replaced' };
}
