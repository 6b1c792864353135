import { describe, expect, it } from 'vitest';
import { readSessions } from '../../src/sessions/read.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { withAiderLaunches } from '../../src/harvest/aider-launches.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';

/** The aider-notice items of an aider chat history written to a temporary checkout. */
async function notices(history: string): Promise<{ title: string; text: string; scope: string; quotes: string[] }[]> {
  const file = put(tempDir(), '.aider.chat.history.md', history);
  const { sessions } = await readSessions([file]);
  return sessions.flatMap((s) => extractSession(s).filter((c) => c.rule === 'aider-notice').map((c) => ({ title: c.title, text: c.text, scope: c.scope, quotes: c.quotes })));
}

const launch = (args: string) => `\n# aider chat started at 2025-07-16 20:11:30\n\n> /opt/homebrew/bin/aider ${args}  \n> Aider v0.85.2  \n> Main model: gpt-4.1 with diff edit format  \n> Git repo: .git with 257 files  \n\n`;

describe('aider notices', () => {
  it("names the files aider skipped because they match .gitignore, by their path in the repository", async () => {
    const history = `${launch('--model gpt-4.1')}#### split the ASPP module out of models.py  \n\nHere are the blocks.\n\n> Tokens: 18k sent, 653 received.  \n> Skipping edits to models/modules/aspp.py that matches gitignore spec.  \n> Skipping edits to models/modules/__init__.py that matches gitignore spec.  \n> Applied edit to models.py  \n`;
    const [item] = await notices(history);
    expect(item!.scope).toBe('repo');
    expect(item!.text).toBe(
      "Aider applies no edit to a file that matches .gitignore: the model's edits to `models/modules/aspp.py`, `models/modules/__init__.py` were skipped (`Skipping edits to models/modules/aspp.py that matches gitignore spec.`).",
    );
    // a file named on the command line: its absolute path names this machine, so only its name is kept
    const skipped = (file: string, banner = '') => notices(`${launch(file)}`.replace('> Aider v0.85.2', `${banner}> Skipping /Users/dev/AFI/afi-core/${file} that matches gitignore spec.  \n> Aider v0.85.2`));
    // a file of the repository is not named in an item about how aider treats its arguments anywhere
    const [added] = await skipped('.env');
    expect(added!.text).toBe('Aider takes a file named on its command line as a file to edit, and adds none that matches .gitignore to the chat (`Skipping <file> that matches gitignore spec.`).');
    expect(added!.scope).toBe('agent');
    // aider's own file is aider's: named, with the .gitignore line aider itself wrote
    const [own] = await skipped('.aider.conf.json', '> Added .aider* to .gitignore  \n');
    expect(own!.text).toBe('Aider takes a file named on its command line as a file to edit, and adds none that matches .gitignore to the chat: `.aider.conf.json` was skipped (`Skipping .aider.conf.json that matches gitignore spec.`); aider itself had added `.aider*` to .gitignore.');
  });

  it('says which in-chat commands aider lacks when the session then ran them another way, and which were mistyped (case, a missing space)', async () => {
    const history = `${launch('')}#### /grep PoIValidator  \n> Invalid command: /grep  \n\n#### /view src/index.ts  \n> Invalid command: /view  \n\n#### /Add src/index.ts  \n> Invalid command: /Add  \n`;
    const ranGrep = `${history}\n#### !grep -rn PoIValidator src  \n> Add 1 line of command output to the chat? (Y)es/(N)o [Yes]: y  \n`;
    const [item] = await notices(ranGrep);
    expect(item!.scope).toBe('agent');
    expect(item!.title).toBe('aider has no /grep, /view command');
    expect(item!.text).toBe('Aider has no `/grep`, `/view` in-chat commands: it answers `Invalid command: /grep`. A shell command runs with `!` or `/run` (`!grep -rn …`).');
    // without what was run instead, that aider lacks them is only aider's own answer, and a slip of case is a typo aider's answer shows
    expect(await notices(history)).toEqual([]);
    // the command typed next says nothing of what was meant (`/find x`, then `/edit *`)
    expect(await notices(`${launch('')}#### /find PoIValidator  \n> Invalid command: /find  \n\n#### /edit *  \n`)).toEqual([]);
    // a command a keystroke away from one aider has is a slip of typing (`/gitt`, `/ad`, `/udno`)
    expect(await notices(`${launch('')}#### /gitt status  \n> Invalid command: /gitt  \n\n#### /ad src/a.ts  \n> Invalid command: /ad  \n\n#### /udno  \n> Invalid command: /udno  \n`)).toEqual([]);
    // a command run into its text: the user's words stay out of an item about aider
    const [glued] = await notices(`${launch('')}#### /ask你把文件搬运到哪里了  \n> Invalid command: /ask你把文件搬运到哪里了  \n`);
    expect([glued!.title, glued!.text]).toEqual(['aider commands need a space after them', "Aider's in-chat commands need a space before their text: `/ask<text>` is an invalid command (the command is `/ask`)."]);
    expect(glued!.quotes).toEqual(['Invalid command: /ask<text>']);
    // a message that only starts with a slash is no command the user looked for
    expect(await notices(`${launch('')}#### /api/orders returns 500 since the deploy  \n> Invalid command: /api/orders  \n`)).toEqual([]);
    // a command name aider cannot read (`/你好`) has no shell way, so no item
    expect(await notices(`${launch('')}#### /你好  \n> Invalid command: /你好  \n\n#### !ls  \n`)).toEqual([]);
  });

  it('names a read-only file aider did not find from the repository root, and the subfolder aider ran in', async () => {
    const banner = '\n# aider chat started at 2025-06-02 12:27:34\n\n> C:\\Users\\dev\\.local\\bin\\aider  \n> Aider v0.84.0  \n> Cur working dir: C:\\Users\\dev\\mono\\packages\\module\\es  \n> Git working dir: C:\\Users\\dev\\mono  \n> Error: Read-only file C:\\Users\\dev\\mono\\packages\\module\\es\\CONVENTIONS.md does not exist. Skipping.  \n> Repo-map can\'t include C:\\Users\\dev\\mono\\packages\\module\\es\\src\\string.join.ts  \n> Has it been deleted from the file system but not from git?  \n\n#### what does this package do?  \n';
    const items = await notices(banner);
    const read = items.find((i) => i.title.startsWith('aider skipped read-only'))!;
    expect(read.scope).toBe('repo');
    expect(read.text).toBe('Aider skips a read-only file that does not exist: `packages/module/es/CONVENTIONS.md` (`Read-only file CONVENTIONS.md does not exist. Skipping.`). Aider ran in `packages/module/es`, not at the repository root, and looked for the file there.');
    expect(items.map((i) => i.text).join('\n')).not.toContain('Users');
    // a read-only file outside the repository is this machine's, not the repository's
    const outside = await notices(banner.replace('C:\\Users\\dev\\mono\\packages\\module\\es\\CONVENTIONS.md', 'C:\\Users\\dev\\.aider\\CONVENTIONS.md'));
    expect(outside.some((i) => i.title.startsWith('aider skipped read-only'))).toBe(false);
    // the repo map's warning asks its own question: an item that only repeated it was rejected as
    // aider's hint restated, and its guess was wrong for submodule folders; the item now names the
    // tracked path gone from disk (this repository's) and what stops the warning, and a submodule
    // folder alone gives none (rules-read-what-was-said)
    const map = items.find((i) => /Repo-map/.test(i.text));
    expect(map?.scope).toBe('repo');
    expect(map?.text).toContain('Git tracks `packages/module/es/src/string.join.ts`, which is no file on disk');
    expect(map?.text).toContain('If `git status` shows it deleted or moved on purpose, commit that (`git rm --cached packages/module/es/src/string.join.ts`), else restore it.');
  });

  it("reads a traceback through aider's own code as a crash of aider, with its version and model", async () => {
    const trace = (frame: string) =>
      `\n# aider chat started at 2025-06-02 12:04:48\n\n> /home/dev/.local/bin/aider  \n> Aider v0.84.0  \n> Model: openrouter/qwen/qwen3-235b-a22b with diff edit format  \n\n#### What's this dir doing?  \n\nIt holds the utilities.\n\n> Traceback (most recent call last):  \n> File "${frame}", line 2090, in compute_costs_from_tokens  \n> cost += cache_write_tokens * input_cost_per_token * 1.25  \n> TypeError: can't multiply sequence by non-int of type 'float'  \n`;
    const [crash] = await notices(trace('/home/dev/.local/share/uv/tools/aider-chat/lib/python3.12/site-packages/aider/coders/base_coder.py'));
    expect(crash!.scope).toBe('agent');
    expect(crash!.text).toBe("Aider v0.84.0 crashed in its own `compute_costs_from_tokens` with `TypeError: can't multiply sequence by non-int of type 'float'` while running `openrouter/qwen/qwen3-235b-a22b`: a bug of aider, not of the code it works on.");
    // a traceback of the user's program, run through aider, is no crash of aider
    expect(await notices(trace('/home/dev/app/src/costs.py'))).toEqual([]);
    // nor one that starts in aider but ends in a library it calls
    const throughAider = `\n# aider chat started at 2025-06-02 12:04:48\n\n> Aider v0.84.0  \n\n#### hi  \n\n> Traceback (most recent call last):  \n> File "/x/site-packages/aider/main.py", line 10, in main  \n> File "/x/site-packages/litellm/main.py", line 20, in completion  \n> litellm.exceptions.APIConnectionError: connection reset  \n> ValueError: unrelated later line  \n`;
    expect(await notices(throughAider)).toEqual([]);
  });

  it('reads a command name aider tried to create as a file: two commands in one message', async () => {
    const history = `${launch('')}#### /add src/a.test.tsx  \n#### /add src/b.tsx  \n> No files matched '/add'. Do you want to create /add? (Y)es/(N)o [Yes]: y  \n> Error creating file /add: [Errno 30] Read-only file system: '/add'  \n> Added src/b.tsx to the chat  \n`;
    const [item] = await notices(history);
    expect(item!.scope).toBe('agent');
    expect(item!.text).toBe("Aider runs one in-chat command per message and reads the rest of the message as its arguments: a second `/add` line in the same message was taken for a file to create (`Error creating file /add: [Errno 30] Read-only file system: '/add'`). Send each command as its own message.");
    // a real file aider could not create is no such thing
    expect(await notices(`${launch('')}#### /add /etc/app.conf  \n> Error creating file /etc/app.conf: [Errno 13] Permission denied  \n`)).toEqual([]);
  });

  it('reads a file aider named after the line above a code block (a heading) as its edit format at work', async () => {
    const whole = (above: string, name: string) =>
      `${launch('--model ollama_chat/devstral').replace('with diff edit format', 'with whole edit format')}#### explain the flow  \n\nThe flow:\n\n${above}\n\`\`\`\n[UI] -> [API] -> [DB]\n\`\`\`\n\n> Tokens: 11k sent, 4.2k received.  \n> ${name}  \n> Create new file? (Y)es/(N)o [Yes]: y  \n> Applied edit to ${name}  \n> Commit 2c924fe docs: add the flow  \n`;
    const [item] = await notices(whole('### Topology', 'Topology'));
    expect(item!.scope).toBe('agent');
    expect(item!.title).toBe('aider takes the line above a code block for a file name');
    expect(item!.text).toBe("In aider's whole edit format the line just above a fenced code block names the file the block is written to: a reply with `### Topology` above a fenced block made aider create and commit a file named `Topology`. A question drew it: ask with `/ask`, whose answers are not read as edits.");
    // asked for a change (no question): the block went to the stray file, not the file meant
    const [edit] = await notices(whole('### Topology', 'Topology').replace('#### explain the flow', '#### add the flow to the docs'));
    expect(edit!.text).toContain('a file named `Topology`. The block went there, not to the file meant: put only the path on that line.');
    // a command in the block was meant to be run: no path on that line would have helped
    const [command] = await notices(whole('To run the checks, execute:', 'To run the checks, execute').replace('[UI] -> [API] -> [DB]', 'cargo kani --harness verify_add').replace('#### explain the flow', '#### add the proof'));
    expect(command!.text).toContain('a file named `To run the checks, execute`. The block was a command to run, which aider cannot tell from a file: fence only whole files in this format.');
    // asked and declined, the same quirk: aider asked to create a file named after the line
    const asked = `${launch('').replace('with diff edit format', 'with whole edit format')}#### fix the readme  \n\nREADME.md\n\`\`\`\n# Flux\n\nInstall:\n\`\`\`\npip install torch\n\`\`\`\nthen run it\n\`\`\`\n\n> Tokens: 1.3k sent, 273 received.  \n> pip install torch  \n> Create new file? (Y)es/(N)o [Yes]: n  \n> Skipping edits to pip install torch  \n> Applied edit to README.md  \n`;
    const [declined] = await notices(asked);
    expect(declined!.text).toBe("In aider's whole edit format the line just above a fenced code block names the file the block is written to: a reply with `pip install torch` above a fenced block made aider ask to create a file named `pip install torch` (`Skipping edits to pip install torch`, declined).");
    // a file's content with fenced blocks of its own ("```bash" inside README.md) ended the file early: said as the cause
    // (the reply closes with two fences, as models write it: balanced for a markdown reader)
    const nested = asked.replace('Install:\n```\npip install torch', 'Install:\n```bash\npip install torch').replace('then run it\n```\n', 'then run it\n```\n```\n');
    expect((await notices(nested))[0]!.text).toBe("In aider's whole edit format the line just above a fenced code block names the file it is written to, and a file ends at the next fence line: `README.md`'s content in a reply held fenced blocks of its own, so its line `pip install torch` made aider ask to create a file named `pip install torch` (declined). A file's content cannot hold fences in this format.");
    // other lines that met the same fate are named, so a reader can clean them up
    const two = `${launch('').replace('with diff edit format', 'with whole edit format')}#### how do I run it  \n\nRun:\n\n### Start\n\`\`\`\nuvicorn app.main:app\n\`\`\`\nnpm run dev\n\`\`\`\ncd web\n\`\`\`\n\n> Tokens: 1k sent, 90 received.  \n> Start  \n> Create new file? (Y)es/(N)o [Yes]: y  \n> npm run dev  \n> Create new file? (Y)es/(N)o [Yes]: y  \n> Applied edit to Start  \n> Applied edit to npm run dev  \n`;
    expect((await notices(two))[0]!.text).toContain('Other lines got the same: `npm run dev`.');
    // a question drew that reply ("how do I run it"): /ask would not have read its blocks as edits
    expect((await notices(two))[0]!.text).toContain('A question drew it: ask with `/ask`, whose answers are not read as edits.');
    // that answering no skips such a file is said only where the session shows a declined one
    expect((await notices(two))[0]!.text).not.toContain('Answering no');
    const oneDeclined = two
      .replace('> Start  \n> Create new file? (Y)es/(N)o [Yes]: y  \n', '> Start  \n> Create new file? (Y)es/(N)o [Yes]: y  \n> Applied edit to Start  \n')
      .replace('> npm run dev  \n> Create new file? (Y)es/(N)o [Yes]: y  \n', '> npm run dev  \n> Create new file? (Y)es/(N)o [Yes]: n  \n> Skipping edits to npm run dev  \n')
      .replace('> Applied edit to Start  \n> Applied edit to npm run dev  \n', '');
    expect((await notices(oneDeclined))[0]!.text).toContain("Answering no to aider's `Create new file?` skips such a file (as for `npm run dev`).");
    // aider's refusal of a reply line as a path outside the repository is the same mechanism: no tool quirk of its own
    const outside = `${launch('').replace('with diff edit format', 'with whole edit format')}#### how do i add the other files  \n\nPaste them:\n\n**For \`src/app.js\`:**\n\`\`\`\nsrc/app.js\n\`\`\`\n// entire content of app.js here\n\`\`\`\n\n**For \`src/auth.vue\`:**\n\`\`\`\nsrc/auth.vue\n\`\`\`\n// entire content of auth.vue here\n\`\`\`\n\n> Tokens: 7.1k sent, 319 received.  \n> For \`src/app.js  \n> Create new file? (Y)es/(N)o [Yes]: n  \n> Skipping edits to For \`src/app.js  \n> The LLM did not conform to the edit format.  \n> https://aider.chat/docs/troubleshooting/edit-errors.html  \n> '\\\\\\\\ entire content of app.js here' is not in the subpath of 'C:\\\\xampp\\\\htdocs\\\\GMS'  \n`;
    const { sessions } = await readSessions([put(tempDir(), '.aider.chat.history.md', outside)]);
    expect(sessions.flatMap((s) => extractSession(s)).filter((c) => c.text.includes('subpath'))).toEqual([]);
    // a file the model meant (a path, an extension, a name such as Makefile) is no stray
    for (const name of ['docs/flow.md', 'flow.md', 'Makefile']) expect(await notices(whole(name, name)), name).toEqual([]);
  });

  it("reads /undo's refusal: what aider answers, and a way back that keeps the work", async () => {
    const refused = '#### /undo  \n> The last commit was not made by aider in this chat session.  \n> You could try `/git reset --hard HEAD^` but be aware that this is a destructive command!  \n';
    const committed = '#### add a cron job  \n\nsrc/cron/a.ts\n```\nexport const a = 1;\n```\n\n> Applied edit to src/cron/a.ts  \n> Commit 8c7927a aider: add a cron job  \n\n';
    const [item] = await notices(`${launch('')}${committed}${refused}`);
    expect(item!.scope).toBe('agent');
    expect(item!.text).toBe(
      "Aider's `/undo` undoes only its own edit commits of this launch; for any other (yours, an earlier run's, its pre-edit commit of pending changes) it answers `The last commit was not made by aider in this chat session` and suggests the destructive `/git reset --hard HEAD^`. Check whose the last commit is with `/git log -1`; `/git revert <hash>` undoes a commit and keeps the history.",
    );
    // where aider had committed nothing, the last commit was someone's own work: no way back offered
    const [own] = await notices(`${launch('')}${refused}`);
    expect(own!.text).toMatch(/\. Check whose the last commit is with `\/git log -1` before any reset\.$/);
    // the item stands for every session it merges: nothing of this session's own case
    expect(own!.text).not.toMatch(/\bHere\b/);
    expect(own!.text).not.toContain('revert');
    expect(await notices(`${launch('')}#### /undo  \n> Removed: e79e29a fix: update main.py  \n> Now at:  b67027a feat: add main.py  \n`)).toEqual([]);
    // aider's own commit of an earlier launch of the history: aider's work, which a restarted aider no longer counts
    const { sessions } = await readSessions([put(tempDir(), '.aider.chat.history.md', `${launch('')}${committed}${launch('').replace('20:11:30', '20:15:02')}${refused}`)]);
    const [restarted] = withAiderLaunches(sessions).flatMap((s) => extractSession(s)).filter((c) => c.title.includes('/undo'));
    expect(restarted!.title).toBe("aider's /undo refuses the commits of an earlier launch");
    expect(restarted!.text).toBe(
      "After a restart aider's `/undo` no longer counts the commits of an earlier launch as its own: for aider's own last commit it answered `The last commit was not made by aider in this chat session` (and suggested the destructive `/git reset --hard HEAD^`). Find that launch's commits with `/git log`; `/git revert <hash>` undoes one and keeps the history.",
    );
  });

  it("reads /add . answered 'Directory … is not in git' as adding nothing, with what then added files", async () => {
    const refused = '#### /add .  \n> Directory /home/dev/shop is not in git.  \n> You can add to git with: /git add /home/dev/shop  \n\n';
    const [item] = (await notices(`${launch('')}${refused}#### /add src/app.py src/db.py  \n> Added src/app.py to the chat  \n> Added src/db.py to the chat  \n`)).filter((n) => n.title.includes('/add .'));
    expect(item).toMatchObject({ scope: 'agent', title: "aider's /add . adds nothing ('Directory … is not in git')" });
    expect(item!.text).toBe(
      'Aider v0.85.2 answered `/add .` with `Directory <checkout> is not in git.` and added nothing, although git tracked 257 files there: the message is misleading. `/add src/app.py src/db.py` then added files. Add the files the task needs by their paths from the repository root.',
    );
    // `/add *` takes the whole checkout: not named as what worked
    const [star] = (await notices(`${launch('')}${refused}#### /add *  \n> Added src/app.py to the chat  \n`)).filter((n) => n.title.includes('/add .'));
    expect(star!.text).not.toContain('then added files');
    // the session's own /git add (and commit) before a refusal, which it did not change
    const [tracked] = (await notices(`${launch('')}${refused}#### /git add .  \n\n#### /git commit -m "first"  \n> [main (root-commit) 1a2b3c4] first  \n\n${refused}`)).filter((n) => n.title.includes('/add .'));
    expect(tracked!.text).toContain("although git tracked 257 files there: the message is misleading, and the session's `/git add` did not change it.");
    // outside a git repository aider reads `.` as a file to create: the same lesson, in its words
    const noRepo = "#### /add .  \n> No files matched '.'. Do you want to create /home/dev/beta? (Y)es/(N)o [Yes]: n  \n\n";
    const [outside] = (await notices(`${launch('')}${noRepo}#### /add sniffer.py db.py  \n> Added sniffer.py to the chat  \n`)).filter((n) => n.title.includes('/add .'));
    // (where it was seen, not why: no session showed that the missing repository is the cause)
    expect(outside).toMatchObject({ scope: 'agent', title: 'aider v0.85.2: /add . matched nothing' });
    expect(outside!.text).toBe(
      "Aider v0.85.2 answered `/add .` with `No files matched '.'` and offered to create a file named as the folder (answer no). `/add sniffer.py db.py` then added files. Add the files the task needs by their names.",
    );
    // under --yes-always nobody answers the offer; what `/add ./*` then took is counted, build output named
    const added = ['src/main.rs', 'Cargo.toml', 'target/debug/app', 'target/debug/app.d', 'target/release/app'].map((f) => `> Added ${f} to the chat  \n`).join('');
    const [yes] = (await notices(`${launch('--yes-always')}${noRepo}#### /add ./*  \n${added}`)).filter((n) => n.title.includes('/add .'));
    expect(yes!.text).toBe("Aider v0.85.2 answered `/add .` with `No files matched '.'` and offered to create a file named as the folder. `/add ./*` added 5 files, 3 of them build output under `target/`. Add the files the task needs by their names.");
    // `Git repo: none` because aider was told `--no-git`: said as the flag's doing
    const [noGit] = (await notices(`${launch('--no-git').replace('Git repo: .git with 257 files', 'Git repo: none')}${noRepo}`)).filter((n) => n.title.includes('/add .'));
    expect(noGit!.title).toBe('aider v0.85.2: /add . matched nothing (started with --no-git)');
    expect(noGit!.text).toMatch(/^Started with `--no-git` \(`Git repo: none`\), aider v0\.85\.2 answered/);
    // a `~/…` path: aider offers to create it under a folder named `~` where it runs
    const tilde = (answer: string) => `${launch('')}#### /add ~/src/app/main.rs  \n> No files matched '~/src/app/main.rs'. Do you want to create /home/dev/app/~/src/app/main.rs? (Y)es/(N)o [Yes]: ${answer}  \n${answer === 'y' ? '> Added ~/src/app/main.rs to the chat  \n' : ''}`;
    const [tildeYes] = (await notices(tilde('y'))).filter((n) => n.title.includes('~'));
    expect(tildeYes).toMatchObject({ scope: 'agent', title: 'aider v0.85.2: /add does not expand ~' });
    expect(tildeYes!.text).toBe("Aider v0.85.2's `/add` takes `~` as a folder's name, not the home folder: `/add ~/src/app/main.rs` matched nothing and aider offered to create it under a folder named `~` where it ran, then added that new, empty file to the chat. Give `/add` paths from the repository root, or absolute paths.");
    expect((await notices(tilde('n'))).find((n) => n.title.includes('~'))!.text).not.toContain('empty file');
    // a path that names no `~` folder is the `/add .` item's or none
    expect((await notices(`${launch('')}#### /add src/main.rs  \n> No files matched 'src/main.rs'. Do you want to create /home/dev/app/src/main.rs? (Y)es/(N)o [Yes]: n  \n`)).filter((n) => n.title.includes('~'))).toEqual([]);
    // a subfolder git does not track is what aider's own hint is for: no item
    expect((await notices(`${launch('')}#### /add docs  \n> Directory /home/dev/shop/docs is not in git.  \n`)).filter((n) => n.title.includes('/add'))).toEqual([]);
  });

  it("reads a source file aider could not decode as not UTF-8, and leaves compiled, vendored and built files to the project", async () => {
    const root = '> Git working dir: /home/dev/shop  \n';
    const cannot = (path: string, byte = '0xcb') => `> /home/dev/shop/${path}: 'utf-8' codec can't decode byte ${byte} in position 1426: invalid start byte  \n> Use --encoding to set the unicode encoding.  \n`;
    const undecodable = async (body: string) => (await notices(`${launch('')}${root}#### /add app  \n${body}\nDone.\n`)).filter((n) => /decode/.test(n.text));
    const [source] = await undecodable(cannot('src/onboarding.page.ts', '0x92'));
    expect(source).toMatchObject({ scope: 'repo', title: 'onboarding.page.ts is not UTF-8, which aider cannot read' });
    expect(source!.text).toBe(
      "`src/onboarding.page.ts` is not UTF-8 (aider: `'utf-8' codec can't decode byte 0x92 in position 1426`), so aider's repo map skips it. Replace the byte at offset 1426 (Windows-1252's ’, most often pasted text) with UTF-8's ’ and check the file for others; aider's hint `--encoding` would change how every file is read.",
    );
    // a byte that is no Windows-1252 mark names no encoding
    expect((await undecodable(cannot('src/notes.md', '0xe9')))[0]!.text).not.toContain('Windows-1252');
    // compiled files, build output, vendored headers: whether they belong in git or the chat is the project's call
    expect(await undecodable(cannot('app/__pycache__/views.cpython-312.pyc'))).toEqual([]);
    expect(await undecodable(cannot('ros/arm/install/lib/Control.h'))).toEqual([]);
    // several files: no one file to name
    expect(await undecodable(cannot('src/a.ts', '0x92') + cannot('src/b.ts', '0x92'))).toEqual([]);
    // paths aider's banner does not let us place in the repository: no item
    expect((await notices(`${launch('')}#### /add app  \n${cannot('src/x.ts', '0x92').replace('/home/dev/shop/', '/elsewhere/')}\nDone.\n`)).filter((n) => /decode/.test(n.text))).toEqual([]);
  });

  it('reads the end of aider\'s retries of an edit it could not apply: the limit, and that the change is missing', async () => {
    const failed = '> The LLM did not conform to the edit format.  \n> https://aider.chat/docs/troubleshooting/edit-errors.html  \n> No filename provided before ``` in file listing  \n';
    const items = await notices(`${launch('')}#### add the modal  \n\nHere it is:\n\n\`\`\`html\n<div></div>\n\`\`\`\n\n${failed}> Only 3 reflections allowed, stopping.  \n`);
    const item = items.find((i) => i.title.includes('retries'));
    expect(item).toMatchObject({ scope: 'agent', title: "aider stops after 3 retries of one message's failed edits" });
    expect(item!.text).toBe("For one message aider hands a failed edit back to the model at most 3 times, then stops (`Only 3 reflections allowed, stopping.`): the failed edit is not applied (the reply's other blocks may be). After that line, check which change is missing before going on.");
    expect((await notices(`${launch('')}#### add the modal  \n\nHere it is.\n\n${failed}`)).filter((i) => i.title.includes('retries'))).toEqual([]);
  });

  it('tells rounds of lint fixes that hit the limit as such: the edits stayed applied', async () => {
    const lint = '> Applied edit to plugin/notes.vim  \n>  \n> # Fix any errors below, if possible.  \n>  \n> plugin/notes.vim:  \n> 37█      \\ strftime("%Y-%W")  \n>  \n> Attempt to fix lint errors? (Y)es/(N)o [Yes]: y  \n';
    const items = await notices(`${launch('')}#### add a Log command  \n\nHere it is.\n\n${lint}${lint}${lint}> Only 3 reflections allowed, stopping.  \n`);
    const item = items.find((i) => i.title.includes('lint errors'));
    expect(item).toMatchObject({ scope: 'agent', title: "aider stops after 3 rounds of fixing one message's lint errors" });
    expect(item!.text).toContain('the edits stay applied and the reported errors may remain');
    expect(items.some((i) => i.title.includes('retries'))).toBe(false);
  });

  it('tells a model that kept breaking the edit format where a later launch with another model applied its edits', async () => {
    const banner = (model: string, format: string, at: string) => `\n# aider chat started at 2024-08-04 ${at}\n\n> aider --model ${model}  \n> Aider v0.47.1  \n> Model: ${model} with ${format} edit format  \n> Git repo: .git with 12 files  \n\n`;
    const failing = '#### add the popup  \n\nHere:\n\n```html\n<div></div>\n```\n\n> The LLM did not conform to the edit format.  \n> https://aider.chat/docs/troubleshooting/edit-errors.html  \n> No filename provided before ``` in file listing  \n\n';
    const applying = (n: number) => `#### add part ${n}  \n\npopup${n}.html\n\`\`\`\n<div>${n}</div>\n\`\`\`\n\n> Applied edit to popup${n}.html  \n\n`;
    const history = (fails: number) => `${banner('gpt-4o-mini', 'whole', '22:10:00')}${failing.repeat(fails)}${banner('gpt-4o', 'diff', '23:10:26')}${applying(1)}${applying(2)}`;
    const items = async (text: string) => {
      const { sessions } = await readSessions([put(tempDir(), '.aider.chat.history.md', text)]);
      return withAiderLaunches(sessions).flatMap((s) => extractSession(s)).filter((c) => c.title.includes('kept breaking'));
    };
    const [item] = await items(history(4));
    expect(item).toMatchObject({ scope: 'agent', category: 'pattern', title: 'aider: gpt-4o-mini kept breaking its edit format' });
    expect(item!.text).toBe(
      "Aider rejected the edits `gpt-4o-mini` in the `whole` edit format wrote, message after message (every time `No filename provided before ``` in file listing`); a later launch with `gpt-4o` in the `diff` edit format applied its edits. When a model keeps doing so, suggest restarting aider with another `--model` or `--edit-format`: asking again does not help.",
    );
    // three rejections are one message's retries: no sign the model keeps failing
    expect(await items(history(3))).toEqual([]);
  });

  it("reads /undo's refusal of a commit that added a file, with git's way back", async () => {
    const [item] = await notices(`${launch('')}#### /undo  \n> The file fibonacci.py was not in the repository in the previous commit. Cannot undo safely.  \n`);
    expect(item).toMatchObject({ scope: 'agent', title: "aider's /undo refuses a commit that added a file" });
    expect(item!.text).toBe(
      "Aider's `/undo` refuses to undo a commit that created a file (`The file fibonacci.py was not in the repository in the previous commit. Cannot undo safely.`): it undoes by restoring each file as the commit before had it, and a new file had no earlier version. `/git revert HEAD` undoes such a commit and keeps the history.",
    );
  });

  it('leaves alone a file the user declined to create', async () => {
    expect(await notices(`${launch('')}#### add a cron job  \n\nsrc/cron/a.ts\n\n> Allow creation of new file src/cron/a.ts? n  \n> Skipping edits to src/cron/a.ts  \n`)).toEqual([]);
  });
});

