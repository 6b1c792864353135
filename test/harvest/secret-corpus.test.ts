/**
 * The planted-secret corpus (issue 32): every kind of secret and personal value the detector
 * knows, planted in every place of a session (prompt, command, error output, assistant text,
 * file path, user correction, successful output), in every transcript format the harvester reads, written
 * here from a seed. After capture, harvest (with --commit and --pr-body), list, show, bootstrap, measure
 * and check, no value and no 10-character fragment of one may be in any file of the store, any
 * git object, or any output; and `check` on a store that already holds a secret names it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { GIT_ENV, runCli, tempDir } from '../helpers.js';
import { prng } from '../prng.js';
import { FORMATS, writeSession, type Turn } from '../sessions/write-formats.js';

const rnd = prng(3232);
function randomOf(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
/** A body with the mix real tokens have (generated, so no scanner flags this file). */
const token = (n: number) => `${randomOf(ALNUM, n - 3)}Zq7`;

/** value: what must never come out; text: how a session says it. */
interface Plant {
  kind: string;
  value: string;
  text: string;
}

function plants(): Plant[] {
  const gh = `ghp_${token(36)}`;
  const ant = `sk-ant-api03-${token(80)}`;
  const akia = `AKIA${randomOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
  const awsSecret = `${randomOf(ALNUM, 17)}/${randomOf(ALNUM, 17)}+Zq7A`; // 40 characters
  const jwt = ['eyJhbGciOiJIUzI1NiJ9', `eyJ${token(40)}`, token(43)].join('.');
  const mysql = `My${token(12)}9`;
  const ssh = `Ss${token(10)}!`;
  const pg = `Pg${token(12)}`;
  const prose = `Horse-${token(8)}-42`;
  const urlPw = `pa#ss${token(8)}`;
  const kube = `ey${token(30)}`;
  const sid = `AC${randomOf(HEX, 32)}`;
  const twilioToken = randomOf(HEX, 32);
  const gcp = randomOf(HEX, 40);
  const bearer = token(32);
  const pem = Array.from({ length: 4 }, () => randomOf(ALNUM + '+/', 64)).join('\n');
  const b64 = (n: number) => randomOf(ALNUM + '-_', n - 3) + 'Zq7';
  const provider = (kind: string, value: string, say = (v: string) => `${kind.toUpperCase().replace(/-/g, '_')}=${v}`): Plant => ({ kind, value, text: say(value) });
  const providers: Plant[] = [
    provider('gitlab-token', `glpat-${token(20)}`),
    provider('openai-key', `sk-proj-${token(48)}`),
    provider('slack-token', `xoxb-${randomOf('0123456789', 11)}-${randomOf('0123456789', 12)}-${token(24)}`),
    provider('stripe-key', `sk_live_${token(40)}`),
    provider('google-api-key', `AIza${b64(35)}`),
    provider('google-oauth-secret', `GOCSPX-${b64(28)}`),
    provider('npm-token', `npm_${token(36)}`, (v) => `//registry.npmjs.org/:_authToken=${v}`),
    provider('pypi-token', `pypi-AgEIcHlwaS5vcmc${b64(60)}`, (v) => `twine upload -p ${v} dist/*`),
    provider('huggingface-token', `hf_${token(34)}`),
    provider('sendgrid-key', `SG.${b64(22)}.${b64(43)}`),
    provider('groq-key', `gsk_${token(52)}`),
    provider('xai-key', `xai-${token(80)}`),
    provider('replicate-token', `r8_${token(37)}`),
    provider('perplexity-key', `pplx-${token(48)}`),
    provider('digitalocean-token', `dop_v1_${randomOf(HEX, 61)}a9f`),
    provider('shopify-token', `shpat_${randomOf(HEX, 29)}a9f`),
    provider('webhook-url', `${token(9)}/${token(11)}/${token(24)}`, (v) => `curl -X POST https://hooks.slack.com/services/${v} -d '{}'`),
  ];
  const connPw = `Cs${token(14)}`;
  const assigned = `As${token(18)}`;
  const entropic = token(40);
  const cliPw = `Cl${token(12)}`;
  return [
    ...providers,
    { kind: 'private-key-block', value: pem.split('\n')[1]!, text: `-----BEGIN RSA PRIVATE KEY-----\n${pem}\n-----END RSA PRIVATE KEY-----` },
    { kind: 'connection-string', value: connPw, text: `Server=db.internal;Database=shop;User Id=app;Password=${connPw};` },
    { kind: 'secret assignment', value: assigned, text: `DB_PASSWORD="${assigned}"` },
    { kind: 'high-entropy assignment', value: entropic, text: `signing_salt: ${entropic}` },
    { kind: '--password flag', value: cliPw, text: `psql --username app --password=${cliPw} shop` },
    { kind: 'github-token', value: gh, text: `export GITHUB_TOKEN=${gh}` },
    { kind: 'anthropic-key', value: ant, text: `ANTHROPIC_API_KEY=${ant}` },
    { kind: 'aws-access-key', value: akia, text: `aws_access_key_id=${akia}` },
    { kind: 'aws-secret-key (bare)', value: awsSecret, text: `the secret is stored as ${awsSecret} in the vault` },
    { kind: 'jwt', value: jwt.split('.')[2]!, text: `Authorization: Bearer ${jwt}` },
    { kind: 'mysql -p', value: mysql, text: `mysql -u root -p${mysql} shop` },
    { kind: 'sshpass', value: ssh, text: `sshpass -p '${ssh}' ssh deploy@10.0.0.5` },
    { kind: 'PGPASSWORD', value: pg, text: `PGPASSWORD='${pg}' psql -h db -U app` },
    { kind: 'password in prose', value: prose, text: `the password is ${prose} for staging` },
    { kind: '# in URL password', value: urlPw, text: `postgres://app:${urlPw}@db.internal:5432/app` },
    { kind: 'kubectl --token', value: kube, text: `kubectl --token=${kube} get pods` },
    { kind: 'twilio sid', value: sid, text: `twilio account ${sid}` },
    { kind: 'twilio auth token', value: twilioToken, text: `auth token ${twilioToken}` },
    { kind: 'gcp private_key_id', value: gcp, text: `"private_key_id": "${gcp}",` },
    { kind: 'bearer in prose', value: bearer, text: `use bearer token ${bearer} for the api` },
    { kind: 'payment card', value: '4539 1488 0343 6467', text: 'card 4539 1488 0343 6467 exp 12/29' },
    { kind: 'phone', value: '+1 (415) 555-0134', text: 'call +1 (415) 555-0134 after deploys' },
    { kind: 'email', value: 'jane.roe@corp-mail.io', text: 'mail jane.roe@corp-mail.io' },
    { kind: 'windows user', value: 'Priyanka', text: 'C:\\Users\\Priyanka\\src\\shop\\app.js' },
    { kind: 'home user', value: 'zeldaq', text: '/home/zeldaq/src/shop/app.js' },
    { kind: 'git author name', value: 'Rosalind Quigley', text: 'commit 9a1b2c3\nAuthor: Rosalind Quigley <r.quigley@corp-mail.io>' },
    { kind: 'issue author login', value: 'rquigley-dev', text: 'state:\tOPEN\nauthor:\trquigley-dev\nlabels:\tbug' },
    { kind: 'prompt host name', value: 'rosalinds-workstation', text: 'rq@rosalinds-workstation:~/src/shop$ npm run deploy' },
  ];
}

