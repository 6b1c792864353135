/** `compound pr` against a loopback server implementing the GitHub endpoints it uses (issue 35):
 * the first night opens the PR, the second updates the same one, after a merge the third opens
 * a new one; the token is sent and never printed. */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers.js';
import { runCliAsync } from '../harvest/model/fake-model.js';
import { fakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = ['ghs_', 'fakeTokenForTheLoopbackServer123'].join('');
let server: FakeGitHub | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const startGitHub = async () => (server = await fakeGitHub());

describe('compound pr', () => {
  it('opens one PR, updates it the next night, and opens a new one after a merge', async () => {
    const gh = await startGitHub();
    const dir = tempDir();
    const body = join(dir, 'pr.md');
    const env = { GITHUB_API_URL: gh.url, GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'acme/kb' };
    writeFileSync(body, '## night 1\n');
    const first = await runCliAsync(['pr', '--branch', 'knowledge/nightly', '--body-file', body, '--json'], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: true, number: 1 });
    writeFileSync(body, '## night 2\n');
    const second = await runCliAsync(['pr', '--branch', 'knowledge/nightly', '--body-file', body], { cwd: dir, env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('updated pull request #1');
    expect(gh.pulls).toHaveLength(1);
    expect(gh.pulls[0]!.body).toBe('## night 2\n');
    // a reviewer merges it
    Object.assign(gh.pulls[0]!, { state: 'closed', merged: true });
    writeFileSync(body, '## night 3\n');
    const third = await runCliAsync(['pr', '--branch', 'knowledge/nightly', '--body-file', body, '--json'], { cwd: dir, env });
    expect(JSON.parse(third.stdout)).toMatchObject({ created: true, number: 2 });
    expect(gh.pulls.map((p) => [p.number, p.state])).toEqual([[1, 'closed'], [2, 'open']]);
    expect(gh.auth.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
    for (const r of [first, second, third]) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('says what is missing: a token, the repository; an API refusal is explained without the token', async () => {
    const dir = tempDir();
    const noToken = await runCliAsync(['pr', '--branch', 'b'], { cwd: dir, env: { GITHUB_TOKEN: undefined, GH_TOKEN: undefined, GITHUB_REPOSITORY: 'acme/kb' } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('GITHUB_TOKEN');
    const noRepo = await runCliAsync(['pr', '--branch', 'b'], { cwd: dir, env: { GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: undefined } });
    expect(noRepo.code).toBe(2);
    const refusing = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `Resource not accessible by integration (token ${TOKEN})` }));
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    server = { url: '', pulls: [], auth: [], close: () => new Promise<void>((r) => refusing.close(() => r())) };
    const url = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
    const refused = await runCliAsync(['pr', '--branch', 'b', '--repo', 'acme/kb'], { cwd: dir, env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: url } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('HTTP 403');
    expect(refused.stderr).toContain('Actions may not be allowed to create pull requests');
    expect(refused.stderr).not.toContain(TOKEN);
  });
});
