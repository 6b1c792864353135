/**
 * Capture at the source (issue 35): sessions become redacted captured-session files in an inbox
 * (a folder, or a branch pushed to origin), sent once; the nightly harvest of the inbox writes what
 * harvesting the raw transcripts writes; a SessionEnd hook returns at once.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, GIT_ENV, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';
import { readSessions } from '../../src/sessions/read.js';
import { writeClaudeSession, type Turn } from '../harvest/model/fake-model.js';

const SECRET = ['ghp_', 'Q8r2Lx7Vn4Kd9Tf3Wm6Hp1Zs5Jc0Gb8Ya2Ue'].join('');
const turns = (extra = ''): Turn[] => [
  { user: `run the migration (token ${SECRET})` },
  { bash: 'npm run migrate', output: `error: column "due_date" of relation "invoices" already exists\n    at /home/zeldaq/src/invoices/migrate.js:10`, error: true },
  { assistant: 'The column exists already because the migration is not idempotent; adding IF NOT EXISTS.' },
  { bash: 'npm run migrate', output: `migrations applied${extra}` },
];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

describe('compound capture', () => {
  it('writes redacted files once, sends a grown session again, and the inbox harvests like the transcripts', () => {
    const raw = tempDir();
    const file = writeClaudeSession(join(raw, 's.jsonl'), 'eeeeeeee-1111-4c3d-9e8f-000000000001', '/home/zeldaq/src/invoices', turns());
    const inbox = tempDir();
    const env = { COMPOUND_CACHE_DIR: tempDir() };
    const first = runCli(['capture', raw, '--to', inbox, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as { captured: unknown[] }).captured).toHaveLength(1);
    const captured = files(inbox);
    expect(captured).toHaveLength(1);
    const text = readFileSync(captured[0]!, 'utf8');
    expect(text.startsWith('{"compound_session":1')).toBe(true);
    for (const leak of [SECRET, 'zeldaq', '/home/']) expect(text).not.toContain(leak);
    expect(text).toContain('"repo":"invoices"');
    // sent once
    const again = runCli(['capture', raw, '--to', inbox, '--json'], { env });
    expect((JSON.parse(again.stdout) as { captured: unknown[] }).captured).toHaveLength(0);
    // the same items from the inbox as from the transcript
    const a = tempDir();
    const b = tempDir();
    for (const d of [a, b]) expect(runCli(['init'], { cwd: d }).code).toBe(0);
    const fromInbox = JSON.parse(runCli(['harvest', inbox, '--json'], { cwd: a }).stdout) as { entries: { title: string }[] };
    const fromRaw = JSON.parse(runCli(['harvest', raw, '--json'], { cwd: b }).stdout) as { entries: { title: string }[] };
    expect(fromInbox.entries.length).toBeGreaterThan(0);
    expect(fromInbox.entries.map((e) => e.title)).toEqual(fromRaw.entries.map((e) => e.title));
    // the session grows: sent again (the harvest takes its new events only)
    writeClaudeSession(file, 'eeeeeeee-1111-4c3d-9e8f-000000000001', '/home/zeldaq/src/invoices', [...turns(), { user: 'thanks' }, { assistant: 'Done.' }]);
    const grown = runCli(['capture', raw, '--to', inbox, '--json'], { env });
    expect((JSON.parse(grown.stdout) as { captured: unknown[] }).captured).toHaveLength(1);
  });

  it("carries a subagent's parent edits along: the parent transcript stays on this machine", async () => {
    const raw = tempDir();
    const id = '1b7e4c20-5d2a-4f0e-9c61-3a8d2f7b9e01';
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code', `${id}.jsonl`), join(raw, `${id}.jsonl`));
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code', id), join(raw, id), { recursive: true });
    const inbox = tempDir();
    const r = runCli(['capture', raw, '--to', inbox, '--json'], { env: { COMPOUND_CACHE_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(0);
    const sub = files(inbox).find((f) => readFileSync(f, 'utf8').split('\n')[0]!.includes('"parentId"'))!;
    expect(JSON.parse(readFileSync(sub, 'utf8').split('\n')[0]!).parentEditsAfter).toEqual(['export.ts']);
    const [session] = (await readSessions([sub])).sessions;
    expect(session!.parentEditsAfter).toEqual(['export.ts']);
    // captured while the parent had not yet edited: sent again once it has
    const early = tempDir();
    const parentLines = readFileSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code', `${id}.jsonl`), 'utf8').split('\n');
    const beforeEdit = parentLines.findIndex((l) => l.includes('export.ts') && l.includes('"tool_use"'));
    writeFileSync(join(early, `${id}.jsonl`), `${parentLines.slice(0, beforeEdit).join('\n')}\n`);
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code', id), join(early, id), { recursive: true });
    const env = { COMPOUND_CACHE_DIR: tempDir() };
    const inbox2 = tempDir();
    const subCaptured = (out: string) => (JSON.parse(out) as { captured: { session: string }[] }).captured.filter((c) => c.session.includes('agent-'));
    expect(subCaptured(runCli(['capture', early, '--to', inbox2, '--json'], { env }).stdout)).toHaveLength(1);
    cpSync(join(PROJECT_ROOT, 'test_sessions', 'claude-code', `${id}.jsonl`), join(early, `${id}.jsonl`));
    expect(subCaptured(runCli(['capture', early, '--to', inbox2, '--json'], { env }).stdout)).toHaveLength(1);
  });

  it('delivers to an inbox branch pushed to origin without checking it out; a CI clone harvests it', () => {
    const base = tempDir();
    const origin = join(base, 'origin.git');
    const gitEnv = { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv, stdio: 'pipe' }).toString();
    execFileSync('git', ['init', '-q', '--bare', origin]);
    const dev = join(base, 'dev');
    git(base, 'clone', '-q', origin, dev);
    expect(runCli(['init'], { cwd: dev }).code).toBe(0);
    git(dev, 'checkout', '-q', '-b', 'main');
    git(dev, 'add', '-A');
    git(dev, 'commit', '-q', '-m', 'store');
    git(dev, 'push', '-q', 'origin', 'main');
    const raw = tempDir();
    writeClaudeSession(join(raw, 's.jsonl'), 'ffffffff-1111-4c3d-9e8f-000000000001', '/home/zeldaq/src/invoices', turns());
    const r = runCli(['capture', raw, '--to-branch', 'compound/inbox', '--push'], { cwd: dev, env: { ...GIT_ENV, COMPOUND_CACHE_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(git(dev, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(git(dev, 'status', '--porcelain').trim()).toBe('');
    expect(git(origin, 'ls-tree', '-r', '--name-only', 'compound/inbox')).toMatch(/^inbox\/claude-code\/ffffffff-.*\.jsonl$/m);
    // the nightly job: a CI clone reads the inbox branch into a folder and harvests it
    const ci = join(base, 'ci');
    git(base, 'clone', '-q', '-b', 'main', origin, ci);
    git(ci, 'fetch', '-q', 'origin', 'compound/inbox');
    const transcripts = join(ci, 'transcripts');
    mkdirSync(transcripts);
    const archive = spawnSync('sh', ['-c', `git archive FETCH_HEAD inbox | tar -x -C "${transcripts}"`], { cwd: ci });
    expect(archive.status).toBe(0);
    const h = runCli(['harvest', transcripts, '--json'], { cwd: ci });
    expect(h.code, h.stderr).toBe(0);
    expect((JSON.parse(h.stdout) as { counts: { add: number } }).counts.add).toBeGreaterThan(0);
  });

  it('as a SessionEnd hook, exits 0 at once and captures in the background', async () => {
    const raw = tempDir();
    const transcript = writeClaudeSession(join(raw, 's.jsonl'), 'abababab-1111-4c3d-9e8f-000000000001', '/srv/src/invoices', turns());
    const inbox = tempDir();
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [CLI, 'capture', '--hook', '--to', inbox], { input: JSON.stringify({ session_id: 'x', transcript_path: transcript, hook_event_name: 'SessionEnd' }), env: { ...process.env, COMPOUND_CACHE_DIR: tempDir() }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    for (let i = 0; i < 100 && files(inbox).length === 0; i++) await new Promise((res) => setTimeout(res, 100));
    expect(files(inbox)).toHaveLength(1);
    // a broken hook input never fails the session
    const bad = spawnSync(process.execPath, [CLI, 'capture', '--hook', '--to', inbox], { input: 'not json', encoding: 'utf8' });
    expect(bad.status).toBe(0);
    expect(existsSync(inbox)).toBe(true);
  });
});
