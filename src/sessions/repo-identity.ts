/**
 * Which repository a session is about, from the strongest evidence available, and which evidence
 * that was. A working directory's name alone misleads: git worktrees (`spotter-worktrees/
 * spotter-dov`), a home directory (the user's name), a temp or generic folder (`/workspace`,
 * `~/repo`), a sub-package. In order of strength:
 *   1. a remote URL the transcript records (Codex) or shows in tool output (`git remote -v`,
 *      `git remote get-url`, `gh repo view`; `git clone` only when nothing else names one);
 *   2. the working directory on this machine inside a git work tree: its `origin`'s name
 *      (worktrees share it), else the main work tree's folder name;
 *   3. worktree layouts in the path: `<name>-worktrees/<x>`, `<name>.worktrees/<x>`,
 *      `<name>/.worktrees/<x>`, `<name>/.claude/worktrees/<x>`, and `<name>-<branch>` for the
 *      session's branch;
 *   4. the working directory's own name, unless it names nothing (a home, `/`, a temp folder, a
 *      user's name, a generic name such as `repo` or `workspace`), or the folder above it when it
 *      is one part of a project (`LocalWeb/backend`);
 *   5. the root of the files the session edited, when the working directory is above them (a
 *      home) or below them (a sub-package);
 *   6. for transcripts that record no working directory at all: `--repo`, else the folder the
 *      transcript sits in;
 *   7. nothing: those items are written only when they are global or about the agent.
 * `repo_aliases` (names or glob patterns such as `spotter-*`) always win: every name a step
 * considers is looked up first. Pure except for the optional git probe (the file system).
 */
import type { Session } from './model.js';
import { repoNameOfUrl, type GitProbe } from './git-config.js';
import { escapeRegExp } from '../core/regexp.js';

export type RepoSource = 'alias' | 'remote' | 'tool-output' | 'git' | 'worktree-layout' | 'cwd' | 'edited-files' | 'flag' | 'transcript-folder' | 'none';

export interface RepoIdentity {
  repo?: string;
  source: RepoSource;
  /** What the evidence was, for `compound repos` and --explain. */
  detail: string;
}

export interface RepoContext {
  aliases: Readonly<Record<string, string>>;
  /** Account names known to this run: a folder named like one is a home, not a repo. */
  users: readonly string[];
  /** `--repo`: for transcripts that record no working directory. */
  fallback?: string;
  /** The transcript's folder's project name (see harvest's repoFromTranscriptPath). */
  transcriptFolder?: string;
  /** Looks the working directory up on this machine (none: step 2 is skipped). */
  probe?: GitProbe;
}

/** What a transcript tells about its repository (a Session, or just a directory for bootstrap). */
export interface RepoWitness {
  cwd?: string;
  /** `cwd` is the transcript's folder (see Session.cwdFromFile). */
  cwdFromFile?: boolean;
  branch?: string;
  /** A repository name from a remote URL the transcript records. */
  remoteRepo?: string;
  /** The name the reader chose (cwd name or remote), for formats this module cannot see into. */
  recorded?: string;
  events?: Session['events'];
}

/** Folder names that say nothing about which project: generic work folders and system places. */
const GENERIC = new Set([
  'repo', 'repos', 'repository', 'workspace', 'workspaces', 'work', 'private', 'app', 'apps', 'project', 'projects', 'code', 'src',
  'source', 'dev', 'development', 'git', 'github', 'tmp', 'temp', 'test', 'tests', 'sandbox', 'scratch', 'home', 'users', 'root',
  'desktop', 'documents', 'downloads', 'developer', 'sites', 'www', 'mnt', 'opt', 'var', 'data', 'build', 'out', 'dist', 'main', 'master',
  // a folder people keep their projects in (`~/Coding/my-video`), in a few languages
  'coding', 'programming', 'repositories', 'codebase', 'codebases', 'proyectos', 'projetos', 'projets', 'projekte', 'progetti',
  // a hosted IDE's fixed folder (Lightning AI's /teamspace/studios/this_studio) is every user's
  'this_studio',
]);

/** Folder names for one part of a project (its server, its web client): a session started there
 * works on the project of the folder above. */
