import { describe, expect, it } from 'vitest';
import { extractSession } from '../../src/harvest/extract/index.js';
import { checkFindingDrafts, findings } from '../../src/harvest/extract/rules/check-findings.js';
import { outputNoiseDrafts } from '../../src/harvest/extract/rules/output-noise.js';
import { reportFactDrafts } from '../../src/harvest/extract/rules/report-facts.js';
import { workspaceDrafts } from '../../src/harvest/extract/rules/workspace.js';
import { changedFlags, errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { repoRuleDrafts } from '../../src/harvest/extract/rules/repo-rules.js';
import { missingFileDrafts } from '../../src/harvest/extract/rules/missing-files.js';
import { dataFormatDrafts } from '../../src/harvest/extract/rules/data-formats.js';
import { dedupe } from '../../src/harvest/extract/select.js';
import { toolchainDrafts } from '../../src/harvest/extract/rules/toolchain.js';
import { projectCommandDrafts } from '../../src/harvest/extract/rules/project-commands.js';
import { userCorrectionDrafts } from '../../src/harvest/extract/rules/user-corrections.js';
import { testRunnerDrafts } from '../../src/harvest/extract/rules/test-runner.js';
import { openQuestionDrafts } from '../../src/harvest/extract/rules/open-questions.js';
import { oversizedOutputDrafts } from '../../src/harvest/extract/rules/oversized-output.js';
import { slowCommandDrafts } from '../../src/harvest/extract/rules/slow-commands.js';
import { recipeForm } from '../../src/harvest/extract/rules/command-patterns.js';
import { errorLine } from '../../src/harvest/extract/diagnosis.js';
import type { Session } from '../../src/sessions/model.js';
import { editedFiles, viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

describe('check findings', () => {
  it('reads located findings and credo-style marked findings', () => {
    const out = findings(
      [
        'src/app.ts(12,5): error TS2345: Argument of type string is not assignable to parameter of type number.',
        '┃ [R] ↘ The alias `Foo.Bar` is not alphabetically ordered among its group.',
        '┃       lib/app/foo.ex:10:9 #(App.Foo)',
        'lib/app/bar.ex:44:22:call_without_opaque Type mismatch in call without opaque term in to_list.',
        'lib/app/bar.ex:12:pattern_match',
      ].join('\n'),
    );
    expect(out.map((f) => f.file)).toEqual(['src/app.ts', 'lib/app/foo.ex', 'lib/app/bar.ex']);
    expect(out[1]!.message).toContain('not alphabetically ordered');
  });

  it('leaves out layout and style findings: the checker\'s message already says what to do', () => {
    const lint = (message: string) =>
      checkFindingDrafts(
        viewOf(
          new SessionBuilder()
            .user('make pylint pass')
            .bash('pylint src/cli.py', `src/cli.py:13:0: ${message}`, 16)
            .tool('Edit', { file_path: '/home/dev/demo/src/cli.py', old_string: 'x = 1', new_string: 'import argparse\nx = 1' }, 'updated')
            .build(),
        ),
      );
    expect(lint('C0301: Line too long (146/100) (line-too-long)')).toEqual([]);
    expect(lint('C0303: Trailing whitespace (trailing-whitespace)')).toEqual([]);
    expect(lint('C0413: Import "import argparse" should be placed at the top of the module (wrong-import-position)')).toEqual([]);
    expect(lint("E0401: Unable to import 'demo.cli' from the tests package (import-error)")).toHaveLength(1);
  });

  it('turns a finding fixed by the next edit of its file into a verified pitfall', () => {
    const session = new SessionBuilder()
      .user('make the linter happy')
      .bash('mix credo --strict', '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/summary.ex:97:9 #(App.Summary.call)', 0)
      .tool('Edit', { file_path: '/home/dev/demo/lib/app/summary.ex', old_string: '  require Logger', new_string: '  alias LangChain.Chains.LLMChain\n  require Logger' }, 'updated')
      .bash('mix credo --strict', 'found no issues')
      .build();
    const drafts = checkFindingDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('pitfall');
    expect(drafts[0]!.text).toContain('mix credo');
    expect(drafts[0]!.text).toContain('Nested modules could be aliased');
    expect(drafts[0]!.text).toContain('alias LangChain.Chains.LLMChain');
  });

  it("leaves out a finding in a file the session itself wrote before the check: the agent's own slip", () => {
    const finding = '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/summary.ex:97:9 #(App.Summary.call)';
    const session = (wroteFirst: boolean) => {
      const b = new SessionBuilder().user('add the summary');
      if (wroteFirst) b.tool('Write', { file_path: '/home/dev/demo/lib/app/summary.ex', content: 'defmodule App.Summary do\nend\n' }, 'File created');
      return b
        .bash('mix credo --strict', finding, 0)
        .tool('Edit', { file_path: '/home/dev/demo/lib/app/summary.ex', old_string: '  require Logger', new_string: '  alias LangChain.Chains.LLMChain\n  require Logger' }, 'updated')
        .bash('mix credo --strict', 'found no issues')
        .build();
    };
    expect(checkFindingDrafts(viewOf(session(false)))).toHaveLength(1);
    expect(checkFindingDrafts(viewOf(session(true)))).toEqual([]);
  });

  it('names the checker a commit hook ran, and states the change that cleared the finding as what to do', () => {
    const hookOutput = 'Pre-commit validation failed:\n[CREDO]\n┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.\n┃       lib/app/summary.ex:97:9 #(App.Summary.call)';
    const session = new SessionBuilder()
      .user('commit it')
      .bash('git commit -m "summary"', hookOutput, 1)
      .tool('Edit', { file_path: '/home/dev/demo/lib/app/summary.ex', old_string: '  require Logger', new_string: '  alias LangChain.Chains.LLMChain\n  require Logger' }, 'updated')
      .bash('git commit -m "summary"', '[main 1a2b3c4] summary')
      .build();
    const [d] = checkFindingDrafts(viewOf(session));
    expect(d!.title).toBe('credo: Nested modules could be aliased at the top of the invoking…');
    expect(d!.text).toBe('`credo` (run by a hook on `git commit`) flags `Nested modules could be aliased at the top of the invoking module.` in `summary.ex`; the change that cleared it: `alias LangChain.Chains.LLMChain`.');
  });
});

describe('expected output noise', () => {
  it('reports a warning every passing run of a check prints', () => {
    const b = new SessionBuilder().user('run the tests twice');
    for (let i = 0; i < 2; i++) b.bash('npm test', ' DEPRECATED  `test.poolOptions` was removed in Vitest 4.\n Tests  16 passed (16)');
    const drafts = outputNoiseDrafts(viewOf(b.build()));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('tool-quirk');
    expect(drafts[0]!.text).toContain('poolOptions');
  });

  it('ignores a warning seen once', () => {
    const session = new SessionBuilder().user('test').bash('npm test', 'DEPRECATED something\nok').build();
    expect(outputNoiseDrafts(viewOf(session))).toEqual([]);
  });
});

describe('workspace', () => {
  it('notices per-branch worktrees, not in subagent sessions', () => {
    const build = (meta: object) => {
      const b = new SessionBuilder({ cwd: '/home/dev/projects/app-worktrees/feat-1', branch: 'feat-1', ...meta }).user('go');
      for (let i = 0; i < 5; i++) b.bash(`make step${i}`, 'ok');
      return b.build();
    };
    const [fact] = workspaceDrafts(viewOf(build({})));
    expect(fact?.text).toContain('~/projects/app-worktrees/');
    expect(fact?.text).toContain('`feat-1`');
    expect(workspaceDrafts(viewOf(build({ parentId: 'parent' })))).toEqual([]);
  });
});

describe('report facts', () => {
  /** Transient lines the rule leaves out: they make a report long enough to count (500
   * characters) without a section that competes with the one under test. */
  const GAPS = [
    '### Current gaps',
    '- Nothing is deployed yet: the staging server, the CI pipeline and the release scripts are not set up so far, and no hosting provider was chosen yet',
    '- Monitoring, backups and the on-call rota are not in place yet; the team plans them for a later milestone',
    '- Load tests and the security review are still pending as well, waiting for the staging server to exist first',
    '- Error tracking and log shipping are not configured yet; the logs only go to the console for now',
    '',
  ].join('\n');
  /** The report-fact drafts of a session whose one subagent returned `report`. */
  const fromReport = (report: string) => reportFactDrafts(viewOf(new SessionBuilder().user('explore').tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, report).build()));
  /** Each line added to a report leaves the item with the section's `kept` text and without the line. */
  const expectLeftOut = (texts: (line: string) => string, kept: string, lines: string[]): void => {
    for (const line of lines) {
      const t = texts(line);
      expect(t, line).toContain(kept);
      expect(t, line).not.toContain(line.replace(/^- /, '').slice(0, 28));
    }
  };
  const report = [
    '## Exploration Report',
    '',
    '### Config',
    '- HTTP: Bandit on `127.0.0.1:4010` (config/dev.exs)',
    '- Per-worktree overrides via `config/dev.local.exs`',
    '- signing_salt: "abc123secret"',
    '',
    '### Current gaps',
    '- No domains defined yet',
    '',
    '### Dependencies',
    '- `phoenix ~> 1.8.3` - web framework',
    '',
    '### Build',
    '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`',
    '- The dev endpoint runs `node build.js --watch` from `assets/`',
    '- Tests use the SQL sandbox; run them with `mix test`',
    '',
    '### Layout',
    '- LiveViews live in `lib/app_web/live/` and render inline templates in `render/1`',
    '- The stylesheet is `priv/static/assets/app.css`, maintained by hand',
  ].join('\n');

  it("names a section by its own heading: a summary heading in the user's language and a pictograph in front are no part of its name", () => {
    const plain = fromReport(report).map((d) => [d.title, d.text]);
    const dressed = fromReport(report.replace('## Exploration Report', '## 📡 Resumen del proyecto').replace('### Build', '### 📦 Build')).map((d) => [d.title, d.text]);
    expect(plain.some(([, text]) => text!.startsWith('Build: '))).toBe(true);
    expect(dressed).toEqual(plain);
  });

  it('keeps concrete config lines of a subagent report, never secret values or transient state', () => {
    const session = new SessionBuilder()
      .user('explore the config')
      .tool('Read', { file_path: '/home/dev/demo/config/dev.exs' }, 'config :app, http: [port: 4010]')
      .tool('Read', { file_path: '/home/dev/demo/config/config.exs' }, 'import Config')
      .tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, report)
      .build();
    const drafts = reportFactDrafts(viewOf(session));
    const text = drafts.map((d) => d.text).join('\n');
    expect(text).toContain('127.0.0.1:4010');
    expect(text).not.toContain('abc123secret');
    expect(text).not.toContain('No domains defined yet');
  });

  /** The texts the rule writes of a subagent report whose one section, on the build, has `heading`. */
  const buildSection = (heading: string) =>
    fromReport(['## Exploration Report', '', `### ${heading}`, '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`', '- The dev endpoint runs `node build.js --watch` from `assets/`', '', GAPS].join('\n'))
      .map((d) => d.text)
      .join('\n');

  it("writes nothing of a section that quotes a settings file's keys and values back: the file says them", () => {
    const tsconfig = ['## Exploration Report', '', '### TypeScript Configuration (tsconfig.json)', '- `outDir: "./dist"` - compiled output, shipped by `npm publish`', '- `moduleResolution: "NodeNext"` - relative imports in `src/` need `.js` extensions', '', '### Build', '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`', '- The dev endpoint runs `node build.js --watch` from `assets/`', '', GAPS].join('\n');
    const titles = fromReport(tsconfig).map((d) => d.title);
    expect(titles.some((t) => t.startsWith('Build'))).toBe(true);
    expect(titles.some((t) => t.includes('tsconfig'))).toBe(false);
  });

  it('names no subject after a heading that names only the kind of content ("Relationships", "Summary")', () => {
    const drafts = fromReport(['## Exploration Report', '', '### Relationships', '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`', '- The dev endpoint runs `node build.js --watch` from `assets/`', '', GAPS].join('\n'));
    const built = drafts.find((d) => d.text.includes('assets/build.js'))!;
    expect(built.title).toBe('Assets are built by assets/build.js (esbuild), output goes to…');
    expect(built.text).toMatch(/^Assets are built by/);
  });

  it('keeps five sections of one report at most, however long it is', () => {
    const section = (i: number) => [`### Module ${i} (\`src/m${i}/index.ts\`)`, `- \`src/m${i}/index.ts\` exports \`start${i}()\`, called by \`src/main.ts\` at boot`, `- Its settings come from \`config/m${i}.json\` through \`loadConfig()\` in \`src/config.ts\``, ''].join('\n');
    const long = ['## Exploration Report', '', ...[1, 2, 3, 4, 5, 6, 7, 8].map(section), 'x'.repeat(9000), '', GAPS].join('\n');
    expect(fromReport(long)).toHaveLength(5);
  });

  it('leaves out a roll call of names, a list of versions and a walk through one run of the code', () => {
    const withLine = (line: string) =>
      fromReport(['## Exploration Report', '', '### Build', '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`', `- ${line}`, '- The dev endpoint runs `node build.js --watch` from `assets/`', '', GAPS].join('\n'))
        .map((d) => d.text)
        .join('\n');
    expect(withLine('Route chunks go to `priv/static/assets/chunks/`, set by `splitting: true` in `assets/build.js`')).toContain('splitting: true');
    expectLeftOut(withLine, 'assets/build.js', [
      'providers: OpenAI, Azure OpenAI, AWS Bedrock, Ollama, LiteLLM',
      'Node.js assets with: `@xterm/xterm ^6.0.0`, `@xterm/addon-fit ^0.11.0`, esbuild v0.27.3',
      'Then we try to create a branch using `gitService.branch`',
    ]);
  });

  it("writes nothing of a status heading in the language the agent answered in, as of 'Status'", () => {
    const texts = buildSection;
    expect(texts('Estructura')).toContain('assets/build.js');
    for (const heading of ['Status', 'Estado del proyecto', 'État actuel', 'Aktueller Stand']) expect(texts(heading), heading).toBe('');
  });

  it('writes nothing of a lesson the user asked for: the framework explained to them, not the repository found out', () => {
    const report = ['## Exploration Report', '', '### Build', '- Assets are built by `assets/build.js` (esbuild), output goes to `priv/static/assets/`', '- The dev endpoint runs `node build.js --watch` from `assets/`', '', GAPS].join('\n');
    const texts = (prompt: string) =>
      reportFactDrafts(viewOf(new SessionBuilder().user(prompt).tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, report).build()))
        .map((d) => d.text)
        .join('\n');
    expect(texts('find out how the assets are built')).toContain('assets/build.js');
    for (const prompt of ['can you help me understand what each file is doing?', "what's the difference between ./CMakeLists.txt and ./main/CMakeLists.txt?", 'how does esbuild work here?'])
      expect(texts(prompt), prompt).toBe('');
  });

  it('writes nothing of a section that says it is taken from a file: the file says it, and stays right', () => {
    const texts = buildSection;
    expect(texts('Build')).toContain('assets/build.js');
    expect(texts('Build (from DEVELOPER_GUIDELINES.md)')).toBe('');
    expect(texts('Build, per `docs/BUILDING.md`')).toBe('');
    expect(texts('Build Flow (documented in `ARCHITECTURE-BUILD.md`)')).toBe('');
  });

  it("writes nothing of a reply to the user's question which way to choose: advice for a decision not made", () => {
    const advice = [
      'Here is a picture that matches your repo: **Next.js 15** in `apps/web`, a **Fastify** API in `services/api` that talks to **PostgreSQL** via `DATABASE_URL` (`pg`), plus **ingest** and **ai** services.',
      '',
      '### Database',
      '',
      'Use **managed PostgreSQL** and point both API and any other services at the same connection string:',
      '',
      '- **Neon**: serverless Postgres, good with serverless frontends and variable API traffic.',
      '- **Supabase**: Postgres plus extras (auth, storage) if you want that later.',
      '- **Railway / Render**: simple Postgres plus app hosting in one place.',
      '',
      '### Website + API (typical split)',
      '',
      '- **Frontend:** **Vercel** for `apps/web` is the usual choice for Next.js (build `apps/web`, set env vars for the public API URL).',
      '- **API:** Deploy `services/api` as a **long-running Node** service on **Railway, Render, Fly.io**, or a small container. Set `DATABASE_URL` there; allow the database to accept that host.',
      '',
      '### Ingest / AI workers',
      '',
      'Treat `services/ingest` and `services/ai` as **background jobs**: same repo, separate deployables with **cron** and the same `DATABASE_URL`.',
    ].join('\n');
    const reply = (question: string) =>
      reportFactDrafts(
        viewOf(
          new SessionBuilder({ format: 'specstory', agent: 'cursor' })
            .user(question)
            .tool('read_file_v2', { target_file: 'services/api/package.json' }, '{"dependencies": {"fastify": "^5.0.0", "pg": "^8.11.0"}}')
            .tool('read_file_v2', { target_file: 'apps/web/package.json' }, '{"dependencies": {"next": "15.0.0"}}')
            .tool('read_file_v2', { target_file: 'services/api/src/db.ts' }, 'export const pool = new Pool({ connectionString: process.env.DATABASE_URL });')
            .assistant(advice)
            .build(),
        ),
      );
    // (the same reply to a question about how the repository is: its sections are read)
    expect(reply('explain how the services of this repo talk to the database').length).toBeGreaterThan(0);
    expect(reply('what should I use to deploy the website giving the database')).toEqual([]);
    expect(reply('what are my options for hosting the API?')).toEqual([]);
  });

  it('writes nothing of a closing summary that opens on the turn\'s outcome ("Implemented: …") or of its validation run', () => {
    const summary = (lead: string) => [
      lead,
      '',
      '**What changed**',
      '- Made plist template path dynamic via placeholder: `docs/com.emailbuddy.companion.plist`',
      '- Added npm commands: `package.json`',
      '',
      '**Validation run**',
      '- `sh scripts/service.sh status` passed (reported not installed, as expected before install).',
      '- `npm test` passed (9/9).',
    ].join('\n');
    const drafts = (lead: string) => reportFactDrafts(viewOf(new SessionBuilder().user('add a background service').bash('npm test', '# pass 9', 0).assistant(summary(lead)).build()));
    expect(drafts('Implemented: EmailBuddy now has a background service manager on macOS with `npm` commands for install/start/stop.')).toEqual([]);
    // nor of one that opens (in bold) with its verdict on what it was asked to check
    const body = 'This looks like a legitimate, small open-source utility that switches Logitech Easy-Switch mice/keyboards between paired hosts via the HID++ `ChangeHost` command.\n\n### What I checked\n- All source: `python/mxswitch.py`, `macos/mxswitch.c`, `linux/mxswitch.sh`, `windows/mxswitch.ps1`, `windows/mxswitch.ahk`, plus Makefile/udev rules\n- No vendored binaries, no obfuscation, no base64/encoded payloads\n\n### What it actually does\nEach platform script opens a Logitech HID interface and sends a short HID++ frame to change the device’s active host channel.';
    const checked = (lead: string) => {
      const b = new SessionBuilder({ cwd: '/home/dev/mxswitch' }).user('can you check this project and tell me if there is any virus or exploit?');
      for (const f of ['python/mxswitch.py', 'macos/mxswitch.c', 'linux/mxswitch.sh', 'windows/mxswitch.ps1', 'windows/mxswitch.ahk']) b.tool('Read', { file_path: `/home/dev/mxswitch/${f}` }, `1 // ${f}\n2 hid_open()`);
      b.bash('git log --oneline', 'a1b2c3d init', 0);
      return reportFactDrafts(viewOf(b.assistant(lead + body).build()));
    };
    expect(checked('').length).toBe(1);
    expect(checked('**No virus or exploit found.** ')).toEqual([]);
    // a line that tells the user their own next step is no fact of the repository
    const todo = body.replace('- No vendored binaries, no obfuscation, no base64/encoded payloads', '- You’ll need an `oauth.json` file next to `python/mxswitch.py` to pair the devices');
    const texts = (lead: string) => {
      const b = new SessionBuilder({ cwd: '/home/dev/mxswitch' }).user('can you check this project?');
      for (const f of ['python/mxswitch.py', 'macos/mxswitch.c', 'linux/mxswitch.sh', 'windows/mxswitch.ps1', 'windows/mxswitch.ahk']) b.tool('Read', { file_path: `/home/dev/mxswitch/${f}` }, `1 // ${f}\n2 hid_open()`);
      b.bash('git log --oneline', 'a1b2c3d init', 0);
      return reportFactDrafts(viewOf(b.assistant(lead).build())).map((d) => d.text).join('\n');
    };
    expect(texts(body)).toContain('No vendored binaries');
    expect(texts(todo)).not.toContain('oauth.json');
    // nor one that tells the user how their own setup is that moment; one quoting a message that says "your" is kept
    const setup = body.replace('- No vendored binaries, no obfuscation, no base64/encoded payloads', '- There is no udev rule in your configuration: you use the default `plugdev` group for `linux/mxswitch.sh`');
    expect(texts(setup)).not.toContain('plugdev');
    const quoted = body.replace('- No vendored binaries, no obfuscation, no base64/encoded payloads', '- `linux/mxswitch.sh` stops with "Add your user to plugdev" when the udev rule is missing');
    expect(texts(quoted)).toContain('plugdev');
    // without the lead the validation run is still no fact
    expect(drafts('The companion listens on `127.0.0.1:48123` and logs to `/tmp/emailbuddy.out.log`.').map((d) => d.text).join('\n')).not.toContain('passed');
  });

  it('drops a section named after a step of the agent\'s own work: a progress report', () => {
    const progress = [
      '### Task 6: Input Validation Middleware',
      '- `validateTask` in `src/middleware/validate.js` checks the title and status of the task routes',
      '- `validateAuth` in `src/middleware/validate.js` checks username and password before `POST /auth/login`',
      '- Tests: `node --test src/middleware/validate.test.js` (config in `package.json`)',
      '',
      '### Step 2: Routes',
      '- Task routes in `src/routes/tasks.js` read `req.userId` from the JWT set by `src/middleware/auth.js`',
      '- The test command is `npm test`, the config lives in `.env` (`JWT_SECRET`)',
      '',
    ].join('\n');
    const session = new SessionBuilder()
      .user('explore the app')
      .tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, report.replace('### Config', `${progress}### Config`))
      .build();
    const titles = reportFactDrafts(viewOf(session)).map((d) => d.title);
    expect(titles.some((t) => /build/i.test(t))).toBe(true);
    expect(titles.filter((t) => /task 6|step 2/i.test(t))).toEqual([]);
    // a heading that reports work done, and lines marked with a status, are a change log too
    const done = ['### All Issues Fixed', '- The workflow starts at `docs/START.md`, linked from `docs/DASHBOARD.md`FIXED', '- Guides live in `docs/guide/` and are indexed by `docs/index.md`FIXED', ''].join('\n');
    const doneTitles = (heading: string, mark: string) =>
      fromReport(`## Report\n\n${done.replace('All Issues Fixed', heading).replaceAll('FIXED', mark)}\n${GAPS}`).map((d) => d.title);
    expect(doneTitles('Docs layout', '')).toEqual(['Docs layout']);
    expect(doneTitles('All Issues Fixed', '')).toEqual([]);
    // under it, however deep: "All 3 subtasks completed" / "Task 1 — Extracted …"
    expect(fromReport(`## All 3 subtasks completed\n\n${done.replace('All Issues Fixed', 'Docs layout').replaceAll('FIXED', '')}\n${GAPS}`).map((d) => d.title)).toEqual([]);
    expect(doneTitles('Docs layout', ' → FIXED')).toEqual([]);
  });

  it('drops a section about a file the session changed after the report, and a lone short line', () => {
    const about = [
      '### PageLive (`lib/app_web/live/page_live.ex`)',
      '- Loads messages via `load_messages/1` filtering by `session_id`, then calls `Renderer.render/2` with `cwd`',
      '- Row classes come from `row_class/1`: `is-tool-use`, `is-tool-result`, `is-thinking`',
      '',
      '### Highlighting',
      '- Code highlighting (via Highlight.js)',
      '',
    ].join('\n');
    const session = (edit: boolean) => {
      const b = new SessionBuilder().user('explore, then refactor the page').tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, `## Exploration Report\n\n${about}${report.slice(report.indexOf('### Build'))}`);
      if (edit) b.tool('Edit', { file_path: '/home/dev/demo/lib/app_web/live/page_live.ex', old_string: 'a', new_string: 'b' }, 'updated');
      return viewOf(b.build());
    };
    const titles = (edit: boolean) => reportFactDrafts(session(edit)).map((d) => d.title);
    expect(titles(false).some((t) => t.includes('PageLive'))).toBe(true);
    expect(titles(true).some((t) => t.includes('PageLive'))).toBe(false);
    expect(titles(true).some((t) => /build/i.test(t))).toBe(true);
    const slight = (lines: string[]) =>
      fromReport(`## Exploration Report\n\n### Highlighting\n${lines.join('\n')}\n\n${report.slice(report.indexOf('### Build'), report.indexOf('### Layout'))}${GAPS}`).map((d) => d.title);
    expect(slight(['- Code syntax highlighting (via Highlight.js)'])).not.toContain('Highlighting');
    expect(slight(['- `/home/dev/projects/app-worktrees/app-feature/priv/static/assets/app.css` (transcript classes)'])).not.toContain('Highlighting');
    expect(slight(['- Code syntax highlighting (via Highlight.js)', '- Languages are registered in `assets/js/hljs.js` via `hljs.registerLanguage`'])).toContain('Highlighting');
  });

  it('drops a section that only points elsewhere: a location label, "see above"; a line position goes with its preposition', () => {
    const titles = (lines: string[]) =>
      fromReport(`## Exploration Report\n\n### PaneListLive\n${lines.join('\n')}\n\n${report.slice(report.indexOf('### Build'), report.indexOf('### Layout'))}${GAPS}`).map((d) => d.title);
    expect(titles(['- **Location:** `/home/dev/projects/app-worktrees/app-feature/lib/app_web/live/pane_list_live.ex`'])).not.toContain('PaneListLive');
    expect(titles(['- See sections 1 (the SessionLive and SubagentLive templates) above for the complete inline templates'])).not.toContain('PaneListLive');
    expect(titles(['- Project filter state lives in the `:project_filter` computer of `lib/app_web/live/pane_list_live.ex`, whose `filter_project` event sets `selected_project_id`'])).toContain('PaneListLive');
    const text = fromReport(`## Exploration Report\n\n### Styles\n- \`priv/static/assets/app.css\` holds the transcript classes at lines 969-1168, maintained by hand\n- Row colours come from \`row_class/1\` in \`lib/app_web/live/page_live.ex\`\n\n${GAPS}`).map((d) => d.text).join('\n');
    expect(text).toContain('holds the transcript classes, maintained by hand');
  });

  it('drops a closing summary the user answers with a correction', () => {
    const summary = [
      '## Storage layout',
      '',
      '### Where state lives',
      '- The sync state lives in `storeA` under `~/.app/state.jsonl`, one record per line',
      '- Each record carries a `recordType` field read by `loadState`',
      '- Old clients keep reading `storeA` through `loadState` unchanged',
      '- The writer in `src/state.ts` appends records atomically with `writeAtomic`',
      '- Records older than the `retention` setting are pruned on start',
      '- A corrupt line is skipped by `loadState` with a warning naming the line number',
      '- `writeAtomic` writes to a temporary file first and renames it over `state.jsonl`',
    ].join('\n');
    const session = (reply: string) => {
      const b = new SessionBuilder().user('describe the storage');
      for (let i = 0; i < 3; i++) b.tool('Read', { file_path: `/home/dev/demo/src/f${i}.ts` }, 'storeA state.jsonl recordType loadState src/state.ts writeAtomic retention');
      return b.assistant(summary).user(reply).build();
    };
    expect(reportFactDrafts(viewOf(session('thanks, now add a test for it'))).length).toBeGreaterThan(0);
    expect(reportFactDrafts(viewOf(session("no, it's not a jsonl file, it's json")))).toEqual([]);
    expect(reportFactDrafts(viewOf(session('it still does it after the restart')))).toEqual([]);
  });

  it("drops a subagent's section about a file its parent session changed later, named by path or by module", () => {
    const sections = [
      '## Exploration Report',
      '',
      '### TranscriptRenderer Service API',
      '#### Subagent Detection',
      '- Reads `agent_id` from the message map and falls back to matching `/agent-[a-z0-9]+/` in the text',
      '- Each row gets `row_class/1` classes such as `is-tool-use` and `is-tool-result` for the stylesheet',
      '',
      '### PageLive (`lib/app_web/live/page_live.ex`)',
      '- Loads messages via `load_messages/1` filtering by `session_id`, then calls `Renderer.render/2` with `cwd`',
      '- Row classes come from `row_class/1`: `is-tool-use`, `is-tool-result`, `is-thinking`',
      '',
    ].join('\n');
    const text = (parentEditsAfter?: string[]) => {
      const b = new SessionBuilder({ parentId: 'parent-1', subagent: 'Explore', ...(parentEditsAfter ? { parentEditsAfter } : {}) }).user('explore the rendering');
      for (const f of ['renderer.ex', 'page_live.ex', 'build.js']) b.tool('Read', { file_path: `/home/dev/demo/lib/${f}` }, 'agent_id row_class/1 is-tool-use is-tool-result load_messages/1 Renderer.render/2 assets/build.js priv/static/assets/');
      return reportFactDrafts(viewOf(b.assistant(`${sections}${report.slice(report.indexOf('### Build'))}\n${GAPS}`).build())).map((d) => d.text).join('\n');
    };
    expect(text()).toContain('agent_id');
    expect(text()).toContain('load_messages/1');
    const later = text(['page_live.ex', 'transcript_renderer.ex']);
    expect(later).not.toContain('load_messages/1'); // the PageLive section, by its path
    expect(later).not.toContain('agent_id'); // under "TranscriptRenderer Service API": transcript_renderer.ex
    expect(later).toContain('assets/build.js');
  });

  it("leaves out a closing report's section about a file the session itself wrote: the file says it", () => {
    const closing = (edited?: string) => {
      const b = new SessionBuilder().user('start the app');
      const seen = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
      b.bash('cat package.json', seen).bash('cat convex.json', seen).bash('ls app', seen);
      if (edited) b.tool('Edit', { file_path: `/home/dev/app/${edited}`, old_string: 'a', new_string: 'b' }, 'updated');
      b.assistant('How the app runs:\n1. The Convex backend runs with `npx convex dev` and writes `NEXT_PUBLIC_CONVEX_URL` to `.env.local`\n2. The Next.js app runs with `npm run dev` at http://localhost:3000 and reads `.env.local`\n\n## `convex.json`\n- It pins the deployment used by `npx convex dev` for this checkout, so every developer gets the same backend\n- `NEXT_PUBLIC_CONVEX_URL` comes from the deployment that `convex.json` names\n\n## Notes\n- The root route `/` has no page yet, so it answers 404 until `app/page.tsx` exists\n- Both processes must run at the same time: the app reads `NEXT_PUBLIC_CONVEX_URL` at start');
      return reportFactDrafts(viewOf(b.user('thanks, now add the page').build())).map((d) => d.text).join('\n');
    };
    expect(closing()).toContain('It pins the deployment');
    expect(closing('src/other.ts')).toContain('It pins the deployment');
    const wrote = closing('convex.json');
    expect(wrote).not.toContain('It pins the deployment');
    expect(wrote).toContain('The Convex backend runs with `npx convex dev`');
  });

  it("leaves out a run's result (\"53 passed\") and the count in a heading (\"Tests (12 total)\")", () => {
    const drafts = fromReport(`## Report\n\n### Tests (12 total)\n- Integration tests clean the database with \`ticketRepository.deleteAll\` in \`@BeforeEach\`, so no test sees another's tickets\n- \`gradle test\` in \`backend\` — 53 passed\n- The \`*IT\` classes use Postgres Testcontainers and run with \`gradle integrationTest\` when Docker is up\n\n${GAPS}`);
    const text = drafts.map((d) => d.text).join('\n');
    expect(text).toContain('`ticketRepository.deleteAll`');
    expect(text).not.toMatch(/53 passed|12 total/);
  });

  it('leaves out a line that only points at one line of a file (a diagnostic of the day)', () => {
    const text = fromReport(`## Report\n\n### Build (\`turbo.json\`)\n- \`pnpm build\` runs \`turbo build\` over every package and writes \`dist/\` per package\n- \`turbo.json\` caches the \`build\` outputs in \`dist/**\`, so a second build of an unchanged package is skipped\n- \`packages/rich-renderers/src/image.ts:1\`\n- \`packages/rich-renderers/src/video.ts:12:4\`\n\n${GAPS}`).map((d) => d.text).join('\n');
    expect(text).toContain('`pnpm build` runs `turbo build`');
    expect(text).not.toContain('image.ts:1');
  });

  it('leaves out a count and the roll call after it: both are stale at the next addition, and the registry says them', () => {
    const text = fromReport(`## Report\n\n### Provider Registry (\`src/providers/core/registry.ts\`)\n- 7 providers: OpenAI, Azure OpenAI, AWS Bedrock, Ollama, LiteLLM, AI-Run SSO\n- Declarative templates with the \`registerProvider\` decorator in \`src/providers/core/registry.ts\`\n- Each provider's health check lives in \`src/providers/<name>/health.ts\`, run by \`codemie doctor\`\n\n${GAPS}`).map((d) => d.text).join('\n');
    expect(text).toContain('`registerProvider` decorator');
    expect(text).not.toContain('OpenAI, Azure OpenAI');
    expect(text).not.toContain('7 providers');
  });

  it('names a section by its own heading when that names a file, not by the path of headings above it', () => {
    const lines = '- HTTP: Bandit adapter on `127.0.0.1:4010`, set in `config/dev.exs`\n- Per-worktree overrides go in `config/dev.local.exs`, which `scripts/setup_worktree.sh` writes\n';
    const texts = (inner: string) => fromReport(`## Report\n\n## CONFIG FILES\n\n### ${inner}\n${lines}\n${GAPS}`).map((d) => d.text);
    expect(texts('config/dev.exs')[0]).toMatch(/^config\/dev\.exs: HTTP: Bandit adapter/);
    // a heading in capitals is typography: the subject reads in sentence case (a file name keeps its own)
    expect(texts('Endpoint settings')[0]).toMatch(/^Config files \/ Endpoint settings: HTTP: Bandit adapter/);
    const mixed = fromReport(`## Report\n\n## MIX.EXS DEPENDENCIES\n\n### Web stack\n${lines}\n${GAPS}`).map((d) => d.text);
    expect(mixed[0]).toMatch(/^mix\.exs dependencies \/ Web stack: /);
  });

  it('names a section by its own heading and the place the heading above names ("… (`src/utils/`)"), not by the path of headings', () => {
    const lines = '- Use dynamic imports (`await import(\'../processes.js\')`) so that `vi.spyOn(exec, \'exec\')` is set before the module loads\n- Static imports bind `exec` in `src/utils/processes.ts` before any spy exists\n';
    const [d] = fromReport(`## Report\n\n## Utils System (\`src/utils/\`)\n\n### Testing Pattern for exec-dependent modules\n${lines}\n${GAPS}`);
    expect(d!.title).toBe('Testing Pattern for exec-dependent modules (src/utils/)');
    expect(d!.text.startsWith('Testing Pattern for exec-dependent modules (`src/utils/`): ')).toBe(true);
  });

  it('names a section by the heading above when its own names only an aspect ("Current State")', () => {
    const drafts = (inner: string, lines: string) => fromReport(`## Report\n\n## DATABASE\n\n### ${inner}\n${lines}\n${GAPS}`);
    const db = drafts('Current State', '- SQLite via `ash_sqlite` and `ecto_sqlite3` in `mix.exs`\n- Repo: `lib/app/repo.ex` using `AshSqlite.Repo`\n');
    expect(db[0]!.text).toMatch(/^Database: SQLite via `ash_sqlite`/);
    // the heading alone says little: the title goes on with what the section says of it
    expect(db[0]!.title).toBe('Database: SQLite via ash_sqlite and ecto_sqlite3 in mix.exs');
    // unless that line is a labelled entry of its own
    const labelled = drafts('Key Concepts', '- Repo: `lib/app/repo.ex` using `AshSqlite.Repo` with `ash_sqlite`\n- Migrations: `priv/repo/migrations` run by `mix ash.migrate`\n');
    expect(labelled[0]!.title).toBe('Database');
    expect(drafts('Connection Pooling', '- Repo: `lib/app/repo.ex` using `AshSqlite.Repo` with `ash_sqlite`\n- Migrations: `priv/repo/migrations` run by `mix ash.migrate`\n')[0]!.title).toBe('Database / Connection Pooling');
  });

  it('needs a subject: lines that start with their verb under a generic heading say nothing alone', () => {
    const lines = '- Streams terminal output via `Phoenix.Channel` to the `assets/js/app.js` clients\n- Uses `xterm.js` from `assets/vendor/` for each pane view\n';
    const titles = (heading: string) => fromReport(`## Report\n\n### ${heading}\n${lines}\n${GAPS}`).map((d) => d.title);
    expect(titles('PaneChannel (lib/app_web/channels/pane_channel.ex)')).toEqual(['PaneChannel (lib/app_web/channels/pane_channel.ex)']);
    expect(titles('Summary')).toEqual([]);
    // a heading whose subject is a pronoun names nothing either
    expect(titles('What it does')).toEqual([]);
  });

  it('leaves out prose the rules cannot read, offers, "you can now" lines and placeholders', () => {
    const good = '- Entry is `assets/js/app.js`, output goes to `priv/static/assets/`\n- The dev endpoint runs `node build.js --watch` from `assets/`\n';
    const text = (line: string) => fromReport(`## Report\n\n### Build (assets/build.js)\n${good}${line}\n\n${GAPS}`).map((d) => d.text).join('\n');
    expect(text('- Assets are fingerprinted by `phx.digest` into `priv/static/cache_manifest.json`')).toContain('cache_manifest.json');
    // the working tree of the moment: stale at the next commit
    expect(text('- `assets/vendor/` is untracked: `git status` shows it as `??`, so `git log -- assets/vendor/` returns nothing')).not.toContain('git log');
    // who did what is in git log, and names a person
    expect(text('- `assets/build.js` was added in one commit, authored by Eoinl12 via the web UI, with `esbuild` as its only dependency')).not.toContain('Eoinl12');
    expectLeftOut(text, 'priv/static/assets/', [
      '- 入口是 `assets/js/app.js`，输出到 `priv/static/assets/` 目录，由 esbuild 构建并在开发时监听变化',
      '- If you want, I can also move `assets/build.js` to `scripts/build.mjs`',
      '- You can now run `node assets/build.js --watch` from `assets/` to rebuild on change',
      '- The bundle deploys to `https://vercel.com/<your-team-or-username>/app` via `vercel --prod`',
      '- SQLite database for the assets cache: `database: "../path/to/your.db"` in config/dev.exs',
      // one session's file, named by its id
      '- Source copied from the session file `~/.codex/sessions/2026/02/13/rollout-2026-02-13T12-48-41-019c581e-8542-7bb1-b7e1-7e6221c3047c.jsonl`',
    ]);
  });

  it('leaves out what a review says about the change under review', () => {
    const review = '## Security review\n\n### Generator (lib/generator/rerank.ts)\n- `rerank.ts` replaces the `.max(24)` throw with a `clampName` transform; the diff introduces no new sink\n- Model output `name` flows to `Look.name` and is rendered as React text, so it is escaped\n- `lib/generator/rerank.ts` validates every candidate with the zod schema in `lib/generator/schema.ts`\n';
    const closing = (task: string) => {
      const b = new SessionBuilder().user(task);
      for (const f of ['rerank.ts', 'schema.ts', 'look.tsx']) b.tool('Read', { file_path: `/home/dev/demo/lib/generator/${f}` }, 'clampName Look.name .max(24) zod lib/generator/schema.ts React text');
      return reportFactDrafts(viewOf(b.assistant(`${review}\n${GAPS}`).build())).map((d) => d.text).join('\n');
    };
    expect(closing('Review this change for security vulnerabilities. Changed files: lib/generator/rerank.ts')).toBe('');
    const explored = closing('Explain how the generator ranks looks');
    expect(explored).toContain('validates every candidate');
    expect(explored).not.toContain('the diff introduces');
  });

  it("leaves out sections that announce the agent's change, a promise, or instructions for the user", () => {
    const titles = (heading: string) =>
      fromReport(`## Report\n\n### ${heading}\n- The launcher \`launch.applescript\` kills the process on port \`8091\` before it starts \`app.py\`\n\n${GAPS}`).map((d) => d.title);
    expect(titles('Launcher (launch.applescript)')).toHaveLength(1);
    for (const heading of ['Enhanced Port Cleanup', 'Launcher (Updated - shows Terminal)', 'This solution will', 'Key differences from the previous version', 'If you want to customize the icon', 'All Fixes Applied Successfully!', 'Test Results', "Here's what was added", 'What has been changed', 'No security-relevant behavior change', 'No issues found', 'S017 — /implement S6 complete', 'Critic round closed — ship as-is plus two fixes', 'File touched', 'Files changed', 'Modified files']) expect(titles(heading), heading).toEqual([]);
    expect(titles('Autocomplete launcher')).toHaveLength(1);
  });

  it("leaves out what the agent reports it did in a closing summary (\"I've started both servers:\")", () => {
    const closing = (lead: string, before = '') => {
      const b = new SessionBuilder().user('start the app');
      const seen = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
      b.bash('cat package.json', seen).bash('cat convex.json', seen).bash('ls app', seen);
      const text = `${lead}\n${before}1. The Convex backend runs with \`npx convex dev\` and writes \`NEXT_PUBLIC_CONVEX_URL\` to \`.env.local\`\n2. The Next.js app runs with \`npm run dev\` at http://localhost:3000 and reads \`.env.local\`\n\n## Notes\n- The root route \`/\` has no page yet, so it answers 404 until \`app/page.tsx\` exists\n- \`convex.json\` pins the deployment used by \`npx convex dev\` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads \`NEXT_PUBLIC_CONVEX_URL\` at start`;
      return reportFactDrafts(viewOf(b.assistant(text).user('thanks, now add the page').build())).map((d) => d.text).join('\n');
    };
    expect(closing('How the app runs:')).toContain('The Convex backend runs with');
    expect(closing("I've started both the development servers:")).not.toContain('The Convex backend runs with');
    // what the agent just did to the repository ("Pushed. The app is live at …") is this turn's outcome
    expect(closing('Pushed. The Convex backend runs with `npx convex dev`, as the README now says.')).not.toContain('Pushed.');
    expect(closing('Implemented the dev setup with:')).not.toContain('The Convex backend runs with');
    // the reply handing over its own edit ("Here is the corrected block. It will find …")
    expect(closing('How the app runs:', '- Here is the corrected `convex.json` block. It will find the deployment line in `convex.json` and pin it\n')).not.toContain('Here is the corrected');
    // a lead sentence that reports the agent's work makes the rest a report of that work
    expect(closing('I installed both servers and set them up. `npm run dev` starts the app.')).not.toContain('The Convex backend runs with');
    expect(closing('How the app runs:', '- I also added `app/page.tsx` to the routes read by `npx convex dev`\n')).not.toContain('I also added');
    // what it read or checked this turn is its work too ("I read `convex.json` (note: …)")
    expect(closing('How the app runs:', '- I read `convex.json` (note: it pins the deployment for `npx convex dev`)\n')).not.toContain('I read');
    // a line that says where the session put a file ("New story file at `…`", "Story list updated in `…`")
    const placed = closing('How the app runs:', '- New page file at `app/page.tsx` for the root route of the app\n- The deployment pin for `npx convex dev` updated in `convex.json`\n');
    expect(placed).not.toMatch(/New page file|updated in/);
    expect(closing('How the app runs:', '- The root route of the app is served from `app/page.tsx`\n')).toContain('served from `app/page.tsx`');
    expect(closing('Both servers are now started and read `.env.local`:')).not.toContain('The Convex backend runs with');
    // a reply that thanks the user or says what the user gave talks about the chat, not the repository
    expect(closing('Thank you! You have now added:')).not.toContain('The Convex backend runs with');
    expect(closing("You've shared the config files:")).not.toContain('The Convex backend runs with');
    // a polite or causal "thanks" is no talk about what the user gave
    expect(closing('Thanks to `convex.json`, every checkout uses the same backend:')).toContain('The Convex backend runs with');
    expect(closing('Thanks for the details. How the app runs:')).toContain('The Convex backend runs with');
    // the agent announcing its find, and a commit's SHA, are no part of the fact
    const found = closing('How the app runs:', '- Found it. The latest commit (`48ce1136a2`) moved `NEXT_PUBLIC_CONVEX_URL` from `.env.local` into `convex.json`\n');
    expect(found).toContain('The latest commit moved `NEXT_PUBLIC_CONVEX_URL`');
    expect(found).not.toMatch(/Found it|48ce1136a2/);
    for (const sha of ['(commit `48ce1136a2`)', 'in Commit 48ce1136a2']) expect(closing('How the app runs:', `- The latest change ${sha} moved \`NEXT_PUBLIC_CONVEX_URL\` from \`.env.local\` into \`convex.json\`\n`), sha).not.toContain('48ce1136a2');
    // nor is how it looked ("Looking at the git history, …")
    const looked = closing('How the app runs:', '- Looking at the git history, the latest commit moved `NEXT_PUBLIC_CONVEX_URL` from `.env.local` into `convex.json`\n');
    expect(looked).toContain('The latest commit moved `NEXT_PUBLIC_CONVEX_URL`');
    expect(looked).not.toContain('Looking at');
    // nor the answer word of a reply to the user's question ("No — …")
    for (const answer of ['No — ', 'Yes, ', 'Right: ']) {
      const answered = closing('How the app runs:', `- ${answer}the latest commit moved \`NEXT_PUBLIC_CONVEX_URL\` from \`.env.local\` into \`convex.json\`\n`);
      expect(answered, answer).toContain('The latest commit moved `NEXT_PUBLIC_CONVEX_URL`');
    }
    // also when the answer leads in to the list and so names it ("No — both must run, each for a reason:")
    const lead = closing('No — both processes must run, each for a reason:');
    expect(lead).toContain('Both processes must run, each for a reason');
    expect(lead).not.toContain('No —');
    expect(closing('How the app runs:', '- No issues remain once `convex.json` pins the deployment for `NEXT_PUBLIC_CONVEX_URL` in `.env.local`\n')).toContain('No issues remain');
    /** The app-start session: three looks, `before` the report, the report under `lead`, then `after`. */
    const reported = (after: (b: SessionBuilder) => SessionBuilder, before: (b: SessionBuilder) => SessionBuilder = (b) => b, lead = 'How the app runs:') => {
      const seen = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
      const b = before(new SessionBuilder().user('start the app').bash('cat package.json', seen).bash('cat convex.json', seen).bash('ls app', seen));
      return reportFactDrafts(viewOf(after(b.assistant(`${lead}\n1. The Convex backend runs with \`npx convex dev\` and writes \`NEXT_PUBLIC_CONVEX_URL\` to \`.env.local\`\n2. The Next.js app runs with \`npm run dev\` at http://localhost:3000 and reads \`.env.local\`\n\n## Notes\n- The root route \`/\` has no page yet, so it answers 404 until \`app/page.tsx\` exists\n- \`convex.json\` pins the deployment used by \`npx convex dev\` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads \`NEXT_PUBLIC_CONVEX_URL\` at start`)).build())).map((d) => d.text).join('\n');
    };
    // a summary the agent went on to act on (an edit after it, whatever the editor's tool name) closes nothing
    const actedOn = (tool: string) => reported((b) => b.tool(tool, { path: 'app/page.tsx' }, 'edited').assistant('Done.').user('thanks'));
    // a line in another language written in Latin letters: the rules' prose tests read only English
    expect(closing('How the app runs:', '- Die App wird mit `npm run dev` gestartet und liest die Datei `.env.local` beim Start\n')).not.toContain('Die App');
    expect(closing('How the app runs:', '- The app is started with `npm run dev` and reads `.env.local` at start, as the README says\n')).toContain('The app is started');
    // a turn's report on code that a later turn of the session rewrote describes code that is gone
    const later = (edit: boolean) =>
      reported((b) => {
        b.user('now add the page');
        if (edit) b.tool('Edit', { file_path: '/home/dev/app/lib/env.ts', old_string: 'const url = process.env.NEXT_PUBLIC_CONVEX_URL', new_string: 'const url = readConvexUrl()' }, 'updated');
        return b.assistant('Fixed.').user('thanks');
      });
    expect(later(false)).toContain('writes `NEXT_PUBLIC_CONVEX_URL`');
    expect(later(true)).not.toContain('NEXT_PUBLIC_CONVEX_URL');
    // a closing report that opens by naming the file the session wrote lists what went into it, in any language
    const wrote = (lead: string) =>
      reported((b) => b.user('thanks, now add the page'), (b) => b.tool('Write', { file_path: '/home/dev/app/CLAUDE.md', content: '# Guide' }, 'File created'), lead);
    expect(wrote('✅ **CLAUDE.md 파일을 생성했습니다!**')).toBe('');
    expect(wrote('How the app runs:')).toContain('The Convex backend runs with');
    expect(actedOn('unknown_tool')).toContain('The Convex backend runs with');
    for (const tool of ['edit_file_v2', 'copilot_replaceString']) expect(actedOn(tool), tool).toBe('');
    // a line that goes on from a change report ("Each has …") goes with it
    const each = '- Each panel of the page has a Collapse button in its header, wired in `app/page.tsx`\n';
    expect(closing('How the app runs:', each)).toContain('Each panel');
    const changed = '- Panels are now collapsible by default in `app/page.tsx`\n';
    expect(closing('How the app runs:', `${changed}${each}`)).toContain('Each panel'); // it names its subject
    expect(closing('How the app runs:', `${changed}- Each has a Collapse button in its header, wired in \`app/page.tsx\`\n`)).not.toContain('Each has');
  });
});

