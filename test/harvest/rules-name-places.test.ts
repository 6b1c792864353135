/**
 * An item names where its knowledge holds: a bare file name the session located is shown with its
 * path in the repository, and a report line that names no file, folder or command is no fact. A
 * cause is stated without the agent's account of finding it.
 */
import { describe, expect, it } from 'vitest';
import { extractSession } from '../../src/harvest/extract/index.js';
import { namesOnlyItsPath, namesPlace, onlyPointsAt, reportFactDrafts } from '../../src/harvest/extract/rules/report-facts.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { family } from '../../src/harvest/extract/commands.js';
import { repoPathsOf, withRepoPaths } from '../../src/harvest/extract/repo-paths.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder, schemaFixSession } from './extract-session.js';

const texts = (drafts: { text: string }[]): string => drafts.map((d) => d.text).join('\n');

describe('a bare file name', () => {
  const paths = (b: SessionBuilder): Map<string, string | null> => repoPathsOf(viewOf(b.build()));

  it('is located where the session read or edited the one file of that name inside its working directory', () => {
    const b = new SessionBuilder()
      .tool('Read', { file_path: '/home/dev/demo/src/agents/core/session/types.ts' }, 'export interface Session {}')
      .tool('Edit', { file_path: 'prisma/schema.prisma', old_string: '@id', new_string: '@id @default(autoincrement())' }, 'ok')
      .tool('Read', { file_path: '/home/dev/demo/package.json' }, '{}');
    const p = paths(b);
    expect(withRepoPaths('Session types live in types.ts; fix in `schema.prisma`. See package.json.', p)).toBe(
      'Session types live in src/agents/core/session/types.ts; fix in `prisma/schema.prisma`. See package.json.',
    );
    // a quote (a longer code span, or words in double quotes) says what someone wrote: it stays
    expect(withRepoPaths('fails with `Cannot find types.ts` after "types.ts was moved"', p)).toBe('fails with `Cannot find types.ts` after "types.ts was moved"');
    // part of a path already, or only a longer name
    expect(withRepoPaths('core/types.ts and my-types.ts', p)).toBe('core/types.ts and my-types.ts');
  });

  it('stays bare when the session touched two files of that name, one outside its folder, or one whose read failed', () => {
    const two = new SessionBuilder()
      .tool('Read', { file_path: '/home/dev/demo/src/a/index.ts' }, 'x')
      .tool('Read', { file_path: '/home/dev/demo/src/b/index.ts' }, 'y')
      .tool('Read', { file_path: '/home/dev/other-checkout/src/config.ts' }, 'z')
      .tool('Read', { file_path: '/home/dev/demo/lib/live.heex' }, 'File does not exist.', { isError: true });
    expect(withRepoPaths('index.ts, config.ts and live.heex', paths(two))).toBe('index.ts, config.ts and live.heex');
  });

  it("is located in an error fix's repair, and not in aider's notices (aider names a file from the folder it ran in)", () => {
    const b = schemaFixSession();
    const text = texts(extractSession(b.build()));
    expect(text).toContain('Fix: edited `prisma/schema.prisma` (`@id` → `@id @default(autoincrement())`), `pnpm dlx prisma generate`, then `pnpm build` succeeded.');
    // and the cause is stated without the agent's "The issue is that"
    expect(text).toContain('Cause: `animalID` is required because it is marked `@id`');
  });
});