describe('files of the checkout aider may not write', () => {
  it('are named as the checkout names them, with the shell command aider still offered', async () => {
    const denied = (abs: string) => `> Unable to write file ${abs} after 5 attempts: [Errno 13] Permission denied: '${abs}'  \n> [Errno 13] Permission denied: '${abs}'  \n`;
    const history = `${launch('--model gemini')}#### fix the redirect  \n> Added nginx/conf.d/qbittorrent.conf to the chat  \n\nnginx/conf.d/qbittorrent.conf\n\`\`\`\nserver {}\n\`\`\`\n\n> Tokens: 5.4k sent, 435 received.  \n${denied('/home/dev/web/nginx/conf.d/qbittorrent.conf')}> sudo systemctl reload nginx  \n> Run shell command? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: y  \n> Running sudo systemctl reload nginx  \n`;
    const [item] = (await notices(history)).filter((n) => n.title.includes('cannot write'));
    expect(item).toMatchObject({ scope: 'repo', title: 'aider cannot write nginx/conf.d/qbittorrent.conf (permission denied)' });
    expect(item!.text).toBe(
      "Aider could not write its edits to `nginx/conf.d/qbittorrent.conf` (`[Errno 13] Permission denied`, after its retries): the user running aider may not write it in this checkout. Check the owner (`ls -l`) and `chown` it to the user who runs aider before asking aider to edit it. Aider still offers the reply's shell commands after a failed write (here `sudo systemctl reload nginx`): decline them.",
    );
    // a later edit of the file applied: its ownership was fixed in the session
    const fixed = `${history}\n#### try again  \n\nnginx/conf.d/qbittorrent.conf\n\`\`\`\nserver { listen 80; }\n\`\`\`\n\n> Tokens: 6k sent, 200 received.  \n> Applied edit to nginx/conf.d/qbittorrent.conf  \n`;
    const [later] = (await notices(fixed)).filter((n) => n.title.includes('write'));
    expect(later!.title).toBe('aider could not write nginx/conf.d/qbittorrent.conf (permission denied)');
    expect(later!.text).toContain('(`[Errno 13] Permission denied`, after its retries) until its ownership was fixed (later edits applied): check the owner (`ls -l`) and `chown` it to the user who runs aider.');
    expect(later!.text).not.toContain('Fix the ownership');
  });

  it('is no item for a folder the model named as a file above its code block', async () => {
    const abs = 'C:\\Users\\dev\\seniales\\seniales\\test';
    const history = `${launch('--model ollama/qwen3')}#### add tests  \n\nseniales/test\n\`\`\`\nimport x\n\`\`\`\n\n> Tokens: 5.4k sent, 435 received.  \n> seniales/test/test_plotting.py  \n> Unable to write file ${abs} after 5 attempts: [Errno 13] Permission denied: '${abs}'  \n`;
    expect((await notices(history)).filter((n) => n.title.includes('cannot write'))).toEqual([]);
  });
});

