import { describe, expect, it } from 'vitest';
import { commandParts, family, shortenCommand, isReadOnly, mainCommand, program, shownCommand, simpleCommands } from '../../src/harvest/extract/commands.js';

describe('simple commands of a command line', () => {
  it('split at && || ; and newlines outside quotes, a pipe keeping its writer', () => {
    expect(simpleCommands('a && b; c | d')).toEqual(['a', 'b', 'c']);
    expect(simpleCommands('echo "a;b" && git commit -m "x; y && z"')).toEqual(['echo "a;b"', 'git commit -m "x; y && z"']);
    // the parentheses of a subshell are no part of the commands in it; a $(…) or a grouped argument keeps its own
    expect(simpleCommands('cd /tmp && (test -d maven || curl -fsSL https://x/m.tar.gz | tar xz) && mvn test -q')).toEqual(['cd /tmp', 'test -d maven', 'curl -fsSL https://x/m.tar.gz', 'mvn test -q']);
    expect(simpleCommands('echo $(date) && (cd web && npm test)')).toEqual(['echo $(date)', 'cd web', 'npm test']);
    expect(simpleCommands("rg 'a | b' src | head -5")).toEqual(["rg 'a | b' src"]);
    // xargs runs a command of its own on what it reads
    expect(simpleCommands("lsof -i :3740 | grep LISTEN | awk '{print $2}' | xargs kill -9")).toEqual(['lsof -i :3740', 'xargs kill -9']);
    expect(family('xargs kill -9')).toBe('kill');
    // an apostrophe in text leaves a quote open: every separator splits, as before quotes were read
    expect(simpleCommands("echo don't; ls")).toEqual(["echo don't", 'ls']);
  });

  it("read a heredoc's lines as the command's data, with the redirect on its first line the command's", () => {
    const write = "cat <<'EOF' > src/App.tsx\nasync function onSubmit() {\n  setStatus(\"Submitting...\");\n  try { await save(); } catch {}\n}\nEOF\nnpm run build";
    expect(simpleCommands(write)).toEqual(['cat > src/App.tsx', 'npm run build']);
    // a closing word indented under `<<-`, a double-quoted word, and a body never closed
    expect(simpleCommands('cat <<-"END" > notes.txt\n\tone; two\n\tEND\nls')).toEqual(['cat > notes.txt', 'ls']);
    expect(simpleCommands('python3 - <<PY\nimport os; print(os.getcwd())')).toEqual(['python3 -']);
    expect(shortenCommand(write)).toBe("cat <<EOF > src/App.tsx … EOF npm run build");
  });

  it('keep a command substitution in one word: an assignment from `$(…)` runs no program of its own', () => {
    const parts = commandParts('cd /var/www/app && TIMESTAMP=$(date +%s) && echo "file-$TIMESTAMP.html"');
    expect(parts.families).toEqual(['cd', '', 'echo']);
  });

  it("read PowerShell's directory changes, environment settings and call operator as the shell's", () => {
    const line = 'Push-Location "C:\\Users\\dev\\app"; $env:JAVA_HOME="C:\\jdk-21"; $env:PATH="$env:JAVA_HOME\\bin;$env:PATH"; & "C:\\scoop\\maven\\bin\\mvn.cmd" -q verify; Pop-Location';
    const simple = simpleCommands(line);
    expect(simple).toHaveLength(5);
    expect(simple.map(family)).toEqual(['cd', '', '', 'mvn verify', 'cd']);
    expect(program(simple[3]!)).toBe('mvn');
    // the step's main command is past a change of directory or an environment setting, in any spelling
    expect(mainCommand('Set-Location C:\\work\\app; npm test')).toBe('npm test');
    expect(family(mainCommand('$env:JAVA_HOME = "C:\\jdk17"; mvn -q test'))).toBe('mvn test');
    expect(shownCommand('Push-Location D:\\clients\\acme\\app; npm test')).toBe('npm test');
    // a run's id in an argument, with its date and time, is this run's name: the kind of file is shown
    expect(shownCommand('python3 render_jsonl.py rollout-2025-09-08T20-55-49-f6f5ea21-be92-4d49-a250-a5840ce1baa9.jsonl -o out.html')).toBe('python3 render_jsonl.py rollout-….jsonl -o out.html');
    expect(shownCommand('cat ~/.claude/projects/app/0e183c58-54d6-48f9-813c-96ac5163f3ef.jsonl')).toBe('cat ~/.claude/projects/app/….jsonl');
    // Windows' program suffixes and script folders, in either slash
    expect(family('npm.cmd run build')).toBe('npm run build');
    expect(family('C:/tools/maven/bin/mvn.cmd -q test')).toBe('mvn test');
    expect(family('python.exe -m pytest')).toBe('python -m pytest');
    expect(family('python C:\\Users\\dev\\proj\\scripts\\gen.py')).toBe('python gen.py');
    // a POSIX path keeps its file name whole
    expect(program('./render.py x')).toBe('render.py');
    expect(family('/usr/bin/git status')).toBe('git status');
  });
});