describe('errors the user pasted', () => {
  it('joins the pasted error with the agent\'s explanation and fix', () => {
    const session = new SessionBuilder()
      .user("./gen.py in.txt > out.html\n/home/dev/demo/gen.py:284: SyntaxWarning: invalid escape sequence '\\s'\n  script = \"\"\"")
      .tool('Edit', { file_path: '/home/dev/demo/gen.py', old_string: 'script = """', new_string: 'script = r"""' }, 'updated')
      .assistant('Good catch — that warning came from regex backslashes inside a normal Python triple-quoted string. Converted the script block to a raw string so backslashes are not escapes.')
      .build();
    const p = errorFixDrafts(viewOf(session)).find((d) => d.text.includes('SyntaxWarning'));
    expect(p?.category).toBe('pitfall');
    expect(p?.text).toContain('came from regex backslashes');
    expect(p?.text).toContain('raw string');
    expect(p?.title).toBe("./gen.py in.txt > out.html: SyntaxWarning: invalid escape sequence '\\s'");
    // a warning is printed, not a failure; the fix says what to do
    expect(p?.text).toMatch(/^`\.\/gen\.py in\.txt > out\.html` prints `SyntaxWarning/);
    expect(p?.text).toContain('Fix: Convert the script block to a raw string');
  });

  it("says nothing of a pasted error that names its own fix (a compiler's 'Did you mean …?')", () => {
    const session = (error: string) =>
      new SessionBuilder()
        .user(`npm run build\n./components/upload.tsx:76:5\nType error: ${error}`)
        .assistant('The error occurs because we are using `setUploadProgress` but the state setter is called `setFileUploadProgress`. Changed the call to match.')
        .tool('Edit', { file_path: '/home/dev/demo/components/upload.tsx', old_string: 'setUploadProgress(', new_string: 'setFileUploadProgress(' }, 'updated')
        .build();
    expect(errorFixDrafts(viewOf(session("Cannot find name 'setUploadProgress'. Did you mean 'setFileUploadProgress'?")))).toEqual([]);
    // (the same slip without the compiler's suggestion is told)
    expect(errorFixDrafts(viewOf(session("Cannot find name 'setUploadProgress'.")))).toHaveLength(1);
  });

  it("says nothing of an error in the program text the agent wrote on the command line (awk's, sed's, python -c's): a one-off script's slip", () => {
    const session = (command: string, error: string, fix: string) =>
      new SessionBuilder()
        .user('list the listening ports')
        .bash(command, error, 2)
        .assistant('The awk script failed because of the split call; using another way.')
        .bash(fix, 'port,process\n22,sshd')
        .build();
    const awk = "awk: cmd. line:1: (FILENAME=- FNR=13) fatal: split: second argument is not an array";
    expect(errorFixDrafts(viewOf(session(`ss -tulpnH | awk '{split($5,a,":"); print a[2]}'`, awk, `lsof -i -P -n | awk 'NR>1 {print $9}'`)))).toEqual([]);
    expect(errorFixDrafts(viewOf(session(`sed -e 's/a/b' ports.txt`, "sed: -e expression #1, char 5: unterminated `s' command", `sed -e 's/a/b/' ports.txt`)))).toEqual([]);
    expect(errorFixDrafts(viewOf(session(`python3 -c "print(ports"`, '  File "<string>", line 1\n    print(ports\n         ^\nSyntaxError: \'(\' was never closed', `python3 -c "print(1)"`)))).toEqual([]);
    // (the same failure where nothing marks the error as one of the script's text is told)
    const [told] = errorFixDrafts(viewOf(session(`echo "port" > ports.csv && ss -tulpnH | awk '{split($5,a,":"); print a[2]}'`, 'awk: fatal: split: second argument is not an array', `lsof -i -P -n | awk 'NR>1 {print $9}'`)));
    // (titled by the program whose error it is, not the line's write to a file)
    expect(told!.title).toBe('awk fails: awk: fatal: split: second argument is not an array');
  });

  it('says nothing of a pasted error that a later prompt pastes again: the fix did not hold', () => {
    const error = "./components/Report.tsx:77:23\nType error: Property 'inline' does not exist on type 'ExtraProps'.";
    const session = (later: string) =>
      new SessionBuilder()
        .user(`npm run build\n${error}`)
        .assistant('The error occurs because the `inline` prop is not in the types of the `code` component of ReactMarkdown 9. Changed the props to a typed interface.')
        .tool('Edit', { file_path: '/home/dev/demo/components/Report.tsx', old_string: 'inline,', new_string: 'className,' }, 'updated')
        .user(later)
        .build();
    expect(errorFixDrafts(viewOf(session('now add a footer')))).toHaveLength(1);
    expect(errorFixDrafts(viewOf(session(`npm run build\n${error.replace('Report.tsx:77:23', 'Summary.tsx:12:9')}`)))).toEqual([]);
  });

  it('names no fix when the agent only edited a file without saying what it changed', () => {
    const session = new SessionBuilder()
      .user("./gen.py in.txt > out.html\n/home/dev/demo/gen.py:284: SyntaxWarning: invalid escape sequence '\\s'")
      .assistant('The problem is that the invalid escape sequence warning came from regex backslashes inside a normal Python triple-quoted string.')
      .tool('Edit', { file_path: '/home/dev/demo/gen.py', old_string: 'script = """', new_string: 'script = r"""' }, 'updated')
      .build();
    const [p] = errorFixDrafts(viewOf(session));
    expect(p?.text).toContain('Cause: The invalid escape sequence warning came from regex backslashes');
    expect(p?.text).not.toContain('Fix:');
  });

  it("keeps no cause the user's next message refutes, and titles a bare error line by itself", () => {
    const session = (reply: string) =>
      errorFixDrafts(
        viewOf(
          new SessionBuilder()
            .user('The page crashes:\nError: Maximum update depth exceeded. This can happen when a component repeatedly calls setState.')
            .assistant('The problem is that `CalendarInner` calls `initState(props)` in an effect on `[props]`, so every store update gives new props and runs it again: maximum update depth exceeded.')
            .tool('Edit', { file_path: '/home/dev/app/Calendar.tsx', old_string: 'useEffect', new_string: '' }, 'updated')
            .assistant('Removed the duplicate effect.')
            .user(reply)
            .build(),
        ),
      );
    const [kept] = session('thanks, now the week view');
    expect(kept?.title).toBe('Error: Maximum update depth exceeded. This can happen when a…');
    expect(session('still doesn’t work, why did it work before?')).toEqual([]);
    expect(session("it still doesn't work")).toEqual([]);
    // a new complaint about something else is no refutation of this diagnosis
    expect(session('fixed, thanks. The logout link is not working on mobile though')).toHaveLength(1);
  });

  it('names no fix when a command and several edited files came between: each file is a step', () => {
    const b = new SessionBuilder().user('make the pin test pass').bash('cd backend && npm test', 'FAIL tests/pin.test.ts\nPrismaClientInitializationError: Invalid `prisma.user.create()` invocation', 1);
    b.bash('cd backend && npm install', 'added 555 packages');
    for (const f of ['pin.test.ts', 'setup-env.ts', 'jest.config.js']) b.tool('Edit', { file_path: `/home/dev/app/backend/${f}`, old_string: 'a', new_string: 'b' }, 'updated');
    const drafts = errorFixDrafts(viewOf(b.bash('cd backend && npm test -- --runInBand', 'PASS tests/pin.test.ts').build()));
    expect(drafts.map((d) => d.text).join('')).not.toContain('Fix:');
  });

  it('takes a success of the same command in another folder for no fix', () => {
    const fixed = (dir: string) =>
      failThenFix('cd backend && npm test', 'FAIL tests/pin.test.ts\nError: DATABASE_URL is not set because `.env` is missing', 'The tests fail because `DATABASE_URL` is not set: `backend/.env` is missing.', `cd ${dir} && npm test -- --runInBand`)[0]?.text ?? '';
    expect(fixed('backend')).toContain('Fix: `cd backend && npm test -- --runInBand` succeeded.');
    expect(fixed('~/src/shop/backend')).toContain('Fix: ');
    expect(fixed('frontend')).not.toContain('Fix:');
  });

  it('reads a heading of a spec that names errors ("Error messages: …") as no error', () => {
    const spec = (line: string) =>
      errorFixDrafts(
        viewOf(
          new SessionBuilder()
            .user(`Fix pinning for members.\n${line}`)
            .assistant('The problem is that the pin handler maps a FORBIDDEN error to a generic failure, so the toast says "Failed".')
            .tool('Edit', { file_path: '/home/dev/app/pin.ts', old_string: 'Failed', new_string: 'You cannot pin' }, 'updated')
            .build(),
        ),
      );
    expect(spec('Error messages: When a pin action fails, surface a human-readable message')).toEqual([]);
    expect(spec('Error: FORBIDDEN error when a member pins a message')).toHaveLength(1);
  });
});

/** The error → fix drafts of a session in which `failed` fails with `output`, the agent says
 * `said`, then `fix` succeeds. */
function failThenFix(failed: string, output: string, said: string, fix: string): ReturnType<typeof errorFixDrafts> {
  return errorFixDrafts(viewOf(new SessionBuilder().user('go on').bash(failed, output, 1).assistant(said).bash(fix, 'ok', 0).build()));
}

describe('the cause of a failure', () => {
  const failing = (explanation: string) => failThenFix('git add priv/static/assets/app.css', 'The following paths are ignored by one of your .gitignore files:\npriv/static/assets', explanation, 'git add -f priv/static/assets/app.css')[0]?.text ?? '';

  it("is the agent's diagnosis, never its next step padded on", () => {
    const text = failing('The CSS file is in `priv/static/assets/` which is gitignored. Let me check where the source CSS lives.');
    expect(text).toContain('Cause: The CSS file is in `priv/static/assets/` which is gitignored.');
    expect(text).not.toContain('Let me check');
    expect(failing('The CSS file is in `priv/static/assets/` which is gitignored. Let\'s try to:\n1. force it')).not.toContain("Let's try");
  });

  it('states a cause only in whole sentences: one too long to show whole reads as cut off', () => {
    const long = `The CSS file is in \`priv/static/assets/\` which is gitignored, ${'because the asset pipeline writes every bundle there and the release task copies them, '.repeat(2)}so it is never tracked.`;
    expect(failing(long)).not.toContain('Cause:');
    expect(failing('The CSS file is in `priv/static/assets/` which is gitignored.')).toContain('Cause:');
  });

  it("states the cause, not the agent finding it (\"I've found that …\")", () => {
    expect(failing("I've found that the CSS file is in `priv/static/assets/` which is gitignored.")).toContain('Cause: The CSS file is in `priv/static/assets/` which is gitignored.');
  });

  it('takes no guess made without the code, no lead-in to a block, and no numbered line for a cause', () => {
    // reasoning from the error message alone ("I don't have access to these files, but based on the error, …")
    expect(failing("I don't have access to these files, but based on the error, the issue is that `priv/static/assets` is gitignored.")).not.toContain('Cause:');
    // a sentence that led in to a code block that is left out says nothing alone
    expect(failing('This is happening because `.gitignore` contains:')).not.toContain('Cause:');
    // a cause found at a numbered line is that line of this version of the file
    expect(failing('The problem is that line 12 of `.gitignore` has `priv/static/assets` in it, because of the asset build.')).not.toContain('Cause:');
    expect(failing('The problem is that `.gitignore` lists `priv/static/assets`, because the asset build writes there.')).toContain('Cause:');
  });

  it("reads a checker's failure mark for the error, never a line of the diff it quotes, and no to-do list for a cause", () => {
    const lint = '     33    │ - ········iePatSurplus,\n        29 │ + ······snapshotAt("snap-1"),\n    ······ │ \nChecked 107 files in 36ms. No fixes applied.\nFound 6 errors.\n  × Some errors were emitted while running checks.';
    const [d] = failThenFix('npm run lint', lint, 'The formatter wants the `snapshotAt` calls on one line because they fit the line width.', 'npm run lint');
    expect(d?.text).toContain('fails with `× Some errors were emitted while running checks.`');
    expect(d?.text).toContain('Cause: The formatter wants');
    const [todo] = failThenFix('npm run lint', lint, 'Two small issues to fix: a typecheck error in T27 and the formatting of the `snapshotAt` calls.', 'npm run lint');
    expect(todo?.text ?? '').not.toContain('Cause:');
  });

  it('takes for no cause the error said again, a reasoning without the code, or a request to the user', () => {
    const pasted = (reply: string) =>
      errorFixDrafts(viewOf(new SessionBuilder().user("pytest fails:\nE   ModuleNotFoundError: No module named 'minisweagent'").assistant(reply).tool('Edit', { file_path: '/home/dev/bot/tests/conftest.py', old_string: 'a', new_string: 'b' }, 'updated').build()))
        .map((d) => d.text)
        .join('\n');
    expect(pasted('The problem is that `tests/conftest.py` imports `minisweagent` at the top, because the fixtures build its agent.')).toContain('Cause:');
    // "the module is not installed" is what "No module named …" says
    expect(pasted('The problem is that the `minisweagent` module is not installed.')).not.toContain('Cause:');
    expect(pasted("The issue is caused by a missing dependency (`minisweagent` not installed), which can't be fixed by editing source files.")).not.toContain('Cause:');
    // a reasoning tag is no word of the cause
    const tagged = pasted('<think> The problem is that `tests/conftest.py` imports `minisweagent` at the top, because the fixtures build its agent.');
    expect(tagged).toContain('Cause: `tests/conftest.py`');
    expect(tagged).not.toContain('<think>');
    expect(pasted("I don't have the actual code, but the problem is that `tests/conftest.py` imports `minisweagent` at the top, because the fixtures build its agent.")).not.toContain('Cause:');
    expect(pasted('The problem is that `tests/conftest.py` imports `minisweagent` at the top, so let me know which package provides it.')).not.toContain('Cause:');
  });

  it('keeps list items apart as sentences, and drops the conjunction that led into them', () => {
    const text = failing('We have a conflicting state:\n\n1. The `priv/static/assets` folder is ignored by `.gitignore` already\n2. But the stylesheet in it is tracked and must be added');
    expect(text).toMatch(/Cause: The `priv\/static\/assets` folder is ignored by `\.gitignore` already\. The stylesheet in it is tracked/);
  });
});

describe('what a failure teaches', () => {
  it("never reads a shell wrapper's missing command (one the command line never ran) as the machine's", () => {
    const b = new SessionBuilder()
      .user('check the types')
      .bash('cd ~/src/app && npm run type-check', "(eval):3: parse error near `cursor_snap_ENV_VARS...'\nzsh:1: command not found: dump_zsh_state", 1)
      .bash('pwd', 'zsh:1: command not found: dump_zsh_state', 1)
      .bash('tree src', 'zsh:1: command not found: tree', 127)
      .bash('find src -type d', 'src', 0);
    const all = extractSession(b.build());
    expect(all.map((c) => c.title).filter((t) => t.includes('dump_zsh_state'))).toEqual([]);
    expect(all.map((c) => c.title)).toContain('tree is not on the PATH');
  });

  it('says nothing of an error fixed by an edit that nobody explained, nor of a finding whose fix shows no changed line', () => {
    const b = new SessionBuilder()
      .user('fix the build')
      .bash('npm run build', "./src/Dialog.tsx:198:21\nType error: 'order.items' is possibly 'undefined'.", 1)
      .tool('Edit', { file_path: '/home/dev/app/src/Dialog.tsx' }, 'updated')
      .bash('npm run build', 'Compiled successfully', 0);
    expect(extractSession(b.build()).filter((c) => c.category === 'pitfall')).toEqual([]);
    const explained = new SessionBuilder()
      .user('fix the build')
      .bash('npm run build', "./src/Dialog.tsx:198:21\nType error: 'order.items' is possibly 'undefined'.", 1)
      .assistant('The build fails because `order.items` is optional in the `Order` type from the API client.')
      .tool('Edit', { file_path: '/home/dev/app/src/Dialog.tsx', old_string: 'order.items.map', new_string: '(order.items ?? []).map' }, 'updated')
      .bash('npm run build', 'Compiled successfully', 0)
      .build();
    // one error is one item, whichever rule read it
    const pitfalls = extractSession(explained).filter((c) => c.category === 'pitfall');
    expect(pitfalls).toHaveLength(1);
    expect(pitfalls[0]!.text).toContain('Cause: The build fails because `order.items` is optional');
  });

  it('never states an error read back as its cause, nor keeps an error the agent found harmless', () => {
    const failing = (explanation: string) => failThenFix('pip install -r requirements.txt', "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.", explanation, 'pip install -r requirements.txt --upgrade');
    expect(failing('The resolver fails because `flask` 3 requires `werkzeug` 3, which the old `requirements.txt` pins to 2.')).toHaveLength(1);
    expect(failing('There were some dependency conflicts with other packages in the Anaconda environment, but these shouldn\'t affect `flask`.')).toEqual([]);
    const readBack = failing('However, I noticed the output shows an ERROR from the dependency resolver because `flask` is pinned.');
    expect(readBack.map((d) => d.text).join('')).not.toContain('I noticed');
    expect(failing('It says to pin `werkzeug` because the resolver cannot take the installed packages into account.').map((d) => d.text).join('')).not.toContain('It says');
    // the error's code and what it means, a line of quoted code, the agent's plan: none says why
    const causes = (explanation: string) => failing(explanation).map((d) => d.text).join('');
    expect(causes("The errors are ResolutionImpossible, which means pip can't find versions that satisfy `flask`.")).not.toContain('which means');
    expect(causes('from flask import Flask  # needs `werkzeug` 3 because of the new routing')).not.toContain('from flask import');
    expect(causes('So the plan is to pin `werkzeug` because the resolver cannot upgrade it.')).not.toContain('the plan is');
    // the agent's own to-do in a cause is what anyone meeting the error has to do
    expect(causes('The resolver fails because I need to pin `werkzeug` 3 for `flask` 3.')).toContain('because you need to pin `werkzeug` 3');
    // what the agent does next ("Adding a mock so the test can run, then re-running …") is no cause
    expect(causes('Adding a `werkzeug` pin so the resolver can finish, then re-running the install because `flask` 3 needs it.')).not.toContain('Cause:');
    // the agent's own act this session is its story, not why the tool fails for the next one
    expect(causes('The resolver fails because I didn\'t pin `werkzeug` 3 in `requirements.txt` for `flask` 3.')).not.toContain('Cause:');
    expect(causes('I modified `requirements.txt` to include `werkzeug` 9 but the resolver fails due to the pin.')).not.toContain('Cause:');
    expect(causes("I'm pinning only `werkzeug` in `requirements.txt`, because the resolver fails on `flask` 3.")).not.toContain('Cause:');
    expect(causes("There's an npm error about a missing version of `werkzeug` because of the pin.")).not.toContain('Cause:');
    // which error is on screen is no cause of this one
    expect(causes('The main error showing in the browser is `TypeError: e[o] is not a function`, which is not from the resolver.')).not.toContain('Cause:');
    expect(causes('However, the resolver fails because `flask` 3 requires `werkzeug` 3, which the old `requirements.txt` pins to 2.')).toContain('Cause: The resolver fails because');
    // the same command again from the checkout, with nothing in between, is a retry, not a fix
    expect(failThenFix('cd ~/src/app && npm view enhanced-resolve versions --json | cat', 'npm error Missing script: "buildcd"', 'Let me run that again.', 'npm view enhanced-resolve versions --json | cat')).toEqual([]);
  });

  it("shows a command without the cd into this machine's folders, and never a plan as its cause", () => {
    const session = (said: string) => failThenFix('cd ~/Desktop/Coding/shop/services/web && npm run build', "Error: [postcss] It looks like you're trying to use `tailwindcss` directly as a PostCSS plugin.", said, 'cd services/web && npm install -D @tailwindcss/postcss && npm run build')[0]?.text ?? '';
    const text = session('The build fails because Tailwind CSS 4 moved its PostCSS plugin into the `@tailwindcss/postcss` package.');
    expect(text).toMatch(/^`npm run build` fails with/);
    expect(text).toContain('`cd services/web && npm install -D @tailwindcss/postcss && npm run build` succeeded');
    expect(text).not.toContain('Desktop');
    expect(session('We need to reply concisely to the user because the build is blocked by the `tailwindcss` plugin.')).not.toContain('We need to reply');
  });

  it('names no fix when many other steps came between the failure and the success', () => {
    const session = (said: string) => {
      const b = new SessionBuilder().user('commit it').bash('git commit -m "x"', 'Pre-commit validation failed: [DIALYZER] 2 errors', 1);
      if (said) b.assistant(said);
      return errorFixDrafts(viewOf(b.bash('mix format', '').bash('mix compile', 'ok').bash('mix dialyzer', 'done').tool('Edit', { file_path: '/home/dev/app/lib/app/summary.ex', old_string: 'a', new_string: 'b' }, 'updated').bash('mix test', '3 tests, 0 failures').bash('git commit -m "x"', '[main 1a2b3c4] x', 0).build()));
    };
    const stated = session('The hook blocks because `LLMChain.run` returns a 3-tuple `{:error, chain, reason}`, not `{:error, reason}`.');
    expect(stated).toHaveLength(1);
    expect(stated[0]!.text).not.toContain('Fix:');
    expect(stated[0]!.confidence).toBe(0.7);
    expect(session('')).toEqual([]);
  });

  it('says which flags the fix added or took away when the rest of the command is the same', () => {
    const pkgs = 'spotipy ytmusicapi rapidfuzz apple-music-python deezer-python requests';
    const b = new SessionBuilder()
      .user('install the deps')
      .bash(`pip3 install --user ${pkgs}`, 'error: externally-managed-environment\n\n× This environment is externally managed', 1)
      .assistant('pip refuses because this Debian Python is externally managed (PEP 668).')
      .bash(`pip3 install --user ${pkgs} --break-system-packages`, 'Successfully installed spotipy-2.26.0', 0);
    const text = errorFixDrafts(viewOf(b.build()))[0]!.text;
    // the whole command, clipped, would end before the flag that made it work
    // (a flag that overrides the check that failed is said to: it gets past the failure, it cures nothing)
    expect(text).toContain('Fix: the same command with `--break-system-packages` succeeded; that flag overrides the check that stopped the first run, so use it only where overriding it is wanted.');
    const tty = new SessionBuilder()
      .user('apply the dotfiles')
      .bash('chezmoi apply', 'chezmoi: .bashrc: could not open a new TTY: open /dev/tty: no such device or address', 1)
      .bash('chezmoi apply --force', '', 0);
    expect(errorFixDrafts(viewOf(tty.build()))[0]?.text).toContain('with `--force` succeeded; that flag overrides the check');
    const port = new SessionBuilder()
      .user('start it')
      .bash('npm run dev', 'Error: listen EADDRINUSE: address already in use :::3000', 1)
      .bash('npm run dev --port 3001', 'ready on http://localhost:3001', 0);
    expect(errorFixDrafts(viewOf(port.build()))[0]?.text ?? '').not.toContain('overrides');
    // Docker Desktop's port taken, freed on the way to the success among other steps: which of
    // them did it cannot be told, and the port held was the state of that moment
    const docker = new SessionBuilder()
      .user('start the stack')
      .bash('docker-compose up -d', 'Error response from daemon: Ports are not available: exposing port TCP 0.0.0.0:3740 -> 127.0.0.1:0: listen tcp 0.0.0.0:3740: bind: address in use', 1)
      .bash("lsof -i :3740 | grep LISTEN | awk '{print $2}' | xargs kill -9", '', 0)
      .bash('curl http://localhost:3700/health', '{"status":"ok"}', 0)
      .bash('docker-compose ps', 'harca-server   Up', 0)
      .bash('docker-compose up -d harca', 'Container harca-server  Started', 0);
    expect(errorFixDrafts(viewOf(docker.build()))).toEqual([]);
    const held = new SessionBuilder()
      .user('start the stack')
      .bash('docker-compose up -d', 'Error response from daemon: Ports are not available: exposing port TCP 0.0.0.0:3740 -> 127.0.0.1:0: listen tcp 0.0.0.0:3740: bind: address in use', 1)
      .assistant('It fails because another process is already listening on port 3740.');
    expect(errorFixDrafts(viewOf(held.build()))).toEqual([]);
    // a "fix" that found every package already there changed nothing: no item without a cause
    const already = new SessionBuilder()
      .user('install the deps')
      .bash(`pip3 install --user ${pkgs}`, 'error: externally-managed-environment', 1)
      .bash(`pip3 install --user ${pkgs} --break-system-packages`, 'Defaulting to user installation because normal site-packages is not writeable\nRequirement already satisfied: spotipy in ./.local/lib/python3.11/site-packages (2.26.0)\nRequirement already satisfied: redis>=3.5.3 in ./.local/lib/python3.11/site-packages (from spotipy) (7.0.1)', 0);
    expect(errorFixDrafts(viewOf(already.build()))).toEqual([]);
    expect(changedFlags('npm install --legacy-peer-deps', 'npm install')).toBe('without `--legacy-peer-deps`');
    expect(changedFlags('npm install --force', 'npm ci')).toBeUndefined();
    expect(changedFlags('pytest -x tests/a.py', 'pytest tests/b.py')).toBeUndefined();
  });

  it('states a cause in whole sentences', () => {
    const long = 'This happens because the `grid` macro does not pass `macros` on to `textGetter`, so `getchar` is read from undefined. The issue is in how the macro system passes the `macros` object to `runLayer` in autopaint mode.';
    const text = errorFixDrafts(viewOf(new SessionBuilder().user('Uncaught TypeError: Cannot read properties of undefined (reading \'getchar\')\nat textGetter (drawing.js:12)').assistant(long).tool('Edit', { file_path: '/home/dev/p5/src/macros.js', old_string: 'grid(p)', new_string: 'grid(p, macros)' }, 'updated').build()))[0]!.text;
    expect(text).toContain('Cause: This happens because the `grid` macro does not pass `macros` on to `textGetter`, so `getchar` is read from undefined.');
    expect(text).not.toContain('…');
  });

  it("takes no cause from the agent's private reasoning when no fix bore it out, unless it reads back what the tool said", () => {
    const failed = (explained: (b: SessionBuilder) => SessionBuilder) =>
      errorFixDrafts(viewOf(explained(new SessionBuilder().user('add tailwind').bash('npm install --prefer-offline', 'npm error code ETARGET\nnpm error notarget No matching version found for enhanced-resolve@^5.18.3.', 1)).build())).map((d) => d.text);
    const guess = 'The install fails because "next" requires an updated version of enhanced-resolve that is not published yet.';
    expect(failed((b) => b.reasoning(guess))).toEqual([]);
    // told to the user, it is the agent's stated diagnosis
    expect(failed((b) => b.assistant(guess))[0]).toContain('Cause: The install fails because "next" requires');
    // read back from the tool's own words
    const dialyzer = new SessionBuilder()
      .user('make the checks pass')
      .bash('mix dialyzer', 'lib/app/summary.ex:40:pattern_match\nThe pattern {:error, _reason} can never match the type {:error, %LLMChain{}, binary()}.', 2)
      .reasoning('The dialyzer says `LLMChain.run` returns `{:error, chain, reason}` (a 3-tuple) for errors, so the `{:error, reason}` clause can never match.');
    expect(errorFixDrafts(viewOf(dialyzer.build()))[0]!.text).toContain('Cause: The dialyzer says `LLMChain.run` returns');
  });
});

describe('tool quirks of the agent', () => {
  it('says a slow command goes to the background only when no later call of the tool was killed at its timeout', () => {
    const session = (later: string) =>
      new SessionBuilder()
        .user('restart the services')
        .tool('Bash', { command: 'svc shutdown && svc up', timeout: 30000 }, 'Command running in background with ID: b563cc0. Output is being written to: /tmp/tasks/b563cc0.output')
        .tool('Read', { file_path: '/tmp/tasks/b563cc0.output' }, 'Proceed with shutdown? [y/N]')
        .tool('Bash', { command: 'echo y | svc shutdown && svc up', timeout: 60000 }, later)
        .build();
    const titles = (later: string) => toolQuirkDrafts(viewOf(session(later))).map((d) => d.title);
    expect(titles('Shutting down… done\nStarting… done')).toContain('Bash moves slow commands to the background');
    expect(titles('Exit code 143')).not.toContain('Bash moves slow commands to the background');
    // a call that asked for the background itself was moved by nobody
    const asked = new SessionBuilder()
      .user('train it')
      .tool('Bash', { command: 'python train.py --epochs 200', timeout: 600000, run_in_background: true }, 'Command running in background with ID: bci9jmj. Output is being written to: /tmp/tasks/bci9jmj.output')
      .build();
    expect(toolQuirkDrafts(viewOf(asked)).map((d) => d.title)).not.toContain('Bash moves slow commands to the background');
    // what sets it off (the call's timeout) and no id of this session's task
    const [item] = toolQuirkDrafts(viewOf(session('Shutting down… done\nStarting… done'))).filter((d) => d.title.includes('background'));
    expect(item!.text).toContain('call to the `Bash` tool that reached its timeout (here 30000 ms) was not killed: it went on in the background (`running in background with ID: <id>`), running until it ends or is stopped');
    expect(item!.text + item!.quotes.join(' ')).not.toContain('b563cc0');
  });

  it('says a wrapper message hides the real error "every" time only when no failure came back otherwise', () => {
    const denied = 'failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: ';
    const session = (extra: boolean) => {
      const b = new SessionBuilder({ format: 'codex', agent: 'codex' }).user('render the log');
      b.tool('shell', { command: ['python3', 'render.py', 'a.jsonl'] }, `${denied}SyntaxError: invalid syntax`, { isError: true });
      b.tool('shell', { command: ['python3', 'render.py', 'b.jsonl'] }, `${denied}FileNotFoundError: b.jsonl`, { isError: true });
      if (extra) b.tool('shell', { command: ['rg', '-n', 'x', 'src'] }, 'exit code 1', { isError: true });
      return toolQuirkDrafts(viewOf(b.build())).find((d) => d.title.startsWith('Misleading failure'))!.text;
    };
    expect(session(false)).toBe('Every failing `shell` command is reported as `failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error` although its stderr shows the real error; read stderr before assuming that message.');
    expect(session(true)).toMatch(/^A failing `shell` command can be reported as /);
    // Codex 0.4x: `failed in sandbox: <stderr>`, no exit code; the sandbox's own kills are not among them
    const b = new SessionBuilder({ format: 'codex', agent: 'codex' }).user('run the tests');
    b.tool('shell', { command: ['bash', '-lc', 'pytest'] }, 'failed in sandbox: sandbox error: command was killed by a signal', { isError: true });
    b.tool('shell', { command: ['bash', '-lc', 'python3 -m pytest'] }, "failed in sandbox: E   TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'", { isError: true });
    b.tool('shell', { command: ['bash', '-lc', 'python3 -c'] }, 'failed in sandbox: Argument expected for the -c option', { isError: true });
    expect(toolQuirkDrafts(viewOf(b.build())).find((d) => d.title.startsWith('Misleading failure'))!.text).toBe(
      "A `shell` command that exits non-zero in the sandbox comes back as `failed in sandbox:` followed by its own stderr, with no exit code: the sandbox did not stop it (here `TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'`). Read that stderr before blaming the sandbox.",
    );
  });

  it('says what to do about cut output by the kind of call: narrow a search, slice a log; nothing where the tool says where the whole output is', () => {
    const drafts = (tool: string, input: Record<string, unknown>, output: string) => toolQuirkDrafts(viewOf(new SessionBuilder().user('find the config').tool(tool, input, output).build()));
    const cut = (tool: string, input: Record<string, unknown>, output: string) => drafts(tool, input, output)[0]!.text;
    // (Claude Code's message says the output was cut and names the file that holds all of it:
    // the next session reads that message too)
    const saved = '<persisted-output>\nOutput too large (34.6KB). Full output saved to: /home/dev/.claude/projects/x/tool-results/t.txt\n\nPreview (first 2KB):\na.json\n</persisted-output>';
    expect(drafts('Grep', { pattern: 'playwright' }, saved)).toEqual([]);
    expect(drafts('Bash', { command: 'cat build.log' }, saved)).toEqual([]);
    expect(cut('Grep', { pattern: 'playwright' }, 'a.json\n[... omitted 120 of 400 lines ...]\nz.json')).toContain('narrow the search (a path, a glob, a more specific pattern) instead of reading past the cut');
    expect(cut('shell', { command: 'cat build.log' }, 'line 1\n[... omitted 120 of 400 lines ...]\nline 400')).toContain("read large files or logs in slices (`sed -n 'a,bp'`, a search)");
    // (Codex's marker takes the middle's place)
    expect(cut('shell', { command: 'cat build.log' }, 'Total output lines: 400\n\nline 1\n[... omitted 120 of 400 lines ...]\nline 400')).toContain(
      'it keeps the head and the tail and puts `[... omitted N of M lines ...]` in place of the middle (after a `Total output lines: M` header);',
    );
    // the size cap, where one of the tool's outputs shows it
    const bySize = new SessionBuilder()
      .user('read the plan')
      .tool('shell', { command: 'cat plan.md' }, 'Total output lines: 367\n\nline 1\n[... omitted 111 of 367 lines ...]\nline 367')
      .tool('shell', { command: 'cat tasks.md' }, 'line 1\n[... output truncated to fit 10240 bytes ...]')
      .build();
    expect(toolQuirkDrafts(viewOf(bySize)).find((d) => d.title === 'shell output is truncated')!.text).toContain('(after a `Total output lines: M` header; it also cuts to 10240 bytes)');
    // the lines kept, where every cut output kept as many (and none was cut by size)
    const byLines = (totals: number[]) => {
      const b = new SessionBuilder().user('read the logs');
      for (const t of totals) b.tool('shell', { command: `cat log${t}.txt` }, `Total output lines: ${t}\n\nline 1\n[... omitted ${t - 256} of ${t} lines ...]\nline ${t}`);
      return toolQuirkDrafts(viewOf(b.build())).find((d) => d.title === 'shell output is truncated')!.text;
    };
    expect(byLines([342, 737, 265])).toContain('(after a `Total output lines: M` header; every longer output here kept 256 lines);');
    expect(byLines([342])).toContain('(after a `Total output lines: M` header);');
    // the agent's release, where the transcript names it: a tool's cap changes between releases
    const released = new SessionBuilder({ agent: 'codex', agentVersion: '0.46.0' }).user('read the log').tool('shell', { command: 'cat log.txt' }, 'Total output lines: 400\n\nline 1\n[... omitted 144 of 400 lines ...]\nline 400').build();
    expect(toolQuirkDrafts(viewOf(released))[0]!.text).toMatch(/^The `shell` tool of Codex 0\.46\.0 truncates long output/);
    // newer Codex counts tokens: what it kept is its header's count less the marker's
    expect(cut('exec_command', { cmd: 'rg -n router .' }, 'Original token count: 81978\nOutput:\nTotal output lines: 4141\n\njs/a.js:1: x…69978 tokens truncated…y\n./b.py:107: z')).toContain(
      'puts `…N tokens truncated…` in place of the middle (here about 12000 of 81978 tokens were kept, after an `Original token count` header);',
    );
    // …as many as the call's own max_output_tokens asked for: that argument is the cap
    expect(cut('exec_command', { cmd: 'find . -type f', max_output_tokens: 4000 }, 'Original token count: 199343\nOutput:\n./a…195343 tokens truncated…./z')).toBe(
      "The `exec_command` tool keeps the head and the tail of a long output, as many tokens as the call's `max_output_tokens` asks for (here 4000 of 199343), and puts `…N tokens truncated…` in place of the middle; ask for more with a larger `max_output_tokens`, or narrow the command.",
    );
    expect(cut('grep', { pattern: 'x' }, 'a\n[... omitted 120 of 400 lines ...]\nb')).toContain('narrow the search (a path, a glob, a more specific pattern)');
  });

  it("takes no cause of an aider edit-format refusal from the model's next reply: the model never sees aider's parser", () => {
    const session = new SessionBuilder({ agent: 'aider', format: 'aider' })
      .user('fix the image script')
      .tool('edit', { path: 'main.py' }, "The LLM did not conform to the edit format.\nhttps://aider.chat/docs/troubleshooting/edit-errors.html\nNo filename provided before ``` in file listing", { isError: true })
      .assistant('The script fails because `protobuf` and `sentencepiece` are missing from the environment, so you need to install them.')
      .build();
    const [d] = toolQuirkDrafts(viewOf(session));
    // (a quoted message keeps its backticks)
    expect(d!.text).toBe("Aider rejects the model's edit with `The LLM did not conform to the edit format`: `No filename provided before ``` in file listing`.");
  });

  it('says what the model wrote that aider could not read as an edit: the block without a file name, the line it put there', () => {
    const noName = 'The LLM did not conform to the edit format.\nhttps://aider.chat/docs/troubleshooting/edit-errors.html\nNo filename provided before ``` in file listing';
    const unnamed = new SessionBuilder({ agent: 'aider', format: 'aider' })
      .user('why does the script fail?')
      .assistant('Run it inside the virtual environment:\n\n```sh\nuv run main.py\n```')
      .tool('edit', {}, noName, { isError: true })
      .build();
    const [d] = toolQuirkDrafts(viewOf(unnamed));
    // (the title names the kind of cause: one item per kind)
    expect(d!.title).toBe('aider edit: No filename provided before ``` (blank line above a fence)');
    // aider names a block by the line right above it, said as the rule (no block of this session's); a command block is no file at all
    expect(d!.text).toContain("a block under a blank line names none, and aider rejected the whole reply.");
    expect(d!.text).not.toContain('(sh)');
    expect(d!.text).toContain('Fence only whole files here: no commands, trees or diagrams.');
    // a fence without a language that holds commands (`sudo apt install …`) is a command block too
    const bareCommands = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('finish the sniffer').assistant('All done. Quick start:\n\n```\nsudo apt install scapy iw\nsudo python3 sniff.py -i wlan0\n```').tool('edit', {}, noName, { isError: true }).build()))[0]!.text;
    expect(bareCommands).toContain('Fence only whole files here: no commands, trees or diagrams.');
    const code = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add matops').assistant('Here it is:\n\n```python\ndef matmul(a, b):\n    pass\n```').tool('edit', {}, noName, { isError: true }).build()))[0]!.text;
    expect(code).toContain("Put the file's path alone on the line right above the fence (any other line there is taken for the name).");
    // a file name fenced as a block of its own: a fence stands above the file's block, not the name
    const ownFence = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('fix the manifest').assistant('**manifest.json** (updated)\n```\nmanifest.json\n```\n```json\n{"name": "x"}\n```').tool('edit', {}, noName, { isError: true }).build()))[0]!.text;
    expect(ownFence).toContain('The reply put the file name `manifest.json` in a fenced block of its own, so in aider\'s whole edit format a fence, not the name, stood right above the file\'s block.');
    // the answer to a question: its block was an example, which aider's /ask mode reads as none
    const asked = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('explain this system').assistant('It serves:\n\n```http\nGET /api/users\n```').tool('edit', {}, noName, { isError: true }).build()))[0]!.text;
    expect(asked).toContain('A question drew the reply: ask with `/ask`, whose answers are not read as edits.');
    // asked in the user's language (Portuguese, Spanish, French, German) just the same
    for (const question of ['me explica o funcionamento desse sistema', 'cómo funciona este sistema', 'comment marche ce système', 'erkläre das System']) {
      const text = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user(question).assistant('It serves:\n\n```http\nGET /api/users\n```').tool('edit', {}, noName, { isError: true }).build()))[0]!.text;
      expect(text, question).toContain('ask with `/ask`');
    }
    const badName = 'The LLM did not conform to the edit format.\nhttps://aider.chat/docs/troubleshooting/edit-errors.html\nHere is the change.\n### app/styles/app.css\n````css\n<<<<<<< SEARCH\n^^^ Bad/missing filename. The filename must be alone on the line before the opening fence ```\n````';
    const heading = (retry: string) =>
      toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('pad the header').tool('edit', { path: '' }, badName, { isError: true }).tool('edit', { path: retry }, `Applied edit to ${retry}`).build()))[0]!.text;
    expect(heading('app/styles/app.css')).toContain("The reply named the file as `### app/styles/app.css` right above the block's opening fence. Resent with `app/styles/app.css` alone there, the edit applied. Put the bare path alone on the line right before the fence.");
    expect(heading('app/root.tsx')).not.toContain('Resent with');
    // (a blank line between the name and the fence is said: that was the slip, not the markup alone)
    const gap = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add a license').tool('edit', { path: '' }, badName.replace('### app/styles/app.css\n', '### LICENSE\n\n'), { isError: true }).build()))[0]!.text;
    expect(gap).toContain('The reply named the file as `### LICENSE`, with a blank line between it and the fence.');
  });

  it("takes aider's reason from its `^^^` mark, not from the model's words it quotes back, and keeps two reasons apart", () => {
    const quoted = 'The LLM did not conform to the edit format.\nhttps://aider.chat/docs/troubleshooting/edit-errors.html\nTo fix the error group `TS7006` and add explicit type annotations to the parameter `i` on line 131 in `src/pr-test.ts`, we need to modify the following:\n```python\n<<<<<<< SEARCH\n^^^ Bad/missing filename. The filename must be alone on the line before the opening fence ```';
    const noName = 'The LLM did not conform to the edit format.\nhttps://aider.chat/docs/troubleshooting/edit-errors.html\nNo filename provided before ``` in file listing';
    const [d] = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('fix the types').tool('edit', { path: '' }, quoted, { isError: true }).build()));
    expect(d!.title).toBe('aider edit: Bad/missing filename. The filename must be alone on the…');
    expect(d!.text + d!.quotes.join(' ')).not.toContain('TS7006');
    const [e] = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add matops').assistant('Here:\n\n```python\npass\n```').tool('edit', {}, noName, { isError: true }).build()));
    // (both errors are aider's one notice: the reason tells the lessons apart)
    expect(d!.signature).not.toBe(e!.signature);
  });

  it('says a failed edit block was written blind when aider had to ask to edit a file not added to the chat', () => {
    const failed = ['The LLM did not conform to the edit format.', '# 1 SEARCH/REPLACE block failed to match!', '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in app/root.tsx', '<<<<<<< SEARCH', 'import styles from "./styles/app.css";', '=======', '>>>>>>> REPLACE', 'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc'].join('\n');
    const session = (asked: string) => toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add the stylesheet').system(asked).tool('edit', { path: 'app/root.tsx', search: 'x', replace: 'y' }, failed, { isError: true }).build()));
    const [d] = session('Allow edits to app/root.tsx which was not previously added to chat? y');
    expect(d!.title).toBe('aider edit: SEARCH/REPLACE block failed to match (file not in the chat)');
    expect(d!.text).toContain('The failed block edited `app/root.tsx`, which had not been added to the chat: the model wrote its SEARCH text');
    expect(d!.text).toContain('Add a file to the chat (`/add`) before asking for edits to it.');
    expect(session('Added app/root.tsx to the chat')).toEqual([]);
    // an `/add` written inside the message was never run: that is why the file was not in the chat
    const inline = toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add the stylesheet import /add app/root.tsx').system('Allow edits to app/root.tsx which was not previously added to chat? y').tool('edit', { path: 'app/root.tsx', search: 'x', replace: 'y' }, failed, { isError: true }).build()));
    expect(inline[0]!.text).toContain("the message's `/add app/root.tsx` stood after its text, where aider runs no command, so the model wrote its SEARCH text without seeing the file. Send `/add` as a message of its own.");
    // newer aider names the file on the line above its question
    const [newer] = session('app/root.tsx\nAllow edits to file that has not been added to the chat? (Y)es/(N)o [Yes]: y');
    expect(newer!.text).toContain('The failed block edited `app/root.tsx`, which had not been added to the chat');
    // a file of that name the chat held (read-only, or another copy of it) was seen: not written blind
    const [seen] = session('Added app/root.tsx to the chat (read-only).\napp/root.tsx\nAllow edits to file that has not been added to the chat? (Y)es/(N)o [Yes]: y');
    expect(seen?.text ?? '').not.toContain('without seeing the file');
  });

  it("says why a udiff hunk failed only where aider made its file at the model's word; otherwise it is aider's reflection to the model", () => {
    const failed = ['The LLM did not conform to the edit format.', 'https://aider.chat/docs/troubleshooting/edit-errors.html', 'UnifiedDiffNoMatch: hunk failed to apply!', '', 'src/agents/core.ts does not contain lines that match the diff you provided!', 'Try again.', 'DO NOT skip blank lines, comments, docstrings, etc!'].join('\n');
    const session = (...notices: string[]) => {
      const b = new SessionBuilder({ agent: 'aider', format: 'aider' }).user('add .js to the imports');
      for (const n of notices) b.system(n);
      return toolQuirkDrafts(viewOf(b.tool('edit', { path: 'src/agents/core.ts' }, failed, { isError: true }).build()));
    };
    // the file was in the chat: aider's words go to the model, which resends the hunk
    expect(session('Added src/agents/core.ts to the chat.')).toEqual([]);
    // the model's path named no file: aider created it empty, and no hunk could match
    const [d] = session('Added core.ts to the chat.', 'src/agents/core.ts\nCreate new file? (Y)es/(N)o [Yes]: y');
    expect(d!.title).toBe('aider edit: UnifiedDiffNoMatch: hunk failed to apply! (file did not exist)');
    expect(d!.text).toContain('The hunk was for `src/agents/core.ts`, where no file existed: aider asked `Create new file?`, made it empty, so nothing could match. The chat held it as `core.ts`: use the chat\'s paths. Answer no to `Create new file?` for a file that should exist.');
    // started without git under --yes: nobody answers the question, and the chat's paths start where aider started
    const [noGit] = session('aider src/agents/core.ts --edit-format udiff --yes --no-git\nGit repo: none\nAdded core.ts to the chat.', 'src/agents/core.ts\nCreate new file? (Y)es/(N)o [Yes]: y');
    expect(noGit!.text).toContain('aider created it empty, so nothing could match. The chat held it as `core.ts` (`Git repo: none`: without git the chat\'s paths start where aider started): start aider inside the repository.');
    // (the flag right after the program is the same launch)
    const [yesFirst] = session('aider --yes src/agents/core.ts', 'src/agents/core.ts\nCreate new file? (Y)es/(N)o [Yes]: y');
    expect(yesFirst!.text).toContain('Under `--yes` aider creates such a file unasked.');
    // (with no file of that name in the chat, only what happened)
    const [alone] = session('src/agents/core.ts\nCreate new file? (Y)es/(N)o [Yes]: y');
    expect(alone!.text).not.toContain('The chat held');
  });

  it("says how a failed SEARCH block differs from the lines aider offered instead, when it is one habit: comments left out, other quotes", () => {
    const failed = (search: string[], actual: string[]) =>
      ['The LLM did not conform to the edit format.', '# 1 SEARCH/REPLACE block failed to match!', '', '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in scene.rb', '<<<<<<< SEARCH', ...search, '=======', 'x', '>>>>>>> REPLACE', '', 'Did you mean to match some of these actual lines from scene.rb?', '', '```', ...actual, '```', '', 'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc'].join('\n');
    const cause = (search: string[], actual: string[]) =>
      toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('hide the list').system('Added scene.rb to the chat').tool('edit', { path: 'scene.rb' }, failed(search, actual), { isError: true }).build()))[0]?.text ?? '';
    const code = ['if @command_window.active', 'update_command', 'end', 'if @list_window.active', 'update_list', 'end'];
    const commented = ['# when the command window is active', ...code.slice(0, 3), '# when the list window is active', ...code.slice(3)];
    expect(cause(code, commented)).toContain('Its SEARCH text left out the comment lines the file has between those lines (`# when the list window is active`): write SEARCH exactly as the file has it, comments included');
    expect(cause(["puts 'done'", 'update_list'], ['puts "done"', 'update_list'])).toContain('Its SEARCH text quoted strings otherwise than the file does');
    // other differences are aider's reflection to the model, which resends the block: no item
    expect(cause(['if @command_window.active', 'update_commands'], ['if @command_window.active', 'update_command'])).toBe('');
    // one lesson per cause: another cause is another item; the same cause in other lines is the same one
    const signed = (search: string[], actual: string[]) =>
      toolQuirkDrafts(viewOf(new SessionBuilder({ agent: 'aider', format: 'aider' }).user('hide the list').system('Added scene.rb to the chat').tool('edit', { path: 'scene.rb' }, failed(search, actual), { isError: true }).build()))[0]!.signature;
    const comments = signed(code, commented);
    expect(signed(["puts 'done'", 'update_list'], ['puts "done"', 'update_list'])).not.toBe(comments);
    expect(signed(['a = 1', 'b = 2'], ['a = 1', '# the second', 'b = 2'])).toBe(comments);
  });

  it("states aider's rule for an edit block that failed to match, not a line of the block or the model's retry", () => {
    const reflected = [
      'The LLM did not conform to the edit format.',
      'https://aider.chat/docs/troubleshooting/edit-errors.html',
      '# 1 SEARCH/REPLACE block failed to match!',
      '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src\\b.ts',
      '<<<<<<< SEARCH',
      "import { notUndefinedOrThrow } from './error.throw.ts';",
      '=======',
      '>>>>>>> REPLACE',
      'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc',
      'Just reply with fixed versions of the block above that failed to match.',
    ].join('\n');
    const session = new SessionBuilder({ agent: 'aider', format: 'aider' })
      .user('add the import')
      .tool('edit', { path: 'src/b.ts', search: "import { notUndefinedOrThrow } from './error.throw.ts';", replace: '' }, reflected, { isError: true })
      .assistant('Here is the fixed `SEARCH/REPLACE` block: the file uses a different import.')
      .build();
    // aider's reflection goes to the model, which resends the block: the item would only repeat it
    expect(toolQuirkDrafts(viewOf(session))).toEqual([]);
    // when aider says the reply's other blocks were applied, the item says so
    const partly = new SessionBuilder({ agent: 'aider', format: 'aider' })
      .user('add the import')
      .tool('edit', { path: 'src/b.ts', search: 'x', replace: '' }, reflected.replace('Just reply', "# The other 2 SEARCH/REPLACE blocks were applied successfully.\nDon't re-send them.\nJust reply"), { isError: true })
      .tool('edit', { path: 'src/b.ts', search: 'y', replace: '' }, 'Applied edit to src/b.ts')
      .build();
    const [applied] = toolQuirkDrafts(viewOf(partly));
    expect(applied!.text).toContain("It still applies the reply's other blocks and asks the model to resend only the failed one.");
    expect(applied!.title).toBe("aider applies a reply's other edit blocks when one fails to match");
    // the resent block went in, which verifies nothing about it
    expect(applied!.confidence).toBe(0.7);
    // with auto-commits, aider commits the blocks that applied before the model resends the other
    const committed = new SessionBuilder({ agent: 'aider', format: 'aider' })
      .user('add the import')
      .tool('edit', { path: 'src/b.ts', search: 'x', replace: '' }, reflected.replace('Just reply', "# The other 2 SEARCH/REPLACE blocks were applied successfully.\nDon't re-send them.\nJust reply"), { isError: true })
      .tool('commit', { hash: 'e6e6223', message: 'refactor: load all users at once' }, '')
      .assistant('Here is the corrected block.')
      .build();
    expect(toolQuirkDrafts(viewOf(committed))[0]!.text).toContain("It still applies the reply's other blocks, commits them (auto-commits: that commit holds the change without the failed block) and asks the model to resend only the failed one.");
  });

  it('leaves out a call that broke the tool\'s schema when the next call of that tool went through', () => {
    const refused = 'Output does not match required schema: /findings: must be array';
    const session = (fixed: boolean) =>
      new SessionBuilder()
        .user('review the diff')
        .tool('StructuredOutput', { findings: { findings: [] } }, refused, { isError: true })
        .tool('StructuredOutput', { findings: [] }, fixed ? 'ok' : refused, { isError: !fixed })
        .assistant('The schema requires findings to be an array at the top level, and the tool still rejects the output because it validates the whole object.')
        .build();
    expect(toolQuirkDrafts(viewOf(session(true)))).toEqual([]);
    expect(toolQuirkDrafts(viewOf(session(false))).map((d) => d.title)).toEqual(['StructuredOutput: Output does not match required schema: /findings: must be…']);
  });

  it('leaves out an edit refused because the file changed after it was read: another writer, not the tool', () => {
    const edit = (refusal: string) =>
      toolQuirkDrafts(
        viewOf(
          new SessionBuilder()
            .user('drop the duplicate entries from .gitconfig')
            .tool('Read', { file_path: '/home/dev/.gitconfig' }, '[safe]\n\tdirectory = /home/dev/dotfiles')
            .tool('Edit', { file_path: '/home/dev/.gitconfig', old_string: 'a', new_string: 'b' }, refusal, { isError: true })
            .assistant('Wait - the problem is every time I use git it adds more entries to this file.')
            .build(),
        ),
      );
    expect(edit('File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.')).toEqual([]);
    expect(edit('File has not been read yet. Read it first before writing to it.')).toEqual([]);
    // a refusal by the mode the user set says itself what is allowed, while that mode holds
    expect(edit('Tool execution denied by policy. You are in Plan Mode and cannot modify source code. You may ONLY use write_file or replace to save plans to the designated plans directory as .md files.')).toEqual([]);
    // a refusal about the edit itself is still told, with the agent's account of it
    expect(edit('Found 3 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true.').map((d) => d.title)).toHaveLength(1);
  });

  it('blames the sandbox for a host name that did not resolve only where the same command then ran outside it', () => {
    const unresolved = 'ssh: Could not resolve hostname github.com: -65563\nfatal: Could not read from remote repository.';
    const session = (retry: string) =>
      new SessionBuilder()
        .user('find the next feature number')
        // (`|| true` keeps the exit 0: the output says it failed)
        .tool('exec_command', { cmd: "git ls-remote --heads origin | grep -E 'refs/heads/[0-9]+-spec$' || true" }, unresolved, { exitCode: 0 })
        .tool('exec_command', { cmd: "git ls-remote --heads origin | grep -E 'refs/heads/[0-9]+-spec$' || true", with_escalated_permissions: true }, retry, { exitCode: 0 })
        .build();
    const titles = (retry: string) => toolQuirkDrafts(viewOf(session(retry))).filter((d) => d.title.includes('no network'));
    const [item] = titles('');
    expect(item).toMatchObject({ scope: 'agent', title: 'The sandbox has no network: host names do not resolve' });
    expect(item!.text).toBe(
      'The sandbox gives commands no network: `git ls-remote --heads origin` failed with `ssh: Could not resolve hostname github.com` (the whole command line still exited 0), and the same command ran when the call asked to leave the sandbox (`with_escalated_permissions: true`, which the user approves). Ask for that for any command that needs the network (a fetch, a push, an install).',
    );
    // outside the sandbox too: the machine is offline, not the sandbox's doing
    expect(titles(unresolved)).toEqual([]);
  });

  it('names a command the sandbox blocks only when the same command ran once the agent asked to leave the sandbox', () => {
    const denied = "fatal: Unable to create '/home/dev/demo/.git/index.lock': Operation not permitted";
    const session = (escalate: boolean) =>
      new SessionBuilder()
        .user('restore the generated files')
        .tool('exec_command', { cmd: 'git restore --source=HEAD -- build/' }, denied, { exitCode: 128 })
        .tool('exec_command', { cmd: 'git restore --source=HEAD -- build/', ...(escalate ? { sandbox_permissions: 'require_escalated' } : {}) }, escalate ? '' : denied, { exitCode: escalate ? 0 : 128 })
        .build();
    const quirks = toolQuirkDrafts(viewOf(session(true)));
    expect(quirks).toHaveLength(1);
    // (a write refused in git's own folder: every git command that writes meets it)
    expect(quirks[0]).toMatchObject({ scope: 'agent', title: "The sandbox keeps the repository's .git read-only: git writes need escalation" });
    expect(quirks[0]!.text).toContain('`git restore` failed with');
    expect(quirks[0]!.text).toContain('`sandbox_permissions: "require_escalated"`');
    // (only the spelling the session showed: reviewers found another version's unsupported)
    expect(quirks[0]!.text).not.toContain('with_escalated_permissions');
    // the checkout's path is this machine's: the error is shown from `.git/` on
    expect(quirks[0]!.text).toContain("failed with `fatal: Unable to create '.git/index.lock': Operation not permitted`");
    // the git writes named are those the session ran outside the sandbox, none it never ran
    const writes = toolQuirkDrafts(
      viewOf(
        new SessionBuilder()
          .user('commit and push')
          .tool('exec_command', { cmd: 'git add -A' }, denied, { exitCode: 128 })
          .tool('exec_command', { cmd: 'git add -A', with_escalated_permissions: true }, '', { exitCode: 0 })
          .tool('exec_command', { cmd: 'git commit -m x', with_escalated_permissions: true }, '[main 1a2b3c4] x', { exitCode: 0 })
          .tool('exec_command', { cmd: 'git push', with_escalated_permissions: true }, 'To github.com:o/r.git', { exitCode: 0 })
          .build(),
      ),
    )[0]!.text;
    expect(writes).toContain('Ask for that from the first git command that writes (here `git add`, `git commit` and `git push`).');
    expect(writes).not.toContain('git checkout');
    // a script's own git write is refused the same way: the same lesson, not one about the script
    const script = toolQuirkDrafts(
      viewOf(
        new SessionBuilder()
          .user('start the feature')
          .tool('exec_command', { cmd: '.specify/scripts/bash/create-new-feature.sh --json' }, "fatal: cannot lock ref 'refs/heads/001-x': Unable to create '/home/dev/demo/.git/refs/heads/001-x.lock': Operation not permitted", { exitCode: 128 })
          .tool('exec_command', { cmd: '.specify/scripts/bash/create-new-feature.sh --json', with_escalated_permissions: true }, '{"BRANCH_NAME":"001-x"}', { exitCode: 0 })
          .build(),
      ),
    );
    expect(script.map((d) => d.title)).toEqual(["The sandbox keeps the repository's .git read-only: git writes need escalation"]);
    // another command is named as it is
    const npm = "npm error code EPERM\nnpm error syscall mkdir\nnpm error path /home/dev/.npm/_cacache\nnpm error Error: EPERM: operation not permitted, mkdir '/home/dev/.npm/_cacache'";
    const cache = new SessionBuilder()
      .user('install the dependencies')
      .tool('exec_command', { cmd: 'npm ci' }, npm, { exitCode: 1 })
      .tool('exec_command', { cmd: 'npm ci', sandbox_permissions: 'require_escalated' }, 'added 120 packages', { exitCode: 0 })
      .build();
    expect(toolQuirkDrafts(viewOf(cache)).map((d) => d.title)).toEqual(['The sandbox blocks npm ci: rerun it with escalated permissions']);
    // the same bare refusal of several commands that then ran outside: one item naming them
    const bare = 'failed in sandbox: Operation not permitted';
    const both = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('start the feature')
      .tool('shell', { command: ['bash', '-lc', 'git fetch --all --prune'] }, bare, { exitCode: 1 })
      .tool('shell', { command: ['bash', '-lc', 'git fetch --all --prune'], with_escalated_permissions: true }, '', { exitCode: 0 })
      .tool('shell', { command: ['bash', '-lc', '.specify/scripts/bash/create-new-feature.sh --json x'] }, bare, { exitCode: 1 })
      .tool('shell', { command: ['bash', '-lc', '.specify/scripts/bash/create-new-feature.sh --json x'], with_escalated_permissions: true }, '{"BRANCH_NAME":"001-x"}', { exitCode: 0 })
      .build();
    const blocked = toolQuirkDrafts(viewOf(both)).filter((d) => d.title.startsWith('The sandbox blocks'));
    expect(blocked.map((d) => d.title)).toEqual(['The sandbox blocks git fetch and create-new-feature.sh: rerun them with escalated permissions']);
    expect(blocked[0]!.text).toBe(
      'In the sandbox `git fetch --all --prune` and `.specify/scripts/bash/create-new-feature.sh…` fail with `failed in sandbox: Operation not permitted`; the same commands ran when the call asked to leave the sandbox (`with_escalated_permissions: true`, which the user approves).',
    );
    // a permission error nothing resolved is a symptom, not a lesson
    expect(toolQuirkDrafts(viewOf(session(false)))).toEqual([]);
    // the sandbox failing to start the command at all is the same lesson; a command that ran in
    // it and failed (its stderr follows) is not
    const runner = 'execution error: Io(Custom { kind: Other, error: "windows sandbox: runner error: CreateProcessAsUserW failed: 1312" })';
    const started = (output: string) =>
      toolQuirkDrafts(viewOf(new SessionBuilder().user('list the repo').tool('shell_command', { command: 'Get-ChildItem -Force' }, output, { isError: true }).tool('shell_command', { command: 'Get-ChildItem -Force', sandbox_permissions: 'require_escalated' }, 'Exit code: 0\nOutput:\nsrc').build())).map((d) => d.title);
    // (the sandbox's own runner failing stops every command: the item is about the sandbox)
    expect(started(runner)).toEqual(['When the sandbox cannot start commands, ask to leave it for each one']);
    // bubblewrap's own error, as the stderr of the command it could not start, says the same
    const bwrap = 'exec_command failed for `/bin/zsh -lc pwd`: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 1, stderr: StreamOutput { text: \\"bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\\n\\" } } }))" }';
    expect(started(bwrap)).toEqual(['When the sandbox cannot start commands, ask to leave it for each one']);
    // the agent's own file edits that worked inside the sandbox need no escalation: said
    const edited = toolQuirkDrafts(viewOf(new SessionBuilder().user('set the proxy').tool('exec_command', { cmd: 'ls -la' }, bwrap, { isError: true }).tool('exec_command', { cmd: 'ls -la', sandbox_permissions: 'require_escalated' }, 'total 8').tool('apply_patch', { input: '*** Begin Patch\n*** Add File: .zshrc\n+export HTTP_PROXY=x\n*** End Patch' }, 'Success. Updated the following files:\nA .zshrc').build()));
    // (said as a condition: an item of the agent is read on machines where the sandbox works)
    expect(edited[0]!.text).toBe(
      'Where commands in the sandbox fail before they start with `bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted`, the sandbox cannot run them on that machine at all: the same commands ran when the call asked to leave the sandbox (`sandbox_permissions: "require_escalated"`; the user approves each call). After that error once, ask for it from the next command on. File edits (`apply_patch`) worked without it.',
    );
    // the stderr Codex prints as a Rust value is read as the text it holds
    expect(errorLine('exec_command failed for `/bin/zsh -lc "git checkout -b x"`: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, stderr: StreamOutput { text: \\"fatal: cannot lock ref \'refs/heads/x\': Operation not permitted\\\\n\\", truncated_after_lines: None } } }))" }')).toBe("fatal: cannot lock ref 'refs/heads/x': Operation not permitted");
    expect(started('failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: Get-ChildItem: Cannot find path')).toEqual([]);
  });

  it('names the sibling-cascade of parallel calls once', () => {
    const session = new SessionBuilder()
      .user('read these')
      .tool('Read', { file_path: '/home/dev/demo/a.heex' }, '<tool_use_error>File does not exist.</tool_use_error>', { isError: true })
      .tool('Read', { file_path: '/home/dev/demo/b.ex' }, '<tool_use_error>Sibling tool call errored</tool_use_error>', { isError: true, cascade: true })
      .tool('Read', { file_path: '/home/dev/demo/c.ex' }, '<tool_use_error>Sibling tool call errored</tool_use_error>', { isError: true, cascade: true })
      .tool('Read', { file_path: '/home/dev/demo/b.ex' }, '1→defmodule B do')
      .build();
    const quirks = toolQuirkDrafts(viewOf(session));
    expect(quirks).toHaveLength(1);
    expect(quirks[0]!.scope).toBe('agent');
    // (what to do is to fix what failed: the cancelled calls may go in one batch again)
    expect(quirks[0]!.text).toBe(
      'When one call in a batch of parallel tool calls fails (here `Read`, which failed with `File does not exist.`), the other calls return `Sibling tool call errored` without running: they did nothing. Re-issue them once what failed is fixed (the re-issued calls succeeded).',
    );
  });

  it('shows the truncation marker in its general form', () => {
    const session = new SessionBuilder({ format: 'codex', agent: 'codex' }).user('read the log').tool('shell', { command: ['bash', '-lc', 'cat build.log'] }, 'line 1\n[... omitted 0 of 67 lines ...]\nline 67').build();
    const text = toolQuirkDrafts(viewOf(session)).map((d) => d.text).join('\n');
    expect(text).toContain('`[... omitted N of M lines ...]`');
  });

  it('quotes the patch line an apply_patch error points at, and its section', () => {
    const patch = (body: string) => `*** Begin Patch\n*** Add File: NOTES.md\n+# Notes\n${body}\n*** End Patch`;
    const session = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('add notes')
      .tool('shell', { command: ['apply_patch', patch('\n+more')] }, "error: invalid hunk at line 4, '' is not a valid hunk header.", { isError: true })
      .tool('shell', { command: ['apply_patch', patch('+\n+more')] }, 'Success. Updated the following files:\nA NOTES.md')
      .assistant('It looks like the patch tool rewrote the file behind my back.')
      .build();
    const text = toolQuirkDrafts(viewOf(session)).map((d) => d.text).join('\n');
    expect(text).toContain('Line 4 of the patch, in the `*** Add File: NOTES.md` section, was blank.');
    expect(text).not.toContain('rewrote the file');
  });

  it('never turns "Process running" polls of a unified exec into failures', () => {
    const session = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('run tests')
      .tool('exec_command', { cmd: 'npm test' }, 'Chunk ID: a1\nWall time: 1.0 seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n', { exitCode: 1 })
      .tool('write_stdin', { session_id: 42, chars: '' }, 'Chunk ID: a2\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 10\nOutput:\nTests 3 passed')
      .build();
    const view = viewOf(session);
    expect(view.steps).toHaveLength(1);
    expect(view.steps[0]!.failed).toBe(false);
    expect(view.steps[0]!.output).toContain('Tests 3 passed');
    expect(extractSession(session)).toEqual([]);
  });
});

