// Issue 31 figures for the model-backed harvest.
// (a) On ../shared/transcripts (skipped when absent): per transcript file, the requests a model
//     harvest would make (`harvest --extractor model --batch-out`, nothing sent), their input
//     tokens against the o200k tokens of the raw transcript file, and the estimated cost at the
//     default model's (claude-haiku-4-5) batch price, with the output estimated at 700 tokens
//     per request.
// (b) 50 sessions harvested against a loopback server that answers every request after 2 s, at
//     max_concurrency 4, against the ideal ceil(50 / 4) x 2 s = 26 s.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { mdTable } from './lib.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (!['FORMATS.md', 'MANIFEST.md', 'README.md'].includes(name)) out.push(p);
  }
  return out;
}

function freshStore(cli, config) {
  const store = mkdtempSync(join(tmpdir(), 'compound-model-bench-'));
  execFileSync(process.execPath, [cli, 'init', store], { stdio: 'ignore' });
  writeFileSync(join(store, 'compound.config.yaml'), config);
  return store;
}

async function sharedFigures(root, cli) {
  const transcripts = resolve(root, '..', 'shared', 'transcripts');
  if (!existsSync(transcripts)) return '_../shared/transcripts not found: (a) skipped._\n';
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const rows = [];
  const ratios = [];
  const perSession = { requests: [], cost: [] };
  let totalRaw = 0;
  let totalIn = 0;
  let totalCost = 0;
  let totalSessions = 0;
  for (const file of walk(transcripts)) {
    const store = freshStore(cli, 'model:\n  provider: anthropic\n  name: claude-haiku-4-5\n');
    try {
      const out = execFileSync(process.execPath, [cli, '-C', store, 'harvest', file, '--batch-out', join(store, 'requests.jsonl'), '--json'], { encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: 'bench' }, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
      const m = JSON.parse(out).model;
      const raw = countTokens(readFileSync(file, 'utf8'), { disallowedSpecial: new Set() });
      const asked = m.sessions - m.tooSmall;
      rows.push([relative(transcripts, file), String(m.sessions), String(m.requests), raw.toLocaleString('en-US'), m.inputTokens.toLocaleString('en-US'), `${((100 * m.inputTokens) / raw).toFixed(1)}%`, `$${m.estimatedCostUsd.toFixed(4)}`]);
      if (m.requests > 0) ratios.push(m.inputTokens / raw);
      for (let i = 0; i < asked; i++) {
        perSession.requests.push(m.requests / asked);
        perSession.cost.push(m.estimatedCostUsd / asked);
      }
      totalRaw += raw;
      totalIn += m.inputTokens;
      totalCost += m.estimatedCostUsd;
      totalSessions += asked;
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  }
  return [
    mdTable(['transcript', 'sessions', 'requests', 'raw tokens', 'input tokens', 'input / raw', 'est. batch cost'], rows),
    '',
    `Median input tokens sent per transcript against its raw tokens: **${(100 * median(ratios)).toFixed(1)}%** (aim: at most 20%); all transcripts: ${totalIn.toLocaleString('en-US')} of ${totalRaw.toLocaleString('en-US')} (${((100 * totalIn) / totalRaw).toFixed(1)}%).`,
    `Per session asked (${totalSessions}; sessions holding only prompts get no request): median **${median(perSession.requests).toFixed(2)}** request(s), median estimated cost **$${median(perSession.cost).toFixed(4)}**, mean $${(totalCost / totalSessions).toFixed(4)} at claude-haiku-4-5 batch prices ($0.50 / $2.50 per million input / output tokens; aim: under $0.02).`,
    '',
  ].join('\n');
}

function smallSession(dir, i) {
  const id = `7a7a${String(i).padStart(4, '0')}-1111-4c3d-9e8f-${String(i).padStart(12, '0')}`;
  const base = { isSidechain: false, userType: 'external', cwd: '/srv/src/bench-app', sessionId: id, version: '2.1.39', gitBranch: 'main' };
  const lines = [
    { ...base, parentUuid: null, type: 'user', uuid: `${id}-u1`, timestamp: '2026-03-04T16:40:00.000Z', message: { role: 'user', content: `run the tests for module ${i}` } },
    { ...base, parentUuid: `${id}-u1`, type: 'assistant', uuid: `${id}-a1`, timestamp: '2026-03-04T16:40:02.000Z', message: { role: 'assistant', type: 'message', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `npm test -- module-${i}` } }] } },
    { ...base, parentUuid: `${id}-a1`, type: 'user', uuid: `${id}-u2`, timestamp: '2026-03-04T16:40:04.000Z', message: { role: 'user', content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: `PASS test/module-${i}.test.ts (${i} tests)`, is_error: false }] } },
    { ...base, parentUuid: `${id}-u2`, type: 'assistant', uuid: `${id}-a2`, timestamp: '2026-03-04T16:40:06.000Z', message: { role: 'assistant', type: 'message', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `All ${i} tests of module ${i} pass.` }] } },
  ];
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

async function concurrencyFigure(cli) {
  const delay = 2000;
  let inFlight = 0;
  let most = 0;
  let served = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        served++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'msg', type: 'message', role: 'assistant', content: [{ type: 'text', text: '[]' }], stop_reason: 'end_turn', usage: { input_tokens: 2500, output_tokens: 2 } }));
      }, delay);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const dir = mkdtempSync(join(tmpdir(), 'compound-model-bench-sessions-'));
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 50; i++) smallSession(dir, i);
  const store = freshStore(cli, `model:\n  provider: anthropic\n  name: claude-haiku-4-5\n  base_url: ${url}\n  max_concurrency: 4\n`);
  const t0 = process.hrtime.bigint();
  const code = await new Promise((r) => spawn(process.execPath, [cli, '-C', store, 'harvest', dir], { env: { ...process.env, ANTHROPIC_API_KEY: 'bench', CI: '1' }, stdio: 'ignore' }).on('close', r));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
  const ideal = (Math.ceil(50 / 4) * delay) / 1000;
  return `50 sessions, one request each, answered after ${delay / 1000} s, max_concurrency 4 (exit ${code}): **${seconds.toFixed(1)} s** (aim: under 40 s) against the ideal ${ideal} s (${(seconds / ideal).toFixed(2)}x); ${served} requests served, at most ${most} at once.\n`;
}

export async function run({ root }) {
  const cli = join(root, 'dist', 'cli', 'main.js');
  const a = await sharedFigures(root, cli);
  const b = await concurrencyFigure(cli);
  return { title: 'Model harvest: tokens, cost, concurrency (issue 31)', markdown: `### (a) ../shared/transcripts, nothing sent\n\n${a}\n### (b) concurrency against a slow loopback server\n\n${b}` };
}
