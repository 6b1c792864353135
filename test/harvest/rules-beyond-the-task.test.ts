/**
 * What a first pass over fresh sessions showed, as principles: a choice among the agent's own
 * options settles this task; the user's experience is about the user; a status report is no fact;
 * a hook tool in the dependencies installs no hook; a reasoning title is no cause; a project's
 * dependency not installed yet is the checkout's state; a misspelt path is a slip; connect EPERM
 * is the sandbox's; a stdlib module the system python3 lacks is the distribution's split.
 */
import { describe, expect, it } from 'vitest';
import { userCorrectionDrafts } from '../../src/harvest/extract/rules/user-corrections.js';
import { reportFactDrafts } from '../../src/harvest/extract/rules/report-facts.js';
import { toolchainDrafts } from '../../src/harvest/extract/rules/toolchain.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { errorLine } from '../../src/harvest/extract/diagnosis.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { missingFileDrafts } from '../../src/harvest/extract/rules/missing-files.js';
import { testRunnerDrafts } from '../../src/harvest/extract/rules/test-runner.js';
import { openQuestionDrafts } from '../../src/harvest/extract/rules/open-questions.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

describe('answers to the agent\'s multiple-choice questions', () => {
  const questions = [
    { question: 'What should the deck focus on?', options: [{ label: 'All eight papers' }, { label: 'Vision-language models' }] },
    { question: 'Who is the audience?', options: [{ label: 'Researchers' }, { label: 'Students' }] },
    { question: 'Build the deck with `marp` or `reveal.js`?', options: [{ label: 'marp' }, { label: 'reveal.js' }] },
  ];
  const answered = (reply: string) => new SessionBuilder().user('make slides from the PDFs').tool('AskUserQuestion', { questions }, `User has answered your questions: ${reply}. You can now continue with the user's answers in mind.`).build();

  it('an answer that picks the offered options settles this task: no item, however the question is named', () => {
    expect(userCorrectionDrafts(viewOf(answered('"0"="Vision-language models", "1"="Students"')))).toEqual([]);
    expect(userCorrectionDrafts(viewOf(answered('"Who is the audience?"="Researchers, Students"')))).toEqual([]);
  });

  it('an answer of the user\'s own to a question named by its place names the question it answers', () => {
    const drafts = userCorrectionDrafts(viewOf(answered('"0"="Vision-language models", "2"="plain `pandoc`, the lab has no node"')));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toBe('Asked "Build the deck with `marp` or `reveal.js`?" with the options "marp" / "reveal.js", the user answered instead: "plain `pandoc`, the lab has no node".');
  });

  it('an answer of their own to a question that names nothing of the code tells who the user is: no item', () => {
    // ("Who is the audience?", "What are your leaders doing now to see progress?": the user's situation)
    expect(userCorrectionDrafts(viewOf(answered('"1"="the reading group of my lab"')))).toEqual([]);
  });
});

describe('what the user says of themselves', () => {
  it('"I have never implemented X" tells who the user is, not what the agent got wrong', () => {
    const session = new SessionBuilder().user('let us continue with the backend').assistant('Next is the JwtService.').user('i have never implemented JWT Token ').assistant('No problem, I will explain it step by step.').build();
    expect(userCorrectionDrafts(viewOf(session))).toEqual([]);
  });

  it('a correction next to it still counts', () => {
    const session = new SessionBuilder().user('let us continue with the backend').assistant('I will use Maven.').user("I'm new to Spring. We use Gradle here, not Maven.").assistant('Switching to Gradle.').build();
    expect(userCorrectionDrafts(viewOf(session))).toHaveLength(1);
  });
});

