/**
 * Planted secrets in every transcript format must leave no trace anywhere the harvest writes:
 * item files, index, ledger, PR body, commit messages, the git object store, stdout and stderr.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GIT_ENV, PROJECT_ROOT, runCli, tempDir } from '../helpers.js';

// Obviously fake values in the real formats (split so no scanner flags this source file).
const SECRETS = {
  github: ['ghp_', 'R8q2Lx7Vn4Kd9Tf3Wm6Hp1Zs5Jc0Gb8Ya2Ue'].join(''),
  anthropic: ['sk-ant-api03-', 'Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6Nm8Qw0Er2Ty4Ui6'].join(''),
  aws: ['AKIA', 'Z7Q2M4R8T3W6Y9B1'].join(''),
  jwt: ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ', 'Xk2Lq9Vd4Rt7Yp1Zs5Wm8Hc3Jb6Ng0Fa'].join('.'),
  urlPassword: ['postgres://', 'admin:', 'Sup3rS3cretPw', '@db.internal:5432/app'].join(''),
  email: ['jane.doe', '@', 'corp-mail.io'].join(''),
  user: 'zelda',
};
const PLANT = ` (while using token ${SECRETS.github}, ANTHROPIC_API_KEY=${SECRETS.anthropic}, aws ${SECRETS.aws}, Authorization: Bearer ${SECRETS.jwt}, DATABASE_URL=${SECRETS.urlPassword}, contact ${SECRETS.email}, in /home/${SECRETS.user}/src/app)`;
const NEEDLES = [SECRETS.github, SECRETS.anthropic, SECRETS.aws, SECRETS.jwt.split('.')[2]!, 'Sup3rS3cretPw', SECRETS.email, `/home/${SECRETS.user}`, SECRETS.user];

/** Appends the planted text to every error-looking string of a JSON value. */
function plantJson(value: unknown): unknown {
  if (typeof value === 'string') return /error|fail|not found|denied/i.test(value) ? value + PLANT : value;
  if (Array.isArray(value)) return value.map(plantJson);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plantJson(v)]));
  return value;
}

function plantFile(file: string): void {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.md')) {
    writeFileSync(file, text.split('\n').map((l) => (/error|fail|not found|denied/i.test(l) ? l + PLANT : l)).join('\n'));
  } else if (file.endsWith('.jsonl')) {
    writeFileSync(file, text.split('\n').map((l) => { try { return JSON.stringify(plantJson(JSON.parse(l))); } catch { return l; } }).join('\n'));
  } else if (file.endsWith('.json')) {
    try {
      writeFileSync(file, JSON.stringify(plantJson(JSON.parse(text)), null, 2));
    } catch {
      /* leave it */
    }
  }
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

describe('privacy: planted secrets in every format', () => {
  it('leave zero traces in files, PR body, stdout, stderr, commit messages and git objects', () => {
    const work = tempDir();
    const transcripts = join(work, 'transcripts');
    cpSync(join(PROJECT_ROOT, 'test_sessions'), transcripts, { recursive: true });
    const planted = allFiles(transcripts);
    planted.forEach(plantFile);
    const formats = new Set(readdirSync(transcripts).filter((d) => statSync(join(transcripts, d)).isDirectory()));
    expect(formats.size).toBeGreaterThanOrEqual(6);
    expect(planted.filter((f) => readFileSync(f, 'utf8').includes(SECRETS.github)).length).toBeGreaterThanOrEqual(formats.size);

    const store = join(work, 'store');
    execFileSync('git', ['init', '-q', '-b', 'main', store]);
    expect(runCli(['init', store]).code).toBe(0);
    const pr = join(work, 'pr.md');
    const env = { ...GIT_ENV };
    const r = runCli(['-C', store, 'harvest', transcripts, '--commit', '--pr-body', pr], { env });
    expect(r.code).toBe(0);
    const json = runCli(['-C', store, 'harvest', transcripts, '--dry-run', '--json'], { env });
    const index = JSON.parse(readFileSync(join(store, 'knowledge/index.json'), 'utf8'));
    expect(index.counts.total).toBeGreaterThan(5);

    const objects = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: store, maxBuffer: 1 << 28 }).toString('latin1');
    const log = execFileSync('git', ['log', '--format=%B%n%an%n%ae'], { cwd: store, encoding: 'utf8' });
    const written = allFiles(join(store, 'knowledge')).map((f) => readFileSync(f, 'utf8'));
    const haystacks = { stdout: r.stdout + json.stdout, stderr: r.stderr + json.stderr, prBody: readFileSync(pr, 'utf8'), log, objects, files: written.join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const needle of NEEDLES) expect(text.includes(needle), `${needle.slice(0, 12)}… found in ${where}`).toBe(false);
    }
    // the planted text did reach items (redacted), so this test can fail
    expect(haystacks.files).toMatch(/\[REDACTED:[a-z-]+\]/);
  });
});
