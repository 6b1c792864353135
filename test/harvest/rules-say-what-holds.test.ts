/**
 * What a fresh review rejected, as principles: aider's model reasoning is not its reply; a check's
 * report is the code's bug, not a tool refusing; a tool's error nobody explained, and one every
 * tool gave, is no quirk of one tool; a correction the user revised at once gave way to the revision.
 */
import { describe, expect, it } from 'vitest';
import { readSessions } from '../../src/sessions/read.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { commandPatternDrafts } from '../../src/harvest/extract/rules/command-patterns.js';
import { userCorrectionDrafts } from '../../src/harvest/extract/rules/user-corrections.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';
import { SessionBuilder } from './extract-session.js';

const launch = `\n# aider chat started at 2026-05-02 13:55:39\n\n> aider --architect --model ollama/qwen3.5  \n> Aider v0.86.1  \n> Git repo: .git with 120 files  \n\n`;

async function aiderSession(history: string) {
  const { sessions } = await readSessions([put(tempDir(), '.aider.chat.history.md', history)]);
  return sessions[0]!;
}

describe("aider's record of a reasoning model's reply", () => {
  it("reads the <thinking-content-…> and <think> sections as the model's reasoning, not its reply", async () => {
    const tag = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
    const session = await aiderSession(
      `${launch}#### why does the build fail?  \n\n<${tag}>\n\nThe user asks about the build. Maybe main.py is the entry point.\n\n</${tag}>\n\nThe build fails because \`ios/PyPackages\` is missing.\n\n#### and now?  \n\n<think>\nLet me think about the SEARCH block.\n</think>\n\nRun \`make ios\` first.\n`,
    );
    const texts = session.events.filter((e) => e.kind === 'assistant' || e.kind === 'reasoning').map((e) => [e.kind, 'text' in e ? e.text : '']);
    expect(texts).toEqual([
      ['reasoning', 'The user asks about the build. Maybe main.py is the entry point.'],
      ['assistant', 'The build fails because `ios/PyPackages` is missing.'],
      ['reasoning', 'Let me think about the SEARCH block.'],
      ['assistant', 'Run `make ios` first.'],
    ]);
  });
});

describe("aider's own unquoted output before a launch's first prompt", () => {
  it("is aider's (its --verbose settings), no reply: a launch with no prompt had no answer", async () => {
    const verbose = `\n# aider chat started at 2026-04-12 07:01:46\n\n> Command Line Args:   --model ollama/qwen2.5-coder:7b --verbose\nDefaults:\n  --set-env:         []\n  --api-key:         []\n> Warning: ollama/qwen2.5-coder:7b expects these environment variables  \n> - OLLAMA_API_BASE: Not set  \n`;
    const session = await aiderSession(verbose);
    expect(session.events.filter((e) => e.kind === 'assistant')).toEqual([]);
    expect(session.events.some((e) => e.kind === 'system' && e.text.startsWith('Defaults:'))).toBe(true);
    // so its warning is not "harmless here": nothing answered
    expect(extractSession(session).filter((c) => c.rule === 'aider-env-warning')).toEqual([]);
    // once aider has announced itself, a reply may come before any prompt (`--watch-files` acts on AI! comments)
    const watching = await aiderSession(`\n# aider chat started at 2025-06-02 14:15:20\n\n> Aider v0.84.0  \n> Model: gemini/gemini-2.5-pro with diff-fenced edit format  \n\nOkay, I will make that change to \`iterables.union.ts\`.\n`);
    expect(watching.events.filter((e) => e.kind === 'assistant')).toHaveLength(1);
  });
});

describe('a failed check of aider (its lint after an edit)', () => {
  it("is the code's problem it reports, no refusal of a `lint` tool", async () => {
    const session = await aiderSession(
      `${launch}#### add the table  \n\nHere is the table.\n\n> Applied edit to src/roster.html  \n> Commit cf90575 feat: add the table  \n>  \n> # Fix any errors below, if possible.  \n>  \n> ## See relevant line below marked with █.  \n>  \n> src/roster.html:  \n> 10│   </table>  \n> 11█ </table>  \n>  \n> Attempt to fix lint errors? (Y)es/(N)o [Yes]: y  \n\nTo fix the error in \`src/roster.html\`, remove the extra closing \`</table>\` tag.\n`,
    );
    expect(session.events.some((e) => e.kind === 'tool_call' && e.name === 'lint')).toBe(true);
    expect(extractSession(session).filter((c) => c.rule === 'tool-quirk')).toEqual([]);
  });
});