/** Inserts an injected system event (as a reader renders a loaded Cursor rule) after event `after`. */
function withSystem(session: Session, after: number, text: string): Session {
  const events = [...session.events];
  events.splice(after + 1, 0, { kind: 'system', text, injected: true, index: -1, source: { file: 'test.jsonl', line: 0 } });
  return { ...session, events: events.map((e, i) => ({ ...e, index: i, source: { ...e.source, line: i + 1 } })) };
}

const RULE = [
  '### Rule: release-workflow',
  '',
  '```markdown',
  '# Release Workflow',
  '',
  '## Core Principles',
  '',
  '1. **Always use the release CLI for version data**',
  '   - NEVER edit `versions.lock` by hand',
  '   - ALWAYS query through the CLI:',
  '     ```bash',
  '     relctl versions list --json    # List versions',
  '     ```',
  '',
  '## Completion Checklist',
  '',
  '1. Changes are committed with the ticket id in the message',
  '2. The changelog is generated with `relctl notes --path .` and saved to `notes/<id>.md`',
  '3. Changes are pushed with `git push origin <branch>`',
  '',
  '## Examples',
  '',
  '- "What versions exist?" must be answered with `relctl versions list --json`',
  '```',
].join('\n');

describe('repo rules', () => {
  it("turns a loaded rule file's strongest directive section into a pattern, commands included, and no more of it", () => {
    const base = new SessionBuilder().user('cut a release').assistant('I need to fetch the release rule first.').bash('relctl versions list --json', '[]').build();
    const drafts = repoRuleDrafts(viewOf(withSystem(base, 1, RULE)));
    // (the agent is given the whole file anyway: the knowledge base keeps the rule that matters most)
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ category: 'pattern' });
    expect(drafts[0]!.text.startsWith('Repo rule `release-workflow`')).toBe(true);
    expect(drafts[0]!.text).toContain('`relctl versions list --json`');
    expect(drafts[0]!.text).toContain('NEVER edit `versions.lock` by hand');
    expect(drafts[0]!.text).not.toContain('What versions exist'); // example sections are not rules
  });

  it('keeps no rule section that names nothing to run or check', () => {
    const vague = ['# CLAUDE.md', '', '## Development Guidelines', '', '- Always make sure your memory is updated with the latest documentation before starting to code. Google it if not. Adhere to this rule strictly.'].join('\n');
    const concrete = `${vague}\n- Always run \`pnpm lint --fix\` before committing.`;
    const read = (text: string) => repoRuleDrafts(viewOf(new SessionBuilder().user('add the endpoint').tool('Read', { file_path: '/repo/CLAUDE.md' }, text).build()));
    expect(read(vague)).toEqual([]);
    // (with a command beside it, the section says what to run)
    expect(read(concrete).map((d) => d.text)).toEqual([
      'Repo rule `CLAUDE.md`: Development Guidelines: Always make sure your memory is updated with the latest documentation before starting to code. Google it if not. Adhere to this rule strictly; Always run `pnpm lint --fix` before committing.',
    ]);
    // a section of conduct principles is how to behave, even when a line names the product, and
    // even when a line cut from the item names a command
    const persona = [
      '# CLAUDE.md',
      '',
      '## Critical Operating Principles',
      '',
      '### User-Centric Intelligence',
      '- **Listen Actively**: Parse every word for meaning, intent, and context clues; always confirm the goal.',
      '- **Think Systemically**: Consider how each request fits into the broader ProjectTracker ecosystem; never rush.',
      '- **Respond Strategically**: Provide answers that address both immediate needs and underlying goals, always.',
      '- **Stay Humble**: Admit what you do not know and say so before you act on any assumption, always.',
      '- **Be Thorough**: Address every aspect of a complex request before you call the work done, always.',
      '- **Keep Going**: Always finish what you started before you begin something new, even when it is slow.',
      '- Always run `make check` before you report.',
    ].join('\n');
    expect(read(persona)).toEqual([]);
  });

  it('reads a prompt that only names a rule file as that rule governing the work, unless the agent then edits that file', () => {
    const mention = (then: (b: SessionBuilder) => SessionBuilder) =>
      repoRuleDrafts(viewOf(then(new SessionBuilder().user('fix the session start').tool('Edit', { file_path: '/repo/src/start.ts', old_string: 'a', new_string: 'b' }, 'ok').user('@test-driven-bugfix.mdc')).build()));
    expect(mention((b) => b.tool('Read', { file_path: '/repo/.cursor/rules/test-driven-bugfix.mdc' }, '# Test-driven bugfix')).map((d) => d.text)).toEqual([
      'The user points the agent to the project rule `test-driven-bugfix.mdc` right after the change to `start.ts`; work of this kind follows that rule file.',
    ]);
    // the file is what the user wants changed
    expect(mention((b) => b.tool('Edit', { file_path: '/repo/.cursor/rules/test-driven-bugfix.mdc', old_string: 'a', new_string: 'b' }, 'ok'))).toEqual([]);
    const named = new SessionBuilder().user('In test-driven-bugfix.mdc, reorder the lists. DO NOT change the contents.').assistant('Which lists?').user('test-driven-bugfix.mdc').assistant('The numbered list or the bullets?');
    expect(repoRuleDrafts(viewOf(named.build()))).toEqual([]);
  });

  it('reads rule files the agent opened, never our own bootstrap block', () => {
    const session = new SessionBuilder()
      .user('fix the build')
      .tool('Read', { file_path: '/home/dev/demo/AGENTS.md' }, '# Agents\n\n## Rules\n\n- Always run `make check` before committing.\n- Never edit `gen/` by hand; run `make gen` instead.')
      .tool('Read', { file_path: '/home/dev/demo/web/CLAUDE.md' }, '<!-- compound:bootstrap ids=k-1 -->\n- Always run `pnpm lint` first.\n<!-- /compound:bootstrap -->')
      .build();
    const texts = repoRuleDrafts(viewOf(session)).map((d) => d.text);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('`make check`');
    const own = withSystem(new SessionBuilder().user('hi').build(), 0, '### Rule: compound-knowledge\n\n<!-- compound:bootstrap ids=k-1 -->\n- Never commit `.env.local`.\n<!-- /compound:bootstrap -->');
    expect(repoRuleDrafts(viewOf(own))).toEqual([]);
  });

  it("leaves out the rule file the session's own agent loads at every start (Claude Code's CLAUDE.md in the working directory or above)", () => {
    const rules = '# CLAUDE.md\n\n## Rules\n\n- Always run `make check` before committing.';
    const read = (meta: Partial<Session>, file: string) => repoRuleDrafts(viewOf(new SessionBuilder(meta).user('fix the build').tool('Read', { file_path: file }, rules).build()));
    expect(read({}, '/home/dev/demo/CLAUDE.md')).toEqual([]);
    expect(read({}, '/home/dev/CLAUDE.md')).toEqual([]);
    expect(read({}, 'CLAUDE.md')).toEqual([]);
    // a sub-folder's file, or another agent's, was not in its context before it read it
    expect(read({}, '/home/dev/demo/web/CLAUDE.md')).toHaveLength(1);
    expect(read({ agent: 'codex', format: 'codex' }, '/home/dev/demo/CLAUDE.md')).toHaveLength(1);
  });

  it('notes a prompt that only points the agent at a rule file', () => {
    const session = new SessionBuilder()
      .user('fix the ordering bug')
      .tool('Edit', { file_path: '/home/dev/demo/src/start.ts', old_string: 'a', new_string: 'b' }, 'ok')
      .user('@test-driven-bugfix.mdc')
      .build();
    const drafts = repoRuleDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('pattern');
    expect(drafts[0]!.text).toContain('`test-driven-bugfix.mdc`');
    expect(drafts[0]!.text).toContain('`start.ts`');
  });
});