const PROJECT_PART = new Set([
  'backend', 'frontend', 'server', 'client', 'api', 'web', 'webapp', 'ui', 'mobile',
  // a course exercise's copy to start from or its solved copy (`concept1-review/starter`)
  'starter', 'solution', 'solutions',
]);

function segments(path: string): string[] {
  return path.replace(/\\/g, '/').replace(/\/+$/, '').split('/').filter((s) => s !== '');
}

/** A home directory itself: `/home/dev`, `/Users/dev`, `/root`, `C:\Users\dev` (Git Bash's
 * `/c/Users/dev`). */
export function isHomeFolder(path: string): boolean {
  const p = path.replace(/\\/g, '/').replace(/\/+$/, '');
  return p === '/root' || /^(?:\/home|\/Users|[A-Za-z]:\/Users|\/[a-z]\/Users)\/[^/]+$/.test(p);
}

/** A path that is a home directory itself (or its settings' or its loose files' folder), the
 * file system root, or a temp folder. */
export function isNoRepoPlace(path: string): boolean {
  const p = path.replace(/\\/g, '/').replace(/\/+$/, '');
  if (p === '' || p === '~' || /^[A-Za-z]:$/.test(p)) return true;
  if (isHomeFolder(p)) return true;
  // a hidden folder of a home (`~/.claude/skills`, `~/.config/nvim`) holds a tool's settings,
  // not a project (a dotfiles repository says so by its remote)
  if (/^(?:(?:\/home|\/Users|[A-Za-z]:\/Users)\/[^/]+|\/root)\/\.[^/]+(?:\/|$)/.test(p)) return true;
  // nor is a home's own folder for the user's files (`~/Downloads`, `~/Desktop`): a session there
  // works on loose files (a folder of it deeper down, `~/Documents/shop`, names itself)
  if (/^(?:(?:\/home|\/Users|[A-Za-z]:\/Users)\/[^/]+|\/root)\/(?:Downloads|Desktop|Documents|Pictures|Music|Movies|Videos)$/i.test(p)) return true;
  // a temp folder or a scratch folder right in it (/tmp/x); deeper folders name themselves
  if (/^(?:\/tmp|\/var\/tmp|\/private\/tmp|\/dev\/shm)(?:\/[^/]+)?$/.test(p)) return true;
  return /^(?:\/private)?\/var\/folders\//.test(p) || /\/AppData\/Local\/Temp(?:\/[^/]+)?$/i.test(p);
}

function isUserName(name: string, users: readonly string[]): boolean {
  return users.some((u) => u.toLowerCase() === name.toLowerCase());
}

/** A folder name that names a project: not generic, not a user's, not generated. */
export function namesAProject(name: string, users: readonly string[]): boolean {
  if (name === '' || name.startsWith('.')) return false;
  if (GENERIC.has(name.toLowerCase()) || isUserName(name, users)) return false;
  return !/^[0-9a-f-]{16,}$/i.test(name) && !/^\d+$/.test(name);
}

/** `*` in an alias pattern matches any run of characters (within a name). */
function globMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(name);
}

/** The alias for a name: an exact key first, then the first matching pattern in key order. */
export function aliasOf(name: string, aliases: Readonly<Record<string, string>>): string | undefined {
  if (Object.hasOwn(aliases, name)) return aliases[name];
  for (const key of Object.keys(aliases).sort()) if (key.includes('*') && globMatch(key, name)) return aliases[key];
  return undefined;
}

/** Step 3: a worktree layout in the path names the project. */
function worktreeName(cwd: string, branch: string | undefined): { name: string; detail: string } | undefined {
  const segs = segments(cwd);
  for (let i = segs.length - 2; i >= 0; i--) {
    const s = segs[i]!;
    const m = /^(.+?)[-.]worktrees$/.exec(s);
    if (m) return { name: m[1]!, detail: `${s}/${segs[i + 1]} is a worktree of ${m[1]}` };
    if (s === '.worktrees' && i > 0) return { name: segs[i - 1]!, detail: `.worktrees/${segs[i + 1]} inside ${segs[i - 1]}` };
    if (s === 'worktrees' && segs[i - 1] === '.claude' && i > 1) return { name: segs[i - 2]!, detail: `.claude/worktrees/${segs[i + 1]} inside ${segs[i - 2]}` };
  }
  const last = segs.at(-1);
  if (last && branch) {
    const suffix = `-${branch.replace(/[/\\]/g, '-')}`;
    if (last.length > suffix.length && last.endsWith(suffix)) return { name: last.slice(0, -suffix.length), detail: `${last} is ${last.slice(0, -suffix.length)} checked out at branch ${branch}` };
  }
  return undefined;
}

