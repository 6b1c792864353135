/**
 * The model-backed harvest end to end: the built CLI against a loopback server speaking the
 * provider's protocol, on small Claude Code transcripts written here. No network anywhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, runCli, tempDir } from '../../helpers.js';
import { eventWith, runCliAsync, startFakeModel, writeClaudeSession, type FakeModel, type Reply, type SeenRequest, type Turn } from './fake-model.js';

const KEY = ['test-key-', 'Zq81mT'].join('');
let server: FakeModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function storeWith(model: string): string {
  const root = tempDir('compound-model-');
  expect(runCli(['init'], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, 'compound.config.yaml'), `model:\n${model}`);
  return root;
}

function anthropicStore(url: string, extra = ''): string {
  return storeWith(`  provider: anthropic\n  name: claude-haiku-4-5\n  base_url: ${url}\n  timeout_seconds: 5\n${extra}`);
}

const PORT_TAKEN = '** (RuntimeError) could not start Bandit: eaddrinuse: address already in use 0.0.0.0:4000';

function portSession(dir: string, name: string, id: string): string {
  const turns: Turn[] = [
    { user: name === 'a' ? 'start the phoenix server please' : 'the dev server does not come up, can you check?' },
    { bash: 'mix phx.server', output: `Compiling 3 files (.ex)\n${PORT_TAKEN}`, error: true },
    { assistant: 'Port 4000 is held by a BEAM process left over from an earlier run; stopping it.' },
    { bash: 'lsof -ti:4000 | xargs kill', output: '' },
    { bash: 'mix phx.server', output: '[info] Running SpotterWeb.Endpoint with Bandit 1.5.0 at 127.0.0.1:4000 (http)' },
    { assistant: 'The server is running.' },
  ];
  return writeClaudeSession(join(dir, `${name}.jsonl`), id, '/srv/src/spotter', turns);
}

const SESSION_A = '5e1f0a2b-1111-4c3d-9e8f-000000000001';
const SESSION_B = '5e1f0a2b-2222-4c3d-9e8f-000000000002';

/** The item a careful model writes for a port session: the pitfall, quoting the error. */
function portItem(req: SeenRequest, quote = 'eaddrinuse: address already in use'): object {
  return {
    category: 'pitfall',
    scope: 'repo',
    title: '`mix phx.server` fails with eaddrinuse when port 4000 is still taken',
    knowledge: '`mix phx.server` fails with `eaddrinuse` when a BEAM process from an earlier run still holds port 4000; stop it with `lsof -ti:4000 | xargs kill` and start the server again.',
    confidence: 0.9,
    tags: ['phoenix', 'port'],
    evidence: [{ event: eventWith(req.user, 'eaddrinuse'), quote }],
  };
}

