/**
 * `compound capture`: finished sessions on a developer's machine become redacted captured-session
 * files (sessions/captured.ts) delivered to an inbox the nightly job reads: a folder (`--to`), or a
 * branch of the knowledge repository (`--to-branch compound/inbox`, committed without checking it
 * out, `--push` with the developer's own git credentials). Raw transcripts never leave the
 * machine. A local ledger (in the user cache directory) makes sure a session is sent once per
 * content: a session that grew is sent again, whole (the harvest takes its new events only).
 * `--hook` is for a Claude Code SessionEnd hook: it reads the hook's JSON on stdin, starts the
 * capture in the background and exits 0 at once, whatever happens.
 */
import type { Command } from 'commander';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, UsageError } from '../core/errors.js';
import { forEachSessionFile } from '../sessions/read.js';
import { parseFromList } from '../sessions/walk.js';
import { renderCaptured } from '../sessions/captured.js';
import { withParentEdits } from '../harvest/parent-edits.js';
import { withAiderLaunches } from '../harvest/aider-launches.js';
import { redact, isGenericUserName } from '../redact/index.js';
import { resolveRepo } from '../harvest/repo-name.js';
import { usersFromPath } from '../harvest/redact-candidate.js';
import { writeFileAtomic } from '../knowledge/fsutil.js';
import { userCacheDir } from '../knowledge/load-cache.js';
import { sanitizeName } from '../knowledge/paths.js';
import { loadConfig, findRoot } from '../core/config.js';
import { action } from './run.js';
import { note, out, printJson } from './io.js';

interface CaptureFlags {
  from?: string;
  to?: string;
  toBranch?: string;
  push?: boolean;
  hook?: boolean;
  ledger?: string;
  json?: boolean;
}

/** What was sent: "<agent>/<session id>" -> the number of events sent. */
type CaptureLedger = Record<string, number>;

function ledgerFile(flags: CaptureFlags): string | undefined {
  if (flags.ledger) return resolve(flags.ledger);
  const dir = userCacheDir();
  return dir ? join(dir, 'capture-ledger.json') : undefined;
}

function readCaptureLedger(file: string | undefined): CaptureLedger {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CaptureLedger;
  } catch {
    return {};
  }
}

/** The hook's transcript path, from the SessionEnd JSON on stdin. */
function hookTranscript(): string | undefined {
  try {
    const input = JSON.parse(readFileSync(0, 'utf8')) as { transcript_path?: unknown };
    return typeof input.transcript_path === 'string' ? input.transcript_path : undefined;
  } catch {
    return undefined;
  }
}

