/**
 * bench/gen-corpus.mjs: same seed → byte-identical corpus; the files are the formats they claim
 * to be (the project's own detection and readers agree); the corpus has what benchmarks need
 * (subagents, progress lines, failures, bootstrap blocks).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFile } from '../../src/sessions/detect.js';
import type { SessionFormat } from '../../src/sessions/model.js';

const ROOT = resolve(__dirname, '..', '..');
const GEN = join(ROOT, 'bench', 'gen-corpus.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'gen-corpus-'));

function gen(args: string[]): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [GEN, ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

function corpusHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of files(dir)) h.update(relative(dir, f).split(sep).join('/')).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

interface Manifest {
  bytes: number;
  files: number;
  sessions: number;
  subagentFiles: number;
  formats: Record<string, { sessions: number; files: number; bytes: number }>;
}

const A = join(tmp, 'a');
const B = join(tmp, 'b');
const C = join(tmp, 'c');
let manifest: Manifest;

beforeAll(() => {
  for (const [dir, args] of [
    [A, ['--small', '--seed', '1']],
    [B, ['--small', '--seed', '1']],
    [C, ['--sessions', '30', '--bytes', '1M', '--seed', '2']],
  ] as const) {
    const r = gen(['--out', dir, '--quiet', ...args]);
    if (r.code !== 0) throw new Error(`gen-corpus failed: ${r.stderr}`);
  }
  manifest = JSON.parse(readFileSync(join(A, 'manifest.json'), 'utf8')) as Manifest;
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('gen-corpus', () => {
  it('is byte-identical for the same seed and differs for another', () => {
    expect(corpusHash(A)).toBe(corpusHash(B));
    expect(corpusHash(C)).not.toBe(corpusHash(A));
  });

  it('writes the manifest it promises', () => {
    const all = files(A).filter((f) => !f.endsWith('manifest.json'));
    expect(manifest.sessions).toBe(200);
    expect(manifest.files).toBe(all.length);
    expect(manifest.bytes).toBe(all.reduce((n, f) => n + statSync(f).size, 0));
    expect(Object.keys(manifest.formats).sort()).toEqual(['aider', 'claude-code', 'codex', 'gemini-cli', 'hermes', 'openai-chat']);
    // Roughly the requested 8 MiB (sessions overshoot their target by up to one turn).
    expect(manifest.bytes).toBeGreaterThan(6 * 1024 ** 2);
    expect(manifest.bytes).toBeLessThan(14 * 1024 ** 2);
  });

  it('every JSONL line and JSON file parses', () => {
    for (const f of files(A)) {
      const text = readFileSync(f, 'utf8');
      if (f.endsWith('.jsonl')) {
        for (const line of text.split('\n').filter(Boolean)) JSON.parse(line);
      } else if (f.endsWith('.json')) {
        JSON.parse(text);
      }
    }
  });

  it('has subagent files, progress lines, failures, fixes and bootstrap blocks', () => {
    const all = files(A);
    const subagents = all.filter((f) => /[\\/]subagents[\\/]agent-[0-9a-f]+\.jsonl$/.test(f));
    expect(subagents.length).toBeGreaterThan(0);
    const first = JSON.parse(readFileSync(subagents[0] as string, 'utf8').split('\n')[0] as string) as Record<string, unknown>;
    expect(first.isSidechain).toBe(true);
    expect(typeof first.agentId).toBe('string');

    const text = all.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(text).toContain('"type":"progress"');
    expect(text).toContain('"agent_progress"');
    expect(text).toContain('"is_error":true');
    expect(text).toMatch(/"exit_code":(1|2|101|124|126|127)\b/);
    expect(text).toContain('command not found');
    expect(text).toContain('Permission denied');
    expect(text).toMatch(/<!-- compound:bootstrap ids=[a-z0-9-]+(,[a-z0-9-]+)+ -->/);
    expect(text).toContain('<!-- /compound:bootstrap -->');
    expect(text).toContain('# aider chat started at');
  });

  it('spreads sessions over many repos and about 90 days', () => {
    const stamps = [...files(A).map((f) => readFileSync(f, 'utf8')).join('\n').matchAll(/"timestamp":"(\d{4}-\d\d-\d\d)T/g)].map((m) => m[1] as string);
    const days = new Set(stamps);
    expect(days.size).toBeGreaterThan(40);
    const sorted = [...days].sort();
    const span = (Date.parse(sorted[sorted.length - 1] as string) - Date.parse(sorted[0] as string)) / 86_400_000;
    expect(span).toBeGreaterThan(60);
    expect(span).toBeLessThanOrEqual(92);
    const repos = new Set(files(A).map((f) => /(?:src[-/])([a-z]+-[a-z]+)/.exec(f)?.[1]).filter(Boolean));
    expect(repos.size).toBeGreaterThan(10);
  });

  it('the project detects each file as the format of its directory', async () => {
    const expected: Record<string, SessionFormat> = {
      'claude-code': 'claude-code',
      codex: 'codex',
      'gemini-cli': 'gemini-cli',
      aider: 'aider',
      hermes: 'hermes',
      'openai-chat': 'openai-chat',
    };
    const wrong: string[] = [];
    for (const f of files(A)) {
      const top = relative(A, f).split(sep)[0] as string;
      if (!(top in expected)) continue;
      const d = await detectFile(f);
      if (!d.ok || d.reader.format !== expected[top]) wrong.push(`${relative(A, f)}: ${d.ok ? d.reader.format : d.message}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the project readers find prompts, tool calls and tool errors', async () => {
    const seen = new Map<string, { prompts: number; calls: number; errors: number }>();
    for (const f of files(A)) {
      const d = await detectFile(f);
      if (!d.ok) continue;
      const format = d.reader.format;
      const acc = seen.get(format) ?? { prompts: 0, calls: 0, errors: 0 };
      for (const s of await d.reader.read(f)) {
        for (const e of s.events) {
          if (e.kind === 'user' && !e.injected) acc.prompts++;
          if (e.kind === 'tool_call') acc.calls++;
          if (e.kind === 'tool_result' && e.isError) acc.errors++;
        }
      }
      seen.set(format, acc);
    }
    for (const [format, acc] of seen) {
      expect(acc.prompts, format).toBeGreaterThan(0);
      if (format !== 'aider') {
        expect(acc.calls, format).toBeGreaterThan(0);
        expect(acc.errors, format).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a non-empty output directory and bad arguments', () => {
    const dir = join(tmp, 'busy');
    gen(['--out', dir, '--sessions', '1', '--bytes', '10K', '--quiet']);
    writeFileSync(join(dir, 'extra.txt'), 'x');
    expect(gen(['--out', dir, '--sessions', '1', '--quiet']).code).toBe(1);
    expect(gen(['--sessions', '5']).code).toBe(2);
    expect(gen(['--out', join(tmp, 'x'), '--bytes', 'lots']).code).toBe(2);
  });
});