describe("a tool's error", () => {
  it('that names the argument a call lacked, put right by the next call, is the call\'s slip', () => {
    const b = new SessionBuilder()
      .tool('memory', { action: 'add', content: '' }, '{"error": "Content is required for \'add\' action.", "success": false}', { isError: true })
      .tool('memory', { action: 'add', content: 'note' }, '{"success": true}', {});
    expect(toolQuirkDrafts(viewOf(b.build()))).toEqual([]);
  });

  it("that nobody explained is no item, unless its words say what to do", () => {
    const refused = (err: string) => toolQuirkDrafts(viewOf(new SessionBuilder().user('send the input').tool('write_stdin', { session_id: 3, chars: 'y\n' }, err, { isError: true }).assistant('Moving on to the docs.').build()));
    expect(refused('write_stdin failed: session is busy')).toEqual([]);
    expect(refused('write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open')).toHaveLength(1);
    // an edit tool's failure too
    const edit = new SessionBuilder().user('save it').tool('write_file', { path: 'a.md', content: 'x' }, '{"error": "disk quota exceeded"}', { isError: true }).assistant('Next, the README.');
    expect(toolQuirkDrafts(viewOf(edit.build()))).toEqual([]);
  });

  it("is told by its message, with the tool of the same set that answered instead, not by the agent's private reasoning", () => {
    const err = '{"error": "Database error: only \'%s\', \'%b\', \'%t\' are allowed as placeholders, got \'%\'\'"}';
    const session = (next: 'sibling' | 'other') => {
      const b = new SessionBuilder().user('plan the launch').tool('pg_schemas', {}, err, { isError: true }).reasoning('The `pg_schemas()` call bombed due to a bad placeholder. Frustrating!');
      if (next === 'sibling') b.tool('pg_tables', { schema: 'chefbook' }, '{"rows": [{"schema": "chefbook", "name": "content"}]}');
      else b.tool('web_search', { query: 'pasta trends' }, '{"results": ["..."]}');
      return b.build();
    };
    expect(toolQuirkDrafts(viewOf(session('sibling'))).map((d) => [d.title, d.text])).toEqual([
      [
        'pg_schemas fails here: pg_tables answered instead',
        "The `pg_schemas` tool refuses with `Database error: only '%s', '%b', '%t' are allowed as placeholders, got '%''`. `pg_tables` (`{\"schema\":\"chefbook\"}`) answered instead.",
      ],
    ]);
    // a tool of another set is no way round it, and the reasoning explains nothing: no item
    expect(toolQuirkDrafts(viewOf(session('other')))).toEqual([]);
    // a set of tools this setup gave the agent (a server's) is the repository's, not the agent's
    expect(toolQuirkDrafts(viewOf(session('sibling')))[0]!.scope).toBe('repo');
    const mcp = new SessionBuilder().user('open the issue').tool('mcp__github__create_issue', { title: 'x' }, 'Error: the labels field takes names only; pass labels as a list of strings', { isError: true }).build();
    expect(toolQuirkDrafts(viewOf(mcp))[0]?.scope).toBe('repo');
    const builtIn = new SessionBuilder().user('open the page').tool('WebFetch', { url: 'https://example.com' }, 'Error: the page is too large; use a prompt that asks for less', { isError: true }).build();
    expect(toolQuirkDrafts(viewOf(builtIn))[0]?.scope).toBe('agent');
  });

  it('that three different tools gave is the environment failing, no quirk of one of them', () => {
    const err = '{"error": "[Errno 2] No such file or directory: \'nul\'"}';
    const b = new SessionBuilder()
      .user('install it')
      .tool('terminal', { cmd: 'ls' }, "Command execution failed: FileNotFoundError: [Errno 2] No such file or directory: 'nul'", { isError: true })
      .tool('read_file', { path: 'README.md' }, err, { isError: true })
      .tool('write_file', { path: 'a.md', content: 'x' }, err, { isError: true })
      .assistant('Because `/dev/null` is broken, bash cannot start, so every tool fails with `[Errno 2] No such file or directory: \'nul\'`.');
    expect(toolQuirkDrafts(viewOf(b.build()))).toEqual([]);
    // the same explained failure of one tool alone is its item
    const one = new SessionBuilder()
      .user('install it')
      .tool('write_file', { path: 'a.md', content: 'x' }, err, { isError: true })
      .assistant('Because `/dev/null` is broken, bash cannot start, so `write_file` fails with `[Errno 2] No such file or directory: \'nul\'`.');
    expect(toolQuirkDrafts(viewOf(one.build()))).toHaveLength(1);
  });
});

