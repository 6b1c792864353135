import { describe, expect, it } from 'vitest';
import { findSecrets, redact } from '../../src/redact/index.js';
import { NEGATIVES, POSITIVES } from './cases.js';
import { CORPUS } from './corpus.js';
import { SECRETS } from './fakes.js';

/** A planted value leaves no trace: neither whole nor as a 12-character slice of its middle. */
function traces(out: string, planted: string): string[] {
  const found: string[] = [];
  if (out.includes(planted)) found.push(planted);
  if (planted.length >= 24) {
    const mid = planted.slice(Math.floor(planted.length / 2) - 6, Math.floor(planted.length / 2) + 6);
    if (out.includes(mid)) found.push(mid);
  }
  return found;
}

describe('planted-secrets corpus', () => {
  it.each(CORPUS.map((d) => [d.name, d] as const))('%s: zero traces after redact', (_name, doc) => {
    const { text, findings } = redact(doc.text);
    for (const p of doc.planted) {
      // Names are removed as words; a JSON-escaped Windows path keeps its doubled backslashes.
      const needle = /^[A-Za-z]+$/.test(p) ? new RegExp(`(?<![A-Za-z])${p}(?![A-Za-z])`) : null;
      if (needle) expect(needle.test(text), `${p} left in ${doc.name}:\n${text}`).toBe(false);
      else expect(traces(text, p), `${p} left in ${doc.name}:\n${text}`).toEqual([]);
    }
    expect(findings.length).toBeGreaterThan(0);
    expect(findSecrets(text)).toEqual([]);
  });

  it.each(CORPUS.filter((d) => d.jsonl).map((d) => [d.name, d] as const))('%s: every line still parses as JSON', (_n, doc) => {
    const out = redact(doc.text).text;
    for (const line of out.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('pretty JSON still parses after redact', () => {
    for (const doc of CORPUS.filter((d) => d.json)) expect(() => JSON.parse(redact(doc.text).text)).not.toThrow();
  });
});

describe('idempotence', () => {
  const inputs = [
    ...CORPUS.map((d) => d.text),
    ...Object.values(POSITIVES).flatMap((ps) => ps.map((p) => p.text)),
    ...Object.values(NEGATIVES).flat(),
  ];
  it('redact(redact(x)) === redact(x) and nothing is found after redact', () => {
    for (const x of inputs) {
      const once = redact(x).text;
      expect(redact(once).text).toBe(once);
      expect(redact(once).findings).toEqual([]);
    }
  });

  it('placeholders are not secrets', () => {
    const text = '[REDACTED:github-token] [REDACTED:email] token=[REDACTED:secret-assignment] Bearer [REDACTED:jwt]';
    expect(findSecrets(text)).toEqual([]);
    expect(redact(text).text).toBe(text);
  });

  it('clean texts come back unchanged (home paths aside)', () => {
    for (const [kind, texts] of Object.entries(NEGATIVES)) {
      if (kind === 'home-path' || kind === 'user-name' || kind === 'high-entropy-assignment') continue;
      for (const t of texts) expect(redact(t).text).toBe(t);
    }
  });
});

describe('placeholders', () => {
  it('names the kind', () => {
    expect(redact(`token ${SECRETS.ghp}`).text).toBe('token [REDACTED:github-token]');
    expect(redact('write to marco.rossi@gmail.com').text).toBe('write to [REDACTED:email]');
    expect(redact(`Authorization: Bearer ${SECRETS.bearer}`).text).toBe('Authorization: Bearer [REDACTED:bearer-header]');
    expect(redact(`postgres://app:${SECRETS.urlPassword}@db/app`).text).toBe('postgres://app:[REDACTED:url-password]@db/app');
    expect(redact(`git push https://x-access-token:${SECRETS.ghs}@github.com/acme/shop.git`).text).toBe(
      'git push https://x-access-token:[REDACTED:github-token]@github.com/acme/shop.git',
    );
  });

  it('keeps JSON escapes next to a redacted value intact', () => {
    const line = JSON.stringify({ text: `a\nmarco.rossi@gmail.com\n${SECRETS.npm}\tok` });
    const out = redact(line).text;
    expect(JSON.parse(out)).toEqual({ text: 'a\n[REDACTED:email]\n[REDACTED:npm-token]\tok' });
  });
});

describe('home paths and user names', () => {
  it('rewrites home paths to ~ and removes the user name everywhere', () => {
    const r = redact('cd /home/marco/app && echo "hi marco" # Marco, marco_dev, marcopolo');
    expect(r.text).toBe('cd ~/app && echo "hi [REDACTED:user-name]" # [REDACTED:user-name], [REDACTED:user-name]_dev, marcopolo');
    expect(r.findings.map((f) => f.kind)).toEqual(['home-path', 'user-name', 'user-name', 'user-name']);
  });

  it('handles macOS, Windows, WSL and JSON-escaped Windows paths', () => {
    expect(redact('/Users/jdoe/Library/Caches').text).toBe('~/Library/Caches');
    expect(redact('C:\\Users\\jdoe\\src\\app').text).toBe('~\\src\\app');
    expect(redact('C:/Users/jdoe/src').text).toBe('~/src');
    expect(redact('"C:\\\\Users\\\\jdoe\\\\src"').text).toBe('"~\\\\src"');
    expect(redact('/mnt/c/Users/jdoe/src').text).toBe('~/src');
    // Git Bash (MSYS) names the drive `/c`: its home is a home too, not `/c~`
    expect(redact('rm "/c/Users/jdoe/.claude/skills/files/a.md"').text).toBe('rm "~/.claude/skills/files/a.md"');
    expect(redact('/x/y/Users/jdoe/src').text).toBe('/x/y/Users/jdoe/src');
    expect(redact('C:\\Users\\Jane Q Doe\\Desktop').text).toBe('~\\Desktop');
  });

  it('rewrites generic accounts without reporting them or removing the word', () => {
    const r = redact('cd /home/runner/work/app; the runner is ubuntu-latest; /home/ubuntu/x');
    expect(r.text).toBe('cd ~/work/app; the runner is ubuntu-latest; ~/x');
    expect(r.findings).toEqual([]);
    expect(findSecrets('cd /home/runner/work/app')).toEqual([]);
  });

  it('takes extra user names from options', () => {
    const r = redact('priya reviewed it; see branch priya/fix-login', { users: ['priya'] });
    expect(r.text).toBe('[REDACTED:user-name] reviewed it; see branch [REDACTED:user-name]/fix-login');
  });

  it('does not turn one-letter accounts into word removals', () => {
    expect(redact('/home/u/app: u is a variable').text).toBe('~/app: u is a variable');
  });

  it('leaves /Users/Shared alone', () => {
    expect(redact('/Users/Shared/data').text).toBe('/Users/Shared/data');
  });
});