describe('an error the user pasted', () => {
  it('says what the program said, under whatever context the editor put above it: no correction', () => {
    const pasted = (error: string) =>
      new SessionBuilder({ agent: 'codex' })
        .user('fix the items page')
        .assistant('Done: the item page loads the item by its id.')
        .user(`# Context from my IDE setup:\n\n## Active file: src/app/items/[id]/page.tsx\n\n## My request for Codex:\n${error}\n    at ItemDetailPage (src/app/items/[id]/page.tsx:11:41)`)
        .assistant("You're right. I will await params first.")
        .build();
    expect(userCorrectionDrafts(viewOf(pasted('Error: Route "/items/[id]" used `params.id`. `params` is a Promise and must be unwrapped with `await` or `React.use()` before accessing its properties.')))).toEqual([]);
    expect(userCorrectionDrafts(viewOf(pasted("TypeError: Cannot read properties of undefined (reading 'id'). The value must not be undefined here.")))).toEqual([]);
    // the user's own words above the paste still count
    expect(userCorrectionDrafts(viewOf(pasted('No, we never use React.use() in this repo: always await params.\nError: Route "/items/[id]" used `params.id`.')))).toHaveLength(1);
  });
});

describe('what the user wants the result to be', () => {
  it('"You did the opposite! I want it to be like …" asks for this task\'s result: no correction', () => {
    const session = new SessionBuilder()
      .user('make the TOC anchors dev.to compatible')
      .assistant('I removed the hyphens around raw and endraw in `scripts/toc.py`.')
      .user('no no you literally did the opposite! I want it to be like "-raw-" and "-endraw-", i.e., i want exactly 1 hyphen before and after each of raw and endraw')
      .tool('Edit', { file_path: '/repo/scripts/toc.py', old_string: 'raw', new_string: '-raw-' }, 'ok')
      .build();
    expect(userCorrectionDrafts(viewOf(session))).toEqual([]);
  });
});

describe('a closing report of the state of the work', () => {
  const report = (lead: string) =>
    new SessionBuilder()
      .user('where are we?')
      .bash('ls src/main/java/com/app/repository', 'UserRepository.java\nMessageRepository.java')
      .tool('Read', { file_path: '/repo/src/main/java/com/app/repository/UserRepository.java' }, 'interface UserRepository { Optional<User> findByEmail(String email); }')
      .tool('Read', { file_path: '/repo/src/main/resources/application.yml' }, 'app:\n  jwt:\n    expiration-ms: 86400000\nspring:\n  datasource:\n    url: jdbc:postgresql://localhost:5432/chat')
      .assistant(
        `${lead}\n\n**Built:**\n- Repositories: \`UserRepository\` (findByEmail), \`MessageRepository\` (findConversation) in \`src/main/java/com/app/repository\`\n` +
          '- `application.yml` holds the JWT config (`expiration-ms`) and the datasource (`jdbc:postgresql://localhost:5432/chat`)\n' +
          '- `UserRepository.findByEmail` looks users up by e-mail for the login flow\n\n' +
          '**Still needed:**\n1. `JwtService` token methods\n2. Security config\n3. `AuthController`\n\nWhat do you want to tackle first?',
      )
      .build();

  it('"Here\'s the current state:" leads a progress report: no fact', () => {
    expect(reportFactDrafts(viewOf(report("Good overview of where we are. Here's the current state:")))).toEqual([]);
  });

  it('a lone "Built:" heading is the turn\'s change log, whatever the lead', () => {
    expect(reportFactDrafts(viewOf(report('Some notes on the backend, from the repositories and the configuration I read.')))).toEqual([]);
  });
});

describe('git hooks read from a package.json', () => {
  const pkg = (extra: string) => `{\n  "name": "app",\n  "scripts": { "dev": "next dev"${extra} },\n  "devDependencies": { "husky": "^9.0.0", "lint-staged": "^15.0.0" },\n  "lint-staged": {}\n}`;

  it('husky and lint-staged only listed (no install script, an empty config) run no hook', () => {
    const session = new SessionBuilder().user('look at the project').tool('Read', { file_path: '/repo/package.json' }, pkg('')).build();
    expect(toolchainDrafts(viewOf(session))).toEqual([]);
  });

  it('with the script that installs them and a config, commits pass through them', () => {
    const session = new SessionBuilder()
      .user('look at the project')
      .tool('Read', { file_path: '/repo/package.json' }, pkg(', "prepare": "husky"').replace('"lint-staged": {}', '"lint-staged": { "*.ts": "eslint" }'))
      .build();
    const drafts = toolchainDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toContain('husky installs the git hooks; lint-staged runs `eslint` on staged `*.ts` before each commit');
  });
});