describe('two corrections in a row', () => {
  it('keep only the later one when it revises the earlier on the same thing', () => {
    const b = new SessionBuilder()
      .user('add the logging')
      .assistant('Done, and committed it as a1b2c3d.')
      .user('i want to commit everything myself okay you never commit anything, send me the changes and i decide if you write to disk')
      .assistant('Understood.')
      .user("i dont wanna apply changes myself, you can apply them when i tell you, just never make the commit")
      .assistant('Understood: I apply edits when you say so and never commit.');
    const quotes = userCorrectionDrafts(viewOf(b.build())).map((d) => d.quotes?.[0]);
    expect(quotes).toEqual(["i dont wanna apply changes myself, you can apply them when i tell you, just never make the commit"]);
    // about another thing, both stand
    const other = new SessionBuilder()
      .user('add the logging')
      .assistant('Done, and committed it as a1b2c3d.')
      .user('you never commit anything here, i review every change first')
      .assistant('Understood.')
      .user('and never use printf for logging in this repo, always spdlog')
      .assistant('Understood.');
    expect(userCorrectionDrafts(viewOf(other.build()))).toHaveLength(2);
  });
});

describe("a terminal's text the user pasted", () => {
  it('is the program\'s words, no correction, however much they say "must"', () => {
    const drafts = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('deploy it').assistant('Run `gcloud builds submit --tag magi-app .`').user(message).assistant("You're right. Use the Artifact Registry path.").build()));
    expect(drafts('ERROR: (gcloud.builds.submit) Invalid value for [--tag]: Tag value must be in the gcr.io or pkg.dev namespace.')).toEqual([]);
    expect(drafts('the tag must be in the gcr.io namespace zelda@cloudshell:~/magi-app (my-project)$')).toEqual([]);
    // the user's own words stay a correction
    expect(drafts('No, the image tag must always be in the pkg.dev namespace for this repo.')).toHaveLength(1);
  });

  it("reads the user's words only up to the first line a program printed (its \"use X instead\" is the program's)", () => {
    const drafts = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('mlflow ui fails').assistant('Option 4: use another port, `mlflow ui --port 5001`.').user(message).assistant("You're right. It runs on 127.0.0.1 only.").build()));
    const warning = 'envs/cloudspace/lib/python3.12/site-packages/mlflow/gateway/config.py:454: PydanticDeprecatedSince20: Support for class-based `config` is deprecated, use ConfigDict instead.';
    expect(drafts(`i took option 4. terminal provided this - main ~ mlflow ui --port 5001\n${warning}\nINFO:     Uvicorn running on http://127.0.0.1:5001`)).toEqual([]);
    expect(drafts('i took option 4, it printed\nINFO:     Waiting for application startup. Use --reload instead of restarting.')).toEqual([]);
    // the user's words before the paste still count
    expect(drafts(`No, never start mlflow on the default port in this repo, use 5001.\n${warning}`)).toHaveLength(1);
  });
});

describe('a fix', () => {
  it('is none when the same command (its cd aside) also ran into the same error', () => {
    const locked = "fatal: Unable to create '/home/dev/app/.git/index.lock': File exists.";
    const session = (alsoFailed: boolean) => {
      const b = new SessionBuilder().user('commit the gitignore').bash('git add *.py', locked, 128);
      if (alsoFailed) b.bash('cd app ; rm -f .git/index.lock ; git add .gitignore', locked, 128);
      return b.bash('rm -f .git/index.lock ; git add .gitignore', '', 0).build();
    };
    expect(errorFixDrafts(viewOf(session(true)))).toEqual([]);
    expect(errorFixDrafts(viewOf(session(false))).map((d) => d.text)).toEqual([
      "`git add *.py` fails with `fatal: Unable to create '/home/dev/app/.git/index.lock': File exists.`. Fix: `rm -f .git/index.lock ; git add .gitignore` succeeded.",
    ]);
  });
});