describe('a tracked path gone from disk', () => {
  const missing = (abs: string) => `> Repo-map can't include ${abs}  \n> Has it been deleted from the file system but not from git?  \n`;
  it("is named as the repository names it when aider's notices do, with the git command that stops the warning", async () => {
    const history = `${launch('--model deepseek')}${missing('/home/dev/games/car-game/scenes/road/road.tscn')}\n#### why is the road not drawn?  \n> scenes/road/road.tscn  \n> Add file to the chat? (Y)es/(N)o [Yes]: y  \n\nThe road chunk is never added.\n`;
    const [item] = (await notices(history)).filter((n) => /Repo-map/.test(n.text));
    expect(item).toMatchObject({ scope: 'repo', title: 'git tracks scenes/road/road.tscn, which is gone from disk' });
    expect(item!.text).toBe(
      "Git tracks `scenes/road/road.tscn`, which is no file on disk, so aider's repo map warns about it at every launch (`Repo-map can't include <file>`). If `git status` shows it deleted or moved on purpose, commit that (`git rm --cached scenes/road/road.tscn`), else restore it.",
    );
  });

  it("is nothing when the session itself had just moved the path's folder (work in progress)", async () => {
    const history = `${launch('--model deepseek')}#### /run mv label_bro_rs/src/utils src  \n> Add 0.0k tokens of command output to the chat? (Y)es/(N)o [Yes]: n  \n\n#### explain the layout  \n> scenes/x.txt  \n${missing('/home/dev/label_bro_rs/label_bro_rs/src/utils/mod.rs')}> label_bro_rs/src/utils/mod.rs  \n\nHere is the layout.\n`;
    expect((await notices(history)).filter((n) => /Repo-map/.test(n.text))).toEqual([]);
    // nor a file renamed by a shell command of the reply that aider ran (cmd's `ren` on Windows)
    const renamed = `${launch('--model sonnet')}#### rename the module  \n\nRun:\n\n\`\`\`cmd\nren MMM-Template.js MMM-Miku.js\n\`\`\`\n\n> ren MMM-Template.js MMM-Miku.js  \n> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n> Running ren MMM-Template.js MMM-Miku.js  \n\n#### add the docs  \n${missing('MMM-Template.js')}\nDone.\n`;
    expect((await notices(renamed)).filter((n) => /Repo-map/.test(n.text))).toEqual([]);
  });

  it('counts a dotfile as a file, not as a submodule folder', async () => {
    const [item] = (await notices(`${launch('')}${missing('src/.gitignore')}${missing('lib/forge-std')}\n#### hi  \n\nHello.\n`)).filter((n) => /Repo-map/.test(n.text));
    expect(item!.text).toContain('Git tracks `src/.gitignore`, which is no file on disk');
    expect(item!.text).toContain('a submodule folder (here `lib/forge-std`)');
  });
});