describe('error → fix details', () => {
  it('investigates a failing command the user pasted with its error (not a request to fail)', () => {
    const session = new SessionBuilder()
      .user('❯ tool start --id 8\nError starting: Item 8 not found.')
      .bash('tool start --id 8', 'Error starting: Command failed: git clone a b\nfatal: destination path \'b\' already exists and\nis not an empty directory.', 1)
      .assistant('The clone directory already exists because a previous failed start left it behind.')
      .bash('tool list --json', '[]')
      .build();
    const drafts = errorFixDrafts(viewOf(session));
    const clone = drafts.find((d) => d.text.includes('already exists'));
    expect(clone).toBeDefined();
    expect(clone!.text).toContain('already exists and is not an empty directory');
    // `tool list` is another subcommand: not the fix of `tool start`.
    expect(clone!.text).not.toContain('Fix:');
  });

  it('leaves out a look around that exits non-zero: "not there" is its answer', () => {
    const session = (first: string) =>
      new SessionBuilder()
        .user('add the linter')
        .bash(first, 'Exit code 2\n.\n..\nbun.lock\npackage.json', 2)
        .assistant('The project uses bun: there is a bun.lock, because the other lock files are missing.')
        .bash('bun add -d oxlint && ls -a', 'installed oxlint\n.\n..\nbun.lock')
        .build();
    expect(errorFixDrafts(viewOf(session('ls -a && cat package.json && ls bun.lock* package-lock.json pnpm-lock.yaml')))).toEqual([]);
    // a separator printed between the looks (`echo ---`) is no action either
    expect(errorFixDrafts(viewOf(session('ls -a; echo "---"; ls bun.lock* package-lock.json 2>/dev/null')))).toEqual([]);
    // a command that acts is still a failure to learn from
    expect(errorFixDrafts(viewOf(session('bun install --frozen-lockfile && ls bun.lock* package-lock.json')))).toHaveLength(1);
  });

  it('joins a terminal-wrapped error line, and unwraps "Command failed" to the real error', () => {
    expect(errorLine('Error: Command failed: git clone x y\nfatal: destination path y already exists and\nis not an empty directory.')).toBe(
      'fatal: destination path y already exists and is not an empty directory.',
    );
  });

  it("leaves out the agent's own slip (an error in a file it wrote this session, fixed by editing it), keeps an error in the repository's code", () => {
    const slip = new SessionBuilder()
      .user('add a retry to the client')
      .tool('Write', { file_path: 'src/client.py', content: 'import os\n' }, 'File created')
      .bash('ruff check src/client.py', 'src/client.py:1:8: F401 [*] `os` imported but unused', 1)
      .assistant('The import is unused because the retry does not need os; removing it.')
      .tool('Edit', { file_path: 'src/client.py', old_string: 'import os\n', new_string: '' }, 'Edited')
      .bash('ruff check src/client.py', 'All checks passed!')
      .build();
    expect(errorFixDrafts(viewOf(slip)).filter((d) => d.text.includes('F401'))).toEqual([]);
    const repo = new SessionBuilder()
      .user('run the linter')
      .bash('ruff check src/legacy.py', 'src/legacy.py:1:8: F401 [*] `os` imported but unused', 1)
      .assistant('The import is unused because legacy.py was never cleaned up after the refactor; removing it.')
      .tool('Edit', { file_path: 'src/legacy.py', old_string: 'import os\n', new_string: '' }, 'Edited')
      .bash('ruff check src/legacy.py', 'All checks passed!')
      .build();
    const kept = errorFixDrafts(viewOf(repo)).find((d) => d.text.includes('F401'));
    expect(kept?.text).toContain('Fix: edited `legacy.py`, then `ruff check src/legacy.py` succeeded.');
  });

  it('never lists a call of compound itself among the steps of a fix', () => {
    const session = new SessionBuilder()
      .user('the integration tests fail')
      .bash('npm run test:int', 'FAIL test/int/a.int.test.ts > creates a note', 1)
      .bash('compound bootstrap --for claude-code --task "integration tests"', '<!-- compound:bootstrap ids= -->\n<!-- /compound:bootstrap -->')
      .assistant('The test database is stale because the last migration was never applied to it.')
      .bash('npm run db:reset', 'reset done')
      .bash('npm run test:int', '1 passed')
      .build();
    const pitfall = errorFixDrafts(viewOf(session)).find((d) => d.text.includes('creates a note'));
    expect(pitfall?.text).toContain('`npm run db:reset`');
    expect(pitfall?.text).not.toContain('compound bootstrap');
  });

  it('treats "not found" as a path slip only when a path or file is missing', () => {
    const session = new SessionBuilder()
      .user('start the task')
      .bash('tool start --task 8', 'Error: Task #8 not found', 1)
      .assistant('The task id is zero-padded: the CLI expects `--task 008` because ids are stored as #008.')
      .bash('tool start --task 008', 'started')
      .build();
    const drafts = errorFixDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toContain('`tool start --task 008` succeeded');
  });
});

