/**
 * An item claims only what the transcript shows: a run it kept no end of is no success, the
 * agent's first reading of a pasted error that nothing was done on is no cause worth keeping, a
 * reply's lead addressed to the user about what they see now is no section of a report, and a
 * pattern is a sequence that worked and says more than the conventional checks.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandPatternDrafts } from '../../src/harvest/extract/rules/command-patterns.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { handsOver, reportFactDrafts, turnHeading } from '../../src/harvest/extract/rules/report-facts.js';
import { reportsOf } from '../../src/harvest/extract/report.js';
import { readSessions } from '../../src/sessions/read.js';
import { seenToSucceed, viewOf } from '../../src/harvest/extract/view.js';
import { depersonalize, unreadableProse } from '../../src/harvest/extract/text.js';
import { errorLine } from '../../src/harvest/extract/diagnosis.js';
import { looksFailed } from '../../src/sessions/readers/outcome.js';
import { SessionBuilder } from './extract-session.js';

const RECIPES = join(import.meta.dirname, '..', '..', 'test_sessions', 'specstory', 'recipes-web', '.specstory', 'history', '2025-07-02_18-20-start-the-app.md');
const TS_ERROR = "convex/users.ts:176:14 - error TS1389: 'delete' is not allowed as a variable declaration name.";

describe('a run the transcript shows no end of', () => {
  it('is not seen to succeed: no output kept, or only the shell prompt', () => {
    const b = new SessionBuilder()
      .unanswered('run_terminal_cmd', { command: 'npx convex dev' })
      .tool('run_terminal_cmd', { command: 'npm run build' }, 'PS C:\\work\\app> ', { exitCode: 0 })
      .tool('run_terminal_cmd', { command: 'git add -f dist/app.css' }, '', { exitCode: 0 });
    expect(viewOf(b.build()).steps.map(seenToSucceed)).toEqual([false, false, true]);
  });

  it('is not seen to succeed when the server refused the request, whatever curl exits with', () => {
    const page = (msg: string) => `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>Error</title>\n</head>\n<body>\n<pre>${msg}</pre>\n</body>\n</html>`;
    const b = new SessionBuilder()
      .bash('curl -X POST http://localhost:3700/mcp -d {}', page('Cannot POST /mcp'))
      .bash('curl -i http://localhost:3700/x', 'HTTP/1.1 404 Not Found\nContent-Length: 0')
      .bash('curl http://localhost:3700/health', 'curl: (7) Failed to connect to localhost port 3700 after 0 ms: Connection refused')
      .bash('curl -sIL http://localhost:3700/', 'HTTP/1.1 301 Moved Permanently\nLocation: /app\n\nHTTP/1.1 200 OK')
      .bash('curl -X POST http://localhost:3700/api/mcp -d {}', '{"jsonrpc":"2.0","id":"test","result":[]}')
      // a page about errors is no error answer of a request that is not one
      .bash('cat docs/errors.html', page('Cannot POST /x'));
    expect(viewOf(b.build()).steps.map(seenToSucceed)).toEqual([false, false, false, true, true, true]);
  });

  it('is no fix of an error: the item keeps its cause and claims no fix', () => {
    const b = new SessionBuilder()
      .user('start the backend')
      .tool('run_terminal_cmd', { command: 'npx convex dev --once' }, TS_ERROR, { isError: true })
      .assistant("The problem is that 'delete' is a reserved word, because an export cannot take that name.")
      .tool('Edit', { file_path: '/home/dev/demo/convex/users.ts', old_string: 'export const delete', new_string: 'export const deleteUser' }, 'ok')
      .unanswered('run_terminal_cmd', { command: 'npx convex dev' });
    const [d] = errorFixDrafts(viewOf(b.build()));
    expect(d?.text).toContain("Cause: 'delete' is a reserved word");
    expect(d?.text).not.toContain('Fix:');
    expect(d?.confidence).toBe(0.7);
    // the same run with its output kept is the fix
    const seen = new SessionBuilder()
      .user('start the backend')
      .tool('run_terminal_cmd', { command: 'npx convex dev --once' }, TS_ERROR, { isError: true })
      .assistant("The problem is that 'delete' is a reserved word, because an export cannot take that name.")
      .tool('Edit', { file_path: '/home/dev/demo/convex/users.ts', old_string: 'export const delete', new_string: 'export const deleteUser' }, 'ok')
      .tool('run_terminal_cmd', { command: 'npx convex dev --once' }, '✔ Convex functions ready!', { exitCode: 0 });
    expect(errorFixDrafts(viewOf(seen.build()))[0]?.text).toContain('Fix: edited `users.ts`, then `npx convex dev --once` succeeded.');
  });
});

describe("the agent's account of its checkout", () => {
  it('is no cause: "We\'re missing some UI components" tells the state the session then changed', () => {
    const failing = (said: string) =>
      errorFixDrafts(
        viewOf(new SessionBuilder().user('build it').bash('npm run build', "Module not found: Can't resolve '@/components/ui/input'", 1).assistant(said).build()),
      );
    expect(failing("We're missing some UI components from the shadcn/ui library. Let me add them.")).toEqual([]);
    expect(failing("The build fails because `@/components/ui` maps to `src/components/ui` in `tsconfig.json`, and that folder is empty.")).toHaveLength(1);
  });
});

describe("a cause that repeats the error's own words", () => {
  it('is no cause: the next session reads the same advice in the same output', () => {
    const POSTCSS =
      "Error: [postcss] It looks like you're trying to use `tailwindcss` directly as a PostCSS plugin. The PostCSS plugin has moved to a separate package, so to continue using Tailwind CSS with PostCSS you'll need to install `@tailwindcss/postcss` and update your PostCSS configuration.";
    const failing = (said: string) => errorFixDrafts(viewOf(new SessionBuilder().user('build it').bash('npm run build', POSTCSS, 1).assistant(said).build()));
    expect(failing('The PostCSS error indicates that you need to use the `@tailwindcss/postcss` plugin, as Tailwind CSS version 4 requires this new package.')).toEqual([]);
    expect(failing('The build fails because `postcss.config.js` still lists `tailwindcss`, which the v4 upgrade in `package.json` moved out of PostCSS.')).toHaveLength(1);
  });
});

describe('git stopping on a conflict', () => {
  const CONFLICT = 'Auto-merging app.py\nCONFLICT (add/add): Merge conflict in app.py\nAutomatic merge failed; fix conflicts and then commit the result.';

  it('is a failure, in an export without exit codes too', () => {
    expect(looksFailed(CONFLICT, 'git pull origin main --allow-unrelated-histories')).toBe(true);
  });

  it('on the way from a failure to a success blurs which step fixed it', () => {
    const b = new SessionBuilder()
      .user('push it')
      .bash('git push -u origin main', "error: failed to push some refs to 'https://github.com/example/app.git'", 1)
      .bash('git pull origin main --allow-unrelated-histories', CONFLICT, 1)
      .bash('git stash', 'No local changes to save')
      .bash('git push origin main', 'To https://github.com/example/app.git\n   1a2b3c4..5d6e7f8  main -> main');
    expect(errorFixDrafts(viewOf(b.build())).filter((d) => d.text.includes('Fix:'))).toEqual([]);
  });
});

describe('an error the user pasted', () => {
  const pasted = (): SessionBuilder =>
    new SessionBuilder()
      .user('the page shows this:\nError: [CONVEX Q(notifications:listByUser)] Server Error\nCould not find public function for notifications:listByUser')
      .assistant('I see that Next.js is running, but the error comes up because the Convex dev server has not deployed notifications:listByUser yet.');

  it('is written only when the agent acted on its reading', () => {
    expect(errorFixDrafts(viewOf(pasted().unanswered('run_terminal_cmd', { command: 'npx convex dev' }).user('still broken').build()))).toEqual([]);
  });

  it('counts an edit after a go-ahead as acting on it, and states the cause without "I see that"', () => {
    const b = pasted()
      .user('go ahead and make this change')
      .tool('Edit', { file_path: '/home/dev/demo/convex/notifications.ts', old_string: 'query(', new_string: 'query({' }, 'ok');
    const [d] = errorFixDrafts(viewOf(b.build()));
    expect(d?.text).toMatch(/Cause: Next\.js is running, but the error comes up because/);
  });
});

describe('a reply lead about what the user sees now', () => {
  it('is no section of a report: "The error you\'re seeing is because:" over the reasons of this moment', async () => {
    const [session] = (await readSessions([RECIPES])).sessions;
    // the reply is a closing report (long, structured, after a turn of work), and it says nothing durable
    expect(reportsOf(viewOf(session!)).some((r) => r.text.includes("The error you're seeing is because:"))).toBe(true);
    expect(reportFactDrafts(viewOf(session!))).toEqual([]);
  });

  it('is no report when it hands over what the turn made ("You now have …")', () => {
    expect(handsOver('You now have two options on your desktop to launch the app:')).toBe(true);
    expect(handsOver("Perfect! Now you've got a working launcher.")).toBe(true);
    expect(handsOver('The app now has two launchers: `run.command` and `App.app`.')).toBe(false);
  });

  it('is told by what it says: the reader\'s moment, or a sentence cut before its list', () => {
    expect(turnHeading("The error you're seeing is because")).toBe(true);
    expect(turnHeading('What you are getting')).toBe(true);
    expect(turnHeading('This happens since')).toBe(true);
    expect(turnHeading('Build pipeline')).toBe(false);
    expect(turnHeading('How the cache is keyed')).toBe(false);
  });
});

describe('a pattern', () => {
  const edit = (b: SessionBuilder): SessionBuilder => b.tool('Edit', { file_path: '/home/dev/demo/src/app.ts', old_string: 'a', new_string: 'b' }, 'ok');

  it('is a recurring sequence that worked: one that ended in a failure each time is a try repeated', () => {
    const cycle = (b: SessionBuilder, build: number): SessionBuilder =>
      b.bash('rm -rf .next node_modules/.cache', '').bash('npm install', 'up to date, audited 812 packages').bash('npm run build', build === 0 ? 'Compiled successfully' : "Module not found: Can't resolve '@/components/ui/input'", build);
    const failing = cycle(cycle(new SessionBuilder().user('the build fails'), 1), 1);
    expect(commandPatternDrafts(viewOf(failing.build())).filter((d) => d.title.startsWith('Recurring'))).toEqual([]);
    const passing = cycle(cycle(new SessionBuilder().user('rebuild it twice'), 0), 0);
    expect(commandPatternDrafts(viewOf(passing.build())).map((d) => d.text)).toContain(
      'Recurring command sequence (2 times): `rm -rf .next node_modules/.cache` → `npm install` → `npm run build`.',
    );
  });

  it('ran clean at least once: a loop that failed on its way each time is no routine', () => {
    const LOCKED = "fatal: Unable to create '.git/index.lock': File exists.";
    const cycle = (b: SessionBuilder, add: number): SessionBuilder =>
      b.bash('git init', 'Reinitialized existing Git repository').bash('git add -A', add === 0 ? '' : LOCKED, add).bash('rm -f .git/index.lock', '');
    const looping = cycle(cycle(new SessionBuilder().user('commit it'), 128), 128);
    expect(commandPatternDrafts(viewOf(looping.build())).filter((d) => d.title.startsWith('Recurring'))).toEqual([]);
    const once = cycle(cycle(new SessionBuilder().user('commit it'), 128), 0);
    expect(commandPatternDrafts(viewOf(once.build())).filter((d) => d.title.startsWith('Recurring'))).toHaveLength(1);
  });

  it('is no recipe of bare conventional checks (`npm run lint`, then `npm run build`), but one that says more is', () => {
    const bare = edit(new SessionBuilder().user('fix the lint warning')).bash('npm run lint', 'No ESLint warnings or errors').bash('npm run build', 'Compiled successfully');
    expect(commandPatternDrafts(viewOf(bare.build()))).toEqual([]);
    const named = edit(new SessionBuilder().user('fix the lint warning')).bash('npm run type-check', 'tsc --noEmit: ok').bash('npm run build', 'Compiled successfully');
    expect(commandPatternDrafts(viewOf(named.build())).map((d) => d.text)).toEqual(['After changing code, verify with `npm run type-check`, then `npm run build`.']);
  });
});

describe('item text', () => {
  it('shows a home folder written with a drive and slashes as ~, as it does /home/<user>', () => {
    expect(depersonalize("fatal: Unable to create 'C:/Users/downl/Desktop/app/.git/index.lock' and /home/bob/x")).toBe("fatal: Unable to create '~/Desktop/app/.git/index.lock' and ~/x");
    // Git Bash's and WSL's spellings of the same Windows home
    expect(depersonalize('rm -rf "/c/Users/User/.claude/skills/files"')).toBe('rm -rf "~/.claude/skills/files"');
    expect(depersonalize('ls /mnt/c/Users/bob/app')).toBe('ls ~/app');
  });

  it("drops the session's folder however Windows writes it, and keeps a drive's root (no files glued to a dot)", () => {
    expect(depersonalize("cd to 'D:\\Tools\\fw' was blocked", 'D:\\')).toBe("cd to 'D:\\Tools\\fw' was blocked");
    expect(depersonalize('copy D:\\app\\src\\a.ts D: and D:\\app', 'D:\\app')).toBe('copy src\\a.ts D: and .');
    expect(depersonalize('ls /srv/app/src and /srv/app', '/srv/app/')).toBe('ls src and .');
    // the root folder names nothing
    expect(depersonalize('ls /etc', '/')).toBe('ls /etc');
  });

  it('is read from a report only in a Latin script, which the report filters can read', () => {
    // "implementation completed / large files left out": a progress report the English filters cannot see
    expect(unreadableProse('実装完了内容 / 📊 除外された大きなファイル: `mathstral-7B-v0.1.Q8_0.gguf` (7.7GB); `Phi-4-mini-reasoning-Q8_0.gguf` (4.1GB)')).toBe(true);
    expect(unreadableProse('Build: assets are built by `assets/build.js` (esbuild) into `priv/static/assets/`')).toBe(false);
    // names in code spans do not count either way
    expect(unreadableProse('Layout: the page lives in `src/ページ/一覧.tsx` and renders the list')).toBe(false);
    // nor in another language in Latin script: "project status: basic structure created", the
    // role of a port told in Spanish
    expect(unreadableProse('Estado del proyecto: Estructura básica creada en `src/` y `docs/`')).toBe(true);
    expect(unreadableProse('Puerto 5555 - UDPBeacon: envía un broadcast UDP por la red local para que el PC lo encuentre')).toBe(true);
    // a line more than a third Cyrillic: the English filters read too little of it
    expect(unreadableProse('Статус: сервер запущен on port 8080, health check passes')).toBe(true);
  });

  it('is read from no section of a report in another language, though a section alone shows no word of it', () => {
    const reply = [
      '## Resumen de Puertos en tu Proyecto',
      '',
      'He encontrado dos puertos en tu proyecto, y cada uno tiene su función en la red local:',
      '',
      '### Puerto 5555 - UDPBeacon',
      '- Archivo: `Assets/Scripts/Networking/UDPBeacon.cs`',
      '- Función: envía un broadcast UDP cada 3 segundos a toda la red local para que el PC lo encuentre',
      '',
      '### Puerto 12345 - UDPReceiver',
      '- Archivo: `Assets/Scripts/Networking/UDPReceiver.cs`',
      '',
      '### Conclusión',
      'Estos puertos forman parte de un sistema de comunicación en red para tu aplicación VR, con el que se sincroniza el visor.',
    ].join('\n');
    const b = new SessionBuilder()
      .user('¿qué puertos usa el proyecto?')
      .bash('grep -rn "Port" Assets/Scripts', 'Assets/Scripts/Networking/UDPBeacon.cs:8: public int discoveryPort = 5555;')
      .bash('cat Assets/Scripts/Networking/UDPBeacon.cs', 'public class UDPBeacon : MonoBehaviour {}')
      .bash('cat Assets/Scripts/Networking/UDPReceiver.cs', 'public class UDPReceiver : MonoBehaviour { public int port = 12345; }')
      .assistant(reply);
    expect(reportFactDrafts(viewOf(b.build()))).toEqual([]);
  });
});

describe('a later run that leaves out the path the failed run was given', () => {
  it('ran on the default target, another job: no fix of the failed run', () => {
    const err = 'chezmoi: template: chezmoi.toml:4:15: executing "chezmoi.toml" at <.name>: map has no entry for key "name"';
    const b = (fix: string) =>
      new SessionBuilder()
        .user('move the dotfiles to chezmoi')
        .bash('chezmoi init --source ~/dotfiles', err, 1)
        .bash(fix, '')
        .build();
    expect(errorFixDrafts(viewOf(b('chezmoi init --apply=false')))).toEqual([]);
    expect(errorFixDrafts(viewOf(b('chezmoi init --source ~/dotfiles --promptString name=dev')))[0]?.text).toContain('Fix: `chezmoi init --source ~/dotfiles --promptString name=dev` succeeded.');
  });
});

describe('a fix the failing output gave itself', () => {
  it('is no item: the next session reads the same advice in the same output', () => {
    const failing = (advice: string) =>
      new SessionBuilder()
        .user('run the booster check')
        .bash('uv run python -c "import xgboost"', `xgboost.core.XGBoostError: XGBoost Library (libxgboost.dylib) could not be loaded.\nLikely causes:\n  * OpenMP runtime is not installed\n${advice}\nError message(s): ['dlopen(libxgboost.dylib): Library not loaded: @rpath/libomp.dylib']`, 1)
        .bash('brew install libomp', '==> Pouring libomp--20.1.0.arm64_sequoia.bottle.tar.gz')
        .bash('uv run python -c "import xgboost"', '')
        .build();
    expect(errorFixDrafts(viewOf(failing('    - Mac OSX users: Run `brew install libomp` to install OpenMP runtime.')))).toEqual([]);
    expect(errorFixDrafts(viewOf(failing('    - Install the OpenMP runtime of your platform.')))[0]?.text).toContain('Fix: `brew install libomp`, then');
  });
});

describe('the failed command again with more after it', () => {
  it('is a retry, no fix: what changed in between is not in the commands', () => {
    const err = 'nginx: [emerg] unexpected end of file, expecting ";" or "}" in /etc/nginx/sites-enabled/shop:17\nnginx: configuration file /etc/nginx/nginx.conf test failed';
    for (const pre of ['', 'cd /root && ']) {
      const b = new SessionBuilder().user('fix nginx').bash(`${pre}sudo nginx -t`, err, 1).bash(`${pre}sudo nginx -t && sudo systemctl reload nginx`, 'nginx: configuration file /etc/nginx/nginx.conf test is successful');
      expect(errorFixDrafts(viewOf(b.build())), pre).toEqual([]);
    }
  });
});

describe('a line that only states the exit status', () => {
  it('is no error message, in any of the spellings tools write it', () => {
    for (const status of ['Exit code: 1', 'Exit code 1', 'exit status 1', 'Process exited with code 1', 'Error']) expect(errorLine(`${status}`), status).toBe('');
    expect(errorLine('Exit code: 2\nError: Cannot find module \'x\'')).toBe("Error: Cannot find module 'x'");
  });
});

describe('an error line that says the command succeeded', () => {
  it('is no failure with a fix: `ssh -T` to GitHub exits 1 after "successfully authenticated"', () => {
    const b = new SessionBuilder()
      .user('push the backup to github')
      .bash('# check the SSH login first\nssh -T git@github.com', "Hi octo-user! You've successfully authenticated, but GitHub does not provide shell access.", 1)
      .assistant('The SSH key works: ssh -T exits 1 because GitHub does not provide shell access.')
      .bash('ssh -T -o BatchMode=yes git@github.com; echo done', "Hi octo-user! You've successfully authenticated, but GitHub does not provide shell access.\ndone")
      .bash('git push -u origin main', "branch 'main' set up to track 'origin/main'.")
      .bash('uname -a', 'Linux host 6.8.0 x86_64 GNU/Linux');
    expect(errorFixDrafts(viewOf(b.build()))).toEqual([]);
  });
});

describe('a target the agent named that is already there', () => {
  it('is a slip of the task (the disk that moment), no pitfall; a tool finding its own folder left over is one', () => {
    const clone = new SessionBuilder()
      .user('clone the project here')
      .bash('git clone https://github.com/acme/app.git .', "fatal: destination path '.' already exists and is not an empty directory.", 128)
      .bash('cd .. && rm -rf app && git clone https://github.com/acme/app.git app', "Cloning into 'app'...", 0);
    expect(errorFixDrafts(viewOf(clone.build()))).toEqual([]);
    // so is a branch the agent asked to create that the repository already had
    const branch = new SessionBuilder()
      .user('start the orchestrator feature')
      .bash('git checkout -b 005-orchestrator', "fatal: a branch named '005-orchestrator' already exists", 128)
      .bash('git checkout 005-orchestrator', "Switched to branch '005-orchestrator'", 0);
    expect(errorFixDrafts(viewOf(branch.build()))).toEqual([]);
    const tool = new SessionBuilder()
      .user('start a session for task 8')
      .bash('sessiontool start --task 008', "Error: fatal: destination path '/home/dev/.local/state/sessiontool/sessions/task#008' already exists and is not an empty directory.", 1)
      .assistant('The session directory is left over from the failed start, because the clone happens before the session is registered.')
      .bash('rm -rf ~/.local/state/sessiontool/sessions/task#008', '', 0)
      .bash('sessiontool start --task 008', 'Session task#008 started', 0);
    expect(errorFixDrafts(viewOf(tool.build()))).toHaveLength(1);
  });
});

describe("ssh's failed prompt before its error", () => {
  it('is no error line: the line after it says what failed', () => {
    expect(errorLine('ssh_askpass: exec(/usr/bin/ssh-askpass): No such file or directory\nHost key verification failed.')).toBe('Host key verification failed.');
  });
});

describe('a comment line of a multi-line command', () => {
  it("is no part of the command: the step is the command under it", () => {
    const [step] = viewOf(new SessionBuilder().bash('# 测试 SSH 连接 GitHub\nssh -T git@github.com', 'ok').build()).steps;
    expect([step!.command, step!.families]).toEqual(['ssh -T git@github.com', ['ssh']]);
  });
});

describe('an inline script of a command (`python -c "…"`)', () => {
  it('is left out of the command shown: a throwaway of this task', () => {
    const shown = (command: string) => viewOf(new SessionBuilder().bash(command, 'ok').build()).steps[0]!;
    expect(shown("uv run python -c \"from tests.booster_factory import create_booster; b = create_booster(max_depth=5); print(type(b))\"").command).toBe('uv run python -c "…"');
    expect(shown('python3 -c "print(1)"').command).toBe('python3 -c "print(1)"');
  });

  it('is the command that ran: the same interpreter running another script is no fix of it', () => {
    const health = 'python -c "import requests; r = requests.get(\'http://localhost:5000/health\', timeout=2); print(r.status_code)"';
    const refused = 'Traceback (most recent call last):\nConnectionRefusedError: [WinError 10061] No connection could be made because the target machine actively refused it';
    const fixes = (next: string) =>
      errorFixDrafts(viewOf(new SessionBuilder().user('is the backend up?').bash(`${health} || echo "Backend not running"`, refused, 1).bash(next, '200').build())).filter((d) => d.text.includes('Fix:'));
    expect(fixes('python -c "import sqlite3; c = sqlite3.connect(\'news.db\'); print(c.execute(\'select count(*) from news\').fetchone())"')).toEqual([]);
    expect(fixes(`${health} --verbose`)).toHaveLength(1);
  });
});

describe("PowerShell's `| Out-String` at the end of a command", () => {
  it('is left out of the command shown, as `| cat` is', () => {
    const [step] = viewOf(new SessionBuilder().bash('powershell -NoProfile -Command Get-Content -Path AGENTS.md -TotalCount 200 | Out-String', '# Guidelines').build()).steps;
    expect(step!.command).toBe('powershell -NoProfile -Command Get-Content -Path AGENTS.md -TotalCount 200');
  });
});

describe("a program's debug log", () => {
  const ssh = 'OpenSSH_for_Windows_9.5p2, LibreSSL 3.8.2\ndebug3: Failed to open file:~/.ssh/known_hosts2 error:2\ndebug1: load_hostkeys: fopen ~/.ssh/known_hosts2: No such file or directory\nAuthenticated to mi308-2 ([10.0.0.8]:22) using "publickey".';

  it('is no failure, and never the error line of one', () => {
    expect(looksFailed(ssh, 'ssh -vvv mi308-2')).toBe(false);
    expect(errorLine(`debug1: Reading configuration data ~/.ssh/config\nssh: connect to host mi308-2 port 22: Connection refused`)).toBe('ssh: connect to host mi308-2 port 22: Connection refused');
    expect(looksFailed('DEBUG: loading config\nError: config.yaml: missing key "port"', 'app serve')).toBe(true);
  });
});

describe('a missing module', () => {
  const base = () => new SessionBuilder().user('publish it').bash('python -c "import build"', "ModuleNotFoundError: No module named 'build'", 1);
  const missing = (b: SessionBuilder) => toolQuirkDrafts(viewOf(b.bash('venv/bin/python -m build', 'Successfully built docgen_cli-1.0.0.tar.gz').build())).filter((d) => d.text.startsWith('The `build` module is missing'));

  it('is no quirk of the environment when the session then installs it, by pip or by a script that says so', () => {
    expect(missing(base())).toHaveLength(1);
    expect(missing(base().bash('pip install build twine', 'Successfully installed build-1.2.1 twine-5.1.0'))).toEqual([]);
    expect(missing(base().bash('python upload_to_pypi.py', 'Installing build and twine...\nBuilt docgen_cli-1.0.0.tar.gz'))).toEqual([]);
  });
});

describe('a closing report that opens with the work done', () => {
  it('is no fact: "X is installed and working", "… is up and running"', () => {
    const facts = (lead: string) =>
      reportFactDrafts(
        viewOf(
          new SessionBuilder()
            .user('install the specstory cli')
            .bash('gh release download v1.13.0 -R specstoryai/getspecstory -p "*linux*"', 'downloaded')
            .bash('sudo mv specstory /usr/local/bin/specstory', '')
            .bash('specstory --version', 'specstory v1.13.0')
            .assistant(`${lead}\n\n**What's installed:**\n- \`specstory\` v1.13.0 → \`/usr/local/bin/specstory\`\n- Config at user and project level (\`.specstory/\` in this project)\n\n**How to use it:**\n- \`specstory run claude\` launches Claude Code with auto-save; conversations are written as Markdown to \`.specstory/history/\`\n- \`specstory check\` reports which agents it can find on this machine and which of them it can save\n- \`specstory sync\` uploads \`.specstory/history/\` to the cloud only when you log in with \`specstory login\`\n- The user config is \`~/.specstory/cli/config.toml\`; the project config is \`.specstory/cli/config.toml\``)
            .build(),
        ),
      );
    expect(facts('The `specstory` command lives in `/usr/local/bin` on this machine.').length).toBeGreaterThan(0);
    expect(facts('SpecStory CLI is installed and working.')).toEqual([]);
  });
});

describe('a report section that sketches what would be needed', () => {
  it('is a plan, not a fact, beside a section of what was found', () => {
    const facts = (heading: string) =>
      reportFactDrafts(
        viewOf(
          new SessionBuilder({ parentId: 'parent-1', subagent: 'Explore' })
            .user('prove the two admitted lemmas in beta_swap.v')
            .tool('Read', { file_path: '/home/dev/demo/beta_swap.v' }, 'block_left block_right descent_set toggle_at insert_max_perm eulerian.v beta_swap.v')
            .tool('Read', { file_path: '/home/dev/demo/eulerian.v' }, 'insert_max_perm')
            .bash('make', 'COQC beta_swap.v')
            .assistant(
              `## Report\n\n**File:** \`beta_swap.v\` (lines 100–120)\n\n**Status:** Did not complete proof. No edits made; \`make\` still passes.\n\n**${heading}**\n\n1. **Block extraction.** Define \`block_left σ i : 'I_n.+1\` and \`block_right σ i : 'I_n.+1\` as the leftmost / rightmost positions of the maximal monotone run of σ containing positions val i .. val i+1.\n\n2. **Block-reversal permutation.** Define \`Φ σ := σ ∘ block_revperm σ i\` where \`block_revperm σ i\` reverses the interval.\n\n3. **Descent-set computation.** Prove \`descent_set (Φ σ) = toggle_at (descent_set σ) i\`. Cases: likely via \`insert_max_perm\` from \`eulerian.v\`.`,
            )
            .build(),
        ),
      ).map((d) => d.title);
    expect(facts('Sketch of what the full proof would need')).toEqual([]);
    expect(facts('Where the parts of the proof live').length).toBeGreaterThan(0);
  });
});

describe("a report's finding about a file the session then edited", () => {
  it('is left out: the edit acted on it, and it tells the file as it was', () => {
    const listing = '.zshenv\n.config/zsh/.zshrc\n.config/zsh/.zprofile\n.config/nvim/init.lua\n.config/tmux/tmux.conf\n.config/kitty/kitty.conf\n.config/ghostty/config\n.config/starship.toml\n.config/aerospace/aerospace.toml\n.local/bin/playlist\n.local/bin/tmux-sessionizer\n.config/opencode/opencode.json';
    const report = [
      'This is a personal `dotfiles` repo that configures the shell, the editor, the terminal and the window manager.',
      '**How it boots**\n- `.zshenv`: sets the XDG layout (`XDG_CONFIG_HOME`, `ZDOTDIR`) so Zsh loads from `.config/zsh`.\n- `.config/zsh/.zprofile`: initializes Homebrew on macOS.\n- `.config/zsh/.zshrc`: the main runtime config (starship prompt, fzf integration, aliases, OS-specific includes).',
      '**Core components**\n- Neovim: `.config/nvim/init.lua`, a Kickstart-based config with `lazy.nvim` and Telescope.\n- Tmux: `.config/tmux/tmux.conf` remaps the prefix to `Ctrl-a` and adds a popup sessionizer.\n- Terminal UI: Kitty at `.config/kitty/kitty.conf`, Ghostty at `.config/ghostty/config`, the Starship prompt at `.config/starship.toml`.\n- Window management: AeroSpace at `.config/aerospace/aerospace.toml`.',
      '**Notable issues I spotted**\n- `.config/opencode/opencode.json` is malformed JSON (a stray `2` before `"model"`).\n- `.local/bin/playlist` starts with `i#!/bin/bash` (an invalid shebang), so it runs under the caller\'s shell.\n- `.local/bin/tmux-sessionizer` has likely typos (`%selected`, an undefined `alt`).',
      'If you want, I can do a cleanup pass next: fix the broken scripts and the config JSON, and add a safer `.gitignore` for state files and secrets that should never be tracked in a repository like this one.',
    ].join('\n\n');
    const facts = (cleanup: boolean, asked = 'check the scripts and configs for problems') => {
      const b = new SessionBuilder({ format: 'codex', agent: 'codex' })
        .user(asked)
        .bash('git ls-files', listing)
        .bash("sed -n '1,40p' .zshenv .config/zsh/.zprofile", 'export XDG_CONFIG_HOME=$HOME/.config\nexport ZDOTDIR=$XDG_CONFIG_HOME/zsh\neval "$(/opt/homebrew/bin/brew shellenv)"')
        .bash("sed -n '1,40p' .local/bin/playlist .local/bin/tmux-sessionizer .config/opencode/opencode.json", 'i#!/bin/bash\n%selected alt\n2 "model": "gpt-5.1-codex"')
        .assistant(report);
      if (cleanup) b.user('yes, do the cleanup').tool('apply_patch', { input: '*** Begin Patch\n*** Update File: .local/bin/playlist\n@@\n-i#!/bin/bash\n+#!/bin/bash\n*** End Patch' }, 'Success. Updated the following files:\nM .local/bin/playlist');
      return reportFactDrafts(viewOf(b.build())).map((d) => d.text).join('\n');
    };
    expect(facts(false)).toContain('invalid shebang');
    const after = facts(true);
    expect(after).not.toContain('invalid shebang');
    // (a finding about a file no edit touched stays)
    expect(after).toContain('malformed JSON');
    // a tour the user asked for shows them what the files say, which the files keep saying
    expect(facts(false, 'Explain this codebase to me')).toBe('');
  });
});
