/**
 * A file a later session must find is named by its path in the repository: a report that says
 * `types.ts` or a fix that "edited `schema.prisma`" sends the reader looking. The session's own
 * reads and edits tell where a bare name lives when it touched exactly one file of that name
 * inside its working directory.
 */
import { READ_TOOLS, calledPath, editedPaths, isEdit, type SessionView } from './view.js';

/** A file name with an extension (`types.ts`, `schema.prisma`, `.env.local` is left alone). */
const HAS_EXTENSION = /^[\w][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/** A path as the tool gave it, made relative to the working directory; undefined for a path
 * outside it (another checkout, a home folder, a library), which says nothing of this repository. */
function insideCwd(path: string, cwd: string | undefined): string | undefined {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p)) {
    const base = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (!base || !p.startsWith(`${base}/`)) return undefined;
    p = p.slice(base.length + 1);
  }
  p = p.replace(/^(?:\.\/)+/, '');
  if (p.startsWith('~') || p.split('/').includes('..') || p.includes('node_modules/')) return undefined;
  return p;
}

/** Base name to the one path inside the working directory the session read or edited under
 * that name; null where it touched several (or one outside), so the bare name stays. */
export function repoPathsOf(view: SessionView): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const note = (raw: string): void => {
    const name = raw.replace(/^.*[\\/]/, '');
    if (!HAS_EXTENSION.test(name)) return;
    const rel = insideCwd(raw, view.session.cwd);
    const known = out.get(name);
    if (rel === undefined || (known !== undefined && known !== rel)) out.set(name, null);
    else out.set(name, rel);
  };
  for (const s of view.steps) {
    // a read that failed found no file there
    if (s.failed || s.rejected || (!READ_TOOLS.has(s.call.name) && !isEdit(s))) continue;
    // (an edit's paths include the one its call names; apply_patch names its files in its body)
    const named = isEdit(s) ? editedPaths(s) : [calledPath(s.call.input)];
    for (const p of named) if (p !== undefined) note(p);
  }
  return out;
}

const BARE_NAME = /(?<![\w./\\~@:-])([\w][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/\\-]|\.[A-Za-z0-9])/g;

/** The text with each bare file name the session located shown with its path (in prose, or a
 * code span that is the name alone; a longer code span or a "…" quote says what someone wrote
 * and stays as it was). */
export function withRepoPaths(text: string, paths: ReadonlyMap<string, string | null>): string {
  if (paths.size === 0) return text;
  const located = (name: string): string | undefined => {
    const p = paths.get(name);
    return p && p !== name ? p : undefined;
  };
  return text
    .split(/(`[^`\n]*`|"[^"\n]*")/)
    .map((part, i) => {
      if (i % 2 === 1) {
        const p = part.startsWith('`') ? located(part.slice(1, -1)) : undefined;
        return p ? `\`${p}\`` : part;
      }
      return part.replace(BARE_NAME, (m: string) => located(m) ?? m);
    })
    .join('');
}