describe('a reasoning summary\'s title', () => {
  it('is no cause of the error that came before it', () => {
    const session = new SessionBuilder()
      .user('commit it')
      .bash('npm test', 'PrismaClientKnownRequestError: Invalid `prisma.user.deleteMany()` invocation in\nsrc/tests/setup.ts:12', 1)
      .reasoning('**Noting test failures due to sandbox and DB**')
      .bash('npm run lint', '0 errors')
      .build();
    expect(errorFixDrafts(viewOf(session))).toEqual([]);
  });
});

describe('connect EPERM', () => {
  it('is the sandbox forbidding the connection: an item about the sandbox, none about the test run', () => {
    const session = new SessionBuilder({ agent: 'codex' })
      .user('commit it')
      .bash('npm test', 'Error: connect EPERM 127.0.0.1:6379 - Local (undefined:undefined)\nPrismaClientKnownRequestError: Invalid invocation', 1)
      .assistant('The tests cannot reach Redis because of the sandbox.')
      .build();
    expect(errorFixDrafts(viewOf(session))).toEqual([]);
    const drafts = toolQuirkDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.scope).toBe('agent');
    expect(drafts[0]!.text).toBe('The sandbox forbids network connections, even to services on this machine: `npm test` failed with `connect EPERM 127.0.0.1:6379`. A command that needs a database, a cache or any other service must run outside the sandbox (`sandbox_permissions: "require_escalated"`, which the user approves).');
  });
});

describe('python modules that are missing', () => {
  it('a dependency the project\'s install tried to bring (and failed) is the checkout\'s state, not an item', () => {
    const session = new SessionBuilder()
      .user('start the server')
      .bash('python3 -m uvicorn main:app --reload', '/usr/bin/python3: No module named uvicorn', 1)
      .bash('python3 -m pip install -r requirements.txt', '/usr/bin/python3: No module named pip', 1)
      .build();
    expect(toolQuirkDrafts(viewOf(session)).map((d) => d.title)).not.toContain('uvicorn is not on the PATH');
  });

  it('a standard-library module the system python3 lacks is the distribution\'s split: its package, and pip with it', () => {
    const session = new SessionBuilder()
      .user('start the server')
      .bash('python3 -m pip --version', '/usr/bin/python3: No module named pip', 1)
      .bash('python3 -m ensurepip --upgrade', '/usr/bin/python3: No module named ensurepip', 1)
      .build();
    const drafts = toolQuirkDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.scope).toBe('global');
    expect(drafts[0]!.title).toBe('The system python3 here has no pip or ensurepip');
    expect(drafts[0]!.text).toContain('Install `python3-pip` and `python3-venv` with the system\'s package manager; until then `python3 -m venv` fails. That needs root, which an agent\'s shell usually lacks: ask the user to run it.');
  });

  it('names WSL when the shell\'s python3 runs for a session in a Windows folder', () => {
    const session = new SessionBuilder({ cwd: 'C:\\work\\LocalWeb\\backend' })
      .user('start the server')
      .bash('python3 -m ensurepip --upgrade', '/usr/bin/python3: No module named ensurepip', 1)
      .build();
    expect(toolQuirkDrafts(viewOf(session))[0]!.text).toMatch(/^The `python3` the agent's shell finds here \(WSL's: the session's folder is a Windows one\) has no `ensurepip`/);
  });

  it('a virtualenv without pip stays the virtualenv\'s item', () => {
    const session = new SessionBuilder().user('install it').bash('.venv/bin/python -m pip install requests', 'No module named pip', 1).build();
    expect(toolQuirkDrafts(viewOf(session))[0]!.title).toBe('.venv has no pip');
  });
});