describe('a report line', () => {
  // (a closing report whose lines the session's tool output bears out)
  const convex = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
  const read = (text: string): string =>
    texts(reportFactDrafts(viewOf(new SessionBuilder().user('how does the app start?').bash('cat package.json', convex).bash('cat convex.json', convex).bash('ls app', convex).assistant(text).user('thanks').build())));

  it('that names no file, folder or command is no fact; one that does is kept', () => {
    const howItRuns = '\n1. The Convex backend runs with `npx convex dev` and writes `NEXT_PUBLIC_CONVEX_URL` to `.env.local`\n2. The Next.js app runs with `npm run dev` at http://localhost:3000 and reads `.env.local`\n';
    const notes = '\n- The root route `/` has no page yet, so it answers 404 until `app/page.tsx` exists\n- `convex.json` pins the deployment used by `npx convex dev` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads `NEXT_PUBLIC_CONVEX_URL` at start';
    expect(read(`## How it runs${howItRuns}\n## Notes${notes}`)).toContain('every developer gets the same backend');
  });

  it('closing a turn that changed files, keeps only how to run or configure what is there', () => {
    const summary =
      'Notes on the renderer.\n\n## Renderer\n- `render.py` now colours user messages blue and tool calls orange\n- Long outputs in `render.py` get a scroll box of their own\n- Regenerate the page with `python3 render.py log.jsonl -o out.html`\n- The port comes from `PREVIEW_PORT`, default `8080`\n- Reasoning records in `render.py` show only their summary text, never the encrypted part\n- Unknown record types in `log.jsonl` fall back to pretty-printed JSON in a grey box\n- Session headers in `out.html` show the start time and the git branch when the log has them\n';
    const turn = (edited: boolean): string => {
      const seen = 'render.py log.jsonl out.html PREVIEW_PORT 8080 colours scroll';
      const b = new SessionBuilder().user('make the renderer nicer').bash('cat render.py', seen).bash('head log.jsonl', seen).bash('ls', seen);
      if (edited) b.tool('Edit', { file_path: '/home/dev/demo/render.py', old_string: 'grey', new_string: 'blue' }, 'ok');
      return texts(reportFactDrafts(viewOf(b.assistant(summary).user('thanks').build())));
    };
    const afterEdits = turn(true);
    expect(afterEdits).toContain('`python3 render.py log.jsonl -o out.html`');
    expect(afterEdits).toContain('`PREVIEW_PORT`');
    // what the turn made the code do is its change log, however it is worded
    expect(afterEdits).not.toContain('colours user messages');
    expect(afterEdits).not.toContain('scroll box');
    // a turn that only read keeps what its report says of the code
    expect(turn(false)).toContain('scroll box');
  });

  it('names a place when it has a path, a file name with an extension or a command in a code span', () => {
    for (const placed of ['kept in `src/sync/`', 'see prisma/schema.prisma', 'esbuild reads build.js', 'run `npm run ci` first', 'X86.txt has no such option', 'uses `vitest run src`']) expect(namesPlace({ title: 'Notes', text: placed }), placed).toBe(true);
    for (const nowhere of [
      'Critical Issues / Conversations not incrementally tracked: Active sessions with new messages are skipped',
      'Key Components / Two-Phase Completion Pattern: Phase 1: `prepareForExit` - Stop monitoring',
      'The app uses Next.js 15, e.g. for routing',
      'a client/server model',
    ])
      expect(namesPlace({ title: 'Notes', text: nowhere }), nowhere).toBe(false);
  });
});

describe('what a command and a report line are', () => {
  it("names a runner's subcommand past its options that take a value (`git -C repo log` is `git log`)", () => {
    expect(family('git -C /e/StableInvoice log --oneline -5')).toBe('git log');
    expect(family('make -C web test')).toBe('make test');
    expect(family('npm --prefix web run build')).toBe('npm run build');
    expect(family('pnpm -C app build')).toBe('pnpm build');
    expect(family('git commit -m wip')).toBe('git commit');
  });

  it("reads a failing question to git (a log of a repository without commits) as an answer, not an error to fix", () => {
    const b = new SessionBuilder()
      .user('scaffold the program')
      .bash('ls -la /e/app/ && echo "---GIT LOG---" && git -C /e/app log --oneline -5', "fatal: your current branch 'main' does not have any commits yet", 128)
      .assistant('The repository is empty because nothing was committed yet, so I will start from scratch.')
      .bash('git -C /e/app log --oneline -5', 'abc1234 first commit', 0);
    expect(errorFixDrafts(viewOf(b.build()))).toEqual([]);
    // a listing of its remotes too (`git remote -v`), where `git remote add` would act
    const listed = new SessionBuilder()
      .user('scaffold the program')
      .bash('ls -la /e/app/ && git -C /e/app log --oneline -20 2>&1 && git -C /e/app remote -v 2>&1', "fatal: your current branch 'main' does not have any commits yet", 128)
      .assistant('The repository is empty because nothing was committed yet, so I will start from scratch.')
      .bash('git -C /e/app log --oneline -20 2>&1 && git -C /e/app remote -v 2>&1', 'abc1234 first commit', 0);
    expect(errorFixDrafts(viewOf(listed.build()))).toEqual([]);
  });

  it('takes a line that only points at a line of a file as no fact, whatever the folder names hold', () => {
    expect(onlyPointsAt('`~/Library/CloudStorage/Dropbox/00- Dissertation/Code and Data/scripts/diagnostic.py:224`')).toBe(true);
    expect(onlyPointsAt('`packages/x/src/image.ts:1`')).toBe(true);
    expect(onlyPointsAt('`src/a.ts:388-390`')).toBe(true);
    expect(onlyPointsAt('`src/a.ts` keeps the cache for one run')).toBe(false);
  });
});

describe('a report line that names a program by the path of its own file', () => {
  it('says only what the file tree says; one that adds what the file does says more', () => {
    expect(namesOnlyItsPath('AeroSpace: `.config/aerospace/aerospace.toml`')).toBe(true);
    expect(namesOnlyItsPath('Kitty config at `.config/kitty/kitty.conf`')).toBe(true);
    expect(namesOnlyItsPath('Tests live in `tests/`')).toBe(true);
    expect(namesOnlyItsPath('Tmux: `.config/tmux/tmux.conf` remaps the prefix to `Ctrl-a`')).toBe(false);
    expect(namesOnlyItsPath('API routes: `src/app/api/`')).toBe(false);
    expect(namesOnlyItsPath('Starship prompt at `.config/starship.toml`')).toBe(false);
  });
});