describe('missing files', () => {
  it('says nothing when the file was looked for under a wrong root: a guess of where the checkout is', () => {
    const session = (tried: string) =>
      new SessionBuilder({ cwd: '/home/dev/demo' })
        .user('review the generator')
        .tool('Read', { file_path: tried }, 'File does not exist. Note: your current working directory is /home/dev/demo.', { isError: true })
        .tool('Glob', { pattern: '**/rerank.ts' }, '/home/dev/demo/lib/generator/rerank.ts')
        .build();
    expect(missingFileDrafts(viewOf(session('/home/dev/Desktop/demo-copy/lib/generator/rerank.ts')))).toEqual([]);
    expect(missingFileDrafts(viewOf(session('/home/dev/demo/src/rerank.ts'))).map((d) => d.title)).toEqual(['rerank.ts is in lib/generator/']);
    // a path looked for from the session's folder says so (it is not the repo root's)
    expect(missingFileDrafts(viewOf(session('/home/dev/demo/src/rerank.ts')))[0]!.text).toMatch(/^`rerank\.ts` is not at `src\/rerank\.ts` from the session's folder `demo` /);
    // nor from the folder above the checkout: the same path under one of its folders
    const above = new SessionBuilder({ cwd: '/home/dev' })
      .tool('read_file', { file_path: 'src/data/vocab.ts' }, 'File not found: /home/dev/src/data/vocab.ts', { isError: true })
      .tool('Glob', { pattern: '**/vocab.ts' }, '/home/dev/tutor/src/data/vocab.ts')
      .build();
    expect(missingFileDrafts(viewOf(above))).toEqual([]);
  });

  it('reads a glob of a file stem that found nothing as no file found, not as where files of its kind live', () => {
    const session = (pattern: string) =>
      new SessionBuilder({ cwd: '/home/dev/db' })
        .user('add the seed scripts')
        .tool('Glob', { pattern }, 'No files found')
        .tool('Glob', { pattern: '**/*.sql' }, '/home/dev/db/PostDeploy/PostDeploy.sql\n/home/dev/db/MES/dbo/Tables/PART.sql')
        .build();
    expect(missingFileDrafts(viewOf(session('**/Part_Array_Index*.sql')))).toEqual([]);
  });

  it('says where files live after a wrong guess, ignoring vendored copies', () => {
    const session = new SessionBuilder()
      .user('look at the styles')
      .bash('find /home/dev/demo/assets/css -name "*.css" -type f', "find: '/home/dev/demo/assets/css': No such file or directory", 1)
      .bash('find /home/dev/demo -name "*.css"', '/home/dev/demo/node_modules/x/a.css\n/home/dev/demo/priv/static/app.css')
      .build();
    const drafts = missingFileDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toContain('There is no `assets/css` folder');
    expect(drafts[0]!.text).toContain('`priv/static/app.css`');
    expect(drafts[0]!.text).not.toContain('node_modules');
    expect(drafts[0]!.text).not.toContain('/home/dev');
  });

  it('pairs a file too large to read with the same-named file read instead', () => {
    const session = new SessionBuilder()
      .user('look at the js')
      .tool('Read', { file_path: '/home/dev/demo/priv/static/app.js' }, 'File content (806.5KB) exceeds maximum allowed size (256KB).', { isError: true })
      .tool('Read', { file_path: '/home/dev/demo/assets/js/app.js' }, 'import x from "y"')
      .build();
    const drafts = missingFileDrafts(viewOf(session));
    expect(drafts.map((d) => d.text)).toEqual(['`priv/static/app.js` is too large for the `Read` tool (806.5KB); the agent read the same-named `assets/js/app.js` instead.']);
  });

  it('needs two looks before saying a file does not exist', () => {
    const once = new SessionBuilder()
      .user('read it')
      .tool('Read', { file_path: '/home/dev/demo/lib/a.html.heex' }, '<tool_use_error>File does not exist.</tool_use_error>', { isError: true })
      .build();
    expect(missingFileDrafts(viewOf(once))).toEqual([]);
    const twice = new SessionBuilder()
      .user('read it')
      .tool('Read', { file_path: '/home/dev/demo/lib/a.html.heex' }, '<tool_use_error>File does not exist.</tool_use_error>', { isError: true })
      .tool('Glob', { pattern: '**/*a.html.heex' }, 'No files found')
      .build();
    const drafts = missingFileDrafts(viewOf(twice));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toContain('`a.html.heex` does not exist in this repo');
  });
});

describe('test runner', () => {
  it('says how the tests run and where they live, from the runner header, never a home path', () => {
    const session = new SessionBuilder()
      .user('run the tests')
      .bash('pytest --spec', ' │ rootdir: /Users/someone/app\n │ configfile: pytest.ini\n │ testpaths: specs\n │ specs/cli_spec.py:\n │   ✓ It lists books\n │ 1 failed, 12 passed', 1)
      .bash('ls', 'a b')
      .build();
    const drafts = testRunnerDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toBe('The tests run with `pytest --spec`: settings in `pytest.ini`, test folders `specs`; test files such as `specs/cli_spec.py`.');
  });

  it('says what a task runner runs where it echoes the test command first (`just test` prints `pytest tests/ -v`)', () => {
    const run = (command: string, output: string) => testRunnerDrafts(viewOf(new SessionBuilder().user('run all tests').bash(command, output, 1).build()))[0]?.text;
    const header = 'pytest tests/ -v\n===== test session starts =====\nrootdir: /Users/someone/app\nconfigfile: pyproject.toml\ncollected 24 items\ntests/unit/test_tasks.py::test_add FAILED';
    expect(run('just test', header)).toBe('The tests run with `just test`: it runs `pytest tests/ -v`; settings in `pyproject.toml`.');
    // a first line that is no test command is no recipe
    expect(run('just test', header.replace('pytest tests/ -v\n', 'Loading .env\n'))).toBe('The tests run with `just test`: settings in `pyproject.toml`; test files such as `tests/unit/test_tasks.py`.');
  });

  it('says nothing when the run shows nothing about the set-up', () => {
    const session = new SessionBuilder().user('test').bash('npm test', 'ok').build();
    expect(testRunnerDrafts(viewOf(session))).toEqual([]);
    // the test files a run lists are the ones this session ran: no set-up, no item
    const files = new SessionBuilder().user('test').bash('npm test --silent', ' ✓ tests/s6/t26-history-list.test.tsx (4 tests)\n ✓ tests/s6/t39-history-a11y.test.tsx (2 tests)\n ✓ tests/s6/t27-signpost.test.tsx (3 tests)').build();
    expect(testRunnerDrafts(viewOf(files))).toEqual([]);
  });
});

describe('listed open questions', () => {
  it('keeps the concrete questions of the last "Open Questions" list, not offers nor settled ones', () => {
    const session = new SessionBuilder()
      .user('summarise where we are')
      .assistant(
        [
          'Summary of findings: the cache is keyed by path.',
          '',
          'Open Questions',
          '',
          '1. What does `ZFLAG` = 3 mean for cloud books? This is a key mystery.',
          '2. Why is `legacy.db` missing from the backup?',
          '3. Do you want me to commit the `cache.ts` fix now?',
          '4. How do samples differ?',
        ].join('\n'),
      )
      .user('go on')
      .assistant('Confirmed: `legacy.db` is excluded by the backup filter.')
      .build();
    const texts = openQuestionDrafts(viewOf(session)).filter((d) => d.text.includes('listed as an open question')).map((d) => d.text);
    expect(texts).toEqual(['Open (listed as an open question, not answered in the session): What does `ZFLAG` = 3 mean for cloud books?']);
  });

  it('leaves a closing question in a language the rules cannot read alone (an offer looks the same)', () => {
    const closing = (q: string) => openQuestionDrafts(viewOf(new SessionBuilder().user('fix the linker').assistant(`The FFI build links now. ${q}`).build()));
    expect(closing('Why does the linker still pull `libsecp256k1.a` from the old build directory path?')).toHaveLength(1);
    expect(closing('Хотите, чтобы я сразу переписал ваш `secp_wrapper.h` в таком стиле для всех платформ?')).toEqual([]);
    // a question the writer answers in the same paragraph is thinking aloud
    expect(closing('What if `handleRelease` is called twice before the first stop request has finished? It uses the same `sessionId`. That is fine.')).toEqual([]);
    expect(closing('What if `handleRelease` is called twice before the first stop request has finished?\n\nThe build itself links.')).toHaveLength(1);
    // context after a question is no answer to it
    expect(closing('Should the retry count of `SyncService` be configurable per tenant? Right now it is hardcoded to 3.')).toHaveLength(1);
    // questions laid out side by side in a list are options for the user to choose, in any language
    const options = closing('Clarify how `User` relates to `Person`, for example:\n    *   ¿`User` *extiende* `Person` (un usuario es una persona con credenciales)?\n    *   ¿Un `User` *tiene una* `Person` asociada como perfil?\n');
    expect(options).toEqual([]);
    // a question alone in a list item is still one, without its list marker
    const alone = closing('Left open:\n- Why does the linker still pull `libsecp256k1.a` from the old build directory path?\n');
    expect(alone.map((d) => d.title)).toEqual(['Open: Why does the linker still pull `libsecp256k1.a` from the…']);
  });
});

describe('recommendations of a closing report', () => {
  it('are open only when the session ends with that report: a later request of the user takes them up', () => {
    const report = [
      'The `TaskManager` class relies on the `id` field for every update, and each method raises `ValueError` when a task has none.',
      '',
      '### Key Points:',
      '- **ID Usage**: `update_name`, `append_note` and `complete` look the task up by `id`.',
      '- **Validation**: `_require_id` checks for the field before every call into `osascript`.',
      '',
      '### Recommendations:',
      '- **Migration**: move the `_id` lookups of `sync.py` onto `TaskManager.find_by_id` so that one path validates ids.',
      '- **Tests**: add a test of `complete` for a task without `id` in `tests/unit/test_tasks.py`.',
    ].join('\n');
    const session = (more: boolean) => {
      const b = new SessionBuilder().user('how is the id field used?');
      for (const f of ['tasks.py', 'sync.py', 'tests/unit/test_tasks.py']) b.tool('Read', { file_path: f }, 'def complete(self, task): ...');
      b.assistant(report);
      if (more) b.user('No, I mean the outer wrapper and the inner call: can we merge them?').assistant('Yes: `complete` can call `_run` directly.');
      return openQuestionDrafts(viewOf(b.build())).filter((d) => d.text.startsWith('Open (recommended'));
    };
    expect(session(false).length).toBeGreaterThan(0);
    expect(session(true)).toEqual([]);
  });
});

describe('oversized search output', () => {
  it('turns a search that floods the output, then a rerun that excludes files, into a pitfall', () => {
    const session = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('find the setting')
      .tool('exec_command', { cmd: 'rg -n "compact" src tests' }, 'Chunk ID: a\nWall time: 1.0 seconds\nProcess exited with code 0\nOriginal token count: 1012186\nOutput:\ntests/fixtures/a.jsonl:1:{"compact":1}\ntests/fixtures/a.jsonl:2:{"compact":2}\nsrc/x.ts:3:compact()')
      .tool('exec_command', { cmd: "rg -n \"compact\" src --glob '!**/*.jsonl'" }, 'Chunk ID: b\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 20\nOutput:\nsrc/x.ts:3:compact()')
      .build();
    const drafts = oversizedOutputDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('pitfall');
    expect(drafts[0]!.text).toContain('about 1.0M tokens of output, mostly from `tests/fixtures/*.jsonl`');
    expect(drafts[0]!.text).toContain("`--glob '!**/*.jsonl'`");
  });

  it('says nothing about a large output nobody narrowed', () => {
    const session = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('find it')
      .tool('exec_command', { cmd: 'rg -n x .' }, 'Chunk ID: a\nWall time: 1.0 seconds\nProcess exited with code 0\nOriginal token count: 90000\nOutput:\na.ts:1:x')
      .build();
    expect(oversizedOutputDrafts(viewOf(session))).toEqual([]);
  });
});

describe('slow commands', () => {
  /** Gives event i the time t0 + seconds[i]. */
  function timed(session: Session, seconds: number[]): Session {
    return { ...session, events: session.events.map((e, i) => ({ ...e, time: new Date(Date.UTC(2026, 0, 1) + (seconds[i] ?? 0) * 1000).toISOString() })) };
  }

  it('names a command that took minutes, what its output says took the time, never a server', () => {
    const base = new SessionBuilder()
      .user('commit it')
      .tool('Bash', { command: 'git commit -m "x"', timeout: 120000 }, '[CREDO]\nAnalysis took 0.4 seconds\n[DIALYZER]\nAdding 4109 modules to deps-dev.plt\ndone in 2m8.83s\n')
      .tool('Bash', { command: 'npm run dev' }, 'listening on :3000')
      .build();
    const drafts = slowCommandDrafts(viewOf(timed(base, [0, 0, 160, 160, 900])));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toContain('takes about 2.7 min');
    expect(drafts[0]!.text).toContain('its hook runs CREDO, DIALYZER');
    expect(drafts[0]!.text).toContain('`Adding 4109 modules to deps-dev.plt … done in 2m8.83s`');
    expect(drafts[0]!.text).toContain('the 120000 ms timeout was too short');
  });

  it('says nothing of a run the tool stopped at its timeout, nor of one that stopped at its own question', () => {
    const bot = new SessionBuilder().user('start the bot').bash('python simple_slack_bot.py', 'Command timed out after 2m 0.0s INFO:__main__:Starting Slack bot in socket mode...\nINFO:slack_bolt.App:⚡️ Bolt app is running!', 1).build();
    expect(slowCommandDrafts(viewOf(timed(bot, [0, 0, 118])))).toEqual([]);
    // (the minutes went by before it ran: the prompt to approve it)
    const asked = (last: string) => new SessionBuilder().user('install it').bash('./install.sh', `🚀 Bridge Installer\n==========\nInstallation directory: /Users/dev/bridge\n\n${last}`).build();
    expect(slowCommandDrafts(viewOf(timed(asked('✅ Installation cancelled'), [0, 0, 283])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(asked('✅ Installed 14 hooks into ~/.claude/settings.json'), [0, 0, 283])))).toHaveLength(1);
  });

  it('says nothing of a run that an earlier run of the same commands beat four times over: it waited, not ran', () => {
    const session = new SessionBuilder()
      .user('ship it')
      .bash('git push origin main', 'To github.com:acme/app.git\n   1a2b3c4..5d6e7f8  main -> main')
      .bash('git add lock.json && git commit -m "x" && git push origin main', '[main 2e593ed] x\nTo github.com:acme/app.git\n   5d6e7f8..9a8b7c6  main -> main')
      .build();
    expect(slowCommandDrafts(viewOf(timed(session, [0, 0, 41, 300, 2916])))).toEqual([]);
    // (the same second run with no faster one before it is told)
    expect(slowCommandDrafts(viewOf(timed(session, [0, 0, 700, 800, 3416]))).map((d) => d.title)).toEqual(['git push is slow (about 43.6 min)']);
  });

  it('says nothing of a request to a service on another machine: its time is the service\'s that moment', () => {
    const session = (url: string) => new SessionBuilder().user('try the endpoint').bash(`curl -s -X POST ${url} -d '{"q":"events in London"}'`, '{"choices":[{"message":{"content":"…"}}]}').build();
    expect(slowCommandDrafts(viewOf(timed(session('https://api.example.com/v1/chat/completions'), [0, 0, 70])))).toEqual([]);
    // one on this machine times the repository's own server
    expect(slowCommandDrafts(viewOf(timed(session('http://localhost:8000/v1/chat/completions'), [0, 0, 70])))).toHaveLength(1);
  });

  it("says nothing of a command that works through the user's own folders or the whole disk: it times that machine's data", () => {
    const session = (command: string) => new SessionBuilder().user('find where the address is stored').bash(command, 'Exit code: 0\nWall time: 80.2 seconds\nOutput:\nMATCH\tLocal State').build();
    for (const command of ['Get-ChildItem -LiteralPath $env:LOCALAPPDATA -Recurse -Force -File | Select-String -Pattern $email', 'find ~ -name "*.sqlite"', 'du -sh /*', 'dir /s %APPDATA%'])
      expect(slowCommandDrafts(viewOf(timed(session(command), [0, 0, 80]))), command).toEqual([]);
    // the project's own folders are timed
    expect(slowCommandDrafts(viewOf(timed(session('Get-ChildItem -LiteralPath src -Recurse -File | Select-String -Pattern $email'), [0, 0, 80])))).toHaveLength(1);
  });

  it('says a first run that warms up spent its time on a one-time step when its output shows one', () => {
    const commits = new SessionBuilder()
      .user('commit it')
      .bash('git commit -m "x"', '[DIALYZER]\nAdding 4109 modules to deps-dev.plt\ndone in 2m8.83s\n')
      .bash('git commit -m "y"', '[DIALYZER]\nPLT is up to date!\ndone in 0m9.1s\n')
      .build();
    // events: prompt 0, call 1, result 2, call 3, result 4
    const [warm] = slowCommandDrafts(viewOf(timed(commits, [0, 0, 160, 170, 190])));
    expect(warm!.text).toContain('the time went to a one-time step that later runs reuse: `Adding 4109 modules to deps-dev.plt … done in 2m8.83s`');
    const [always] = slowCommandDrafts(viewOf(timed(commits, [0, 0, 160, 170, 330])));
    expect(always!.text).toContain('the output shows `Adding 4109 modules to deps-dev.plt … done in 2m8.83s`');
  });

  it('tells a first run that warms up (later runs take at most half as long) from a command slow every time', () => {
    const twice = new SessionBuilder()
      .user('test it')
      .bash('mix test', 'Compiling 212 files (.ex)\n12 tests, 0 failures')
      .bash('mix test', '12 tests, 0 failures')
      .build();
    // events: prompt 0, call 1, result 2, call 3, result 4
    const warm = slowCommandDrafts(viewOf(timed(twice, [0, 0, 80, 85, 97])));
    expect(warm[0]!.title).toBe('The first mix test is slow (about 80 s)');
    expect(warm[0]!.text).toContain('The first `mix test` run in a new checkout or worktree took about 80 s (later runs at most 12 s)');
    const always = slowCommandDrafts(viewOf(timed(twice, [0, 0, 80, 85, 150])));
    expect(always[0]!.title).toBe('mix test is slow (about 80 s)');
    expect(always[0]!.text).toContain('`mix test` takes about 80 s in this repo');
    // a run that outlived the tool's timeout went on in the background: it took longer than measured
    const outlived = new SessionBuilder()
      .user('test it')
      .tool('Bash', { command: 'mix test', timeout: 60000 }, 'Command running in background with ID: b7636e2. Output is being written to: /tmp/tasks/b7636e2.output')
      .bash('mix test', '12 tests, 0 failures')
      .build();
    const [bg] = slowCommandDrafts(viewOf(timed(outlived, [0, 0, 61, 85, 94])));
    expect(bg!.title).toBe('The first mix test is slow (over 61 s)');
    expect(bg!.text).toContain("took over 61 s (later runs at most 9 s): it outlived the tool's timeout and went on in the background");
    // later runs cut short (`| head`, `timeout`), moved to the background or failed show no warm-up
    const cut = new SessionBuilder()
      .user('train it')
      .tool('Bash', { command: 'python train.py', timeout: 600000 }, 'Command running in background with ID: bo32x122t. Output is being written to: /tmp/tasks/bo32x122t.output')
      .bash('timeout 300 python train.py 2>&1 | head -80', 'Epoch 1/80', 0)
      .bash('python train.py', 'Command running in background with ID: ba2w6cftq. Output is being written to: /tmp/tasks/ba2w6cftq.output', 0)
      .build();
    // (and with no run seen to end, "over 10 min" is only when the tool stopped waiting: no item)
    expect(slowCommandDrafts(viewOf(timed(cut, [0, 0, 601, 610, 615, 620, 620])))).toEqual([]);
    // a call that already asked for the most the tool waits is told to go to the background, not to wait longer
    const warmed = new SessionBuilder()
      .user('train it')
      .tool('Bash', { command: 'python train.py', timeout: 600000 }, 'Command running in background with ID: bo32x122t. Output is being written to: /tmp/tasks/bo32x122t.output')
      .bash('python train.py', 'Epoch 80/80 done', 0)
      .build();
    const [slow] = slowCommandDrafts(viewOf(timed(warmed, [0, 0, 601, 610, 700])));
    expect(slow!.text).toContain('Run the first run in the background (the 600000 ms timeout is the most the tool waits).');
  });

  it('does not time a call by the clock when the minutes went to waiting: a file operation, or a call that printed nothing', () => {
    // Claude Code's permission prompt leaves no mark in the log: deleting four files "took" 7 minutes
    const waited = new SessionBuilder()
      .user('delete them')
      .bash('rm "skills/files/a.md" "skills/files/b.md" && rmdir "skills/files"', '')
      .build();
    expect(slowCommandDrafts(viewOf(timed(waited, [0, 0, 440])))).toEqual([]);
    const moved = new SessionBuilder().user('move it').bash('mv build/out.js dist/ && ls dist', 'out.js').build();
    expect(slowCommandDrafts(viewOf(timed(moved, [0, 0, 300])))).toEqual([]);
    const quiet = new SessionBuilder().user('build it').bash('make all', '').build();
    expect(slowCommandDrafts(viewOf(timed(quiet, [0, 0, 300])))).toEqual([]);
    // a program that printed its work is timed by the clock
    const built = new SessionBuilder().user('build it').bash('make all', 'cc -o app main.c\nlinking app').build();
    expect(slowCommandDrafts(viewOf(timed(built, [0, 0, 300])))[0]!.title).toBe('make all is slow (about 5.0 min)');
  });

  it('says nothing without timestamps or for quick commands', () => {
    const base = new SessionBuilder().user('test').bash('npm test', 'ok').build();
    expect(slowCommandDrafts(viewOf(base))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(base, [0, 0, 12])))).toEqual([]);
  });

  /** The call (event 1) and its result (event 2) at the given times, written as given. */
  function between(call: string, result: string): Session {
    const base = new SessionBuilder().user('build').bash('make all', 'ok').build();
    return { ...base, events: base.events.map((e, i) => ({ ...e, time: i === 2 ? result : call })) };
  }

  it('tells a minute apart from under a minute, in UTC and with offsets', () => {
    // same UTC minute: under a minute, whatever the seconds
    expect(slowCommandDrafts(viewOf(between('2026-01-16T10:21:00.000Z', '2026-01-16T10:21:59.999Z')))).toEqual([]);
    // across minutes: 61 s
    expect(slowCommandDrafts(viewOf(between('2026-01-16T10:21:30Z', '2026-01-16T10:22:31Z')))).toHaveLength(1);
    // the same first 16 characters but different offsets: two hours apart
    const offsets = slowCommandDrafts(viewOf(between('2026-01-16T10:21:00+02:00', '2026-01-16T10:21:30+00:00')));
    expect(offsets).toHaveLength(1);
    expect(offsets[0]!.text).toContain('takes about 120.5 min');
    // a result before its call, or an unreadable time: nothing
    expect(slowCommandDrafts(viewOf(between('2026-01-16T10:25:00Z', '2026-01-16T10:21:00Z')))).toEqual([]);
    expect(slowCommandDrafts(viewOf(between('2026-01-16T10:21:xxZ', '2026-01-16T10:29:00Z')))).toEqual([]);
  });
});