describe('a path typed with a slip', () => {
  it('one folder name misspelt is no fact about where the file lives', () => {
    const session = new SessionBuilder({ cwd: '/home/dev/work' })
      .user('read the entity')
      .tool('Read', { file_path: '/home/dev/work/chatApplicatin/backend/entity/User.java' }, 'File does not exist.', { isError: true })
      .bash('find . -name User.java', './chatApplication/backend/entity/User.java')
      .build();
    expect(missingFileDrafts(viewOf(session)).filter((d) => d.tags?.includes('location'))).toEqual([]);
  });
});

describe('tests run through a make target', () => {
  it('says what the target runs and what the other test targets run, from the Makefile the session read (not which files one run collected); pytest\'s plugin list alone is no set-up', () => {
    const session = new SessionBuilder()
      .user('run the tests')
      .tool('Read', { file_path: '/repo/Makefile' }, '.PHONY: test test-backend test-frontend\n\ntest: test-backend test-frontend\n\ntest-backend:\n\t@echo "Running backend tests"\n\tcd backend && DATABASE_URL=sqlite:// PYTHONPATH=. pytest\n\ntest-frontend:\n\tcd frontend && npm test\n')
      .bash('make test-backend', 'platform linux -- Python 3.12\nplugins: anyio-4.12.1\ncollected 13 items\n\ntests/test_api.py ........\ntests/test_database.py .....\n\n13 passed')
      .build();
    const drafts = testRunnerDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toBe('The tests run with `make test-backend`: it runs `cd backend && DATABASE_URL=sqlite:// PYTHONPATH=. pytest`; `make test` runs `make test-backend` and `make test-frontend`; `make test-frontend` runs `cd frontend && npm test`.');
  });

  it('without the Makefile, the plugins line alone gives no item', () => {
    const session = new SessionBuilder().user('run the tests').bash('make test-backend', 'plugins: anyio-4.12.1\ntests/test_api.py ....\n4 passed').build();
    expect(testRunnerDrafts(viewOf(session))).toEqual([]);
  });
});