describe("a run that collides with the agent's own earlier run", () => {
  it('is no pitfall: the first run was still going (it held the lock), waiting for it is all', () => {
    const exec = (id: string, state: string, out = '') => `Chunk ID: ${id}\nWall time: 1.0 seconds\n${state}\nOriginal token count: 0\nOutput:\n${out}`;
    const locked = 'Error: A `brew install --cask font-x` process has already locked ~/Library/Caches/Homebrew/downloads/font-x.zip.incomplete.';
    const session = (firstEnded: boolean) =>
      new SessionBuilder({ format: 'codex', agent: 'codex' })
        .user('install the font')
        .tool('exec_command', { cmd: 'brew install --cask font-x' }, exec('a1', 'Process running with session ID 7'))
        .tool('write_stdin', { session_id: 7, chars: '' }, exec('a2', firstEnded ? 'Process exited with code 0' : 'Process running with session ID 7', firstEnded ? 'installed' : ''))
        .tool('exec_command', { cmd: 'brew install --cask font-x' }, exec('a3', 'Process exited with code 1', locked))
        .tool('exec_command', { cmd: 'rm -f ~/Library/Caches/Homebrew/downloads/font-x.zip.incomplete && brew install --cask font-x' }, exec('a4', 'Process exited with code 0', 'font-x was successfully installed!'))
        .build();
    expect(errorFixDrafts(viewOf(session(false)))).toEqual([]);
    // (the same error with no run of its own going is told as before)
    expect(errorFixDrafts(viewOf(session(true))).map((d) => d.title)).toHaveLength(1);
  });
});

describe('a file printed by a command in an aider history', () => {
  it('is the file\'s text: an "error" in its code fails nothing', async () => {
    const history = (command: string) =>
      `${launch}#### show me the handler  \n\n\`\`\`bash\n${command}\n\`\`\`\n\n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running ${command}  \n> Error: Cannot find module 'express'  \n> Add command output to the chat? (Y)es/(N)o [Yes]: n  \n`;
    const failed = async (command: string) => viewOf(await aiderSession(history(command))).steps.map((s) => s.failed);
    expect(await failed("sed -n '1,80p' src/index.js")).toEqual([false]);
    expect(await failed('node src/index.js')).toEqual([true]);
  });
});

describe('checks before a commit in an aider history', () => {
  it('are not seen to pass where aider kept no output of them (only its count of lines)', async () => {
    const runs = (output: string) =>
      `${launch}#### run the tests, build, then commit  \n\n\`\`\`bash\nnpm test\nnpm run build\ngit commit -am "release"\n\`\`\`\n\n> Run shell commands? (Y)es/(N)o [Yes]: y  \n> Running npm test  \n${output}> Running npm run build  \n${output}> Running git commit -am "release"  \n`;
    const quiet = await aiderSession(runs('> Added 3 lines of output to the chat.  \n'));
    expect(commandPatternDrafts(viewOf(quiet)).filter((d) => d.title.startsWith('Checks before'))).toEqual([]);
  });
});

describe('a sequence of commands aider ran for its model', () => {
  it('is no way of working where aider kept no output of its runs, and the next proposal is no output', async () => {
    const cycle = (fix: string) =>
      `#### next idea  \n\nTry this.\n\n> mkdir -p ~/bin  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running mkdir -p ~/bin  \n> Running chmod +x ~/bin/aider  \n> Running ${fix}  \n> Add command output to the chat? (Y)es/(N)o [Yes]: y  \n> Added 3 lines of output to the chat.  \n> which aider  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running which aider  \n> Added 1 lines of output to the chat.  \n\n`;
    const session = await aiderSession(`${launch}${cycle("emacs -Q --eval '(shell-command \"which aider\")'")}${cycle("emacs --eval '(setq exec-path nil)'")}`);
    const view = viewOf(session);
    // (the model's next proposal, echoed before aider's question, is not the last run's output)
    expect(view.steps.find((s) => s.program === 'emacs')!.output).toBe('Added 3 lines of output to the chat.');
    expect(commandPatternDrafts(view).filter((d) => d.title.startsWith('Recurring sequence'))).toEqual([]);
  });
});

