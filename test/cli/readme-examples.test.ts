/**
 * Every `npx compound …` example in the README's shell blocks runs as written on the bundled
 * example (issue 36): a git repository holding test_sessions/, initialised and harvested with
 * --commit. An example that reads the user's agent folders, calls a model or GitHub, or pushes
 * is skipped, each for the reason listed here; any other example, old or new, is run, must exit
 * 0 and, when it lists or shows something, print it.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, GIT_ENV, PROJECT_ROOT, tempDir } from '../helpers.js';

/** Examples not run here, and why (each is tested elsewhere against loopback stand-ins). */
const SKIP: readonly { re: RegExp; why: string }[] = [
  { re: /~\/\.claude|--from\b/, why: "reads this machine's agent folders" },
  { re: /--model-provider|--model-command|harvest ~\//, why: 'calls a model' },
  { re: /\bcompound pr\b/, why: 'calls the GitHub API' },
  { re: /--push\b/, why: 'pushes to a remote' },
  { re: /--branch knowledge\/nightly --pr-body/, why: 'harvests your agent folders into the nightly branch' },
];

/** The `npx compound` lines of the README's sh blocks, comments and shell redirections left as written. */
function examples(): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const out: string[] = [];
  for (const m of readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)) {
    for (const line of m[1]!.split('\n')) {
      const at = line.indexOf('npx compound ');
      if (at === -1 || line.trimStart().startsWith('npm ')) continue;
      out.push(line.slice(at));
    }
  }
  return out;
}

/** The bundled example as the README describes it, with fixed file times as the demo sets them. */
function example(): string {
  const root = tempDir('compound-readme-');
  cpSync(join(PROJECT_ROOT, 'test_sessions'), join(root, 'test_sessions'), { recursive: true });
  const fixed = new Date('2026-03-15T00:00:00Z');
  for (const d of readdirSync(join(root, 'test_sessions'), { recursive: true, withFileTypes: true })) if (d.isFile()) utimesSync(join(d.parentPath, d.name), fixed, fixed);
  writeFileSync(join(root, 'issue.md'), '# The migration test fails\n\n`npm run migrate:test` fails on the due_date column.\n');
  const env = { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Test Bot', GIT_COMMITTER_EMAIL: 'bot@example.invalid' };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env });
  for (const args of [['init'], ['harvest', 'test_sessions/', '--commit']]) execFileSync(process.execPath, [CLI, ...args], { cwd: root, env, stdio: 'pipe' });
  return root;
}

/** Commands whose output is what they are for: an empty stdout means the example shows nothing. */
const PRINTS = /^npx compound (?:list|show|bootstrap(?![^|]*--format codex)|sessions|repos|review|sample)\b/;

describe('the README examples', () => {
  const all = examples();
  it('are found (the README has shell examples of compound)', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('run as written on the bundled example', () => {
    const root = example();
    const env = { ...process.env, ...GIT_ENV, NO_COLOR: '1', PATH: `${join(tempDir('compound-npx-'), '')}:${process.env.PATH ?? ''}` };
    // `npx compound` is this build (the package is not installed in the example)
    const bin = env.PATH.split(':')[0]!;
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = compound ]; then shift; exec "${process.execPath}" "${CLI}" "$@"; fi\nexit 99\n`, { mode: 0o755 });
    const ran: string[] = [];
    const failures: string[] = [];
    for (const line of all) {
      if (SKIP.some((s) => s.re.test(line))) continue;
      const r = spawnSync('sh', ['-c', line], { cwd: root, env, encoding: 'utf8' });
      ran.push(line);
      const command = line.replace(/\s+#.*$/, '');
      if (r.status !== 0) failures.push(`${command}: exit ${r.status}: ${r.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
      else if (PRINTS.test(command) && !command.includes('> /dev/null') && r.stdout.trim() === '') failures.push(`${command}: printed nothing`);
    }
    expect(failures).toEqual([]);
    expect(ran.length).toBeGreaterThan(15);
  }, 120_000);
});
