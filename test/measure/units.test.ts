import { describe, expect, it } from 'vitest';
import { isRecognisable, normalizeErrorLine, pitfallSignatureText, signatureOf, signaturesInOutput } from '../../src/measure/signature.js';
import { keyTerms } from '../../src/measure/terms.js';
import { costFromLedgerText } from '../../src/measure/ledger-cost.js';
import { parseDateFlag } from '../../src/measure/time.js';
import { cost } from '../../src/measure/metrics/cost.js';
import { buildData } from '../../src/measure/data.js';
import { isCompoundError } from '../../src/core/errors.js';

describe('error signatures', () => {
  it('normalise paths, ids, numbers and quoted values, so the same error matches across sessions', () => {
    const a = normalizeErrorLine('Error: ENOENT: no such file or directory, open \'/home/alice/src/app/config.json\'');
    const b = normalizeErrorLine('Error: ENOENT: no such file or directory, open \'/Users/bob/work/app/other.json\'');
    expect(a).toBe(b);
    expect(normalizeErrorLine('stderr: fatal: not a git repository (or any of the parent directories): .git')).toBe('fatal: not a git repository (or any of the parent directories): .git');
    expect(normalizeErrorLine('commit 3f9a2b1c0d failed at line 42')).toBe('commit <id> failed at line <n>');
  });

  it('a harvester quote clipped with an ellipsis matches the full line', () => {
    const full = 'TypeError: Cannot read properties of undefined (reading \'map\') in the invoice list renderer component of the dashboard page';
    expect(signatureOf(`${full.slice(0, 90)}…`)).toBe(signatureOf(full));
  });

  it('generic lines are not signatures', () => {
    for (const line of ['Exit code 1', 'error', 'Command failed', 'FAILED', 'at Object.<anonymous> (x.js:1:2)']) expect(isRecognisable(normalizeErrorLine(line))).toBe(false);
  });

  it('find every recognisable line of a failing output, and a line ending with ":" joined to the next', () => {
    const out = signaturesInOutput('Exit code 1\nThe following paths are ignored by one of your .gitignore files:\ndist\nhint: use -f');
    expect(out.has(signatureOf('The following paths are ignored by one of your .gitignore files: dist')!)).toBe(true);
    expect(out.has(signatureOf('The following paths are ignored by one of your .gitignore files:')!)).toBe(true);
    expect(out.size).toBe(2);
  });

  it("a pitfall's signature is its first error-looking evidence quote, else the error in its text", () => {
    const evidence = '## Evidence\n\n- session `s1` (codex), event 4\n- `ModuleNotFoundError: No module named \'requests\'`\n- `pip install requests`';
    expect(pitfallSignatureText('Running `python app.py` fails.', evidence)).toBe('modulenotfounderror: no module named <s>');
    expect(pitfallSignatureText('`cargo build` fails with `error[E0433]: failed to resolve: use of undeclared crate`.', '')).toBe('error[e<n>]: failed to resolve: use of undeclared crate');
    expect(pitfallSignatureText('Always run `make fmt` first.', '')).toBeUndefined();
  });
});

describe('key terms', () => {
  it('take code spans, commands, paths, identifiers, flags, scripts and quoted errors; lowercased', () => {
    expect(keyTerms('Reset the test DB', 'Integration tests need an empty schema: run `npm run db:reset` before `npm run test:int`; the URL is in config/test.env as DATABASE_URL, pass --runInBand to jest and see "relation already exists".')).toEqual([
      '--runinband',
      'config/test.env',
      'database_url',
      'db:reset',
      'npm run db:reset',
      'npm run test:int',
      'relation already exists',
      'runinband',
      'test.env',
      'test:int',
    ]);
  });

  it('ignore plain prose', () => {
    expect(keyTerms('Be careful', 'The tests are slow when the machine is busy.')).toEqual([]);
  });
});

describe('cost', () => {
  it('sums tokens and money from ledger session records when the harvest recorded them', () => {
    const ledger = JSON.stringify({ version: 1, sessions: [{ id: 'a', tokens: 1200, cost_usd: 0.012 }, { id: 'b', tokens: 800 }, { id: 'c' }], emitted: ['0000000001', '0000000002', '0000000003', '0000000004'] });
    const record = costFromLedgerText(ledger);
    expect(record).toEqual({ sessions: 2, tokens: 2000, usd: 0.012 });
    const data = buildData({ items: [], sessions: [], emitted: ['0000000001', '0000000002', '0000000003', '0000000004'], history: { available: false, commits: 0, deletions: [] }, cost: record });
    const m = cost(data);
    expect(m.value).toBe(500);
    expect(m.counts).toMatchObject({ tokens_per_item: 500, usd_per_item: 0.003, ledger_sessions_with_cost: 2 });
    expect(m.display).toBe('500 tokens and $0.0030 per item');
  });

  it('a ledger without cost fields or that cannot be parsed records nothing', () => {
    expect(costFromLedgerText('{"version":1,"sessions":[{"id":"a"}],"emitted":[]}')).toEqual({ sessions: 0 });
    expect(costFromLedgerText('{')).toEqual({ sessions: 0 });
  });
});

describe('date flags', () => {
  it('a bare --as-of date is the end of that day, a bare --since date its start', () => {
    expect(new Date(parseDateFlag('2026-05-11', '--as-of')).toISOString()).toBe('2026-05-11T23:59:59.999Z');
    expect(new Date(parseDateFlag('2026-05-11', '--since')).toISOString()).toBe('2026-05-11T00:00:00.000Z');
    expect(new Date(parseDateFlag('2026-05-11T10:00:00+02:00', '--as-of')).toISOString()).toBe('2026-05-11T08:00:00.000Z');
  });

  it('anything else is a usage error', () => {
    for (const bad of ['yesterday', '11/05/2026', '2026-13-45']) {
      try {
        parseDateFlag(bad, '--as-of');
        expect.unreachable();
      } catch (err) {
        expect(isCompoundError(err) && err.code).toBe('E_USAGE');
      }
    }
  });
});