/** The same command without --hook, on the transcript, detached: the session ends now. */
function startInBackground(transcript: string, flags: CaptureFlags): void {
  const cli = fileURLToPath(new URL('./main.js', import.meta.url));
  const args = [cli, 'capture', transcript, ...(flags.to ? ['--to', flags.to] : []), ...(flags.toBranch ? ['--to-branch', flags.toBranch] : []), ...(flags.push ? ['--push'] : []), ...(flags.ledger ? ['--ledger', flags.ledger] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', cwd: process.cwd(), env: process.env });
  child.unref();
}

/** Attempts at pushing when other developers push to the inbox at the same moment. */
const PUSH_ATTEMPTS = 4;

/**
 * Commits the captured files to `branch` of the repository at `cwd` without checking it out.
 * With `push`, on top of origin's tip of the branch (every developer pushes to the same inbox:
 * the local branch is only a buffer, and what it holds that origin lacks was not recorded as
 * sent, so it is captured again), retrying when another push got in first.
 */
async function deliverToBranch(files: Map<string, string>, branch: string, push: boolean): Promise<string | undefined> {
  const { commitFilesToBranch, findGitRoot } = await import('../knowledge/git.js');
  const dir = findGitRoot(process.cwd());
  if (!dir) throw new UsageError('--to-branch needs to run inside the knowledge repository (a git checkout)', { fix: 'run it there, or pass -C <knowledge repo>' });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const message = `compound: capture ${files.size} session(s)`;
  if (!push) return commitFilesToBranch(dir, branch, files, message);
  for (let attempt = 1; ; attempt++) {
    try {
      git('fetch', '--quiet', 'origin', `+refs/heads/${branch}:refs/heads/${branch}`);
    } catch {
      // not on origin yet: the first capture creates it
    }
    const sha = await commitFilesToBranch(dir, branch, files, message);
    try {
      git('push', '--quiet', 'origin', `refs/heads/${branch}:refs/heads/${branch}`);
      return sha;
    } catch (err) {
      // only a push that lost a race is tried again; no network or no access fails now
      const raced = /\b(?:rejected|non-fast-forward|fetch first)\b/.test(String((err as { stderr?: unknown }).stderr ?? ''));
      if (!raced || attempt >= PUSH_ATTEMPTS) throw err;
    }
  }
}

export function register(program: Command): void {
  program
    .command('capture [paths...]')
    .description('turn finished sessions into redacted captured-session files and deliver them to the inbox (raw transcripts never leave this machine)')
    .option('--from <list>', 'the default locations: claude,codex,hermes,gemini,specstory,aider')
    .option('--to <dir>', 'deliver to this folder')
    .option('--to-branch <name>', 'deliver to this branch of the knowledge repository (e.g. compound/inbox), without checking it out')
    .option('--push', 'with --to-branch: push the branch to origin with your git credentials')
    .option('--hook', 'for a Claude Code SessionEnd hook: read its JSON on stdin, capture in the background, exit 0')
    .option('--ledger <file>', 'where to remember what was sent (default: the user cache directory)')
    .option('--json', 'print what was captured as JSON')
    .addHelpText('after', '\nExamples:\n  $ compound capture --from claude,codex --to-branch compound/inbox --push     # cron, in the knowledge repo\n  $ compound capture --hook --to-branch compound/inbox --push                 # Claude Code SessionEnd hook')
    .action(
      action(async (paths: string[], flags: CaptureFlags) => {
        if (!flags.to && !flags.toBranch) throw new UsageError('capture needs an inbox', { fix: 'pass --to <dir> or --to-branch compound/inbox' });
        if (flags.hook) {
          // never fail or slow down the session that is ending
          try {
            const transcript = hookTranscript();
            if (transcript) startInBackground(transcript, flags);
          } catch {
            /* nothing to do */
          }
          return EXIT.ok;
        }
        const from = flags.from ? parseFromList(flags.from) : undefined;
        if (paths.length === 0 && !from) throw new UsageError('nothing to capture', { fix: 'name transcripts, or pass --from claude,codex,...' });
        let config = { repo_aliases: {} as Record<string, string>, redact_users: [] as string[] };
        try {
          config = loadConfig(findRoot(process.cwd()));
        } catch {
          /* no store here: defaults */
        }
        const me = userInfo().username;
        const ledgerPath = ledgerFile(flags);
        const ledger = readCaptureLedger(ledgerPath);
        const files = new Map<string, string>();
        const sent: { session: string; agent: string; events: number; file: string }[] = [];
        await forEachSessionFile(paths.map((p) => resolve(p)), { ...(from ? { from } : {}) }, async (result) => {
          // a subagent's parent transcript is on this machine only: what it edited later goes along
          // …and so do the other launches of an aider chat history (which model then worked)
          for (const s of withAiderLaunches(await withParentEdits(result.file, result.sessions))) {
            if (s.format === 'captured') continue;
            const users = [...config.redact_users, ...(isGenericUserName(me) ? [] : [me]), ...usersFromPath(s.cwd), ...usersFromPath(result.file)];
            const r = (text: string): string => redact(text, { users }).text;
            const key = `${s.agent}/${r(s.id)}`;
            // a subagent is sent again when its parent, still running at the last capture, edited more
            const size = s.events.length + (s.parentEditsAfter?.length ?? 0);
            if ((ledger[key] ?? -1) >= size) continue; // sent already, as it is now
            const repo = resolveRepo(s, result.file, { aliases: config.repo_aliases, users }).repo;
            const name = `${sanitizeName(s.agent)}/${sanitizeName(r(s.id)).slice(0, 120) || 'session'}.jsonl`;
            files.set(name, renderCaptured(s, repo, r));
            ledger[key] = size;
            sent.push({ session: r(s.id), agent: s.agent, events: s.events.length, file: name });
          }
        });
        let commit: string | undefined;
        if (files.size > 0) {
          if (flags.to) for (const [name, text] of files) writeFileAtomic(join(resolve(flags.to), name), text);
          if (flags.toBranch) commit = await deliverToBranch(new Map([...files].map(([n, t]) => [`inbox/${n}`, t])), flags.toBranch, Boolean(flags.push));
          if (ledgerPath) writeFileAtomic(ledgerPath, `${JSON.stringify(ledger, Object.keys(ledger).sort(), 1)}\n`);
        }
        if (flags.json) printJson({ captured: sent, ...(commit ? { commit } : {}) });
        else for (const s of sent) out(`${s.file}  (${s.events} events)`);
        note(`captured ${sent.length} session(s)${files.size === 0 ? ' (nothing new since the last capture)' : ''}${commit ? `; committed ${commit.slice(0, 12)} to ${flags.toBranch}${flags.push ? ' and pushed' : ''}` : ''}`);
        return EXIT.ok;
      }),
    );
}