describe('slow commands: what the time measures', () => {
  function timed(session: Session, seconds: number[]): Session {
    return { ...session, events: session.events.map((e, i) => ({ ...e, time: new Date(Date.UTC(2026, 0, 1) + (seconds[i] ?? 0) * 1000).toISOString() })) };
  }

  it('takes the wall time the tool reports over the timestamps, and never times a call that waited for approval', () => {
    const reported = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('build it')
      .tool('shell_command', { command: 'cargo build --release' }, 'Exit code: 0\nWall time: 0.8 seconds\nOutput:\nFinished')
      .build();
    // 95 s between the call and its output, but the command ran 0.8 s
    expect(slowCommandDrafts(viewOf(timed(reported, [0, 0, 95])))).toEqual([]);
    const slow = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('build it')
      .tool('shell_command', { command: 'cargo build --release' }, 'Exit code: 0\nWall time: 140.2 seconds\nOutput:\nFinished')
      .build();
    expect(slowCommandDrafts(viewOf(timed(slow, [0, 0, 141])))[0]?.text).toContain('takes about 2.3 min');
    // asked to leave the sandbox: the gap is the user deciding, not the command running
    const approved = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('record it')
      .tool('shell_command', { command: 'node scripts/telemetry.js', sandbox_permissions: 'require_escalated', justification: 'allow?' }, 'done')
      .build();
    expect(slowCommandDrafts(viewOf(timed(approved, [0, 0, 96])))).toEqual([]);
    // refused by the sandbox: Codex asked the user whether to run it outside, and that took the time
    const denied = (output: string) =>
      new SessionBuilder({ format: 'codex', agent: 'codex' }).user('untrack the caches').tool('exec_command', { cmd: 'git rm --cached -r .config/containers' }, output, { exitCode: 128 }).build();
    expect(slowCommandDrafts(viewOf(timed(denied('exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, stderr: StreamOutput { text: \\"fatal: Unable to create \'.git/index.lock\': Operation not permitted\\" } } }))" }'), [0, 0, 75])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(denied("rm '.config/containers/podman-connections.json'"), [0, 0, 75])))).toHaveLength(1);
  });

  it('says nothing of a command that only reads or sets a setting: its minutes were the approval prompt', () => {
    const asked = (line: string) => new SessionBuilder().user('set up git').bash(line, 'octo\nocto@example.org').build();
    expect(slowCommandDrafts(viewOf(timed(asked('git config --global user.name && git config --global user.email'), [0, 0, 78])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(asked('whoami && hostname'), [0, 0, 78])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(asked('where UnrealBuildTool.exe'), [0, 0, 1458])))).toEqual([]);
    // nor anything, by the clock, in a session where a command that takes no time waited for its
    // output: the clock there measured the user approving calls
    const approving = (first: string) => new SessionBuilder().user('install').bash(first, 'v20.11.1').bash('npm ci', 'added 812 packages in 88s').build();
    expect(slowCommandDrafts(viewOf(timed(approving('which node'), [0, 0, 45, 45, 140])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(approving('which node'), [0, 0, 2, 2, 97])))).toHaveLength(1);
    // a listing or a file printed waits no 20 s either (`ls` of the npx cache waited 30 s in a fresh session)
    expect(slowCommandDrafts(viewOf(timed(approving('ls -la ~/.npm/_npx/'), [0, 0, 30, 30, 140])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(approving('cat package.json'), [0, 0, 30, 30, 140])))).toEqual([]);
    // (removing a large folder may take that long: no sign of a prompt)
    expect(slowCommandDrafts(viewOf(timed(approving('rm -rf node_modules'), [0, 0, 45, 45, 140])))).toHaveLength(1);
    // nor one that asks a program only for its version or usage
    expect(slowCommandDrafts(viewOf(timed(asked('claude --version'), [0, 0, 81])))).toEqual([]);
    expect(slowCommandDrafts(viewOf(timed(asked('node -v && npm -v'), [0, 0, 81])))).toEqual([]);
    // a command that does work beside them is timed
    expect(slowCommandDrafts(viewOf(timed(asked('git config user.name && npm ci'), [0, 0, 78])))).toHaveLength(1);
  });
});