describe('the close of a turn', () => {
  it('"Shall we create … and continue from there?" waits for the user: no open question', () => {
    const last = (text: string) => openQuestionDrafts(viewOf(new SessionBuilder().user('move the project').assistant(text).build()));
    expect(last('The folder is outside the workspace. Shall we create the `autoebook-hotmart` directory inside `~/files` and continue from there?')).toEqual([]);
  });

  it('a failure the agent finds outside its own work ("none of the files I changed …") is no pitfall', () => {
    const run = (reply: string) =>
      errorFixDrafts(
        viewOf(
          new SessionBuilder()
            .user('check the style')
            .bash('yarn prettier --check src/Actions.tsx', '[warn] .specstory/history/2026-10-09.md\n[warn] Code style issues found in the above file(s). Forgot to run Prettier?\nerror Command failed with exit code 1.', 1)
            .assistant(reply)
            .build(),
        ),
      );
    expect(run('The path tests pass; none of the files I changed have Prettier problems. The failure came from the `.specstory` log file, which is not formatted with Prettier.')).toEqual([]);
    expect(run('The check fails because `.specstory/history` files are not formatted with Prettier.')).toHaveLength(1);
  });

  const closing = (body: string) =>
    new SessionBuilder()
      .user('show the hint on the panel')
      .bash('rg -n selectedHint packages', 'packages/excalidraw/locales/en.json:12: "selectedHint"')
      .tool('Read', { file_path: '/repo/packages/excalidraw/components/Actions.tsx' }, 'function SelectedShapeActions() { /* panel */ }')
      .bash('yarn test:typecheck', 'Done in 10.23s.')
      .assistant(body)
      .build();

  it('what the work "now" does and "all the tests pass" are the handover, not facts', () => {
    const body =
      'When you select a motion path, the properties panel on the left (the one with stroke colour and opacity) now shows your text at the top, from `packages/excalidraw/locales/en.json`. All the path tests pass (54), and `yarn test:typecheck` is clean.\n\n' +
      '**Notes:**\n\n- Only one selected path shows it, and it is hidden again in edit mode.\n- `yarn test:typecheck` runs `tsc` over every package of the workspace.\n- Nothing else changed in the panel or in the editor.\n\nTell me if you want it elsewhere too; the panel can hold more text if you would like a longer hint later.';
    const drafts = reportFactDrafts(viewOf(closing(body)));
    expect(drafts.map((d) => d.text).join(' ')).not.toContain('now shows your text');
    expect(drafts.map((d) => d.text).join(' ')).not.toContain('All the path tests pass');
  });

  it('a "Changes:" list, and a labelled line in which the agent says what it did, are the change log', () => {
    const body =
      'The hint is in place for the motion-path panel, next to the other labels, and it is translated like every other label of the editor.\n\n' +
      '**Changes:**\n\n- **Text:** I added it to `packages/excalidraw/locales/en.json` as `labels.pathEditor.selectedHint`, next to the other motion-path labels.\n' +
      '- **Panel:** `SelectedShapeActions` in `packages/excalidraw/components/Actions.tsx` shows the text when one motion path is selected.\n' +
      '- **Tests:** `packages/excalidraw/tests/pathEditing.test.tsx` covers the hint in both modes of the editor.\n';
    expect(reportFactDrafts(viewOf(closing(body)))).toEqual([]);
  });
});

describe('a closing list of the files the turn wrote', () => {
  it('tells what the turn put in them, which the files now say: no fact', () => {
    const session = new SessionBuilder()
      .user('make a discord bot that reads skolaonline')
      .tool('apply_patch', { input: '*** Begin Patch\n*** Add File: .env\n+DISCORD_TOKEN=\n*** Add File: bot/skolaonline/client.py\n+class Client: pass\n*** Add File: bot/skolaonline/parser.py\n+def parse(html): pass\n*** Add File: README.md\n+# Bot\n*** End Patch' }, 'Success. Updated the following files:\nA .env\nA bot/skolaonline/client.py\nA bot/skolaonline/parser.py\nA README.md')
      .bash('python3 -m compileall bot', "Listing 'bot'...\nCompiling 'bot/skolaonline/client.py'...\nCompiling 'bot/skolaonline/parser.py'...")
      .bash('ls -a', '.env\nREADME.md\nbot')
      .bash('cat README.md', '# Bot')
      .assistant(
        'The Discord bot template is in `/home/dev/spseprojekt`, ready for the SkolaOnline credentials.\n\nKey files:\n' +
          '- `.env` with placeholders for Discord and SkolaOnline credentials\n- `bot/skolaonline/client.py` for login/fetching logic\n- `bot/skolaonline/parser.py` for HTML parsing selectors\n- `README.md` with setup/run instructions\n\n' +
          'The SkolaOnline login flow is marked `NotImplementedError` until the form fields of the real page are known; fill it in before the bot can fetch anything. The slash commands are registered when the bot starts, in the guild set in `.env` or else globally.',
      )
      .build();
    const texts = reportFactDrafts(viewOf(session)).map((d) => d.text).join(' ');
    expect(texts).not.toContain('placeholders for Discord');
    expect(texts).not.toContain('for login/fetching logic');
  });
});

