/**
 * What the rules take from a session is what it said: a failure's error line (not its data), the
 * error a next run met (not this one), a report's nesting and typography, a wish, a guess put as a
 * question, a check whose output an export left out. Each case a fresh session got wrong.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withAiderLaunches } from '../../src/harvest/aider-launches.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { reportFactDrafts } from '../../src/harvest/extract/rules/report-facts.js';
import { userCorrectionDrafts } from '../../src/harvest/extract/rules/user-corrections.js';
import { openQuestionDrafts } from '../../src/harvest/extract/rules/open-questions.js';
import { errorLine, explain, explanationScore, namesWhatFailed, statesError } from '../../src/harvest/extract/diagnosis.js';
import { parseReport } from '../../src/harvest/extract/report.js';
import { stripMarkdown } from '../../src/harvest/extract/text.js';
import { isEdit, viewOf } from '../../src/harvest/extract/view.js';
import { family } from '../../src/harvest/extract/commands.js';
import { readSessions } from '../../src/sessions/read.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';
import { SessionBuilder, schemaFixSession } from './extract-session.js';

const texts = (drafts: { text: string }[]): string => drafts.map((d) => d.text).join('\n');

describe('the error of a failure', () => {
  it('is none when the command threw its complaints away and printed only its data', () => {
    expect(statesError('11G\t/home\n7.6G\t/usr\n0\t/opt')).toBe(false);
    expect(statesError('npm ERR! could not determine executable to run')).toBe(true);
    const du = new SessionBuilder().user('free some space').bash('du -sh /home /usr 2>/dev/null', '11G\t/home\n7.6G\t/usr', 1).assistant('The home folder is the largest one, because the venv is there.').bash('du -sh ~ 2>/dev/null', '11G\t/home/dev', 0);
    expect(errorFixDrafts(viewOf(du.build()))).toEqual([]);
    // PowerShell's ways to throw them away: `-ErrorAction SilentlyContinue`, `2>$null`
    for (const quiet of ['-ErrorAction SilentlyContinue', '-EA 0', '2>$null']) {
      const ps = new SessionBuilder()
        .user('list the accounts')
        .bash(`Write-Output "WINDOWS_ACCOUNTS"; Get-ChildItem "HKCU:\\Software\\Microsoft\\IdentityCRL" ${quiet}; cmdkey /list | findstr /i corp`, 'WINDOWS_ACCOUNTS\nCREDENTIALS', 1)
        .bash('cmdkey /list', 'Currently stored credentials:\n* NONE *', 0);
      expect(errorFixDrafts(viewOf(ps.build())), quiet).toEqual([]);
    }
  });

  it("reads what a parse error says after the input it echoes and the caret under it (ripgrep's regex error)", () => {
    const rg = 'ERROR: fatal: rg error: rg: regex parse error:\n    (?:^\\[3[0-9]mColor [0-9]+\\[0m$)\n                                ^\nerror: unclosed character class';
    expect(errorLine(rg)).toBe('ERROR: fatal: rg error: rg: regex parse error: unclosed character class');
    // a colon line followed by what it names, with no error line after, still joins the next line
    expect(errorLine('The following paths are ignored by one of your .gitignore files:\ndist\nhint: Use -f if you really want to add them.')).toBe('The following paths are ignored by one of your .gitignore files: dist');
  });

  it("reads npm's own error line (which ends in no word character) and what failed after a build's summary", () => {
    expect(errorLine('luo@mac app % npx tailwindcss upgrade\nsome progress\nnpm ERR! could not determine executable to run')).toBe('npm ERR! could not determine executable to run');
    const next = 'Creating an optimized production build ...\n   Linting and checking validity of types  ..Failed to compile.\n\n./src/components/AnimalList.tsx:78:54\n  Type \'Animal\' is missing the following properties from type \'Animal\': sex, cost\n';
    expect(errorLine(next)).toBe("Type 'Animal' is missing the following properties from type 'Animal': sex, cost");
    // a long object type quoted in the error, wrapped over lines, is shown as '{…}': what the checker says follows it
    const wrappedType = 'Type error: Type \'{ __tag__: "GET"; __param_position__: "second"; __param_type__: { params: { id: string;\n }; }; }\' does not satisfy the constraint \'ParamCheck<RouteContext>\'.\n';
    expect(errorLine(wrappedType)).toBe("Type error: Type '{…}' does not satisfy the constraint 'ParamCheck<RouteContext>'.");
    expect(errorLine("Type error: Type '{ id: string; }' is missing the following properties")).toBe("Type error: Type '{ id: string; }' is missing the following properties");
  });

  it("is no failure of the command when the terminal pasted it with its bracketed-paste marks", () => {
    const b = new SessionBuilder().user('build it').bash('pnpm build', 'bash: [200~pnpm: command not found', 127).assistant('The paste went wrong because of the terminal.').tool('Edit', { file_path: '/home/dev/demo/src/lib/prisma.ts', old_string: 'a', new_string: 'b' }, 'ok').bash('pnpm build', 'Compiled successfully', 0);
    expect(errorFixDrafts(viewOf(b.build()))).toEqual([]);
  });
});

describe('a failure and what the agent said after it', () => {
  it('takes no words said after the same command failed again with another error', () => {
    const b = new SessionBuilder()
      .user('fix the build')
      .bash('pnpm build', "Type error: Parameter 'note' implicitly has an 'any' type.", 1)
      .tool('Edit', { file_path: '/home/dev/demo/src/app/api/route.ts', old_string: 'a', new_string: 'b' }, 'ok')
      .bash('pnpm build', "Type error: Type 'string' is not assignable to type 'number' in SearchParams.", 1)
      .assistant('The issue is that `SearchParams.page` in `types.ts` is a number, because URL params always arrive as strings.')
      .bash('pnpm build', 'Compiled successfully', 0);
    const text = texts(errorFixDrafts(viewOf(b.build())));
    expect(text).not.toMatch(/Parameter 'note'[^\n]*Cause/);
    // and claims no fix for it: the success came after another error
    expect(text).not.toMatch(/Parameter 'note'[^\n]*succeeded/);
    expect(text).toMatch(/not assignable[^\n]*Cause: `SearchParams.page`/);
  });

  it('takes no cause that names nothing the failure shows (the agent went on to another thing)', () => {
    const venv = 'The virtual environment was not created successfully because ensurepip is not\navailable.  On Debian/Ubuntu systems, you need to install the python3-venv\npackage.\n\n    apt install python3.11-venv\n\nFailing command: /home/dev/music-agent/venv/bin/python3';
    const b = new SessionBuilder()
      .user('how do I get it to work?')
      .bash('rm -rf music-agent/venv && python3 -m venv music-agent/venv', venv, 1)
      .bash('pip3 --version', 'pip 26.0.1 from /home/dev/.local/lib/python3.11/site-packages/pip (python 3.11)', 0)
      .assistant('For YouTube Music, the user needs to follow the `ytmusicapi` documentation to set up authentication.');
    expect(texts(errorFixDrafts(viewOf(b.build())))).not.toContain('YouTube');
    expect(namesWhatFailed('For YouTube Music, the user needs to follow the `ytmusicapi` documentation.', venv, 'python3 -m venv music-agent/venv')).toBe(false);
    // a cause naming the ignored folder the output names, with a slash at its end
    expect(namesWhatFailed('The CSS file is in `priv/static/assets/`, which is gitignored.', 'The following paths are ignored by one of your .gitignore files:\npriv/static/assets', 'git add priv/static/assets/app.css')).toBe(true);
  });

  it("takes no cause in the agent's own work or an option it weighs, with a typographic apostrophe too", () => {
    const err = new Set(['extension', 'zip', 'found']);
    expect(explanationScore('I’m updating `scripts/release/build-dmg.sh` so when the extension ZIP is missing, it builds it.', err)).toBe(-Infinity);
    expect(explanationScore("I'm updating `scripts/release/build-dmg.sh` so when the extension ZIP is missing, it builds it.", err)).toBe(-Infinity);
    expect(explanationScore('I could consider including the extension as a local file, though that doesn’t seem optimal.', err)).toBe(-Infinity);
    expect(explanationScore('`release:dmg` expects the extension ZIP to already exist, because the script does not build it.', err)).toBeGreaterThan(0);
    // what the agent could not do, and the error read back with where it happened
    const git = new Set(['fatal', 'git', 'repository', 'parent', 'directories', '.git']);
    expect(explanationScore('Given this, I am unable to proceed with the requested Git operations because I cannot locate the Git repository.', git)).toBe(-Infinity);
    expect(explanationScore('This means the current directory is not a Git repository, or the `.git` directory is not accessible from here.', git)).toBe(-Infinity);
  });

  it('writes nothing of a failure whose message the session then edited in the code that prints it', () => {
    const session = (edit: { old_string: string; new_string: string }) =>
      new SessionBuilder()
        .user('make the dmg')
        .bash('npm run release:dmg', 'Extension zip not found: dist/release/app.zip', 1)
        .assistant('`release:dmg` expects the extension ZIP to already exist, because the script does not build it.')
        .tool('Edit', { file_path: '/home/dev/app/scripts/build-dmg.sh', ...edit }, 'ok')
        .build();
    const changed = session({ old_string: '  echo "Extension zip not found: $ZIP"\n  exit 1', new_string: '  npm run release:extension' });
    expect(errorFixDrafts(viewOf(changed))).toEqual([]);
    // an edit elsewhere leaves the failure and its cause as they were
    const other = session({ old_string: 'VERSION=1', new_string: 'VERSION=2' });
    expect(texts(errorFixDrafts(viewOf(other)))).toContain('Cause: `release:dmg` expects the extension ZIP to already exist');
  });

  it('tells the fix in the order it was done', () => {
    const b = schemaFixSession();
    expect(texts(errorFixDrafts(viewOf(b.build())))).toContain('Fix: edited `schema.prisma` (`@id` → `@id @default(autoincrement())`), `pnpm dlx prisma generate`, then `pnpm build` succeeded.');
  });

  it("drops a name the session's own new code left undefined: its slip, fixed or not", () => {
    const session = (wrote: boolean) => {
      const b = new SessionBuilder().user('add the front-back demo');
      if (wrote) b.tool('Write', { file_path: '/home/dev/demo/demo_frontback.py', content: 'x' }, 'ok');
      return b.bash('python3 -m flake8 --select=F821 .', "demo_frontback.py:15:13: F821 undefined name 'fit_slope'", 1).assistant('Since `fit_slope` is defined in `integrate.py`, you need to import it into `demo_frontback.py`.').build();
    };
    expect(errorFixDrafts(viewOf(session(true)))).toEqual([]);
    expect(texts(errorFixDrafts(viewOf(session(false))))).toContain('Cause: Since `fit_slope` is defined in `integrate.py`');
  });

  it('drops code that does not parse in a file the session had just written: a slip of that edit', () => {
    const session = (wrote: boolean) => {
      const b = new SessionBuilder().user('wire up the sniffer');
      if (wrote) b.tool('Write', { file_path: '/home/dev/beta/wifi_sniffer.py', content: 'x' }, 'ok');
      return b
        .bash('python3 -m flake8 --select=E9 wifi_sniffer.py', 'wifi_sniffer.py:114:71: E999 SyntaxError: invalid syntax', 1)
        .assistant('The walrus fails because an assignment expression is not allowed as a keyword argument value.')
        .build();
    };
    expect(errorFixDrafts(viewOf(session(true)))).toEqual([]);
    expect(texts(errorFixDrafts(viewOf(session(false))))).toContain('fails with');
  });

  it('reads no cause in the error said again, a to-do item, the agent triaging its own code, or rules read back', () => {
    const err = "demo.py:15:13: F821 undefined name 'fit_slope'";
    expect(explain(new SessionBuilder().assistant('The error indicates that the `fit_slope` function is not defined in `demo.py`.').build().events, err)).toBeUndefined();
    const hook = 'Pre-commit validation failed: [DIALYZER] lib/app/live.ex:25:guard_fail';
    for (const said of [
      '[x] Create the missing `lib/app/live.ex` guard, because the dialyzer check needs it.',
      'The only one from our code is `lib/app/live.ex:25:guard_fail`, which the dialyzer flags.',
      'The instructions also say "NEVER skip hooks (--no-verify) unless the user explicitly requests it", because hooks guard the live.ex code.',
    ]) expect(explain(new SessionBuilder().assistant(said).build().events, hook), said).toBeUndefined();
    expect(explain(new SessionBuilder().assistant('The guard in `lib/app/live.ex` can never match, because `load/1` returns a tuple, not a map.').build().events, hook)?.text).toContain('returns a tuple');
    // a sentence that says the problem remains is no half of the cause
    const mismatch = "Type 'Animal' is missing the following properties from type 'Animal': sex, cost";
    const said = explain(new SessionBuilder().assistant("There's still a type mismatch. The issue is that the `AnimalList` component has its own `Animal` interface that differs from the store's.").build().events, mismatch)?.text;
    expect(said).toBe("The issue is that the `AnimalList` component has its own `Animal` interface that differs from the store's.");
  });
});

describe('a report as it is laid out', () => {
  it('nests a bold list item under the bold heading of its list and under the item it is in', () => {
    const text = [
      '1. The main render pipeline in `GraphPage.tsx`',
      '    - A useMemo turns the tree into nodes',
      '2.  Why you get thousands of logs:',
      '    1.  **Streaming updates**  ',
      '        - Each chunk calls updateNodeAnswerChunk, which changes the tree',
      '**Recommendations to tame the noise:**',
      '1.  **Avoid Strict Mode double-invoke (dev only)**  ',
      '    - If the duplicate calls are too confusing, temporarily disable React.StrictMode in main.tsx',
    ].join('\n');
    const sections = parseReport(text);
    expect(sections.map((s) => s.headings)).toEqual([
      ['The main render pipeline in `GraphPage.tsx`'],
      ['Why you get thousands of logs', 'Streaming updates'],
      ['Recommendations to tame the noise', 'Avoid Strict Mode double-invoke (dev only)'],
    ]);
    // a list item nested three deep is still read without its marker
    expect(sections[1]!.lines[0]!.text).toBe('Each chunk calls updateNodeAnswerChunk, which changes the tree');
    expect(stripMarkdown('        - As each chunk streams in')).toBe('As each chunk streams in');
  });

  it("reads a plain line right above a list as its heading, as Codex writes its summaries' headings", () => {
    const text = ['Tightened up the diff view.', '', 'What changed', '- Apply Patch blocks are collapsible with a header toggle.', '', 'How to check', '- Regenerate a page with patches (e.g., `python3 render_jsonl.py plan.jsonl -o plan.html`).', '', 'The diff is wrapped', 'in one span.'].join('\n');
    const sections = parseReport(text);
    expect(sections.map((s) => s.headings)).toEqual([[], ['What changed'], ['How to check']]);
    // (a sentence, or a line with no list under it, heads nothing)
    expect(sections[2]!.lines.map((l) => l.text)).toEqual(['Regenerate a page with patches (e.g., `python3 render_jsonl.py plan.jsonl -o plan.html`).', 'The diff is wrapped in one span.']);
  });

  const seen = 'convertTreeToFlow layoutElements updateNodeAnswerChunk debouncedSetNodeDims setNodeDims main.tsx GraphPage.tsx build-and-install.sh make build /usr/local/bin ~/.local/bin dagre';
  const closing = (report: string, edit = false) => {
    const b = new SessionBuilder().user('why so many logs?').bash('cat app/src/GraphPage.tsx', seen).bash('cat app/src/main.tsx', seen);
    if (edit) b.tool('write', { path: '/home/dev/demo/go/build-and-install.sh', diff: '@@ -1,1 +1,3 @@\n+ #!/bin/bash' }, 'ok');
    return texts(reportFactDrafts(viewOf(b.assistant(report).user('thanks').build())));
  };
  // (a closing report whose lines the session's tool output confirms)
  const convex = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
  const howItRuns = '\n1. The Convex backend runs with `npx convex dev` and writes `NEXT_PUBLIC_CONVEX_URL` to `.env.local`\n2. The Next.js app runs with `npm run dev` at http://localhost:3000 and reads `.env.local`\n';
  const notes = '\n- The root route `/` has no page yet, so it answers 404 until `app/page.tsx` exists\n- `convex.json` pins the deployment used by `npx convex dev` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads `NEXT_PUBLIC_CONVEX_URL` at start';
  const read = (text: string) =>
    texts(reportFactDrafts(viewOf(new SessionBuilder().user('how does the app start?').bash('cat package.json', convex).bash('cat convex.json', convex).bash('ls app', convex).assistant(text).user('thanks').build())));

  it("reads a typographic apostrophe as the plain one (\"I’ve installed …\" reports the agent's change)", () => {
    const report = (lead: string) => `${lead}\n\n## How it runs${howItRuns}\n## Notes${notes}`;
    expect(read(report("I've looked through the repository and the config files."))).toContain('The Convex backend runs with');
    expect(read(report("I've installed the dependencies and set up both servers."))).not.toContain('The Convex backend runs with');
    expect(read(report('I’ve installed the dependencies and set up both servers.'))).not.toContain('The Convex backend runs with');
  });

  it('takes a heading that ends in what was done ("Documentation Updated") and "X now …" lines for this turn\'s change', () => {
    expect(read(`## How it runs${howItRuns}\n## Notes${notes}`)).toContain('The Convex backend runs with');
    expect(read(`## ✅ **Documentation Updated:**${howItRuns}\n## Notes${notes}`)).not.toContain('The Convex backend runs with');
    expect(read(`## How it runs${howItRuns}\n## Notes${notes}\n- The project now builds with \`npm run build\` and serves http://localhost:3000 from \`.env.local\``)).not.toContain('now builds');
  });

  it('reads no fact in a reply that ends by asking the user to approve its plan', () => {
    expect(read(`## How it runs${howItRuns}\n## Background${notes}\n\nI can set it up this way.`)).toContain('`convex.json` pins the deployment');
    expect(read(`## How it runs${howItRuns}\n## Background${notes}\n\nSo let's do this: I'll set it up this way. Sound good?`)).toBe('');
    expect(read(`## How it runs${howItRuns}\n## Background${notes}\n\nShall I proceed with the setup?`)).toBe('');
    // or what the user meant, whatever follows the question in that paragraph
    expect(read(`## How it runs${howItRuns}\n## Background${notes}\n\nCould you clarify what you wanted me to set up? I only see these two.`)).toBe('');
  });

  it("keeps from the handover of what the turn made only how to use it with words on it, not a bare command", () => {
    const runs = `${howItRuns}3. \`npx convex dev --once\`; or \`npx convex deploy\`\n`;
    const report = (edit: boolean) => {
      const b = new SessionBuilder().user('how does the app start?').bash('cat package.json', convex).bash('cat convex.json', convex).bash('ls app', convex);
      if (edit) b.tool('Edit', { file_path: '/home/dev/demo/app/layout.tsx', old_string: 'a', new_string: 'b' }, 'ok');
      return texts(reportFactDrafts(viewOf(b.assistant(`## How it runs${runs}\n## Notes${notes}`).user('thanks').build())));
    };
    // after an edit in the turn the report hands over what it made: its how-to lines stay, bare commands go
    expect(report(true)).toContain('The Next.js app runs with `npm run dev`');
    expect(report(true)).not.toContain('npx convex deploy');
    // a report of what was there keeps them
    expect(report(false)).toContain('npx convex deploy');
  });

  it('reads no fact under a diagnosis heading that names its subject by a pronoun ("Why it happens")', () => {
    expect(read(`## How it runs${howItRuns}\n## Background${notes}`)).toContain('`convex.json` pins the deployment');
    expect(read(`## How it runs${howItRuns}\n## Why it happens${notes}`)).not.toContain('`convex.json` pins the deployment');
  });

  it('drops a diagnosis ("Why …") of a problem the session then changed the code for', () => {
    const why = '## Why you get thousands of logs\n\n- Every streamed chunk calls `updateNodeAnswerChunk` in `GraphPage.tsx`, which re-runs `convertTreeToFlow` and `layoutElements` with dagre for each chunk\n- `debouncedSetNodeDims` exists in `GraphPage.tsx` but the node measure calls the immediate setter, so each size change re-runs the layout\n- `main.tsx` renders the app in StrictMode, so in development each `layoutElements` call with dagre runs twice\n- After an answer, two questions stream in the same way through `updateNodeAnswerChunk`, each a new round of `convertTreeToFlow` and layout runs\n';
    const session = (fixed: boolean) => {
      const b = new SessionBuilder().user('why so many logs?').bash('cat app/src/GraphPage.tsx', seen).bash('cat app/src/main.tsx', seen).bash('ls app/src', seen).assistant(why).user('ok, fix it');
      if (fixed) b.tool('Edit', { file_path: '/home/dev/demo/app/src/GraphPage.tsx', old_string: 'setNodeDims(dims)', new_string: 'debouncedSetNodeDims(dims)' }, 'ok');
      return texts(reportFactDrafts(viewOf(b.assistant('Done.').build())));
    };
    expect(session(false)).toContain('updateNodeAnswerChunk');
    expect(session(true)).not.toContain('updateNodeAnswerChunk');
  });

  it("reads Cursor's `write` tool as an edit: a report opening on the file it wrote lists what went in", () => {
    const step = viewOf(new SessionBuilder().tool('write', { path: '/r/go/build-and-install.sh', diff: '@@ -1,1 +1,3 @@\n+ x' }, 'ok').build()).steps[0]!;
    expect(isEdit(step)).toBe(true);
    const report = 'Created a wrapper shell script at `go/build-and-install.sh`. It:\n\n1. Checks for existing binaries in:\n   - `./build/` (the build directory)\n   - `~/.local/bin/` (user install location)\n2. Runs `make build` after removal, then installs to `/usr/local/bin`.\n';
    expect(closing(report, true)).toBe('');
  });
});

describe("a user's wish and the agent's guess", () => {
  it('reads a wish for a feature as a request, not a correction', () => {
    const drafts = (message: string) =>
      userCorrectionDrafts(viewOf(new SessionBuilder().user('crawl the docs').assistant('I combined the pages in `output.md`.').user(message).assistant("You're right. I will change `markdown.ts` so links point to headers.").build()));
    expect(drafts('what about links to pages we crawled? It sould be good if any link to a crawled file instead linked to the ## header for that page.')).toEqual([]);
    expect(drafts("It would be nice if the links pointed to the headers instead of the URLs in `output.md`.")).toEqual([]);
    expect(drafts("No, links don't go to the URLs: `output.md` is one file, so they must point to its `##` headers instead.")).toHaveLength(1);
  });

  it("takes no question the writer hedges with its own guess (a model's reasoning left in its reply)", () => {
    const last = (text: string) => openQuestionDrafts(viewOf(new SessionBuilder().user('the logo is invisible').assistant(text).build()));
    expect(last('We need to fix the invisible SVG in `Contact.jsx`. The SVG viewBox is 0 0 2000 2000, but no width/height set in `Contact.jsx`, so maybe size zero? So fix by adding explicit width.')).toEqual([]);
    expect(last('Actually without width/height in `Contact.jsx`, it may default to 300x150 pixels?')).toEqual([]);
    expect(last('Which of the two `Contact.jsx` variants does the deployed site in `vercel.json` really serve?')).toHaveLength(1);
  });
});

describe('a check seen to pass', () => {
  it("is not one whose output an export left out (only the shell's prompt)", () => {
    const session = (output: string) => {
      const b = new SessionBuilder().user('fix the types').tool('Edit', { file_path: '/home/dev/demo/src/fabric.d.ts', old_string: 'a', new_string: 'b' }, 'ok');
      b.bash('npm run type-check', output).bash('npm run build', output);
      return extractSession(b.build()).filter((c) => c.title.startsWith('Verify changes'));
    };
    expect(session('PS E:\\Dev\\app> \n')).toEqual([]);
    expect(session('> app@1.0.0 build\n> vue-tsc && vite build\n✓ built in 2.1s')).toHaveLength(1);
  });
});

describe("aider's own notices, a correction's wording, wrappers and a report that announces its work done", () => {
  const aiderItems = async (history: string) => {
    const file = put(tempDir(), '.aider.chat.history.md', history);
    const { sessions } = await readSessions([file]);
    return sessions.flatMap((s) => extractSession(s));
  };
  const launch = '\n# aider chat started at 2025-03-02 10:00:00\n\n> aider --sonnet  \n> Aider v0.79.1  \n> Main model: claude-3-7-sonnet with diff edit format  \n> Git repo: .git with 12 files  \n\n';
  const unableToCommit = "> Unable to commit: Cmd('git') failed due to: exit code(128)  \n> cmdline: git commit -m fix: bank switching --no-verify -- /Users/dev/bare/src/bare.cpp  \n> stderr: 'error: gpg failed to sign the data  \n> fatal: failed to write commit object'  \n";

  it("reads aider's failed auto-commit as its own notice, not as output of the lint run still open", async () => {
    const lint = '> # Fix any errors below, if possible.  \n>  \n> ## See relevant lines below marked with █.  \n>  \n> lib/cpu.cpp:  \n> 982█    uint16_t src = (this->*i.addr)();  \n';
    const items = await aiderItems(`${launch}#### fix the emulator bugs  \n\nsrc/bare.cpp\n\`\`\`\n<<<<<<< SEARCH\nint a;\n=======\nint a = 0;\n>>>>>>> REPLACE\n\`\`\`\n\n> Applied edit to src/bare.cpp  \n${unableToCommit}${lint}${unableToCommit}`);
    expect(items.filter((c) => /`lint`/.test(c.text))).toEqual([]);
    const commit = items.find((c) => c.title.includes('uncommitted'));
    expect(commit?.text).toContain("git's error (`error: gpg failed to sign the data`) and goes on");
    expect(commit?.scope).toBe('agent');
    // where git's first line ends in a colon, the signer's own error follows it (once, without its time)
    const signer = "> Unable to commit: Cmd('git') failed due to: exit code(128)  \n> cmdline: git commit -m fix --no-verify -- /w/app/a.tsx  \n> stderr: 'error: gpg failed to sign the data:  \n> [GNUPG:] BEGIN_SIGNING  \n> 2024/12/12 21:57:46 error signing commit: error signing commit: error making request: 403 | Author is invalid, error making request: 403 | Author is invalid  \n>  \n> fatal: failed to write commit object'  \n";
    const signed = (await aiderItems(`${launch}#### fix it  \n\nsrc/bare.cpp\n\`\`\`\n<<<<<<< SEARCH\nint a;\n=======\nint a = 0;\n>>>>>>> REPLACE\n\`\`\`\n\n> Applied edit to src/bare.cpp  \n${signer}`)).find((c) => c.title.includes('uncommitted'));
    expect(signed?.text).toContain("git's error (`error: gpg failed to sign the data: … error making request: 403 | Author is invalid`) and goes on");
  });

  it("says what aider found when a failed block's change is already in the file", () => {
    const output = "The LLM did not conform to the edit format.\n# 2 SEARCH/REPLACE blocks failed to match!\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/bare.cpp\n<<<<<<< SEARCH\nint a;\n=======\nint a = 0;\n>>>>>>> REPLACE\n\nAre you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already in src/bare.cpp!\n\nThe SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc\n\n# The other 2 SEARCH/REPLACE blocks were applied successfully.\nDon't re-send them.\nJust reply with fixed versions of the blocks above that failed to match.";
    const session = new SessionBuilder({ agent: 'aider', format: 'aider' }).user('fix the bugs').tool('edit', { path: 'src/bare.cpp', search: 'int a;', replace: 'int a = 0;' }, output, { isError: true }).build();
    const text = texts(extractSession(session).filter((c) => c.category === 'tool-quirk'));
    expect(text).toContain('adds `The REPLACE lines are already in src/bare.cpp!`: its SEARCH text was written against the file before earlier edits applied');
    expect(text).toContain('resend only the failed ones');
  });

  it("reads a correction without aider's chat-mode command or a go-ahead, and no redirection to the right place as one", () => {
    const drafts = (message: string) =>
      texts(userCorrectionDrafts(viewOf(new SessionBuilder({ agent: 'aider' }).user('plan the export').assistant('I will use `openssl_private_key` in `export.rs`.').user(message).assistant("You're right. I will change `export.rs`.").build())));
    expect(drafts("/code Use 'get_or_derive' instead of 'openssl_private_key' to obtain the asymmetric key. You may proceed with the implementation.")).toBe(
      "User correction: Use 'get_or_derive' instead of 'openssl_private_key' to obtain the asymmetric key.",
    );
    expect(drafts("You are looking at the wronge part of the codebase. Just take a look at the 'export_encrypted' function in 'core/src/openssl/export.rs' and propose a plan.")).toBe('');
  });

  it("names a command run through sudo by what it runs, and leaves a heredoc-fed script out of a recurring sequence", () => {
    expect(family('sudo -u www-data npm run build')).toBe('npm run build');
    expect(family('sudo -E -u www-data npm run build')).toBe('npm run build');
    expect(family('env -u DEBUG node server.js')).toBe(family('node server.js'));
    const b = new SessionBuilder().user('deploy');
    for (let i = 0; i < 2; i++) {
      b.bash("python3 - <<'EOF'\nopen('x').write('y')\nEOF", 'ok').bash('npx tsc --noEmit', '').bash('chown -R www-data:www-data src', '');
      b.bash('sudo -u www-data npm run build', 'built').bash('systemctl restart web', '').bash('git status', 'clean');
    }
    const seq = extractSession(b.build()).find((c) => c.title.startsWith('Recurring sequence'));
    expect(seq?.text).not.toContain('python3');
    expect(seq?.title).not.toContain('-u www-data');
  });

  it('reads a closing report that opens by saying the work is in place as progress', () => {
    const howItRuns = '\n1. The Convex backend runs with `npx convex dev` and writes `NEXT_PUBLIC_CONVEX_URL` to `.env.local`\n2. The Next.js app runs with `npm run dev` at http://localhost:3000 and reads `.env.local`\n';
    const notes = '\n- The root route `/` has no page yet, so it answers 404 until `app/page.tsx` exists\n- `convex.json` pins the deployment used by `npx convex dev` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads `NEXT_PUBLIC_CONVEX_URL` at start';
    const convex = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
    const read = (lead: string) =>
      texts(reportFactDrafts(viewOf(new SessionBuilder().user('set it up').bash('cat package.json', convex).bash('cat convex.json', convex).bash('ls app', convex).assistant(`${lead}\n\n## How it runs${howItRuns}\n## Notes${notes}`).user('thanks').build())));
    expect(read('I looked through the repository and the config files.')).toContain('The Convex backend runs with');
    expect(read('The Convex backend and the Next.js app are in place.')).toBe('');
    // (said without a verb too)
    expect(read("Implementation complete. Here's a summary:")).toBe('');
    expect(read("Setup complete: here's a summary.")).toBe('');
  });
});

describe("aider's version and echo, and pasted pages", () => {
  const items = async (history: string) => {
    const file = put(tempDir(), '.aider.chat.history.md', history);
    const { sessions } = await readSessions([file]);
    return sessions.flatMap((s) => extractSession(s));
  };
  const launch = (version: string) => `\n# aider chat started at 2023-10-02 16:54:00\n\n> aider  \n> Aider ${version}  \n> Model: gpt-4 with diff edit format  \n> Git repo: .git with 8 files  \n\n`;

  it("says nothing of a command today's aider has that an older version answered as invalid", async () => {
    const found = await items(`${launch('v0.14.1')}#### /quit  \n> Invalid command: /quit  \n\n#### /grep foo  \n> Invalid command: /grep  \n\n#### !grep -rn foo .  \n`);
    const text = found.filter((c) => c.rule === 'aider-notice').map((c) => c.text).join('\n');
    expect(text).not.toContain('/quit');
    expect(text).toContain('Aider has no `/grep` in-chat command');
    expect((await items(`${launch('v0.14.1')}#### /quit  \n> Invalid command: /quit  \n`)).filter((c) => c.rule === 'aider-notice')).toEqual([]);
  });

  it("takes no reply line an older aider echoes after its format notice for aider's reason", async () => {
    const echoed = await items(`${launch('v0.81.0')}#### add a computer player  \n\nTo make a simple computer agent as the other player, I propose the following changes to \`tictactoe.js\`:\n\n> The LLM did not conform to the edit format.  \n> https://aider.chat/docs/troubleshooting/edit-errors.html  \n> To make a simple computer agent as the other player, I propose the following changes to \`tictactoe.js\`:\n\n`);
    expect(echoed.filter((c) => c.category === 'tool-quirk' && /conform/.test(c.text))).toEqual([]);
    const reason = await items(`${launch('v0.81.0')}#### add a computer player  \n\nHere it is.\n\n> The LLM did not conform to the edit format.  \n> https://aider.chat/docs/troubleshooting/edit-errors.html  \n> No filename provided before \`\`\` in file listing  \n\n`);
    expect(reason.map((c) => c.text).join('\n')).toContain('No filename provided before');
  });

  it('says that aider started in a subfolder names chat files from the repository root, without the machine\'s paths', async () => {
    const banner = (cur: string) =>
      `\n# aider chat started at 2025-05-01 10:00:00\n\n> aider --model ollama_chat/qwen2.5-coder:14b  \n> Aider v0.82.0  \n> Git repo: ../.git with 228 files  \n> Note: in-chat filenames are always relative to the git working dir, not the current working dir.  \n> Cur working dir: ${cur}  \n> Git working dir: /home/dev/shop  \n\n#### add a driver login  \n`;
    const quirk = (cur: string) => items(banner(cur)).then((found) => found.filter((c) => c.title.includes('subfolder')));
    const [item] = await quirk('/home/dev/shop/backend');
    // (which subfolder is this launch's: the lesson is aider's, as far as its note says it)
    expect(item?.text).toMatch(/a file of that folder is named with the folder in front, and a path without the folder names a file at the root\.`?$/);
    expect(item?.text).not.toContain('backend');
    expect(item?.text).not.toContain('/home/dev');
    expect(await quirk('/home/dev/shop')).toEqual([]);
    // with no repository aider names files from the folder it runs in, whatever its note says
    expect((await items(banner('/home/dev/shop/backend').replace('Git repo: ../.git with 228 files', 'Git repo: none'))).filter((c) => c.title.includes('subfolder'))).toEqual([]);
  });

  it('names the tracked files gone from disk and the git command that stops aider warning, not a submodule', async () => {
    const warned = (names: string[], gitDir = '> Git working dir: C:\\Users\\dev\\shop  \n') =>
      items(`${launch('v0.84.0')}${gitDir}> Repo-map: using 4096 tokens, auto refresh  \n${names.map((n) => `> Repo-map can't include C:\\Users\\dev\\shop\\${n}  \n> Has it been deleted from the file system but not from git?  \n`).join('')}\n#### add a cart  \n`).then((found) => found.filter((c) => c.signature === 'aider repo-map tracked file deleted'));
    const [item] = await warned(['src\\string.join.ts', 'src\\testing.ts', 'lib\\forge-std']);
    expect(item).toMatchObject({ scope: 'repo', title: 'git tracks src/string.join.ts, which is gone from disk' });
    expect(item?.text).toContain("`Repo-map can't include <file>`");
    expect(item?.text).toContain('Git tracks `src/string.join.ts`, `src/testing.ts`, which are no file on disk, so aider');
    expect(item?.text).toContain('commit that (`git rm --cached src/string.join.ts`), else restore it');
    // a submodule folder draws the same warning (and is no file to remove); the machine's paths stay out
    expect(item?.text).toContain('a submodule folder (here `lib/forge-std`) draws the same harmless warning: list it in `.aiderignore` instead.');
    expect(item?.text).not.toContain('Users');
    expect(await warned(['lib\\forge-std'])).toEqual([]);
    // with no way to tell where the files are in the repository, the item would only repeat aider's hint
    expect(await warned(['src\\string.join.ts'], '')).toEqual([]);
    // a file the user names at another path was moved, and the move is not committed yet: work in progress
    const moved = await items(`${launch('v0.84.0')}> Git working dir: C:\\Users\\dev\\shop  \n> Repo-map can't include C:\\Users\\dev\\shop\\scenes\\road\\road.tscn  \n> Has it been deleted from the file system but not from git?  \n\n#### I have a road scene at scenes/roadChunks/road.tscn.  \n`);
    expect(moved.filter((c) => c.signature === 'aider repo-map tracked file deleted')).toEqual([]);
  });

  it("takes the repository's root from the history's folder only where the warned path names that folder once, in any case", async () => {
    const at = (folder: string, warned: string) => {
      const dir = join(tempDir(), folder);
      mkdirSync(dir);
      const file = put(dir, '.aider.chat.history.md', `${launch('v0.86.1')}> Repo-map can't include ${warned}  \n> Has it been deleted from the file system but not from git?  \n\n#### add a cart  \n`);
      return readSessions([file]).then(({ sessions }) => sessions.flatMap((s) => extractSession(s)).filter((c) => c.signature === 'aider repo-map tracked file deleted'));
    };
    const [once] = await at('shop', '/home/dev/sites/shop/components/Cart.tsx');
    expect(once!.title).toBe('git tracks components/Cart.tsx, which is gone from disk');
    // `ProBrandwacht/…/probrandwacht`: which of the two is the checkout the history cannot tell
    expect(await at('ProBrandwacht', '/home/dev/WEBSITE/ProBrandwacht/React_Vite/probrandwacht/components/Cart.tsx')).toEqual([]);
  });

  it("says that tracked files of a generated folder (an IDE's .vs/) are to be untracked, as this repository's", async () => {
    const warned = (names: string[]) =>
      items(`${launch('v0.84.0')}> Repo-map: using 4096 tokens, auto refresh  \n${names.map((n) => `> Repo-map can't include C:\\Users\\dev\\shop\\${n}  \n> Has it been deleted from the file system but not from git?  \n`).join('')}\n#### add a cart  \n`).then((found) => found.filter((c) => c.signature === 'aider repo-map tracked file deleted'));
    const [item] = await warned(['.vs\\shop\\FileContentIndex\\24c26c2c.vsidx', '.vs\\shop\\FileContentIndex\\b3afc096.vsidx', '.vs\\ProjectEvaluation\\shop.metadata.v9.bin', '.vs\\ProjectEvaluation\\shop.projects.v9.bin', 'src\\old.ts']);
    expect(item).toMatchObject({ scope: 'repo', title: 'git tracks generated .vs/ files, which aider warns about' });
    expect(item?.text).toContain('Here they are files of a `.vs/` folder, generated files git should not track: untrack it (`git rm -r --cached <path>/.vs`), add it to `.gitignore` and commit.');
    // two files of it are no pattern (and without the repository's root, no path to name)
    expect(await warned(['.vs\\shop\\a.vsidx', '.vs\\shop\\b.vsidx', 'src\\old.ts'])).toEqual([]);
    // a folder of installed packages is never committed on purpose: one warned path in it says so
    const [venv] = await warned(['backend\\venv\\lib']);
    expect(venv).toMatchObject({ scope: 'repo', title: 'git tracks generated venv/ files, which aider warns about' });
    // with the repository's root in aider's banner, the item names the path and the folder to untrack
    const rooted = (await items(`${launch('v0.86.2')}> Git working dir: /mnt/data/shop  \n> Repo-map: using 4096 tokens, auto refresh  \n> Repo-map can't include /mnt/data/shop/tools/venv/lib  \n> Has it been deleted from the file system but not from git?  \n\n#### add a cart  \n`)).filter((c) => c.signature === 'aider repo-map tracked file deleted');
    expect(rooted[0]).toMatchObject({ title: 'git tracks generated tools/venv/ files, which aider warns about' });
    expect(rooted[0]!.text).toContain('Here it is `tools/venv/lib`, in a `tools/venv/` folder, generated files git should not track: untrack it (`git rm -r --cached tools/venv`)');
    // a launch at the root prints no root: another launch of the same history gives it
    const warnedAt = (banner: string) => `${launch('v0.86.2')}${banner}> Repo-map: using 4096 tokens, auto refresh  \n> Repo-map can't include /mnt/data/shop/tools/venv/lib  \n> Has it been deleted from the file system but not from git?  \n\n#### add a cart  \n`;
    const file = put(tempDir(), '.aider.chat.history.md', warnedAt('') + warnedAt('> Cur working dir: /mnt/data/shop/ai  \n> Git working dir: /mnt/data/shop  \n'));
    const launches = withAiderLaunches((await readSessions([file])).sessions);
    const first = extractSession(launches[0]!).filter((c) => c.signature === 'aider repo-map tracked file deleted');
    expect(first[0]!.text).toContain('(`git rm -r --cached tools/venv`)');
    // with no root printed at all, the history's own folder is the root: aider writes it there
    const inFolder = async (folder: string) => {
      const dir = join(tempDir(), folder);
      mkdirSync(dir);
      const [session] = (await readSessions([put(dir, '.aider.chat.history.md', warnedAt(''))])).sessions;
      return extractSession(session!).filter((c) => c.signature === 'aider repo-map tracked file deleted')[0]!.text;
    };
    expect(await inFolder('shop')).toContain('(`git rm -r --cached tools/venv`)');
    expect(await inFolder('elsewhere')).toContain('(`git rm -r --cached <path>/venv`)');
    // a later launch that sent a message (its repo map built), even one the provider then
    // refused, and gave no such warning: the folder is no longer tracked as it was
    const later = (outcome: string) => `${launch('v0.86.2')}> Git repo: .git with 7 files  \n> Repo-map: using 2048 tokens, auto refresh  \n\n#### add a cart  \n${outcome}`;
    const lastLaunch = async (outcome: string) => {
      const warned = warnedAt('> Git working dir: /mnt/data/shop  \n');
      const file = put(tempDir(), '.aider.chat.history.md', warned + warned + later(outcome));
      const all = withAiderLaunches((await readSessions([file])).sessions);
      return extractSession(all[0]!).filter((c) => c.signature === 'aider repo-map tracked file deleted');
    };
    expect(await lastLaunch("> litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'You exceeded your current quota'}}  \n")).toEqual([]);
    // (a last launch that sent nothing built no repo map: it says nothing either way)
    expect(await lastLaunch('')).toHaveLength(1);
  });

  it('reads no correction in an error report the user pasted whole, however much it says "must"', () => {
    const drafts = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('show the plugins').assistant('I added the modal in `components/PluginModal.tsx`.').user(message).assistant("You're right. Moving the directive to the top.").build()));
    const pasted = '## Error Type\nBuild Error\n\n## Error Message\n  × The "use client" directive must be placed before other expressions. Move it to the top of the file to resolve this issue.\n\n## Build Output\n./components/PluginModal.tsx';
    expect(drafts(pasted)).toEqual([]);
    expect(drafts('No: the "use client" directive must be placed before the imports in every component of this repo.')).toHaveLength(1);
  });

  it("reads no correction in a pasted log line the user judges, nor in a message that ends asking to make what is missing", () => {
    const drafts = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('train the model').assistant('Training finished; results are in `results/`.').user(message).assistant("You're right. I will tune the learning rate in `training/within_subject.py`.").build()));
    expect(drafts('2026-05-02 16:48:32,173 | INFO | Done. mean_acc=0.7529, std_acc=0.1709 this is not close to 85')).toEqual([]);
    expect(drafts('but there is no within_subject.py file in training/ , create one')).toEqual([]);
    // nor in a browser console's line pasted in
    expect(drafts("Access to XMLHttpRequest at 'https://api.example.test/auth/login' from origin 'https://www.example.test' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource.")).toEqual([]);
    // a correction that says what is right stays
    expect(drafts('No, there is no GPU on this machine: always train with `--device cpu`.')).toHaveLength(1);
  });

  it('reads no correction in a template sent after every turn (three times or more), the first time included', () => {
    const template = "Only go ahead if you made code changes: update .cursor/rules/architecture.md with what changed. Don't maintain it as a changelog.";
    const session = (times: number) => {
      const b = new SessionBuilder().user('add the README');
      for (let i = 0; i < times; i++) b.assistant('Updated `README.md`.').user(template).assistant('Understood. Updated `.cursor/rules/architecture.md`.');
      return userCorrectionDrafts(viewOf(b.build()));
    };
    expect(session(3)).toEqual([]);
    // said once, it is read as it always was
    expect(session(1)).toHaveLength(1);
  });

  it('says "use X instead of Y" as the repo\'s convention, with the earlier words the user said it in', () => {
    const b = new SessionBuilder()
      .user('run the pretraining')
      .assistant('Run `python -m training.pretrain` to start.')
      .user('give me command with uv run not with python, from now on')
      .assistant('Use `uv run python -m training.pretrain`.')
      .user('use uv instead of python')
      .assistant('Understood: `uv run scripts/sweep.py`.');
    const drafts = userCorrectionDrafts(viewOf(b.build()));
    // the form the user gave before (`uv run`) is how the tool is used here
    const item = drafts.find((d) => d.title === 'Use uv run instead of python here');
    expect(item?.category).toBe('fact');
    expect(item?.text).toBe('Use `uv run` instead of `python` in this repo, as the user told the agent ("use uv instead of python"), having said it before ("give me command with uv run not with python, from now on").');
    // said once, the convention is the user's words as they are
    const once = userCorrectionDrafts(viewOf(new SessionBuilder().user('run the pretraining').assistant('Run `python -m training.pretrain`.').user('use uv instead of python').assistant('Understood.').build()));
    expect(once.map((d) => d.title)).toEqual(['Use uv instead of python here']);
  });

  it("reads no correction in the user's answer to the agent's request for the task's details", () => {
    const asked = 'Sure. However, I need more specific details. Could you please provide more information? For example:\n\n- What features do you want?\n- What technologies do you want to use for the backend and frontend?';
    const drafts = (reply: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('i want to develop a little web app').assistant(asked).user(reply).assistant('Understood.').build()));
    expect(drafts('I want a webpage and a backend. the backend should be in javascript.')).toEqual([]);
    // an answer that says the agent had something wrong is still one
    expect(drafts("No, don't use Python for the backend: the backend should be in javascript, like the rest of the repo.")).toHaveLength(1);
  });

  it('reads no correction in a page the user pasted after "here\'s my … setting:"', () => {
    const drafts = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('push my site').assistant('The push was rejected by `git push`.').user(message).assistant("You're right. Set `user.email` to the noreply address.").build()));
    const page = "So here's my github email setting:\n\nEmails\nPrimary\nThis email will not be used as the 'from' address for web-based Git operations, e.g., edits and merges. We will instead use the noreply address.";
    expect(drafts(page)).toEqual([]);
    expect(drafts("No, don't use my primary address: the commits must use the noreply address instead.")).toHaveLength(1);
  });
});

describe("a subagent's report on how this machine is set up", () => {
  const report = [
    'Here is your current statusline configuration:',
    '',
    '**Settings file:** `/home/dev/.claude/settings.json`',
    '',
    'The statusline is configured as a command type with a padding of 2, pointing to the script at `/home/dev/.claude/statusline.sh`.',
    '',
    'The script reads JSON input from stdin and displays:',
    '',
    '- **Model** - the display name of the current model in brackets, e.g. `[Claude Sonnet 4.6]`',
    '- **Directory** - the basename of the current working directory',
    '- **Git info** - the current branch, number of staged files, and number of modified files',
    '',
    'The git status is cached in `/tmp/statusline-git-cache` for up to 5 seconds to avoid repeated git calls.',
  ].join('\n');
  const drafts = (asked = 'the statusline flickers, check its setup') => reportFactDrafts(viewOf(new SessionBuilder().user(asked).tool('Task', { subagent_type: 'statusline-setup', prompt: 'Show the user their current statusline configuration.' }, report).build()));

  it('names its subject without the words that hand it over ("Here is your current …")', () => {
    expect(drafts().map((d) => d.title)).toContain('Statusline configuration');
  });

  it('is true on any repository of the machine: every path it names is in the home outside the working directory, or in /tmp', () => {
    expect(drafts().find((d) => d.title === 'Statusline configuration')?.scope).toBe('global');
    // (in a session on a dotfiles repository the home's files are what the repository keeps)
    const inDotfiles = reportFactDrafts(viewOf(new SessionBuilder({ repo: 'dotfiles' }).user('the statusline flickers, check its setup').tool('Task', { subagent_type: 'statusline-setup', prompt: 'Show the user their current statusline configuration.' }, report).build()));
    expect(inDotfiles.find((d) => d.title === 'Statusline configuration')?.scope).toBeUndefined();
    expect(inDotfiles.find((d) => d.title === 'Statusline configuration')).toBeDefined();
    // (a report on the repository's own files stays the repository's)
    const own = reportFactDrafts(viewOf(new SessionBuilder().user('explore').tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, ['## Exploration Report', '', '### Config', '- HTTP: Bandit on `127.0.0.1:4010` (config/dev.exs)', '- Per-worktree overrides via `config/dev.local.exs`', '', '### Dependencies', '- `phoenix ~> 1.8.3` - web framework', '', '### Build', '- Assets are built by `/home/dev/demo/assets/build.js` (esbuild), output goes to `priv/static/assets/`', '- The dev endpoint runs `node build.js --watch` from `assets/`', '- Tests use the SQL sandbox; run them with `mix test`', '', '### Layout', '- LiveViews live in `lib/app_web/live/` and render inline templates in `render/1`', '- The stylesheet is `priv/static/assets/app.css`, maintained by hand'].join('\n')).build()));
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((d) => d.scope === undefined)).toBe(true);
  });

  it('is nothing when the user asked to be shown it ("Show my statusline"): the reply displays what their files hold', () => {
    expect(drafts().length).toBeGreaterThan(0);
    expect(drafts('Show my statusline')).toEqual([]);
    expect(drafts("what's in my settings?")).toEqual([]);
  });

  it('says nothing of a list that a sentence lead-in finishes ("… displays:") unless it keeps the whole list', () => {
    // (two of its three items name nothing concrete: "displays: Model" alone would misstate it)
    expect(drafts().some((d) => d.text.includes('displays'))).toBe(false);
  });
});