/** Answers like a model that reinforces a known item it sees in the request. */
function portAnswer(req: SeenRequest): Reply {
  const known = /^- ([0-9a-f]{10}) \[pitfall/m.exec(req.user);
  if (known) return { text: JSON.stringify([{ same_as: known[1], evidence: [{ event: eventWith(req.user, 'eaddrinuse'), quote: 'address already in use 0.0.0.0:4000' }] }]) };
  return { text: JSON.stringify([portItem(req)]) };
}

interface ItemFile {
  path: string;
  text: string;
}

function itemFiles(root: string): ItemFile[] {
  const dir = join(root, 'knowledge');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.md') && d.name !== 'README.md' && !d.parentPath.includes('.cache'))
    .map((d) => ({ path: join(d.parentPath, d.name), text: readFileSync(join(d.parentPath, d.name), 'utf8') }));
}

const env = { ANTHROPIC_API_KEY: KEY };

function jsonOf(stdout: string): { stats: Record<string, number>; model: Record<string, number>; counts: Record<string, number> } {
  return JSON.parse(stdout) as { stats: Record<string, number>; model: Record<string, number>; counts: Record<string, number> };
}

describe('model harvest: the anthropic provider end to end', () => {
  it('writes grounded items with the model and prompt in their sources, then a rerun sends nothing', async () => {
    server = await startFakeModel(portAnswer);
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir, '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const seen = server.requests[0]!;
    expect(seen.url).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe(KEY);
    expect(seen.system).toBe(readFileSync(join(PROJECT_ROOT, 'templates', 'harvest-prompt.md'), 'utf8'));
    expect(seen.user).toMatch(/^\[E\d+\] tool_result Bash \(error\): Compiling 3 files \(\.ex\)\n\*\* \(RuntimeError\)/m);
    const out = jsonOf(r.stdout);
    expect(out.model.kept).toBe(1);
    expect(out.model.sent).toBe(1);
    const items = itemFiles(root);
    expect(items).toHaveLength(1);
    expect(items[0]!.path).toContain(join('repos', 'spotter', 'pitfall'));
    expect(items[0]!.text).toMatch(/extractor: ["']?model:claude-haiku-4-5@[0-9a-f]{8}/);
    expect(items[0]!.text).toContain('eaddrinuse');
    // the ledger records what the session cost (the dashboard's cost metric reads it)
    const ledger = JSON.parse(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')) as { sessions: { tokens?: number; cost_usd?: number }[] };
    expect(ledger.sessions[0]!.tokens).toBeGreaterThan(0);
    expect(ledger.sessions[0]!.cost_usd).toBeGreaterThan(0);
    // ... and the dashboard shows it per item
    const measured = runCli(['measure', '--sessions', dir, '--json'], { cwd: root });
    expect(measured.code, measured.stderr).toBe(0);
    const cost = (JSON.parse(measured.stdout) as { metrics: { cost: { counts: { ledger_sessions_with_cost: number; usd: number } } } }).metrics.cost.counts;
    expect(cost.ledger_sessions_with_cost).toBe(1);
    expect(cost.usd).toBeGreaterThan(0);

    // the same transcript again: the ledger knows it, nothing is asked
    const again = await runCliAsync(['harvest', dir], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('two sessions with the same error give one item with evidence 2, in one run or in two', async () => {
    server = await startFakeModel(portAnswer);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    portSession(dir, 'b', SESSION_B);
    const together = anthropicStore(server.url);
    expect((await runCliAsync(['harvest', dir], { cwd: together, env })).code).toBe(0);
    const one = itemFiles(together);
    expect(one).toHaveLength(1);
    expect(one[0]!.text).toMatch(/^evidence: 2$/m);

    // one session a night: the second request lists the known item and the model reinforces it
    const apart = anthropicStore(server.url);
    const first = tempDir();
    const second = tempDir();
    portSession(first, 'a', SESSION_A);
    portSession(second, 'b', SESSION_B);
    expect((await runCliAsync(['harvest', first], { cwd: apart, env })).code).toBe(0);
    const before = server.requests.length;
    const r = await runCliAsync(['harvest', second, '--json'], { cwd: apart, env });
    expect(r.code, r.stderr).toBe(0);
    const asked = server.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.user).toMatch(/Known items of the team[^\n]*\n- [0-9a-f]{10} \[pitfall, repo spotter\]/);
    const items = itemFiles(apart);
    expect(items).toHaveLength(1);
    expect(items[0]!.text).toMatch(/^evidence: 2$/m);
    expect(jsonOf(r.stdout).counts.add).toBe(0);
  });

  it('drops an item whose quote is nowhere, keeps one quoting a neighbouring event and cites that event', async () => {
    server = await startFakeModel((req) => {
      const cited = eventWith(req.user, 'eaddrinuse');
      return {
        text: JSON.stringify([
          { ...portItem(req), title: 'made-up error', knowledge: 'An error the session never showed.', evidence: [{ event: cited, quote: 'segmentation fault in beam.smp' }] },
          // the quote is in the assistant's next message, one event after the cited result
          { category: 'fact', scope: 'repo', title: 'A leftover BEAM process can hold port 4000', knowledge: 'A BEAM process from an earlier run can keep holding port 4000 after its terminal closed.', confidence: 0.7, evidence: [{ event: cited, quote: 'held by a BEAM process left over from an earlier run' }] },
        ]),
      };
    });
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir, '--json', '--pr-body', join(root, 'pr.md')], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const out = jsonOf(r.stdout);
    expect(out.model.ungrounded).toBe(1);
    expect(out.model.kept).toBe(1);
    const items = itemFiles(root);
    expect(items).toHaveLength(1);
    expect(items[0]!.text).not.toContain('made-up');
    const cited = eventWith(server.requests[0]!.user, 'eaddrinuse');
    const holding = eventWith(server.requests[0]!.user, 'held by a BEAM process');
    expect(holding).toBe(cited + 1);
    expect(items[0]!.text).toMatch(new RegExp(`event: ${holding}, line: \\d+`));
    expect(readFileSync(join(root, 'pr.md'), 'utf8')).toMatch(/1 dropped as ungrounded/);
  });

  it('retries 429 (honouring retry-after) and 500, repairs a malformed answer, halves a cut-off one', async () => {
    let n = 0;
    server = await startFakeModel((req) => {
      n++;
      if (n === 1) return { status: 429, retryAfter: '0' };
      if (n === 2) return { status: 500 };
      if (n === 3) return { text: 'Here are the items: [{"category": "pitfall", "title": oops' };
      if (req.user.includes('Your answer was:')) return { text: '```json\n[]\n```' };
      return { text: '[]' };
    });
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir, '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(server.requests[3]!.user).toContain('Its problems:');
    expect(jsonOf(r.stdout).model.repairs).toBe(1);

    // an answer cut off by the output limit: the part is asked again as two halves
    let calls = 0;
    await server.close();
    server = await startFakeModel((req) => {
      calls++;
      return calls === 1 ? { text: '[{"category": "pitfall", "scope": "repo", "title": "cut', stop: 'max_tokens' } : { text: JSON.stringify(req.user.includes('eaddrinuse') ? [portItem(req)] : []) };
    });
    const root2 = anthropicStore(server.url);
    const r2 = await runCliAsync(['harvest', dir, '--json'], { cwd: root2, env });
    expect(r2.code, r2.stderr).toBe(0);
    expect(server.requests).toHaveLength(3);
    const [whole, h1, h2] = server.requests.map((q) => q.user.split('\n').filter((l) => /^\[E\d+\]/.test(l)).length);
    expect(h1! + h2!).toBeGreaterThanOrEqual(whole!);
    expect(Math.max(h1!, h2!)).toBeLessThan(whole!);
    expect(jsonOf(r2.stdout).model.split).toBe(1);
    expect(itemFiles(root2)).toHaveLength(1);
  });

  it('a failed request leaves the session pending (no ledger entry, no item); the next run harvests it', async () => {
    let fail = true;
    server = await startFakeModel((req) => (fail ? { status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}' } : portAnswer(req)));
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('left for the next run');
    expect(r.stderr).not.toContain(KEY);
    expect(itemFiles(root)).toHaveLength(0);
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).not.toContain(SESSION_A);
    fail = false;
    const again = await runCliAsync(['harvest', dir], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(itemFiles(root)).toHaveLength(1);
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).toContain(SESSION_A);
  });

  it('--dry-run and the cost cap send nothing; what the cap left is harvested next run', async () => {
    server = await startFakeModel(portAnswer);
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    portSession(dir, 'b', SESSION_B);
    const dry = await runCliAsync(['harvest', dir, '--dry-run'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/model: 2 request\(s\) for 2 session\(s\)/);
    expect(dry.stderr).toMatch(/estimated cost to send: \$0\.0\d+/);
    const capped = await runCliAsync(['harvest', dir, '--max-cost', '0'], { cwd: root, env });
    expect(capped.code, capped.stderr).toBe(0);
    expect(capped.stderr).toContain('the cost cap left 2 session(s) for the next run');
    expect(server.requests).toHaveLength(0);
    expect(itemFiles(root)).toHaveLength(0);
    const r = await runCliAsync(['harvest', dir], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(itemFiles(root)).toHaveLength(1);
  });

  it('redacts a secret the model repeats, and no request carries a planted secret, e-mail, home path or user name', async () => {
    const secret = ['ghp_', 'R8q2Lx7Vn4Kd9Tf3Wm6Hp1Zs5Jc0Gb8Ya2Ue'].join('');
    server = await startFakeModel((req) => ({ text: JSON.stringify([{ ...portItem(req), knowledge: `Stop the old server first (the token ${secret} is not needed).` }]) }));
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    expect((await runCliAsync(['harvest', dir], { cwd: root, env })).code).toBe(0);
    const items = itemFiles(root);
    expect(items).toHaveLength(1);
    expect(items[0]!.text).not.toContain(secret);
    expect(items[0]!.text).toContain('[REDACTED:');

    // the planted corpus (every bundled format, secrets in every error text) through the model
    await server.close();
    server = await startFakeModel(() => ({ text: '[]' }));
    const planted = anthropicStore(server.url);
    const transcripts = join(tempDir(), 'transcripts');
    cpSync(join(PROJECT_ROOT, 'test_sessions'), transcripts, { recursive: true });
    const SECRETS = [secret, ['AKIA', 'Z7Q2M4R8T3W6Y9B1'].join(''), 'Sup3rS3cretPw', ['jane.doe', '@', 'corp-mail.io'].join(''), '/home/zelda', 'zelda'];
    const PLANT = ` (token ${SECRETS[0]}, aws ${SECRETS[1]}, DATABASE_URL=postgres://admin:${SECRETS[2]}@db.internal:5432/app, contact ${SECRETS[3]}, in ${SECRETS[4]}/src/app)`;
    for (const d of readdirSync(transcripts, { recursive: true, withFileTypes: true })) {
      if (!d.isFile()) continue;
      const file = join(d.parentPath, d.name);
      const text = readFileSync(file, 'utf8');
      // into every JSON string value and markdown line that reads like an error or a prompt
      const planted = file.endsWith('.md') ? text.replace(/^(.*(?:error|fail|not found).*)$/gim, `$1${PLANT}`) : text.replace(/((?:error|fail|not found)[^"\\]*)"/gi, `$1${JSON.stringify(PLANT).slice(1, -1)}"`);
      writeFileSync(file, planted);
    }
    const r = await runCliAsync(['harvest', transcripts], { cwd: planted, env });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(10);
    const everything = server.requests.map((q) => q.raw).join('\n');
    expect(everything).toContain('[REDACTED:');
    for (const s of SECRETS) expect(everything, s).not.toContain(s);
  });

  it('round-trips the Batch API: --batch-out changes nothing, --batch-in completes the harvest', async () => {
    server = await startFakeModel(portAnswer); // never asked: batch answers come from the file
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    portSession(dir, 'b', SESSION_B);
    const out = await runCliAsync(['harvest', dir, '--batch-out', 'requests.jsonl'], { cwd: root, env });
    expect(out.code, out.stderr).toBe(0);
    const lines = readFileSync(join(root, 'requests.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; params: { model: string; system: { text: string }[]; messages: { content: string }[] } });
    expect(lines).toHaveLength(2);
    expect(lines[0]!.custom_id).toMatch(/^[0-9a-f]{32}$/);
    expect(lines[0]!.params.model).toBe('claude-haiku-4-5');
    expect(itemFiles(root)).toHaveLength(0);
    expect(readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8')).not.toContain(SESSION_A);

    // the provider answered only the first request; plus a result for a request never made
    const answer = (l: (typeof lines)[number]) => ({ custom_id: l.custom_id, result: { type: 'succeeded', message: { id: 'msg', type: 'message', role: 'assistant', content: [{ type: 'text', text: JSON.stringify([portItem({ user: l.params.messages[0]!.content } as SeenRequest)]) }], stop_reason: 'end_turn', usage: { input_tokens: 900, output_tokens: 120 } } } });
    const unknown = { ...answer(lines[0]!), custom_id: 'f'.repeat(32) };
    writeFileSync(join(root, 'results.jsonl'), `${[answer(lines[0]!), unknown].map((x) => JSON.stringify(x)).join('\n')}\n`);
    const first = await runCliAsync(['harvest', dir, '--batch-in', 'results.jsonl', '--json'], { cwd: root, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/results\.jsonl:2: 1 result\(s\) answer requests this harvest did not make/);
    expect(jsonOf(first.stdout).stats.sessionsPending).toBe(1);
    expect(itemFiles(root)).toHaveLength(1);
    expect(server.requests).toHaveLength(0);

    // the second answer arrives later: that harvest completes the other session
    writeFileSync(join(root, 'results2.jsonl'), `${JSON.stringify(answer(lines[1]!))}\n`);
    const second = await runCliAsync(['harvest', dir, '--batch-in', 'results2.jsonl', '--json'], { cwd: root, env });
    expect(second.code, second.stderr).toBe(0);
    expect(jsonOf(second.stdout).stats.sessionsPending).toBe(0);
    const items = itemFiles(root);
    expect(items).toHaveLength(1);
    expect(items[0]!.text).toMatch(/^evidence: 2$/m);
    const ledger = readFileSync(join(root, 'knowledge', 'ledger.json'), 'utf8');
    expect(ledger).toContain(SESSION_A);
    expect(ledger).toContain(SESSION_B);
  });

  it('a known item the model says is wrong is linked with the correction as conflicting', async () => {
    server = await startFakeModel((req) => {
      const known = /^- ([0-9a-f]{10}) \[pitfall/m.exec(req.user);
      if (!known) return portAnswer(req);
      return { text: JSON.stringify([{ ...portItem(req), title: 'Port 4000 is taken by a Docker container, not by a BEAM process', knowledge: 'On this machine port 4000 is held by a Docker container; `docker ps` shows it and `docker stop` frees the port.', contradicts: known[1] }]) };
    });
    const root = anthropicStore(server.url);
    const first = tempDir();
    const second = tempDir();
    portSession(first, 'a', SESSION_A);
    portSession(second, 'b', SESSION_B);
    expect((await runCliAsync(['harvest', first], { cwd: root, env })).code).toBe(0);
    const r = await runCliAsync(['harvest', second, '--pr-body', join(root, 'pr.md')], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const items = itemFiles(root);
    expect(items).toHaveLength(2);
    const ids = items.map((i) => /^id: ([0-9a-f]{10})$/m.exec(i.text)![1]!);
    expect(items[0]!.text).toContain(`conflicts_with: [${ids[1]}]`);
    expect(items[1]!.text).toContain(`conflicts_with: [${ids[0]}]`);
    expect(readFileSync(join(root, 'pr.md'), 'utf8')).toMatch(/### Conflicts to decide \(1\)/);
  });

  it('a session that grew sends only the parts with new events', async () => {
    server = await startFakeModel(() => ({ text: '[]' }));
    const root = anthropicStore(server.url, '  max_input_tokens: 2000\n');
    const dir = tempDir();
    const turns: Turn[] = [{ user: 'run every check of the billing service one by one' }];
    for (let i = 0; i < 60; i++) turns.push({ bash: `npm run check:${i}`, output: `check ${i} passed in ${i} ms, 0 warnings, 0 errors, nothing else to report here` });
    const file = writeClaudeSession(join(dir, 'long.jsonl'), SESSION_A, '/srv/src/billing', turns);
    expect((await runCliAsync(['harvest', dir], { cwd: root, env })).code).toBe(0);
    const first = server.requests.length;
    expect(first).toBeGreaterThan(3);
    const lastEvent = (user: string) => Math.max(...[...user.matchAll(/^\[E(\d+)\]/gm)].map((m) => Number(m[1])));
    const before = Math.max(...server.requests.map((q) => lastEvent(q.user)));
    // the same session, grown by a few more turns (the transcript is appended to)
    const more: Turn[] = [...turns, { bash: 'npm run check:final', output: 'final check failed: 1 error', error: true }, { assistant: 'The final check fails.' }];
    writeClaudeSession(file, SESSION_A, '/srv/src/billing', more);
    const r = await runCliAsync(['harvest', dir], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const asked = server.requests.slice(first);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThan(first);
    for (const q of asked) expect(lastEvent(q.user)).toBeGreaterThan(before);
  });

  it('names the missing key variable without sending anything', async () => {
    server = await startFakeModel(portAnswer);
    const root = anthropicStore(server.url);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir], { cwd: root, env: { ANTHROPIC_API_KEY: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(server.requests).toHaveLength(0);
  });
});

describe('model harvest: other providers', () => {
  it('the openai provider speaks Chat Completions to a compatible server', async () => {
    server = await startFakeModel(portAnswer);
    const root = storeWith(`  provider: openai\n  name: llama3.1\n  base_url: ${server.url}/v1\n  timeout_seconds: 5\n`);
    const dir = tempDir();
    portSession(dir, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', dir], { cwd: root, env: { OPENAI_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(itemFiles(root)).toHaveLength(1);
  });

  it('the command provider gets the system prompt, a blank line and the view on stdin', async () => {
    const dir = tempDir();
    const script = join(dir, 'model.cjs');
    writeFileSync(
      script,
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const sys=require('fs').readFileSync(${JSON.stringify(join(PROJECT_ROOT, 'templates', 'harvest-prompt.md'))},'utf8');if(!s.startsWith(sys+'\\n\\n'))process.exit(4);let n=-1;for(const l of s.split('\\n')){const m=/^\\[E(\\d+)\\]/.exec(l);if(m)n=Number(m[1]);if(l.includes('eaddrinuse'))break;}process.stdout.write(JSON.stringify({items:[{category:'pitfall',scope:'repo',title:'port 4000 taken',knowledge:'mix phx.server fails with eaddrinuse while an old BEAM holds port 4000.',confidence:0.7,evidence:[{event:n,quote:'eaddrinuse: address already in use'}]}]}));});`,
    );
    const root = storeWith(`  provider: command\n  command: node ${script}\n  timeout_seconds: 10\n`);
    const transcripts = tempDir();
    portSession(transcripts, 'a', SESSION_A);
    const r = await runCliAsync(['harvest', transcripts], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const items = itemFiles(root);
    expect(items).toHaveLength(1);
    expect(items[0]!.text).toMatch(/extractor: ["']?model:command@[0-9a-f]{8}/);
    expect(existsSync(join(root, 'knowledge', '.cache', 'model'))).toBe(true);
  });
});
