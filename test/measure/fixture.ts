/**
 * A store and a set of Claude Code sessions written for the measurer's tests, with known
 * bootstrap blocks, known uses and known recurrences, so every metric has an exact value.
 *
 * Repo `shop`, pitfall P1 (first_seen 2026-03-05T10:00Z), error `relation "orders" already exists`:
 *   S1 03-01  migrate fails once, then succeeds                before, error
 *   S2 03-03  one clean call                                   before
 *   S3 03-08  given P1,F1; runs `npm run db:reset` (uses P1)   after, given P1, no error
 *   S4 03-09  given F1 only; runs `ls -la` (uses nothing)      after, not given P1
 *   S5 03-10  migrate fails twice, then succeeds               after, not given, error x2 (reinforces P1)
 *   S6 03-11  given P1; `npm run migrate` fails again          after, given, error (used, recurred)
 * Repo `blog`:
 *   S7 03-12  two clean calls, no items for this repo
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeItem } from '../../src/knowledge/codec.js';
import { initStore } from '../../src/knowledge/init.js';
import type { Item } from '../../src/knowledge/item.js';
import { renderLedger } from '../../src/knowledge/ledger.js';
import { itemPath, LEDGER_FILE } from '../../src/knowledge/paths.js';
import { bootstrapOpenMarker, BOOTSTRAP_CLOSE } from '../../src/sessions/bootstrap-markers.js';
import { claudeSession, type Turn } from '../harvest/transcripts.js';
import { makeItem } from '../helpers.js';

export const ID = {
  P1: 'aaaaaaaaa1',
  F1: 'bbbbbbbbb1',
  Q1: 'ccccccccc1',
  A1: 'ddddddddd1',
  O1: 'eeeeeeeee1',
  rejected: 'fffffffff1',
} as const;

export const SID = {
  S1: '11111111-0000-4000-8000-000000000001',
  S2: '22222222-0000-4000-8000-000000000002',
  S3: '33333333-0000-4000-8000-000000000003',
  S4: '44444444-0000-4000-8000-000000000004',
  S5: '55555555-0000-4000-8000-000000000005',
  S6: '66666666-0000-4000-8000-000000000006',
  S7: '77777777-0000-4000-8000-000000000007',
} as const;

const ERROR = 'error: relation "orders" already exists';
const FAIL_OUTPUT = `> shop@1.0.0 migrate\nExit code 1\n${ERROR}\n    at Migrator.run (src/db/migrate.ts:42:11)`;

export function writeItem(root: string, item: Item, title: string): string {
  const rel = itemPath(item.meta, title);
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), serializeItem({ ...item, meta: { ...item.meta, title } }));
  return rel;
}

export const P1_TEXT = `\`npm run migrate\` fails with \`${ERROR}\`. Cause: the test database keeps old tables. Fix: run \`npm run db:reset\` first.`;
export const F1_TEXT = 'Integration tests read `DATABASE_URL` from `config/test.env`.';

export function items(): { item: Item; title: string }[] {
  const src = (session: string, format = 'claude-code') => ({ session, format, event: 2, line: 3 });
  const p1 = makeItem(P1_TEXT, { id: ID.P1, category: 'pitfall', scope: 'repo', repo: 'shop', confidence: 0.9, evidence: 2, first_seen: '2026-03-05T10:00:00Z', last_seen: '2026-03-10T12:00:03Z', sources: [src(SID.S1), src(SID.S5)] });
  p1.body = `${P1_TEXT}\n\n## Evidence\n\n- session \`${SID.S1}\` (claude-code), event 2, line 3\n- \`${ERROR}\`\n- \`npm run db:reset\`\n`;
  return [
    { item: p1, title: 'npm run migrate fails: relation already exists' },
    { item: makeItem(F1_TEXT, { id: ID.F1, category: 'fact', scope: 'global', confidence: 0.7, first_seen: '2026-03-06T00:00:00Z', last_seen: '2026-03-06T00:00:00Z', sources: [src(SID.S2)] }), title: 'Integration tests read DATABASE_URL' },
    { item: makeItem('Why does `npm run seed` take 40 seconds?', { id: ID.Q1, category: 'question', scope: 'repo', repo: 'shop', confidence: 0.5, first_seen: '2026-03-06T00:00:00Z', last_seen: '2026-03-06T00:00:00Z', sources: [src(SID.S2)] }), title: 'Why is the seed slow' },
    { item: makeItem('The Read tool refuses files over 256 KB; read them with `offset` and `limit`.', { id: ID.A1, category: 'tool-quirk', scope: 'agent', agent: 'claude-code', confidence: 0.3, first_seen: '2026-02-01T00:00:00Z', last_seen: '2026-02-01T00:00:00Z', sources: [src('old-session')] }), title: 'Read refuses big files' },
    { item: makeItem('Run `make fmt` before committing.', { id: ID.O1, category: 'pattern', scope: 'global', confidence: 0.7, status: 'stale', first_seen: '2025-10-01T00:00:00Z', last_seen: '2025-10-01T00:00:00Z', sources: [src('codex-session', 'codex')] }), title: 'Format before committing' },
  ];
}

function block(ids: string[]): string {
  return `${bootstrapOpenMarker(ids)}\n## Project knowledge (compound)\n- ${P1_TEXT}\n- ${F1_TEXT}\n${BOOTSTRAP_CLOSE}`;
}

const fail: Turn = { bash: { command: 'npm run migrate', output: FAIL_OUTPUT, error: true } };
const ok = (command: string): Turn => ({ bash: { command, output: 'done' } });

export function sessions(): Record<string, string> {
  const shop = '/home/dev/src/shop';
  const s = (id: string, start: string, turns: Turn[], cwd = shop) => claudeSession({ id, cwd, start, turns });
  return {
    's1.jsonl': s(SID.S1, '2026-03-01T09:00:00Z', [{ user: 'run the migrations' }, fail, ok('npm run migrate -- --fresh')]),
    's2.jsonl': s(SID.S2, '2026-03-03T09:00:00Z', [{ user: 'list the files' }, ok('ls')]),
    's3.jsonl': s(SID.S3, '2026-03-08T09:00:00Z', [{ user: `${block([ID.P1, ID.F1])}\n\nadd a migration` }, ok('npm run db:reset'), { say: 'Reset done; migrating now.' }, ok('npm run migrate')]),
    's4.jsonl': s(SID.S4, '2026-03-09T09:00:00Z', [{ user: `${block([ID.F1])}\n\nwhat is here?` }, ok('ls -la'), { say: 'Three folders.' }]),
    's5.jsonl': s(SID.S5, '2026-03-10T12:00:00Z', [{ user: 'migrate please' }, fail, fail, ok('npm run migrate -- --fresh')]),
    's6.jsonl': s(SID.S6, '2026-03-11T09:00:00Z', [{ user: `${block([ID.P1])}\n\nmigrate` }, fail]),
    's7.jsonl': s(SID.S7, '2026-03-12T09:00:00Z', [{ user: 'build the blog' }, ok('hugo'), ok('hugo server')], '/home/dev/src/blog'),
  };
}

/** A store with the fixture items and ledger, and the transcripts in `<root>/transcripts`. */
export function writeFixture(root: string): { transcripts: string } {
  initStore(root);
  for (const { item, title } of items()) writeItem(root, item, title);
  writeFileSync(join(root, LEDGER_FILE), renderLedger({ version: 1, sessions: [], emitted: [ID.P1, ID.F1, ID.Q1, ID.A1, ID.O1, ID.rejected] }));
  const transcripts = join(root, 'transcripts');
  mkdirSync(transcripts, { recursive: true });
  for (const [name, text] of Object.entries(sessions())) writeFileSync(join(transcripts, name), text);
  return { transcripts };
}