/** One session per plant and place: the value said where such text appears in real sessions. */
function claudeTurns(p: Plant, place: string): Turn[] {
  const t = p.text;
  const base: Turn[] = [{ user: place === 'prompt' ? `deploy the shop (${t})` : 'deploy the shop' }];
  // a path keeps the text whole (quoted, spaces and all): a value known only by its context
  // (`sshpass -p …`) is a secret in a file name only with that context
  const cmd = place === 'command' ? `deploy.sh --note "${t}"` : place === 'path' ? `cat "${t.includes('/') || t.includes('\\') ? t : `/srv/shop/notes/${t}.txt`}"` : 'npm run deploy';
  base.push({ bash: cmd, output: place === 'error' ? `Error: deploy failed: ${t}\n    at deploy (deploy.js:10:3)` : 'Error: deploy failed: missing DEPLOY_ENV', error: true });
  base.push({ assistant: place === 'assistant' ? `The deploy needs DEPLOY_ENV; note ${t}.` : 'The deploy needs DEPLOY_ENV set; setting it.' });
  if (place === 'correction') base.push({ user: `no, that is wrong: always set DEPLOY_ENV=staging first (${t})` });
  base.push({ bash: 'DEPLOY_ENV=staging npm run deploy', output: place === 'success' ? `deployed ok (${t})` : 'deployed ok' });
  base.push({ assistant: 'Deployed to staging.' });
  return base;
}

const PLACES = ['prompt', 'command', 'error', 'assistant', 'path', 'correction', 'success'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/** Every text the store holds: its files as written, and every git object inflated. */
function storeTexts(root: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const f of filesUnder(root)) {
    const raw = readFileSync(f);
    if (f.includes(`${join('.git', 'objects')}`) && !f.endsWith('.idx') && !f.endsWith('.pack')) {
      try {
        out.push({ name: f, text: inflateSync(raw).toString('utf8') });
        continue;
      } catch {
        /* not a loose object */
      }
    }
    out.push({ name: f, text: raw.toString('utf8') });
  }
  return out;
}