describe("a user telling aider's model not to commit", () => {
  it("is aider's auto-commits (the model makes none): one item naming --no-auto-commits, no correction of the model", async () => {
    const history = (committed: boolean, wish = 'i commit everything myself, you never commit anything', first = 'add the logger') =>
      `${launch}#### ${first}  \n\nHere is the logger.\n\n> Tokens: 2k sent, 300 received.  \n> Applied edit to src/log.cpp  \n${committed ? '> Commit 7df9b15 feat: add the logger  \n' : ''}\n#### ${wish}  \n\nUnderstood, I will not commit.\n\n> Tokens: 2k sent, 20 received.  \n`;
    const items = extractSession(await aiderSession(history(true)));
    const item = items.find((c) => c.title === 'The user commits here: start aider with --no-auto-commits');
    expect(item).toMatchObject({ category: 'pattern', scope: 'repo' });
    expect(item!.text).toContain('start aider with `--no-auto-commits` (or `auto-commits: false` in `.aider.conf.yml`)');
    expect(items.some((c) => c.rule === 'user-correction')).toBe(false);
    // aider made no commit: nothing of aider's to tell
    expect(extractSession(await aiderSession(history(false))).some((c) => c.title.includes('--no-auto-commits'))).toBe(false);
    const wished = async (wish: string, first?: string) =>
      extractSession(await aiderSession(history(true, wish, first))).some((c) => c.title.includes('--no-auto-commits'));
    // the item quotes the sentence that says it, not the message's opening
    expect(items.find((c) => c.title.includes('--no-auto-commits'))!.quotes).toEqual(['i commit everything myself, you never commit anything']);
    // keeping a secret out of git is about that secret, not about who commits
    expect(await wished('Use the broker password from the form. Security note: the hardcoded password is for local tests only, never commit to git.')).toBe(false);
    // a user who asks for commits wants aider's commits
    expect(await wished("don't commit the debug logs", 'add the logger  \n#### Commit with message "add the logger"')).toBe(false);
    expect(await wished("don't commit the debug logs")).toBe(true);
  });
});

describe("an edit tool's refusal and what the agent said of it", () => {
  const refusal = '<tool_use_error>Claude Code settings.json validation failed after edit:\nSettings validation failed:\n- : Unrecognized field: installationMethod\n\nFull schema:\n{\n  "type": "object"\n}</tool_use_error>';
  const session = (after: (b: SessionBuilder) => SessionBuilder) =>
    after(
      new SessionBuilder()
        .user('fix the /doctor warning')
        .tool('Edit', { file_path: '/home/dev/.claude/settings.json', old_string: '{}', new_string: '{"installationMethod": "homebrew"}' }, refusal, { isError: true }),
    ).build();
  const quirk = (after: (b: SessionBuilder) => SessionBuilder) => toolQuirkDrafts(viewOf(session(after))).find((d) => d.title.startsWith('Edit'));

  it('tells a refusal that validated the file against its schema as that check, quoting the error to the end of its chain of lead-ins', () => {
    const d = quirk((b) => b.assistant("The settings schema doesn't include `installationMethod`. This warning appears to be a detection issue within the tool itself."));
    expect(d?.title).toBe('Edit checks settings.json against its schema');
    expect(d?.text).toBe(
      "`Edit` refuses a change that leaves `settings.json` outside the file's schema (the refusal prints the schema): `Claude Code settings.json validation failed after edit: Settings validation failed: - : Unrecognized field: installationMethod`. `installationMethod` is no field of it: check the schema before adding a key.",
    );
    // (the refusal says it all: no guess of the agent's, hedged or not)
    expect(d?.text).not.toContain('detection issue');
  });

  it("takes no cause from what the agent said after the user's next message (it answers the user)", () => {
    const answered = quirk((b) => b.user('why did the edit fail? do I need to authorize you?').assistant('The edit failed because the settings file in your home directory is outside the project sandbox boundaries.'));
    expect(answered?.text ?? '').not.toContain('sandbox');
  });
});