describe('recurring command sequences', () => {
  it('are no pattern when a run of one ended in a failure, however long its last command line', () => {
    const long = `curl -X POST http://localhost:3700/mcp -H "Content-Type: application/json" -d '{"jsonrpc":"2.0","id":"test","method":"mcp.listTools","params":{}}'`;
    const round = (b: SessionBuilder, last: string, ok: boolean) =>
      b.bash('docker-compose up -d harca', 'Container harca-server  Started').bash('make seed', 'seeded 3 rows').bash('docker-compose logs harca', 'harca-server | listening on 3700').bash(last, ok ? '{"result":[]}' : 'error: no such method', ok ? 0 : 1);
    const b = round(round(new SessionBuilder().user('wire the MCP server'), long, false), long.replace('/mcp', '/api/mcp'), true);
    expect(extractSession(b.build()).filter((c) => c.rule === 'command-pattern')).toEqual([]);
  });

  it('are separate commands that recur, not one command line run again after it was denied', () => {
    const line = 'mkdir -p ~/.stack && touch ~/.stack/t.jsonl && echo started >> ~/.stack/t.jsonl && chmod 600 ~/.stack/t.jsonl && ls ~/.stack';
    const rerun = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('apply for the grant')
      .tool('shell_command', { command: line }, 'Exit code: 1\nOutput:\nPermission denied')
      .tool('shell_command', { command: line, sandbox_permissions: 'require_escalated' }, 'Exit code: 0\nOutput:\n')
      .build();
    expect(extractSession(rerun).filter((c) => c.rule === 'command-pattern')).toEqual([]);
  });

  it("say how a script is run only with what a bare `python x.py` leaves out: its flags, or the folder every run went into", () => {
    const runs = (line: string, prompt = 'train it') => {
      const b = new SessionBuilder().user(prompt);
      for (let i = 0; i < 3; i++) b.bash(line, `epoch ${i}`, 0);
      return extractSession(b.build()).filter((c) => c.rule === 'command-pattern').map((c) => c.text);
    };
    expect(runs('python train.py')).toEqual([]);
    expect(runs('cd /srv/lab/insight && python train.py')).toEqual(['`train.py` is run from its folder `insight/`: `cd insight && python train.py`.']);
    expect(runs('python train.py --epochs 3')).toEqual(['`train.py` is run as `python train.py --epochs 3`.']);
    // the user's request spelled the command line out: the next request will too
    expect(runs('python train.py --epochs 3', 'Run `python train.py --epochs 3` from repo root and report the loss.')).toEqual([]);
    // answers fed by a heredoc were this session's input, which the item cannot show
    expect(runs('python3 report.py 507.csv <<EOF\n60\n0,2\n18/05/2026\nEOF')).toEqual([]);
  });

  it('a command line run again and again with other arguments is a loop done by hand, not a pattern', () => {
    const lines = (n: number) => {
      const b = new SessionBuilder().user('check the flags of every book');
      for (let i = 0; i < n; i++) b.bash(`source .venv/bin/activate && sqlite3 library.sqlite "SELECT ZTITLE FROM ZBOOK WHERE ZTITLE LIKE 'Book ${i}%'"`, `Book ${i}|0`);
      return extractSession(b.build()).filter((c) => c.rule === 'command-pattern').map((c) => c.title);
    };
    expect(lines(3)).toEqual(['Recurring command line: source && sqlite3']);
    // (what recurred is the routine; the line itself ran once)
    const texts = (() => {
      const b = new SessionBuilder().user('check the flags of every book');
      for (let i = 0; i < 3; i++) b.bash(`source .venv/bin/activate && sqlite3 library.sqlite "SELECT ZTITLE FROM ZBOOK WHERE ZTITLE LIKE 'Book ${i}%'"`, `Book ${i}|0`);
      return extractSession(b.build()).filter((c) => c.rule === 'command-pattern').map((c) => c.text);
    })();
    expect(texts).toEqual([
      "`source`, then `sqlite3`, ran as one command line 3 times, its arguments changing; the last: `source .venv/bin/activate && sqlite3 library.sqlite \"SELECT ZTITLE FROM ZBOOK WHERE ZTITLE LIKE 'Book 2%'\"`.",
    ]);
    expect(lines(12)).toEqual([]);
    // as a console transcript shows them: cut short, the arguments hidden
    const cut = new SessionBuilder().user('check the flags of every book');
    for (let i = 0; i < 12; i++) cut.bash('source .venv/bin/activate && sqlite3 library.sqlite "SELECT ZTITLE, Z…', `Book ${i}|0`);
    expect(extractSession(cut.build()).filter((c) => c.rule === 'command-pattern')).toEqual([]);
  });

  it("a line of git's everyday steps (add, commit, push) is how anyone uses git, not a routine of the repository", () => {
    const lines = (line: (i: number) => string) => {
      const b = new SessionBuilder().user('commit each step');
      for (let i = 0; i < 3; i++) b.bash(line(i), `[main ${i}a2b3c4] step ${i}`);
      return extractSession(b.build()).filter((c) => c.title.startsWith('Recurring command line')).map((c) => c.title);
    };
    expect(lines((i) => `git add -A && git commit -m "step ${i}"`)).toEqual([]);
    expect(lines((i) => `git add -A && git commit -m "step ${i}" && git push`)).toEqual([]);
    // with a step of the repository's own, the line is its routine
    expect(lines((i) => `npm run format && git add -A && git commit -m "step ${i}"`)).toEqual(['Recurring command line: npm run format && git add && git commit']);
  });

  it('a line whose work is code given on the command line (`python3 -c "…"`) is written for the moment, not a routine', () => {
    const b = new SessionBuilder().user('find the two cents');
    for (let i = 0; i < 5; i++) b.bash(`source ~/finance/venv/bin/activate && python3 -c "import openpyxl; print(${i}, openpyxl.load_workbook('/home/dev/finance/consolidated.xlsx'))"`, `${i}`);
    expect(extractSession(b.build()).filter((c) => c.rule === 'command-pattern')).toEqual([]);
    const node = new SessionBuilder().user('check the config');
    for (let i = 0; i < 3; i++) node.bash(`cd app && npm run build && node -e "console.log(${i}, require('./config.json').port)"`, `${4000 + i}`);
    expect(extractSession(node.build()).filter((c) => c.title.startsWith('Recurring command line'))).toEqual([]);
  });

  it('leave out changing directory and setting the environment, in PowerShell as in the shell: the setup of a step', () => {
    const b = new SessionBuilder().user('upgrade the build to Java 21');
    const line = (goal: string) => `Push-Location "C:\\Users\\dev\\wallpaper"; $env:JAVA_HOME="C:\\Users\\dev\\.jdk\\jdk-21"; $env:PATH="$env:JAVA_HOME\\bin;$env:PATH"; & "C:\\Users\\dev\\scoop\\apps\\maven\\3.9.11\\bin\\mvn.cmd" -q ${goal}; Pop-Location`;
    for (const goal of ['compile', 'test']) b.bash(line(goal), 'BUILD SUCCESS');
    expect(extractSession(b.build()).filter((c) => c.rule === 'command-pattern')).toEqual([]);
  });

  it("show what the runs have in common: a task id or this task's files are the run's detail", () => {
    const b = new SessionBuilder().user('work through the ready tasks');
    for (const id of ['app-7.1', 'app-7.2']) {
      b.bash('tk ready', `${id} ready`)
        .bash(`tk show ${id}`, 'spec')
        .bash(`tk claim ${id} --status doing`, 'ok')
        .bash(`git add lib/a_${id}.ex lib/b.ex assets/app.js`, '')
        .bash(`git commit -m "${id}"`, '');
    }
    const texts = extractSession(b.build()).filter((c) => c.rule === 'command-pattern').map((c) => c.text).join('\n');
    expect(texts).toContain('`tk show <id>` → `tk claim <id> --status doing`');
    expect(texts).not.toContain('app-7.1');
    expect(texts).not.toContain('lib/b.ex');
  });
});

describe('commands of a recipe', () => {
  it("hold for the next task: this task's files and picked tests are placeholders, redirections go", () => {
    expect(recipeForm('npm test -- --run src/plugins/__tests__/reasoning.test.ts -t "Compaction Config"')).toBe('npm test -- --run <test file> -t "<test name>"');
    expect(recipeForm('python3 render.py rollout-2025-09-08T20-55-49.jsonl -o output.html')).toBe('python3 render.py <file>.jsonl -o <file>.html');
    expect(recipeForm('./render.py example.jsonl > /dev/null 2> warn.txt')).toBe('./render.py <file>.jsonl');
    expect(recipeForm('./render.py --all --sessions-dir example 2>/dev/null')).toBe('./render.py --all --sessions-dir example');
    expect(recipeForm('mix test test/web/live/session_live_test.exs')).toBe('mix test <test file>');
    expect(recipeForm('go test ./pkg/... -run TestFoo')).toBe('go test ./pkg/... -run "<test name>"');
    expect(recipeForm('pytest --testNamePattern=slow tests/unit')).toBe('pytest --testNamePattern="<test name>" tests/unit');
  });

  it("keep the project's own configuration files, directories, URLs and the script an interpreter runs", () => {
    expect(recipeForm('cargo test --manifest-path crates/x/Cargo.toml')).toBe('cargo test --manifest-path crates/x/Cargo.toml');
    expect(recipeForm('npx vitest run --config vite.config.ts src/x.test.ts')).toBe('npx vitest run --config vite.config.ts <test file>');
    expect(recipeForm('FOO=1 node scripts/eval.mjs --extractor model')).toBe('FOO=1 node scripts/eval.mjs --extractor model');
    expect(recipeForm('curl -s http://localhost:3000/api/health.json')).toBe('curl -s http://localhost:3000/api/health.json');
    expect(recipeForm('pytest tests/unit')).toBe('pytest tests/unit');
  });

  it('say a verification once when two runs differ only in the test file', () => {
    const b = new SessionBuilder().user('fix the parser').tool('Edit', { file_path: 'src/parse.ts', old_string: 'a', new_string: 'b' }, 'ok');
    b.bash('npx vitest run test/parse.test.ts', '3 passed').bash('npx vitest run test/lex.test.ts', '2 passed').bash('npm run build', 'ok');
    const verify = extractSession(b.build()).find((c) => c.title.startsWith('Verify changes'));
    expect(verify?.text).toBe('After changing code, verify with `npx vitest run <test file>`, then `npm run build`.');
    // the checks the request itself prescribed (a subagent's brief) come with that request again
    const briefed = new SessionBuilder().user('Build the parser. When done, run `npx vitest run test/parse.test.ts` and `npm run build`.').tool('Edit', { file_path: 'src/parse.ts', old_string: 'a', new_string: 'b' }, 'ok');
    briefed.bash('npx vitest run test/parse.test.ts', '3 passed').bash('npm run build', 'ok');
    expect(extractSession(briefed.build()).filter((c) => c.title.startsWith('Verify changes'))).toEqual([]);
  });
});

describe('data formats', () => {
  const SAMPLE = [
    '{"id":"f6f5","timestamp":"2025-09-08T20:55:49.849Z","instructions":null,"git":{"branch":"main"}}',
    '{"record_type":"state"}',
    '{"type":"message","role":"user","content":[]}',
    '{"record_type":"state"}',
    '{"type":"reasoning","summary":[]}',
    '{"type":"function_call","name":"shell","arguments":"{}"}',
    '{"type":"function_call_output","call_id":"c1","output":"{\\"output\\":\\"cut sho',
  ].join('\n');

  it('records the header and the record kinds of a JSONL file the agent printed', () => {
    const session = new SessionBuilder().user('write a viewer for the log').bash("sed -n '1,120p' logs/rollout-1.jsonl", SAMPLE).build();
    const drafts = dataFormatDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('fact');
    expect(drafts[0]!.text).toContain('`rollout-1.jsonl` is JSON Lines');
    expect(drafts[0]!.text).toContain('header record {id, timestamp, instructions, git}');
    // the last line was cut by the tool's output limit: its kind still counts
    expect(drafts[0]!.text).toContain('`type` message, reasoning, function_call, function_call_output');
    expect(drafts[0]!.text).toContain('`record_type` state');
  });

  it('reads Claude Code Read output with line numbers, and ignores files that are not JSON Lines or too short', () => {
    const numbered = SAMPLE.split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
    const read = new SessionBuilder().user('go').tool('Read', { file_path: '/repo/data/events.jsonl' }, numbered).build();
    expect(dataFormatDrafts(viewOf(read))[0]!.text).toContain('`events.jsonl`');
    const notJsonl = new SessionBuilder().user('go').bash('cat notes.txt', SAMPLE).build();
    expect(dataFormatDrafts(viewOf(notJsonl))).toEqual([]);
    const short = new SessionBuilder().user('go').bash('head -2 a.jsonl', '{"type":"a"}\n{"type":"b"}').build();
    expect(dataFormatDrafts(viewOf(short))).toEqual([]);
    const failed = new SessionBuilder().user('go').bash('cat missing.jsonl', SAMPLE, 1).build();
    expect(dataFormatDrafts(viewOf(failed))).toEqual([]);
    // header keys with markup or odd payloads are left out of the text
    const odd = SAMPLE.replace('"instructions":null', '"ins`tr\\nuc**tions":null');
    const oddSession = new SessionBuilder().user('go').bash('head a.jsonl', odd).build();
    expect(dataFormatDrafts(viewOf(oddSession))[0]!.text).toContain('header record {id, timestamp, git}');
  });
});

describe('selection', () => {
  it('keeps one candidate per kind of error, whatever context the error quoted', () => {
    const base = { category: 'tool-quirk' as const, scope: 'agent' as const, confidence: 0.9, tags: [], rule: 'tool-quirk', evidence: { event: 1 } };
    const a = { ...base, title: 'apply_patch: Failed to find expected lines [".code {"]', text: 'apply_patch fails with Failed to find expected lines [".code { font-family: mono }"]; re-read the file first.', signature: 'error: failed to find expected lines [<s>mono]', score: 7 };
    const b = { ...base, title: 'apply_patch: Failed to find expected lines ["a { color"]', text: 'apply_patch fails with Failed to find expected lines ["a { color: #2563eb; }", ".markdown p"]; copy the context exactly.', signature: 'error: failed to find expected lines [<s>, <s>]', score: 7, evidence: { event: 9 } };
    const c = { ...base, title: 'pyflakes is not installed', text: 'pyflakes is not installed: python3 -m pyflakes says No module named pyflakes.', signature: 'no module named pyflakes', score: 6 };
    expect(dedupe([a, b, c]).map((x) => x.title)).toEqual([a.title, c.title]);
  });
});

describe('toolchain', () => {
  const PACKAGE = JSON.stringify({ name: 'app', scripts: { prepare: 'husky', commitlint: 'commitlint --edit' }, devDependencies: { husky: '^9.1.7', 'lint-staged': '^16.2.7', '@commitlint/config-conventional': '^20.2.0' }, engines: { node: '>=20.0.0' } }, null, 2);

  it('reads the Node.js requirement and the commit hooks from a printed package.json (verified)', () => {
    const session = new SessionBuilder().user('set up').bash('cat package.json', PACKAGE).build();
    const drafts = toolchainDrafts(viewOf(session));
    expect(drafts.map((d) => d.title)).toEqual(['Node.js >=20.0.0 required', 'Commits run git hooks']);
    expect(drafts.every((d) => d.confidence === 0.9)).toBe(true);
    expect(drafts[1]!.text).toContain('husky installs the git hooks; lint-staged checks the staged files');
    expect(drafts[1]!.text).toContain('commitlint checks each commit message (conventional commits');
    // the staged-file checks named when the package.json configures them
    const configured = JSON.stringify({ ...JSON.parse(PACKAGE), 'lint-staged': { '*.ts': ['eslint --max-warnings=0', 'vitest related --run'], 'package.json': 'npm run license-check' } }, null, 2);
    const named = toolchainDrafts(viewOf(new SessionBuilder().user('set up').bash('cat package.json', configured).build()));
    expect(named[1]!.text).toContain('lint-staged runs `eslint --max-warnings=0`, `vitest related --run` on staged `*.ts`; `npm run license-check` on staged `package.json` before each commit');
  });

  it('names the hook manager it finds, counts commitlint only with a commit-msg hook, and says fixers rewrite the staged files', () => {
    const pkg = JSON.stringify({ name: 'rich', scripts: { lint: 'eslint . --fix' }, 'simple-git-hooks': { 'pre-commit': 'pnpm lint-staged' }, 'lint-staged': { '*.{js,ts}': ['eslint --fix'], '*': 'prettier --write --ignore-unknown' }, devDependencies: { 'simple-git-hooks': '^2.11.1', 'lint-staged': '^15.2.0', '@commitlint/cli': '^19.0.0' } }, null, 2);
    const [hooks] = toolchainDrafts(viewOf(new SessionBuilder().user('lint the repo').bash('cat package.json', pkg).build()));
    expect(hooks!.text).toBe(
      'Commits pass through git hooks: simple-git-hooks installs the git hooks; lint-staged runs `eslint --fix` on staged `*.{js,ts}`; `prettier --write --ignore-unknown` on staged `*` before each commit. Run the same checks before committing; they rewrite the staged files and stop a commit only on what they cannot fix.',
    );
  });

  it('leaves out a Node.js minimum that every release maintained on the session\'s date meets', () => {
    const at = (node: string, startedAt: string | undefined) =>
      toolchainDrafts(viewOf({ ...new SessionBuilder().user('set up').bash('cat package.json', PACKAGE.replace('>=20.0.0', node)).build(), startedAt })).map((d) => d.title);
    expect(at('>=20.0.0', '2025-03-01T10:00:00Z')).toContain('Node.js >=20.0.0 required'); // 18 was still maintained
    expect(at('>=20.0.0', '2026-03-01T10:00:00Z')).not.toContain('Node.js >=20.0.0 required'); // 20, 22 and 24 all meet it
    expect(at('>=18.0.0', '2026-07-16T10:00:00Z')).toEqual(['Commits run git hooks']);
    expect(at('>=24.0.0', '2026-07-16T10:00:00Z')).toContain('Node.js >=24.0.0 required');
    expect(at('>=18.0.0', undefined)).toContain('Node.js >=18.0.0 required'); // no date: nothing to judge by
  });

  it('takes a subagent report as stated evidence, and needs hook context to name hook tools', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `- \`src/module${i}.ts\` holds the code of feature ${i} and its helpers`).join('\n');
    const report = `# Repository overview\n\n## Layout\n\n${filler}\n\n## Tooling\n\n- **Node.js Version**: >=24.0.0\n- **Pre-commit Hooks**: lint-staged + Gitleaks secrets detection\n- husky manages the git hooks\n`;
    const session = new SessionBuilder().user('explore the repo').tool('Task', { prompt: 'explore' }, report).build();
    const drafts = toolchainDrafts(viewOf(session));
    expect(drafts.map((d) => d.title)).toEqual(['Node.js >=24.0.0 required', 'Commits run git hooks']);
    expect(drafts[0]!.confidence).toBe(0.7);
    expect(drafts[1]!.text).toContain('Gitleaks');
    const noContext = new SessionBuilder().user('explore').tool('Task', { prompt: 'explore' }, `# Deps\n\n${filler}\n- husky and lint-staged are listed as dependencies of the docs site\n`).build();
    expect(toolchainDrafts(viewOf(noContext))).toEqual([]);
  });

  it('says nothing about the agent editing package.json', () => {
    const session = new SessionBuilder().user('add hooks').tool('Write', { file_path: '/repo/package.json', content: PACKAGE }, PACKAGE).build();
    expect(toolchainDrafts(viewOf(session))).toEqual([]);
  });
});

describe('project commands', () => {
  it('says what a repo-defined agent command does, from the steps that carried it out', () => {
    const session = new SessionBuilder()
      .user('Execute /hi')
      .tool('ReadFile', { args: '.claude/commands/hi.md' }, '')
      .bash('pytest --spec', '14 passed')
      .tool('ReadManyFiles', { args: 'Will attempt to read and concatenate files using patterns: `TODO.md`, `docs/apple_books.md`' }, 'Successfully read')
      .bash('git log --oneline -10', '99b18cc feat(docs): screenshots')
      .tool('Edit', { file_path: '/repo/specs/cli_spec.py', old_string: 'a', new_string: 'b' }, 'ok')
      .bash('pytest specs/cli_spec.py', '1 passed')
      .build();
    const drafts = projectCommandDrafts(viewOf(session));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.text).toBe('The repo defines a `/hi` agent command (`.claude/commands/hi.md`). Carrying it out, the agent ran `pytest --spec`, then read `TODO.md` and `docs/apple_books.md`, then ran `git log --oneline -10`.');
  });

  it('needs the command file read and at least two steps after it', () => {
    const one = new SessionBuilder().user('/hi').tool('Read', { file_path: '/repo/.claude/commands/hi.md' }, 'steps').bash('pytest', 'ok').build();
    expect(projectCommandDrafts(viewOf(one))).toEqual([]);
    const other = new SessionBuilder().user('go').tool('Read', { file_path: '/repo/docs/commands/hi.md' }, 'x').bash('pytest', 'ok').bash('git log', 'x').build();
    expect(projectCommandDrafts(viewOf(other))).toEqual([]);
  });
});

describe('project commands read, not carried out', () => {
  it('a turn that reads several command files surveys them: no command is carried out', () => {
    const session = new SessionBuilder()
      .user('recheck the implementation plan against the commands and rules')
      .tool('Read', { file_path: '/repo/.cursor/commands/generate-tests.md' }, 'Generate tests for …')
      .tool('Read', { file_path: '/repo/.cursor/commands/review-spec.md' }, 'Review the spec …')
      .tool('Read', { file_path: '/repo/.cursor/commands/review-code.md' }, 'Review the code …')
      .tool('Read', { file_path: '/repo/spec/implementation-plan.md' }, '# Plan')
      .bash('git log --oneline -5', 'a1b2c3d plan')
      .build();
    expect(projectCommandDrafts(viewOf(session))).toEqual([]);
  });
});

describe('answers to the agent\'s questions', () => {
  const ask = (answer: string) => {
    const question = 'Pre-commit hook blocks on pre-existing credo issues (not our code). How should we proceed?';
    return new SessionBuilder()
      .user('commit and push')
      .tool('AskUserQuestion', { questions: [{ question, options: [{ label: 'Skip hook (--no-verify)' }, { label: 'Fix pre-existing issues' }] }] }, `User has answered your questions: "${question}"="${answer}". You can now continue with the user's answers in mind.`)
      .build();
  };

  it('an answer of the user\'s own overrides the offered options: a pitfall that names them', () => {
    const drafts = userCorrectionDrafts(viewOf(ask('main was clean; fix the issues')));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('pitfall');
    expect(drafts[0]!.text).toContain('with the options "Skip hook (--no-verify)" / "Fix pre-existing issues", the user answered instead: "main was clean; fix the issues"');
  });

  it('a chosen option settles a choice of this task: no item', () => {
    expect(userCorrectionDrafts(viewOf(ask('Fix pre-existing issues')))).toEqual([]);
  });
});

describe('dependencies looked for by a guessed name', () => {
  it('says under which name the package is installed', () => {
    const session = new SessionBuilder()
      .user('add a compaction default for opencode')
      .bash('rg -n compaction node_modules/opencode-ai node_modules/opencode', 'rg: node_modules/opencode-ai: No such file or directory (os error 2)\nrg: node_modules/opencode: No such file or directory (os error 2)', 2)
      .bash("rg --files node_modules | rg 'opencode'", 'node_modules/@codemieai/codemie-opencode-darwin-arm64/package.json\nnode_modules/@codemieai/codemie-opencode/README.md')
      .build();
    const drafts = missingFileDrafts(viewOf(session)).filter((d) => d.tags?.includes('dependency'));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.category).toBe('pitfall');
    expect(drafts[0]!.text).toContain('not installed as `node_modules/opencode-ai` or `node_modules/opencode`');
    expect(drafts[0]!.text).toContain('it is installed as `@codemieai/codemie-opencode-darwin-arm64`, `@codemieai/codemie-opencode` under node_modules/');
  });

  it('says nothing when no later step shows the package', () => {
    const session = new SessionBuilder().user('go').bash('ls node_modules/leftpad', 'ls: node_modules/leftpad: No such file or directory', 1).bash('npm test', 'ok').build();
    expect(missingFileDrafts(viewOf(session)).filter((d) => d.tags?.includes('dependency'))).toEqual([]);
  });
});