describe('a search tool whose pattern failed as a regular expression', () => {
  it('says the field is a regex and how to escape, not the retry\'s one-off pattern', () => {
    const session = new SessionBuilder()
      .user('find the colour codes')
      .tool('search_replace', { pattern: '^\\\\[3[0-9]m', context: 0 }, 'ERROR: fatal: rg error: rg: regex parse error: unclosed character class', { isError: true })
      .tool('search_replace', { pattern: '30mColor 0', context: 2 }, 'src/term.c:12: 30mColor 0')
      .build();
    const drafts = toolQuirkDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.title).toBe('search_replace reads its pattern as a regular expression');
    expect(drafts[0]!.text).toContain('Its `pattern` is a regular expression: escape a metacharacter once (`\\[` for a literal `[`), or search for a plain part of the text. A retry with a plainer `pattern` succeeded.');
    expect(drafts[0]!.text).not.toContain('30mColor');
  });
});

/** The error items of a session in which `command` failed with `output` and the agent said `reply`. */
const errorItems = (command: string, output: string, exit: number, reply: string) =>
  errorFixDrafts(viewOf(new SessionBuilder().user('go on').bash(command, output, exit).assistant(reply).build()));

describe('an error item\'s title', () => {
  it('leaves out the severity label, which says only that the command failed', () => {
    const [item] = errorItems('minsky session start --task 008', "fatal: destination path '/home/dev/.local/state/minsky/git/task#008' already exists and is not an empty directory.", 128, "The clone fails because there's a directory for task#008 already on the file system.");
    expect(item!.title).toBe("minsky session fails: destination path '~/.local/state/minsky/git/task#008'…");
  });

  it("gives PowerShell's error id alone, not the record's label", () => {
    const output = "Die Zeichenfolge hat kein Abschlusszeichen: '.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : TerminatorExpectedAtEndOfString";
    const [item] = errorItems("powershell -NoProfile -Command . '.specify/scripts/powershell/create-new-feature.ps1' -Json", output, 1, 'The script call fails because the quotes of the path are not matched in the -Command string.');
    // (the script PowerShell was started to run is what failed)
    expect(item!.title).toBe('create-new-feature.ps1 fails: TerminatorExpectedAtEndOfString');
  });
});

describe('npm\'s error code line', () => {
  it('is joined with the line that says what happened, and the title says that', () => {
    const output = 'npm error code ETARGET\nnpm error notarget No matching version found for enhanced-resolve@^5.18.3.\nnpm error notarget In most cases you or one of your dependencies are requesting\nnpm error notarget a package version that doesn\'t exist.';
    const [item] = errorItems('npm i -D @tailwindcss/postcss --prefer-offline', output, 1, 'The install fails because the cached registry data has no enhanced-resolve 5.18.3.');
    expect(item!.title).toBe('npm i fails: No matching version found for enhanced-resolve@^5.18.3.');
    expect(item!.text).toContain('fails with `npm error code ETARGET: No matching version found for enhanced-resolve@^5.18.3.`');
  });
});

describe('a run whose line swallows its failure', () => {
  it('shows no fix: `… || echo` ends well whatever happened', () => {
    const session = (retry: string) =>
      new SessionBuilder()
        .user('set up the theme')
        .bash('make theme', "make: *** No rule to make target 'theme'.  Stop.", 2)
        .assistant('The Makefile has no theme target because it was renamed to themes.')
        .bash(retry, 'skipped', 0)
        .build();
    expect(errorFixDrafts(viewOf(session('make theme || echo "skipped"')))[0]!.text).not.toContain('Fix:');
    expect(errorFixDrafts(viewOf(session('make theme || true')))[0]!.text).not.toContain('Fix:');
    expect(errorFixDrafts(viewOf(session('make theme THEME=dark')))[0]!.text).toContain('Fix:');
  });
});