describe('a shell started only to run a command line', () => {
  it('runs that command line: its commands are the ones split and named', () => {
    expect(simpleCommands('powershell.exe -NoProfile -Command Get-ChildItem')).toEqual(['Get-ChildItem']);
    expect(simpleCommands('powershell -NoProfile -ExecutionPolicy Bypass -Command "cd web; npm test"')).toEqual(['cd web', 'npm test']);
    expect(simpleCommands('pwsh -c git status')).toEqual(['git status']);
    expect(simpleCommands('cmd.exe /s /c "npm run build && echo ok"')).toEqual(['npm run build', 'echo ok']);
    // so a failed script and a later listing of the folder are two families, not one "powershell"
    expect(family(simpleCommands('powershell.exe -NoProfile -Command .specify/scripts/powershell/create-new-feature.ps1 -Json "$ARGUMENTS"')[0]!)).toBe('create-new-feature.ps1');
    expect(family(simpleCommands('powershell.exe -NoProfile -Command Get-ChildItem')[0]!)).toBe('Get-ChildItem');
    // dot-sourcing and the call operator run the script named after them
    expect(family(". '.specify/scripts/powershell/create-new-feature.ps1' -Json")).toBe('create-new-feature.ps1');
    expect(family('& ".specify/scripts/powershell/create-new-feature.ps1" -Json')).toBe('create-new-feature.ps1');
    // a shell named as an argument runs nothing
    expect(simpleCommands('echo powershell -c x')).toEqual(['echo powershell -c x']);
  });
});

describe('commands that only look', () => {
  it('include a script runner given no script, which lists the scripts, and not one given a script', () => {
    expect(isReadOnly(family('npm run'))).toBe(true);
    expect(isReadOnly(family('yarn run'))).toBe(true);
    expect(isReadOnly(family('npm run dev'))).toBe(false);
    expect(isReadOnly(family('npm install'))).toBe(false);
  });

  it("include PowerShell's cmdlets that read or print and cmd's dir, not those that change things", () => {
    for (const look of ['Get-Process', 'Get-ChildItem -Path .', 'Test-Path .git/index.lock', 'Select-String -Path a.txt -Pattern b', 'Write-Host done', 'dir /s /b', 'where node'])
      expect(isReadOnly(family(look)), look).toBe(true);
    for (const act of ['Remove-Item .git/index.lock -Force', 'Set-Content a.txt b', 'New-Item -ItemType Directory x', 'Getter x'])
      expect(isReadOnly(family(act)), act).toBe(false);
  });
});

describe('the shell words of a loop or a branch', () => {
  it('are no program: `do sips …` runs sips, `for f in …`, `done` and `fi` are syntax', () => {
    const line = 'for f in ~/Downloads/*.png; do base="${f%.*}" sips -z 572 943 "$f" --out "${base}.webp"; done';
    expect(simpleCommands(line).map(family)).toEqual(['', 'sips', '']);
    expect(simpleCommands('if [ -f x ]; then make build; else echo none; fi').map(family)).toEqual(['', 'make build', 'echo', '']);
    expect(program('! grep -q x file')).toBe('grep');
  });
});
