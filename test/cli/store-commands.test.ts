import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeItem, runCli, tempDir } from '../helpers.js';
import { serializeItem } from '../../src/knowledge/codec.js';
import { itemPath } from '../../src/knowledge/paths.js';

function addItem(root: string, text: string, meta: Parameters<typeof makeItem>[1] = {}): string {
  const item = makeItem(text, meta);
  const rel = itemPath(item.meta, text);
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem(item));
  return rel;
}

describe('compound CLI: store commands', () => {
  it('--help lists the commands and exits 0; an unknown command exits 2', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['init', 'check', 'reindex', 'list', 'show']) expect(help.stdout).toContain(c);
    expect(runCli(['no-such-command']).code).toBe(2);
  });

  it('init creates the store once and leaves existing files alone', () => {
    const dir = tempDir();
    const first = runCli(['init', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('created knowledge/README.md');
    expect(readdirSync(join(dir, 'knowledge')).sort()).toEqual(['.gitattributes', '.gitignore', 'README.md', 'index.json', 'ledger.json']);
    writeFileSync(join(dir, 'knowledge/README.md'), 'ours\n');
    const second = runCli(['init', dir]);
    expect(second.stdout).toContain('exists  knowledge/README.md');
    expect(readFileSync(join(dir, 'knowledge/README.md'), 'utf8')).toBe('ours\n');
  });

  it('check passes on a clean store, then reports each problem as file:line and exits 1', () => {
    const dir = tempDir();
    runCli(['init', dir]);
    addItem(dir, 'The dev server listens on port 4000.', { scope: 'repo', repo: 'spotter' });
    expect(runCli(['reindex'], { cwd: dir }).code).toBe(0);
    const clean = runCli(['check'], { cwd: dir });
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain('1 valid, 0 problem(s)');

    const bad = addItem(dir, 'Tokens live in the vault.', { category: 'fact' });
    const file = join(dir, bad);
    writeFileSync(file, readFileSync(file, 'utf8').replace('confidence: 0.7', 'confidence: 1.7').replace('Tokens live in the vault.', 'Use token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 for the API.'));
    const before = readFileSync(join(dir, 'knowledge/index.json'), 'utf8');
    const r = runCli(['check'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^${bad.replace(/[.]/g, '\\.')}:5: confidence \`1\\.7\` is outside 0\\.\\.1, .+; .+`, 'm'));
    // check never modifies the store
    expect(readFileSync(join(dir, 'knowledge/index.json'), 'utf8')).toBe(before);
    const json = JSON.parse(runCli(['check', '--json'], { cwd: dir }).stdout);
    const codes = json.problems.map((p: { code: string }) => p.code);
    expect(codes).toContain('E_SCHEMA_CONFIDENCE');
    // an invalid item is still scanned for secrets
    expect(codes).toContain('E_SECRET_GITHUB_TOKEN');
  });

  it('check finds secrets and a stale index', () => {
    const dir = tempDir();
    runCli(['init', dir]);
    const rel = addItem(dir, 'Deploys read the key from `DEPLOY_KEY`.');
    runCli(['reindex'], { cwd: dir });
    writeFileSync(join(dir, rel), readFileSync(join(dir, rel), 'utf8').replace('Deploys read', `Use AKIA${'Q7XZ2M3B'}3C4D5R6T when deploys read`));
    const r = runCli(['check', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    const codes = JSON.parse(r.stdout).problems.map((p: { code: string }) => p.code);
    expect(codes).toContain('E_SECRET_AWS_ACCESS_KEY');
    expect(codes).toContain('E_INDEX_STALE');
  });

  it('reindex --dry-run writes nothing; reindex is idempotent', () => {
    const dir = tempDir();
    runCli(['init', dir]);
    addItem(dir, 'Run `mix format` before `mix credo --strict`.', { category: 'pattern', scope: 'repo', repo: 'spotter' });
    const before = readFileSync(join(dir, 'knowledge/index.json'), 'utf8');
    expect(runCli(['reindex', '--dry-run'], { cwd: dir }).stdout).toContain('would be updated');
    expect(readFileSync(join(dir, 'knowledge/index.json'), 'utf8')).toBe(before);
    expect(runCli(['reindex'], { cwd: dir }).stdout).toContain('updated: 1 item');
    expect(runCli(['reindex'], { cwd: dir }).stdout).toContain('unchanged');
  });

  it('list filters and show prints an item by id prefix; bad filters are usage errors', () => {
    const dir = tempDir();
    runCli(['init', dir]);
    addItem(dir, 'Use `python3`, there is no `python`.', { category: 'tool-quirk' });
    addItem(dir, 'The API listens on 8080.', { scope: 'repo', repo: 'api' });
    const list = JSON.parse(runCli(['list', '--repo', 'api', '--json'], { cwd: dir }).stdout);
    expect(list).toHaveLength(1);
    expect(list[0].text).toBe('The API listens on 8080.');
    const table = runCli(['list', '--category', 'tool-quirk'], { cwd: dir }).stdout;
    expect(table).toContain('Use python3, there is no python');
    expect(runCli(['list', '--category', 'nope'], { cwd: dir }).code).toBe(2);
    const shown = runCli(['show', list[0].id.slice(0, 6)], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('The API listens on 8080.');
    const missing = runCli(['show', 'ffffffffff'], { cwd: dir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('[E_SHOW_NOT_FOUND]');
  });

  it('NO_COLOR output carries no escape codes', () => {
    const dir = tempDir();
    runCli(['init', dir]);
    const r = runCli(['check'], { cwd: dir, env: { NO_COLOR: '1', FORCE_COLOR: undefined } });
    expect(r.stderr).not.toContain('\u001b[');
  });
});

describe('output into a pipe that closes early', () => {
  it('`compound list | head -1`: no stack trace, the normal exit code', async () => {
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../helpers.js');
    const root = tempDir();
    expect(runCli(['init', root]).code).toBe(0);
    for (let i = 0; i < 2000; i++) addItem(root, `Fact ${i}: the service on port ${3000 + i} must be started with make run-${i} before the tests.`);
    expect(runCli(['reindex'], { cwd: root }).code).toBe(0);
    const child = spawn(process.execPath, [CLI, 'list'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // read the first chunk, then close our end like `head -1` does
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(/at \S+ \(/); // no stack trace
  });
});