describe("a Python traceback's error", () => {
  it('is the exception line after its frames, not its head', () => {
    const traceback = 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/app/.venv/lib/python3.12/site-packages/xgboost/__init__.py", line 6, in <module>\n    from . import tracker\nxgboost.core.XGBoostError: \nXGBoost Library (libxgboost.dylib) could not be loaded.\nLikely causes:\n  * OpenMP runtime is not installed';
    expect(errorLine(traceback)).toBe('xgboost.core.XGBoostError: XGBoost Library (libxgboost.dylib) could not be loaded.');
    expect(errorLine("Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    import foo\nModuleNotFoundError: No module named 'foo'")).toBe("ModuleNotFoundError: No module named 'foo'");
  });
});

describe('a port already taken', () => {
  it('by a server still running is the state of that moment; a run on another port that worked is kept', () => {
    const taken = "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use";
    expect(errorItems('uvicorn backend.api:app --port 8000', taken, 1, 'The project is already running because an earlier server still holds port 8000.')).toEqual([]);
    const moved = new SessionBuilder()
      .user('run the project')
      .bash('mix phx.server', '** (RuntimeError) failed to listen on 127.0.0.1:4000: eaddrinuse (address already in use)', 1)
      .assistant('Port 4000 is taken because the main worktree runs its own server; this worktree needs another port.')
      .bash('PORT=4001 mix phx.server --no-halt', '[info] Running AppWeb.Endpoint with Bandit at 127.0.0.1:4001', 0)
      .build();
    expect(errorFixDrafts(viewOf(moved))[0]!.text).toContain('PORT=4001');
  });
});

describe('a shared library the loader could not find', () => {
  it('is the cause, in the loader\'s words, when the agent gave none', () => {
    const output = 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nxgboost.core.XGBoostError: \nXGBoost Library (libxgboost.dylib) could not be loaded.\nError message(s): ["dlopen(/app/.venv/lib/python3.12/site-packages/xgboost/lib/libxgboost.dylib, 0x0006): Library not loaded: @rpath/libomp.dylib"]';
    const session = new SessionBuilder()
      .user('run the booster test')
      .bash('uv run python -c "import xgboost"', output, 1)
      .bash('brew install libomp', '==> Pouring libomp--20.1.8.arm64_sequoia.bottle.tar.gz', 0)
      .bash('uv run python -c "import xgboost"', '', 0)
      .build();
    const [item] = errorFixDrafts(viewOf(session));
    expect(item!.text).toContain('Cause: the shared library `libomp.dylib` is not installed (`Library not loaded: @rpath/libomp.dylib`).');
    expect(item!.text).toContain('Fix: `brew install libomp`');
  });
});

describe('a commit whose output shows lint-staged at work', () => {
  it('says what the pre-commit hook runs, from the commit itself', () => {
    const commit = (tasks: string) =>
      new SessionBuilder({ format: 'codex', agent: 'codex' })
        .user('commit the scaffolding')
        .bash('git add README.md && git commit -m "docs: constitution"', `[STARTED] Backing up original state...\n[COMPLETED] Backed up original state in git stash (3b42c67)\n[STARTED] Running tasks for staged files...\n[STARTED] Config object — 52 files\n[STARTED] * — 52 files\n${tasks}[vite-plus b3299d9] docs: constitution\n 3 files changed`)
        .build();
    const [item] = toolchainDrafts(viewOf(commit('[STARTED] vp check --fix\n[COMPLETED] vp check --fix\n')));
    expect(item).toMatchObject({ category: 'fact', title: 'Commits run a pre-commit hook: vp check --fix on the staged files' });
    expect(item!.text).toBe(
      'Commits here pass through a pre-commit hook that runs `vp check --fix` on the staged files (the commit printed `Running tasks for staged files...`), which rewrites them before they are committed. Run the same before committing.',
    );
    expect(toolchainDrafts(viewOf(commit('[STARTED] eslint --max-warnings=0\n')))[0]!.text).toContain('`eslint --max-warnings=0` on the staged files (the commit printed `Running tasks for staged files...`), and a commit fails when it does.');
    // lint-staged's own steps alone name no task
    expect(toolchainDrafts(viewOf(commit('')))).toEqual([]);
  });
});