/** The value and every 10-character fragment of it (all of a shorter value). */
function needles(value: string): string[] {
  if (value.length <= 10) return [value];
  const out = new Set<string>();
  for (let i = 0; i + 10 <= value.length; i++) out.add(value.slice(i, i + 10));
  return [...out];
}

describe('the planted-secret corpus', () => {
  it('leaves no value and no 10-character fragment anywhere the harvest writes or prints', () => {
    const all = plants();
    const dir = tempDir('compound-corpus-');
    let n = 0;
    for (const format of FORMATS) {
      for (const p of all) for (const place of PLACES) writeSession(format, join(dir, format), ++n, '/srv/src/shop', claudeTurns(p, place));
    }
    const root = tempDir('compound-corpus-store-');
    const outputs: string[] = [];
    const run = (args: string[], env: Record<string, string> = {}) => {
      const r = runCli(args, { cwd: root, env: { ...GIT_ENV, ...env } });
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    expect(run(['init']).code).toBe(0);
    const git = runCli(['harvest', '--help'], { cwd: root }); // (help text has no secrets; keeps the run list honest)
    outputs.push(git.stdout);
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    run(['harvest', dir, '--dry-run']); // the plan as people read it
    const inbox = tempDir('compound-corpus-inbox-');
    expect(run(['capture', dir, '--to', inbox, '--ledger', join(inbox, 'ledger.json'), '--json']).code).toBe(0);
    const h = run(['harvest', dir, '--commit', '--pr-body', 'pr.md', '--json', '--repo', 'shop']);
    expect(h.code, h.stderr).toBe(0);
    const written = (JSON.parse(h.stdout) as { counts: { add: number } }).counts.add;
    expect(written).toBeGreaterThan(5);
    run(['list', '--json']);
    run(['list']);
    for (const id of (JSON.parse(readFileSync(join(root, 'knowledge', 'index.json'), 'utf8')) as { items: { id: string }[] }).items.map((i) => i.id).slice(0, 5)) run(['show', id]);
    for (const format of ['markdown', 'json', 'claude-code']) run(['bootstrap', '--repo', 'shop', '--task', 'deploy the shop', '--format', format]);
    run(['measure', '--sessions', dir]);
    expect(run(['check']).code).toBe(0);

    // Every 10-character window of every text, looked up among the needles: one pass over the
    // store however many values were planted.
    const needleKind = new Map<string, string>();
    for (const p of all) for (const needle of needles(p.value)) needleKind.set(needle, p.kind);
    const short = all.filter((p) => p.value.length < 10);
    const leaks: string[] = [];
    const captured = filesUnder(inbox).map((f) => ({ name: f, text: readFileSync(f, 'utf8') }));
    expect(captured.length).toBeGreaterThan(1000);
    for (const t of [...storeTexts(root), ...captured, ...outputs.map((text, i) => ({ name: `output ${i}`, text }))]) {
      for (let i = 0; i + 10 <= t.text.length; i++) {
        const kind = needleKind.get(t.text.slice(i, i + 10));
        if (kind !== undefined) leaks.push(`${kind}: "${t.text.slice(i, i + 10)}" in ${t.name}`);
      }
      for (const p of short) if (t.text.includes(p.value)) leaks.push(`${p.kind}: "${p.value}" in ${t.name}`);
    }
    // The corpus reaches what it tests: placeholders of most kinds stand where values were.
    const placeholders = new Set(storeTexts(root).flatMap((t) => [...t.text.matchAll(/\[REDACTED:([a-z-]+)\]/g)].map((m) => m[1])));
    expect(placeholders.size, [...placeholders].join(' ')).toBeGreaterThanOrEqual(30);
    const kinds = [...new Set(leaks.map((l) => l.split(':')[0]))];
    expect(kinds, leaks.slice(0, 10).join('\n')).toEqual([]);
  }, 120_000);

  it('check names a secret a store already holds', () => {
    const root = tempDir();
    expect(runCli(['init'], { cwd: root }).code).toBe(0);
    const secret = `ghp_${token(36)}`;
    const dirPath = join(root, 'knowledge', 'global', 'fact');
    mkdirSync(dirPath, { recursive: true });
    writeFileSync(
      join(dirPath, 'token-1234567890.md'),
      `---\nid: '1234567890'\ncategory: fact\nscope: global\nconfidence: 0.7\nevidence: 1\nfirst_seen: 2026-01-01\nlast_seen: 2026-01-01\nstatus: active\ntags: []\nsources: []\n---\nThe CI token is ${secret}.\n`,
    );
    const r = runCli(['check'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/token-1234567890\.md:\d+: .*GitHub token/);
    expect(r.stdout + r.stderr).not.toContain(secret);
  });
});
