/**
 * The real transcripts in ../shared/transcripts hold no credentials (one was redacted by its
 * author), so every `secret` finding there would be a false positive. Skipped when absent.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findSecrets, redact } from '../../src/redact/index.js';

const ROOT = fileURLToPath(new URL('../../../shared/transcripts', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.(jsonl|json|md)$/.test(name) && !/^(FORMATS|MANIFEST)\.md$/.test(name) ? [p] : [];
  });
}

const files = existsSync(ROOT) ? walk(ROOT) : [];

describe.skipIf(files.length === 0)('real transcripts', () => {
  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))('%s: no secret findings', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const secrets = findSecrets(text).filter((f) => f.category === 'secret');
    expect(secrets.map((f) => `${f.line}:${f.column} ${f.kind} ${text.slice(f.start, f.end).slice(0, 60)}`)).toEqual([]);
  });

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))('%s: redacted copy parses, keeps no personal home path, is stable', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const out = redact(text).text;
    if (file.endsWith('.jsonl')) {
      for (const line of out.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    } else if (file.endsWith('.json')) {
      expect(() => JSON.parse(out)).not.toThrow();
    }
    expect(out).not.toMatch(/\/(?:home|Users)\/(?:marco|daniel|jerome|ambrosino|john)\b/);
    expect(redact(out).text).toBe(out);
  });
});