describe('user corrections: what is one', () => {
  /** A session whose second prompt is `message`, after the agent proposed something. */
  function drafts(message: string) {
    const session = new SessionBuilder()
      .user('set up hosting for the page')
      .assistant('I will add a Dockerfile and a render.yaml for the `index.html` page.')
      .user(message)
      .assistant('You are right. The static site only needs `index.html` at the repo root.')
      .build();
    return userCorrectionDrafts(viewOf(session));
  }

  it('keeps a statement that what the agent believed or did was wrong, and what is right', () => {
    expect(drafts("no, it's not a Dockerfile deploy: render.com serves `index.html` as a static site")).toHaveLength(1);
    expect(drafts('I think that processedRecordIds is exactly the same as the sync cursor, no need for both')).toHaveLength(1);
  });

  it('keeps no message that ends by weighing an idea with the agent, question mark or not', () => {
    expect(drafts('there is no tracking of failures for the `render.yaml` deploys. does it make sense to have it combined')).toEqual([]);
    expect(drafts('there is no tracking of failures for the `render.yaml` deploys. should we combine it with the metrics?')).toEqual([]);
    // (a statement of what is right still is one)
    expect(drafts('there is no Dockerfile deploy here: render.com serves `index.html` as a static site')).toHaveLength(1);
  });

  it('leads with the agent\'s restatement when the user\'s words name nothing alone, and says nothing without one', () => {
    const session = new SessionBuilder()
      .user('connect the MCP client to the server')
      .assistant('I will connect over a WebSocket to `ws://localhost:8000/sse`.')
      .user('no it should be http')
      .assistant("You're right. - for Server-Sent Events (SSE) we should use HTTP, not WebSocket.")
      .build();
    const [d] = userCorrectionDrafts(viewOf(session));
    expect(d!.title).toBe('For Server-Sent Events (SSE) we should use HTTP, not WebSocket');
    expect(d!.text).toBe('For Server-Sent Events (SSE) we should use HTTP, not WebSocket. (the user corrected the agent: "no it should be http")');
    // narration of the next step restates nothing, and "No it's in this setting repo" alone names nothing
    const narrated = new SessionBuilder()
      .user('update the git settings')
      .assistant('I will write them to `~/.gitconfig`.')
      .user("No it's in this setting repo")
      .assistant("You're right. I'll update the shared/gitconfig file with the recommended settings:")
      .build();
    expect(userCorrectionDrafts(viewOf(narrated))).toEqual([]);
    // a reaction that takes up none of the user's words is about something else
    const unrelated = new SessionBuilder()
      .user('make the launcher reliable')
      .assistant('I will also try launching it from a LaunchAgent.')
      .user('no it always works when started from here - no need to try that')
      .assistant('You are right. - The AppleScript version uses the `tell application "Terminal"` approach, which is more reliable.')
      .build();
    expect(userCorrectionDrafts(viewOf(unrelated))).toEqual([]);
    // a correction that names its subject stays in the user's words
    const named = new SessionBuilder()
      .user('update the git settings')
      .assistant('I will write them to `~/.gitconfig`.')
      .user('No, the git settings live in the `settings` repo, not in ~/.gitconfig')
      .assistant("You're right. I'll update the shared/gitconfig file with the recommended settings:")
      .build();
    expect(userCorrectionDrafts(viewOf(named))[0]!.text).toMatch(/^User correction: The git settings live in the `settings` repo/);
  });

  it('drops praise that moves on, an opinion on what to do, a request, a follow-up and a stopgap', () => {
    for (const message of [
      "its just super beautiful i will host it on render.com now do we need something for that? i don't think we need a Dockerfile.",
      'looks great, I love it; we do not need the extra sounds though',
      "I don't think we need a Dockerfile for this, just the html",
      'please add a LICENSE file, do not change the html',
      'ok, now make the button bigger and do not touch the colours',
      "for now let's not add tests, we will do them later",
      "why did i add a Dockerfile? it's not needed, remove that configuration",
      "But I think it's because the Dockerfile is not used. It's not referenced anywhere.",
      "ah, that fixed it. I think the issue is there were two layers of parent/child dialogs, it's not the root",
      'Two errors show up on chrome: `The default_popup file in the manifest doesn\'t exist.` and `Service worker registration failed.`',
      "Therefore, kindly update with that logic, and i'll later test it, it isn't urgent",
      "No that's not what I wanted, I want you to update disabled.lua with every plugin you found",
      "No, your task isn't to reorganize the index.html sections. Just verify that every link in index.html works",
      "export the current session to the repository using the correct naming scheme, don't export sensitive information",
      "Two errors show up on chrome: 'The default_popup file in the manifest doesn't exist. Confirm it exists and then reload the extension.' refering to the manifest.json file",
      "It says 'The default_popup file in the manifest doesn't exist.' for the manifest.json file",
    ]) expect(drafts(message), message).toEqual([]);
  });

  it('reads a prompt that casts the agent in a role, asks for an audit, or repeats an earlier prompt as the task', () => {
    const task = "You are auditing the core repository to prepare it for release.\nObjectives:\n1. Verify ESM compliance\nConstraints:\n- Avoid unnecessary implementation logic, focus on scaffolding.";
    const later = (...prompts: string[]) => {
      const b = new SessionBuilder().user('list the entry points').assistant('The entry point is `dist/index.js`.');
      for (const p of prompts) b.user(p).assistant('You are right. The schemas live in `dist/schemas/index.js`.');
      return userCorrectionDrafts(viewOf(b.build()));
    };
    expect(later(task)).toEqual([]);
    expect(later('You are a senior TypeScript engineer. Never add implementation logic, only stubs.')).toEqual([]);
    // a role-play template casts the agent; its "NEVER break character" is no convention of the project
    const persona = "You must fully embody this agent's persona and follow all activation instructions exactly as specified. NEVER break character until given an exit command.\n<agent-activation CRITICAL=\"TRUE\">\n1. LOAD the FULL agent file from @_bmad/bmm/agents/sm.md";
    expect(userCorrectionDrafts(viewOf(new SessionBuilder().user(persona).assistant('The entry point is `dist/index.js`.').build()))).toEqual([]);
    expect(later(persona)).toEqual([]);
    expect(userCorrectionDrafts(viewOf(new SessionBuilder().user('You must use pnpm in this repo, never npm.').assistant('The entry point is `dist/index.js`.').build()))).toHaveLength(1);
    expect(later('Now audit the overall structure and provide a checklist.\nConstraints:\n- Avoid unnecessary implementation logic.')).toEqual([]);
    // the task pasted again, reworded after its first line
    const first = "The core package isn't ready for a release: `dist/index.js` is missing and the exports are not ESM.";
    expect(later(first)).toHaveLength(1);
    expect(later(first, `${first.slice(0, 70)} Also the schemas are missing.`)).toHaveLength(1);
    // "you are working on the wrong …" is a correction, and a noun that is also a verb opens no request
    expect(later("You're reviewing the wrong workflow: deploys must only run from `release.yml`, never from `ci.yml`")).toHaveLength(1);
    expect(later('Draft pull requests must not deploy: `deploy.yml` has to skip them, it is not run for drafts')).toHaveLength(1);
    // "you are wrong" is a correction, not a role
    expect(later("You are wrong, it's not ESM: `package.json` has no \"type\": \"module\"")).toHaveLength(1);
  });

  it('drops a message the agent answers by taking it as a request for work, keeps one it answers as corrected', () => {
    const answered = (reply: string) =>
      userCorrectionDrafts(
        viewOf(new SessionBuilder().user('port the attendance script').assistant('I ported it and added a CSV export in `report.py`.').user("don't generate the csv, use the email address instead of the user id").assistant(reply).build()),
      );
    for (const reply of ["I'll help you modify the code to remove the CSV generation in `report.py`.", 'To implement the requested changes, we need to:', 'Ah, I understand. To implement this, I will change `report.py`.'])
      expect(answered(reply), reply).toEqual([]);
    expect(answered("You're right, the report has no CSV: `report.py` prints the email address, not the user id.")).toHaveLength(1);
  });

  it('reads a message as a correction only when the agent concedes it, or when it lays down a convention', () => {
    const replied = (message: string, reply?: string) => {
      const b = new SessionBuilder().user('set up the backup repo').assistant('I searched GitHub for `hermes` backups and found two.').user(message);
      return userCorrectionDrafts(viewOf((reply === undefined ? b : b.assistant(reply)).build()));
    };
    const message = "No, the backups don't go to GitHub: `~/.hermes` is pushed to the `backup` remote on the NAS.";
    expect(replied(message, "You're right, the NAS remote is where they go.")).toHaveLength(1);
    expect(replied(message, 'I apologize: the backups go to the NAS remote.')).toHaveLength(1);
    // answered by setting to work, or not answered at all (a log of prompts only): nothing was conceded
    expect(replied(message, "Let's do it! Setting up the `backup` remote now.")).toEqual([]);
    expect(replied(message)).toEqual([]);
    // a convention in a sentence of its own needs no concession
    expect(replied('Never push to GitHub from this machine: we use the `backup` remote on the NAS.', 'Setting up the `backup` remote now.')).toHaveLength(1);
    expect(replied('use rsync instead of git', 'Running `rsync -a ~/.hermes nas:backup/`.')).toHaveLength(1);
  });

  it('reads the opening prompt as the task unless a sentence of its own lays down a convention', () => {
    const opening = (text: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user(text).assistant('I will write `scripts/seed.ts`.').build()));
    expect(opening('Architect: Create a seed script.\n1. File: scripts/seed.ts.\n2. Do NOT modify the schema.\n3. Import the pool from src/db.ts to ensure we use the Railway connection.')).toEqual([]);
    expect(opening('Seed scripts go in scripts/. We use the pool from src/db.ts for every database script, never Prisma.')).toHaveLength(1);
  });

  it('drops a correction the next message takes back', () => {
    const session = (next: string) =>
      userCorrectionDrafts(viewOf(new SessionBuilder().user('write the check script').assistant('I wrote `check.sh`.').user("No, let's use python instead of bash").assistant('You are right. I will port `check.sh` to `check.py`.').user(next).build()));
    expect(session("Actually, never mind. Let's continue using bash, but print every request")).toEqual([]);
    expect(session("Let's keep using bash and make it verbose")).toEqual([]);
    expect(session('thanks, now add a README')).toHaveLength(1);
  });

  it('drops a correction that steers what the agent is drafting (a document, its own new code), keeps one that leads to other code', () => {
    const drafted = (after: (b: SessionBuilder) => SessionBuilder, rejected = false) =>
      userCorrectionDrafts(
        viewOf(
          after(
            new SessionBuilder()
              .user('write the design for incremental sync into DESIGN.md')
              .tool('Edit', { file_path: '/repo/docs/DESIGN.md', old_string: 'a', new_string: 'b' }, rejected ? 'The user rejected this edit' : 'ok', { rejected })
              .user("don't add notes to the design, the sync cursor is the same as the session id")
              .assistant("You're right."),
          ).build(),
        ),
      );
    // the agent works on the draft and nothing else: what the user wanted lands in the document
    expect(drafted((b) => b.tool('Edit', { file_path: '/repo/docs/DESIGN.md', old_string: 'b', new_string: 'c' }, 'ok'))).toEqual([]);
    expect(drafted((b) => b.bash('rm docs/NOTES.md docs/OLD-DESIGN.md', '')).length).toBe(0);
    expect(drafted((b) => b.assistant('I will keep the design as it is.'), true)).toEqual([]);
    // it looks at the code: the correction is about more than the draft
    expect(drafted((b) => b.tool('Read', { file_path: '/repo/src/sync/types.ts' }, 'export interface SyncState {}').tool('Edit', { file_path: '/repo/docs/DESIGN.md', old_string: 'b', new_string: 'c' }, 'ok'))).toHaveLength(1);
    // the same for code the session itself wrote: the request lands in that code
    const built = (before: (b: SessionBuilder) => SessionBuilder, message: string) =>
      userCorrectionDrafts(
        viewOf(
          before(new SessionBuilder().user('build the scroll watcher'))
            .user(message)
            .assistant("You're right.")
            .tool('Edit', { file_path: '/ext/content.js', old_string: 'scrolls', new_string: 'distance' }, 'ok')
            .build(),
        ),
      );
    const wrote = (b: SessionBuilder) => b.tool('Write', { file_path: '/ext/content.js', content: 'let scrolls = 0;' }, 'ok');
    expect(built(wrote, 'no, the watcher does not count scrolls in content.js: trigger by scroll distance instead')).toEqual([]);
    expect(built((b) => b.tool('Read', { file_path: '/ext/content.js' }, 'let scrolls = 0;'), 'no, the watcher does not count scrolls in content.js: trigger by scroll distance instead')).toHaveLength(1);
    expect(built(wrote, 'no, the watcher must always count the distance in content.js, never the scrolls')).toHaveLength(1);
    // a rejected edit of code is a correction of the code
    expect(
      userCorrectionDrafts(
        viewOf(
          new SessionBuilder()
            .user('fix the sync')
            .tool('Edit', { file_path: '/repo/src/sync.ts', old_string: 'a', new_string: 'b' }, 'rejected', { rejected: true })
            .user("no, the sync cursor is the same as the session id, don't add a field")
            .assistant("You're right.")
            .tool('Edit', { file_path: '/repo/docs/DESIGN.md', old_string: 'b', new_string: 'c' }, 'ok')
            .build(),
        ),
      ),
    ).toHaveLength(1);
  });

  it('files an instruction as a way of working, and says nothing of a script whose body is left out', () => {
    const [d] = userCorrectionDrafts(
      viewOf(
        new SessionBuilder()
          .user('make the devcontainer work in JetBrains')
          .assistant('I will add a workaround for the JetBrains seccomp bug to `devcontainer.json`.')
          .user("Yeah, don't add complications just to work around JetBrains dev container bugs in devcontainer.json")
          .assistant('Understood.')
          .bash("python3 - <<'EOF'\nimport json\nEOF\ngit diff", 'ok')
          .build(),
      ),
    );
    expect(d!.category).toBe('pattern');
    expect(d!.text).not.toContain('the agent then ran');
  });

  it('reads a reported symptom or announced work as no correction, whatever its negation', () => {
    const said = (text: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('fix the hotkey of the extension').assistant('I changed the keybinding in `package.json` to Ctrl+Alt+M.').user(text).assistant("You're right.").build()));
    for (const text of [
      "Ctrl Alt M isn't working again",
      "Hmmm it doesn't seem like the hotkey is working again.",
      'Also I think ctrl + alt + M doesn\'t really work as a hotkey for this. It seems to not work in windows.',
      'The dropdown isn\'t showing which means the launch json is improper.',
      'So the ctrl alt p command does work. It is the M command that doesn\'t',
      "No....I don't know. It was working earlier today when we pushed the update, it's not now.",
      'Ok great thank you. Now the Ctrl Alt M hotkey to minify for some reason doesn\'t work.',
      'I have a new update we need to do. See how "yummy cheese" was kept? it is bad and shouldn\'t be kept.',
      'One more fix to push today: a string command with a comment after it does not get rid of the comment',
    ])
      expect(said(text), text).toEqual([]);
    // only denying the agent's guess, or only pointing at lines of a file, says nothing of what is right
    expect(said("It isn't the key combination. I am telling you when I press ctrl alt m nothing happens at all.")).toEqual([]);
    expect(said("But the alias's are there look at lines 8-18")).toEqual([]);
    expect(said("It isn't the key combination: the keybinding in `package.json` must be `ctrl+alt+y`.")).toHaveLength(1);
    // a correction beside a symptom still is one; a statement of how a thing is configured is no symptom
    expect(said("The hotkey still isn't working. It doesn't have to do with a conflict in `keybindings.json`.")).toEqual([]);
    expect(said("The hotkey still isn't working. The command should be `ic10.minify`, not `ic10SafeMinifier.minify`.")).toHaveLength(1);
    expect(said('Draft builds must not publish: `publish.yml` has to skip them, it is not run for drafts')).toHaveLength(1);
  });

  it('leaves out the words that only mark disagreement ("NO. Listen."), in the item but not in a quote of the user', () => {
    const drafts = (said: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('plan the research agent').assistant('I will use `gpt-4o` for every step of the planner.').user(said).assistant('Understood.').build()));
    const [d] = drafts('NO. Listen. Use `gpt-4o-mini` for the planner steps.');
    expect(d!.text).toBe('User correction: Use `gpt-4o-mini` for the planner steps.');
    expect(d!.title).toBe('Use `gpt-4o-mini` for the planner steps.');
  });

  it("shows the agent's next command only when it carries what the correction names", () => {
    const after = (command: string) =>
      userCorrectionDrafts(
        viewOf(
          new SessionBuilder()
            .user('find the book in the library database')
            .assistant('I will read the whole diary log first.')
            .user("no, don't read whole logs: query the `ZBOOK` table for the prefix \"Automobil v podnikan\"")
            .assistant('You are right.')
            .bash(command, 'ok')
            .build(),
        ),
      )[0]!.text;
    expect(after("sqlite3 library.sqlite \"SELECT ZTITLE FROM ZBOOK WHERE ZTITLE LIKE 'Automobil v podnikan%'\"")).toContain('the agent then ran');
    expect(after('git stash && npm run build')).not.toContain('the agent then ran');
  });

  it("adds no lead-in, look around or patch of the agent, nor its reading of the correction", () => {
    const b = new SessionBuilder()
      .user('store the sync state')
      .assistant('I will append it to `state.jsonl`.')
      .user("the sync state isn't a jsonl file, there is one json file per session")
      .assistant("You're right. Current SyncState fields:")
      .bash('find ~/.app/sessions -name "*.json" | head -1', '/home/dev/.app/sessions/a.json')
      .bash("apply_patch '*** Begin Patch'", 'Success');
    const text = userCorrectionDrafts(viewOf(b.assistant('So the state is one JSON file per session at `~/.app/sessions/{id}.json`.').build()))[0]!.text;
    expect(text).not.toContain('Current SyncState fields');
    expect(text).not.toContain('the agent then ran');
    // the agent's reading is not the user's knowledge (reviewers found such readings overruled or unchecked)
    expect(text).not.toContain('the agent then:');
    expect(text).toMatch(/^User correction: the sync state isn't a jsonl file, there is one json file per session/);
  });
});

describe('progress and a checkout without its dependencies are not knowledge', () => {
  it('a module the project\'s own install then brings was not missing from the machine', () => {
    const failing = (b: SessionBuilder) => b.user('run the tests').tool('run_command', { command: 'python app.py' }, "ModuleNotFoundError: No module named 'sqlalchemy'", { isError: true, exitCode: 1 });
    const viaVenv = (b: SessionBuilder) => b.tool('run_command', { command: '.venv/bin/python app.py' }, 'serving on :8000');
    const installed = viaVenv(failing(new SessionBuilder()).tool('run_command', { command: 'pip install -r requirements.txt' }, 'Successfully installed sqlalchemy-2.0.30')).build();
    expect(toolQuirkDrafts(viewOf(installed)).filter((d) => /sqlalchemy/.test(d.text))).toEqual([]);
    const never = viaVenv(failing(new SessionBuilder())).build();
    const told = toolQuirkDrafts(viewOf(never)).filter((d) => /sqlalchemy/.test(d.text));
    expect(told.map((d) => d.title)).toEqual(["Run this project's Python with `.venv/bin/python`, not the bare python"]);
    // where the project's packages live is the repository's fact, not a tool's quirk
    expect(told.map((d) => [d.category, d.scope])).toEqual([['fact', 'repo']]);
    // …whether run after a `cd`, or typed into a tmux window
    for (const install of ['cd app && pip install -r requirements.txt', 'tmux send-keys -t dev "cd app && pip install -r requirements.txt" Enter']) {
      const later = viaVenv(failing(new SessionBuilder()).tool('run_command', { command: install }, '')).build();
      expect(toolQuirkDrafts(viewOf(later)).filter((d) => /sqlalchemy/.test(d.text)), install).toEqual([]);
    }
  });

  it("a module named through the project's import alias, or written as a file next, is the project's own file, never a package to install", () => {
    const check = (mod: string, then?: string) => {
      const b = new SessionBuilder().user('add a stats panel').bash('python -m app', `ModuleNotFoundError: No module named '${mod}'`, 1);
      if (then) b.tool('Write', { file_path: `/home/dev/game/${then}`, content: 'def stats(): pass' }, 'ok');
      b.bash('.venv/bin/python -m app', 'ok');
      return toolQuirkDrafts(viewOf(b.build())).map((d) => d.text).filter((t) => t.includes('module is missing'));
    };
    expect(check('app.player_stats', 'app/player_stats.py')).toEqual([]);
    // a package nobody wrote is missing from that python
    expect(check('requests')).toEqual([expect.stringMatching(/^The `requests` module is missing from the python a bare command runs/)]);
  });

  it("a missing module is told only where the project's own environment then ran: the bare error is the next session's to read", () => {
    const base = () => new SessionBuilder().user('check the app').bash('python - <<PY\nimport app\nPY', "ModuleNotFoundError: No module named 'dotenv'", 1);
    expect(toolQuirkDrafts(viewOf(base().build())).filter((d) => d.text.includes('dotenv'))).toEqual([]);
    const [item] = toolQuirkDrafts(viewOf(base().bash('./.venv/bin/python - <<PY\nimport app\nPY', 'ok').build())).filter((d) => d.text.includes('dotenv'));
    expect(item!.text).toBe("The `dotenv` module is missing from the python a bare command runs (`python - <<PY … PY`): `ModuleNotFoundError: No module named 'dotenv'`. It is installed in the project's own environment: `./.venv/bin/python - <<PY … PY` then ran. Run the project's code with `./.venv/bin/python`.");
    // the system's python by its path is no project environment
    expect(toolQuirkDrafts(viewOf(base().bash('/usr/bin/python3 -c "import app"', 'ok').build())).filter((d) => d.text.includes('dotenv'))).toEqual([]);
    // `uv run` is the project's environment too
    expect(toolQuirkDrafts(viewOf(base().bash('uv run python -c "import app"', 'ok').build())).map((d) => d.text).join(' ')).toContain("Run the project's code with `uv run`.");
  });

  it('a name declared twice in code the session had just written is its slip, even when the checker reports on the whole project', () => {
    const lint = (file: string) =>
      errorFixDrafts(
        viewOf(
          new SessionBuilder()
            .user('add redeem codes')
            .tool('Write', { file_path: '/home/dev/game/src/data/codes.ts', content: 'export const redeemCodes = []' }, 'ok')
            .bash('./lint.sh src/data/items.ts', `FAILED BUILD CRITICAL in TypeScript check\n${file}(3,14): error TS2451: Cannot redeclare block-scoped variable 'redeemCodes'.`, 1)
            .assistant('The error was caused by having duplicate redeemCodes declarations in the file.')
            .build(),
        ),
      ).map((d) => d.title);
    expect(lint('src/data/codes.ts')).toEqual([]);
    // in a file of the repository the session never touched, it is the repository's
    expect(lint('src/data/legacy.ts')).toHaveLength(1);
  });
});

describe('what the precision rules leave alone (a code review found each of these dropped)', () => {
  const GAP_LINES = [
    '### Current gaps',
    '- Nothing is deployed yet: the staging server, the CI pipeline and the release scripts are not set up so far, and no hosting provider was chosen yet',
    '- Monitoring, backups and the on-call rota are not in place yet; the team plans them for a later milestone',
    '- Load tests and the security review are still pending as well, waiting for the staging server to exist first',
    '',
  ].join('\n');
  const delegate = (body: string) =>
    reportFactDrafts(viewOf(new SessionBuilder().user('explore').tool('Task', { subagent_type: 'Explore', prompt: 'explore' }, `## Report\n\n${body}\n\n${GAP_LINES}`).build()))
      .map((d) => d.text)
      .join('\n');

  it('a failure of a command that acts on its input (sed, jq) is no look-around', () => {
    const drafts = failThenFix("sed -i 's/foo/bar/' config.txt", 'sed: 1: "config.txt": invalid command code c', 'BSD sed needs a suffix argument after -i, because it reads the next word as the backup suffix.', "sed -i '' 's/foo/bar/' config.txt");
    expect(drafts.map((d) => d.text).join('\n')).toContain('invalid command code c');
  });

  it('an edited file named by a Windows path is its base name', () => {
    const step = viewOf(new SessionBuilder().user('fix it').tool('Edit', { file_path: 'C:\\Users\\dev\\app\\src\\export.ts', old_string: 'a', new_string: 'b' }, 'ok').build()).steps[0]!;
    expect(editedFiles(step)).toEqual(['export.ts']);
  });

  it('a correction that mentions a warning, or edits requirements.txt, is still a correction', () => {
    const one = (message: string, edit = '/repo/src/ci.yml') =>
      userCorrectionDrafts(viewOf(new SessionBuilder().user('set up CI').assistant('I will commit the lockfile.').user(message).assistant("You're right.").tool('Edit', { file_path: edit, old_string: 'a', new_string: 'b' }, 'ok').build()));
    expect(one('No, the warning appears because we never commit the lockfile; use `npm ci` in CI.')).toHaveLength(1);
    expect(one('No, numpy has to stay below 2.0: the CUDA wheels are built against 1.26.', '/repo/requirements.txt')).toHaveLength(1);
  });

  it('keeps a value before a colon, sections of possible values, and lines about a patch version', () => {
    const text = delegate(
      [
        '### HTTP client (`src/http/client.ts`)',
        '- 30 seconds: the default request timeout set in `src/http/client.ts`, overridable with `HTTP_TIMEOUT_MS`',
        '- `scripts/release.sh` runs `npm version patch`, which bumps the patch number in `package.json` and tags the commit',
        '',
        '### Possible values of `LOG_LEVEL`',
        '- `debug`, `info`, `warn` and `error`; the default is `info`, set in `src/log.ts` and read from the environment at start',
        '- Each level also enables the levels above it, so `warn` prints warnings and errors from every module',
      ].join('\n'),
    );
    expect(text).toContain('30 seconds: the default request timeout');
    expect(text).toContain('bumps the patch number');
    expect(text).toContain('the default is `info`');
  });

  it('a summary that opens "I\'ve looked through …" is still read', () => {
    const seen = '"dev": "next dev", "convex": "convex dev", convex.json NEXT_PUBLIC_CONVEX_URL .env.local localhost:3000 app/page.tsx';
    const session = () => new SessionBuilder().user('how does the app start?').bash('cat package.json', seen).bash('cat convex.json', seen).bash('ls app', seen);
    const text = `I've looked through the repository and the config files.\n\n## How it runs\n1. The Convex backend runs with \`npx convex dev\` and writes \`NEXT_PUBLIC_CONVEX_URL\` to \`.env.local\`\n2. The Next.js app runs with \`npm run dev\` at http://localhost:3000 and reads \`.env.local\`\n\n## Notes\n- The root route \`/\` has no page yet, so it answers 404 until \`app/page.tsx\` exists\n- \`convex.json\` pins the deployment used by \`npx convex dev\` for this checkout, so every developer gets the same backend\n- Both processes must run at the same time: the app reads \`NEXT_PUBLIC_CONVEX_URL\` at start`;
    const read = (lead: string) => reportFactDrafts(viewOf(session().assistant(text.replace("I've looked through the repository and the config files.", lead)).user('thanks').build())).map((d) => d.text).join('\n');
    expect(read("I've looked through the repository and the config files.")).toContain('The Convex backend runs with');
    expect(read("I've installed the dependencies and set up both servers.")).not.toContain('The Convex backend runs with');
  });

  it('a wrong guess inside the checkout is still a fact of its layout', () => {
    const session = new SessionBuilder({ cwd: '/home/dev/demo' })
      .user('look at the build config')
      .tool('Read', { file_path: '/home/dev/demo/src/vite.config.ts' }, 'File does not exist.', { isError: true })
      .tool('Glob', { pattern: '**/vite.config.ts' }, '/home/dev/demo/vite.config.ts')
      .build();
    expect(missingFileDrafts(viewOf(session)).map((d) => d.text).join('\n')).toContain('`vite.config.ts` is not at `src/vite.config.ts`');
  });

  it('a module is matched to its file whatever the file naming (TranscriptRenderer.tsx, transcript-renderer.ts)', () => {
    const body = '### TranscriptRenderer Service API\n#### Rows\n- Reads `agent_id` from the message map and falls back to matching `/agent-[a-z0-9]+/` in the text\n- Each row gets `row_class/1` classes such as `is-tool-use` and `is-tool-result` for the stylesheet\n';
    const text = (parentEditsAfter: string[]) => {
      const b = new SessionBuilder({ parentId: 'p', subagent: 'Explore', parentEditsAfter }).user('explore');
      for (const f of ['a.ts', 'b.ts', 'c.ts']) b.tool('Read', { file_path: `/r/${f}` }, 'agent_id row_class/1 is-tool-use is-tool-result');
      return reportFactDrafts(viewOf(b.assistant(`## Report\n\n${body}\n${GAP_LINES}`).build())).map((d) => d.text).join('\n');
    };
    expect(text(['other.ts'])).toContain('agent_id');
    expect(text(['TranscriptRenderer.tsx'])).not.toContain('agent_id');
    expect(text(['transcript-renderer.ts'])).not.toContain('agent_id');
  });

  it('a rule file the prompt before cited as the rule to follow is still a rule mention', () => {
    const drafts = repoRuleDrafts(
      viewOf(new SessionBuilder().user('Rename the handlers; follow CONVENTIONS.md for the naming.').tool('Edit', { file_path: '/repo/src/h.ts', old_string: 'a', new_string: 'b' }, 'ok').user('CONVENTIONS.md').build()),
    );
    expect(drafts.map((d) => d.title)).toEqual(['Follow the project rule CONVENTIONS.md']);
  });
});

describe('the command xargs runs', () => {
  it('is the family, past xargs options and a one-command sh -c script', () => {
    const families = (c: string) => [...viewOf(new SessionBuilder().user('look').bash(c, 'x').build()).steps[0]!.families];
    expect(families('git ls-files -z frontend | xargs -0 -I{} sh -c "grep -nIiE OPENAI_ {}"')).toEqual(['git ls-files', 'grep']);
    expect(families('xargs -n 1 kill')).toEqual(['kill']);
    // (a script of several commands stays one word, as the shell gets it)
    expect(families('bash -lc "cd web && npm run build"')).toEqual(['cd web && npm run build']);
  });
});
