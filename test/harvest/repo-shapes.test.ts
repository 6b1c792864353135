/**
 * Whatever the harvest writes, `check` accepts (issue 33): many transcripts with working
 * directories of every shape (homes, worktrees, Windows paths, generic and odd names, user
 * names), generated from a seed, harvested into one store, then checked. A repo the harvest
 * makes up from a user's name or a path `check` rejects fails here.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers.js';
import { prng } from '../prng.js';
import { writeClaudeSession, type Turn } from './model/fake-model.js';

const USERS = ['sam', 'Tarive', 'ana.maria', 'dev'];
const NAMES = ['spotter', 'Widget API', 'café-app', 'repo', 'workspace', 'private', 'app', 'x', 'my.project', 'über_tool', 'a'.repeat(80)];

function cwdShape(rnd: () => number, user: string): string {
  const name = NAMES[Math.floor(rnd() * NAMES.length)]!;
  const shapes = [
    `/home/${user}`,
    `/Users/${user}`,
    `/Users/${user}/${name}`,
    `/home/${user}/projects/${name}-worktrees/${name}-fix`,
    `/home/${user}/src/${name}/.claude/worktrees/agent-1`,
    `C:\\Users\\${user}\\code\\${name}`,
    `C:\\Users\\${user}`,
    `/tmp/${name}`,
    `/`,
    `/workspace`,
    `/srv/${name}`,
    `/srv/mono/packages/${name}`,
    `/home/${user}/${name}/sub dir/with spaces`,
  ];
  return shapes[Math.floor(rnd() * shapes.length)]!;
}

describe('repo identity: what the harvest writes, check accepts', () => {
  it('over 60 generated sessions of every working-directory shape', () => {
    const rnd = prng(33);
    const dir = tempDir();
    for (let i = 0; i < 60; i++) {
      const user = USERS[i % USERS.length]!;
      const cwd = cwdShape(rnd, user);
      const id = `${String(i).padStart(8, '0')}-1111-4c3d-9e8f-${String(i).padStart(12, '0')}`;
      const turns: Turn[] = [
        { user: `fix the failing build in ${cwd}` },
        { bash: 'npm run build', output: `Error: Cannot find module 'left-pad'\nRequire stack:\n- ${cwd.replace(/\\/g, '/')}/index.js`, error: true },
        { assistant: 'The module is missing from node_modules; installing it.' },
        { bash: 'npm install left-pad', output: 'added 1 package in 1s' },
        { bash: 'npm run build', output: 'build ok' },
        { user: 'no, never install packages globally here, use npm ci' },
        { assistant: 'Understood: npm ci from the lockfile.' },
      ];
      writeClaudeSession(join(dir, `s${i}.jsonl`), id, cwd, turns, `2026-0${1 + (i % 9)}-1${i % 10}T10:00:00.000Z`);
    }
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const harvested = runCli(['harvest', dir, '--json'], { cwd: root });
    expect(harvested.code, harvested.stderr).toBe(0);
    const written = (JSON.parse(harvested.stdout) as { counts: { add: number } }).counts.add;
    expect(written).toBeGreaterThan(0);
    const check = runCli(['check'], { cwd: root });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    // and no repo is a user's name
    const list = JSON.parse(runCli(['list', '--json'], { cwd: root }).stdout) as { repo?: string }[] | { items: { repo?: string }[] };
    const items = Array.isArray(list) ? list : list.items;
    for (const item of items) if (item.repo) expect(USERS.map((u) => u.toLowerCase())).not.toContain(item.repo);
  });
});