const REMOTE_COMMAND = /\bgit\s+(?:-C\s+\S+\s+)?remote(?:\s+-v|\s+get-url\b|\s+show\b)|\bgit\s+config\b[^\n]*remote\.origin\.url|\bgh\s+repo\s+view\b/;
const URL_RE = /(?:https?:\/\/|ssh:\/\/|git@)[^\s'"`<>)]+/;

/** Step 1 from tool output: the origin (else first) remote a command printed. */
function remoteFromTools(events: Session['events'] | undefined): { name: string; detail: string; clone: boolean } | undefined {
  if (!events) return undefined;
  const commands = new Map<string, string>();
  let clone: { name: string; detail: string; clone: boolean } | undefined;
  for (const e of events) {
    if (e.kind === 'tool_call' && e.command) {
      if (e.callId !== undefined) commands.set(e.callId, e.command);
      const c = /\bgit\s+clone\s+(?:-\S+\s+)*((?:https?:\/\/|ssh:\/\/|git@)\S+)/.exec(e.command);
      const name = c ? repoNameOfUrl(c[1]!) : undefined;
      if (name && !clone) clone = { name, detail: `\`git clone\` of ${name}`, clone: true };
    }
    if (e.kind !== 'tool_result' || e.isError || e.callId === undefined) continue;
    const command = commands.get(e.callId);
    if (!command || !REMOTE_COMMAND.test(command)) continue;
    const lines = e.output.split('\n');
    const origin = lines.find((l) => /^origin\s/.test(l.trim())) ?? lines.find((l) => URL_RE.test(l));
    const url = origin ? URL_RE.exec(origin)?.[0] : undefined;
    const name = url ? repoNameOfUrl(url) : undefined;
    if (name) return { name, detail: `\`${command.trim().slice(0, 60)}\` printed ${name}`, clone: false };
  }
  return clone;
}

const EDIT_TOOLS = /^(?:edit|multiedit|write|notebookedit|write_file|replace|edit_file|create_file|str_replace_based_edit_tool)$/i;

/** Absolute paths the session edited (edit tools, apply_patch headers). */
function editedFiles(events: Session['events'] | undefined): string[] {
  const out: string[] = [];
  for (const e of events ?? []) {
    if (e.kind !== 'tool_call') continue;
    if (EDIT_TOOLS.test(e.name)) {
      const p = e.input.file_path ?? e.input.path ?? e.input.notebook_path;
      if (typeof p === 'string' && /^(?:\/|[A-Za-z]:[\\/])/.test(p)) out.push(p.replace(/\\/g, '/'));
    }
    const patch = typeof e.input.input === 'string' ? e.input.input : typeof e.input.patch === 'string' ? e.input.patch : e.command;
    if (typeof patch === 'string' && patch.includes('*** ')) for (const m of patch.matchAll(/^\*\*\* (?:Update|Add) File: (\/\S+)/gm)) out.push(m[1]!);
  }
  return out;
}

/** Folders inside a project that are never its root. */
const INNER = new Set(['src', 'lib', 'test', 'tests', 'spec', 'docs', 'doc', 'scripts', 'bin', 'cmd', 'internal', 'pkg', 'assets', 'config', 'public', 'components', 'priv', 'include', 'examples']);
/** Folders of a monorepo that hold its packages: the project is the folder above. */
const PACKAGE_DIRS = new Set(['packages', 'apps', 'libs', 'crates', 'services', 'modules']);

interface EditedRoot {
  name: string;
  detail: string;
  /** The working directory is below the root (a sub-package), else above it (a home). */
  below: boolean;
}

/** The project that holds what the session edited, when the working directory is above the
 * edited files (a home) or below their root (a sub-package). */
function editedRoot(cwd: string, files: readonly string[], users: readonly string[], probe: GitProbe | undefined): EditedRoot | undefined {
  if (files.length === 0) return undefined;
  const split = files.map((f) => segments(f).slice(0, -1));
  let common = split[0]!;
  for (const s of split) {
    let k = 0;
    while (k < common.length && k < s.length && common[k] === s[k]) k++;
    common = common.slice(0, k);
  }
  const cw = segments(cwd);
  const inside = (outer: string[], inner: string[]) => outer.length < inner.length && outer.every((s, i) => inner[i] === s);
  // on this machine: the git work tree that holds them
  const git = probe?.(`/${common.join('/')}`);
  const gitName = git?.name ?? git?.folder;
  if (gitName && namesAProject(gitName, users)) {
    if (inside(cw, common)) return { name: gitName, detail: `the files it edited are in the git work tree of ${gitName} (${git!.detail})`, below: false };
  }
  // else by their path: inner folders (src/, lib/) and a monorepo's packages/<x> are not the root
  while (common.length > 0 && INNER.has(common.at(-1)!.toLowerCase())) common = common.slice(0, -1);
  if (common.length >= 2 && PACKAGE_DIRS.has(common.at(-2)!.toLowerCase())) common = common.slice(0, -2);
  else if (common.length >= 1 && PACKAGE_DIRS.has(common.at(-1)!.toLowerCase())) common = common.slice(0, -1);
  if (inside(common, cw)) {
    const name = common.at(-1);
    return name && namesAProject(name, users) && !isNoRepoPlace(`/${common.join('/')}`) ? { name, detail: `the files it edited are under ${name}/, above the working directory`, below: true } : undefined;
  }
  if (inside(cw, common)) {
    // the first folder below the working directory that names a project (none inside a home's
    // hidden folder: `~/.local/share/chezmoi` holds a tool's files, as isNoRepoPlace says)
    for (let i = cw.length; i < common.length; i++) {
      const name = common[i]!;
      if (namesAProject(name, users) && !isNoRepoPlace(`/${common.slice(0, i + 1).join('/')}`)) return { name, detail: `the files it edited are under ${name}/, below the working directory`, below: false };
    }
  }
  return undefined;
}

/** The session's repository and the evidence for it. */
export function identifyRepo(w: RepoWitness, ctx: RepoContext): RepoIdentity {
  // the account a home path names is a user too (a session started in ~ is about no repo)
  const home = w.cwd ? /^(?:\/home|\/Users|[A-Za-z]:[\\/]Users)[\\/]([^\\/]+)/.exec(w.cwd)?.[1] : undefined;
  const users = home ? [...ctx.users, home] : ctx.users;
  const alias = (name: string | undefined, why: string): RepoIdentity | undefined => {
    if (!name) return undefined;
    const to = aliasOf(name, ctx.aliases);
    return to ? { repo: to, source: 'alias', detail: `${name} → ${to} (repo_aliases; ${why})` } : undefined;
  };
  const cwd = w.cwd;
  const cwdName = cwd ? segments(cwd).at(-1) : undefined;
  const tools = remoteFromTools(w.events);
  const probed = cwd ? ctx.probe?.(cwd) : undefined;
  // a transcript that sits where its tool writes it is at its work tree's root; one inside another
  // work tree was copied there (a folder of collected histories in the knowledge repository)
  const git = probed && w.cwdFromFile && probed.root !== undefined && probed.root !== cwd ? undefined : probed;
  const layout = cwd ? worktreeName(cwd, w.branch) : undefined;
  // every name a step would consider, strongest first: an alias for any of them wins
  const names: [string | undefined, string][] = [
    [w.remoteRepo, 'remote URL'],
    [tools?.name, 'tool output'],
    [git?.name, 'git'],
    [layout?.name, 'worktree layout'],
    [cwdName, 'working directory'],
    [git?.folder, 'git work tree folder'],
    [w.recorded, 'transcript'],
  ];
  for (const [name, why] of names) {
    const a = alias(name, why);
    if (a) return a;
  }
  const ok = (name: string | undefined): name is string => name !== undefined && namesAProject(name, users);
  if (ok(w.remoteRepo)) return { repo: w.remoteRepo, source: 'remote', detail: `the transcript records the remote of ${w.remoteRepo}` };
  if (tools && !tools.clone && ok(tools.name)) return { repo: tools.name, source: 'tool-output', detail: tools.detail };
  if (git && ok(git.name)) return { repo: git.name, source: 'git', detail: git.detail };
  if (git && ok(git.folder)) return { repo: git.folder, source: 'git', detail: git.detail };
  if (layout && ok(layout.name)) return { repo: layout.name, source: 'worktree-layout', detail: layout.detail };
  if (cwd) {
    const edited = editedRoot(cwd, editedFiles(w.events), users, ctx.probe);
    // a session that went into a sub-package of the project whose files it edited
    if (edited?.below) return { repo: edited.name, source: 'edited-files', detail: edited.detail };
    // a folder named for a part of a project (`LocalWeb/backend`) is not the project: its parent is
    const above = cwd.replace(/[\\/]+[^\\/]+[\\/]*$/, '');
    const parent = segments(above).at(-1);
    // (a package of a monorepo, `packages/web`, is another layout: see editedRoot)
    if (ok(cwdName) && PROJECT_PART.has(cwdName.toLowerCase()) && ok(parent) && !PACKAGE_DIRS.has(parent.toLowerCase()) && !isNoRepoPlace(above)) {
      return { repo: parent, source: 'cwd', detail: `the working directory ${cwdName}/ is a part of ${parent}` };
    }
    if (ok(cwdName) && !isNoRepoPlace(cwd)) return { repo: cwdName, source: 'cwd', detail: 'working directory name' };
    if (edited) return { repo: edited.name, source: 'edited-files', detail: edited.detail };
    if (tools && ok(tools.name)) return { repo: tools.name, source: 'tool-output', detail: tools.detail };
    const generic = !isNoRepoPlace(cwd) && !(cwdName && isUserName(cwdName, users));
    // a container's mount point (/repo, /workspace, /app) names no project: the session is about
    // one, which --repo or the transcript's folder may name; a home or temp folder is about none
    if (generic) {
      const named = outsideWitness(ctx, ok, alias);
      if (named) return named;
    }
    const why = isNoRepoPlace(cwd) ? 'a home, root or temp folder' : generic ? `a generic folder name (${cwdName ?? ''})` : 'named after the user';
    return { source: 'none', detail: `the working directory is ${why}, and nothing else in the transcript names the repository` };
  }
  // formats that record no working directory
  if (ok(w.recorded)) return { repo: w.recorded, source: 'cwd', detail: `the transcript names ${w.recorded}` };
  if (w.recorded !== undefined) return { source: 'none', detail: `the transcript names ${w.recorded}, which is a user's or a generic name` };
  return outsideWitness(ctx, ok, alias) ?? { source: 'none', detail: 'the transcript records no working directory, and its folder names no project' };
}

/** What names the repository from outside the transcript: --repo, then the transcript's folder. */
function outsideWitness(
  ctx: RepoContext,
  ok: (name: string | undefined) => name is string,
  alias: (name: string | undefined, why: string) => RepoIdentity | undefined,
): RepoIdentity | undefined {
  if (ctx.fallback) return { repo: ctx.fallback, source: 'flag', detail: '--repo' };
  const a = alias(ctx.transcriptFolder, 'transcript folder');
  if (a) return a;
  if (ok(ctx.transcriptFolder)) return { repo: ctx.transcriptFolder, source: 'transcript-folder', detail: `the transcript sits in ${ctx.transcriptFolder}/` };
  return undefined;
}

/** The witness of a session. */
export function witnessOf(session: Session): RepoWitness {
  return {
    ...(session.cwd ? { cwd: session.cwd } : {}),
    ...(session.cwdFromFile ? { cwdFromFile: true } : {}),
    ...(session.branch ? { branch: session.branch } : {}),
    ...(session.remoteRepo ? { remoteRepo: session.remoteRepo } : {}),
    ...(session.repo ? { recorded: session.repo } : {}),
    events: session.events,
  };
}

