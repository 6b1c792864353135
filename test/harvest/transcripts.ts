/** Writes small Claude Code JSONL transcripts for tests (shape as in FORMATS.md), and a
 * minimal extractor for tests of the pipeline around extraction. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Candidate } from '../../src/harvest/candidate.js';
import { initStore } from '../../src/knowledge/init.js';
import { tempDir } from '../helpers.js';
import type { Session } from '../../src/sessions/model.js';

/** Every failing tool result becomes a global pitfall named by its event. */
export function failureExtractor(session: Session): Candidate[] {
  return session.events
    .filter((e) => e.kind === 'tool_result' && e.isError)
    .map((e) => ({
      category: 'pitfall' as const,
      scope: 'global' as const,
      title: `failure at event ${e.index}`,
      text: `A command failed at event ${e.index} of a session.`,
      confidence: 0.7,
      tags: [],
      evidence: { event: e.index },
      quotes: [],
      rule: 'test',
    }));
}

export interface Turn {
  user?: string;
  bash?: { command: string; output: string; error?: boolean };
  say?: string;
}

export function claudeSession(opts: { id: string; cwd: string; start: string; turns: Turn[] }): string {
  const lines: string[] = [];
  let n = 0;
  let parent: string | null = null;
  const t0 = Date.parse(opts.start);
  const next = () => {
    n++;
    return { uuid: `${opts.id.slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`, timestamp: new Date(t0 + n * 1000).toISOString() };
  };
  const base = { isSidechain: false, userType: 'external', cwd: opts.cwd, sessionId: opts.id, version: '2.1.39', gitBranch: 'main' };
  const push = (rec: Record<string, unknown>) => {
    const { uuid, timestamp } = next();
    lines.push(JSON.stringify({ parentUuid: parent, ...base, ...rec, uuid, timestamp }));
    parent = uuid;
  };
  for (const turn of opts.turns) {
    if (turn.user) push({ type: 'user', message: { role: 'user', content: turn.user } });
    if (turn.bash) {
      const id = `toolu_${opts.id.slice(0, 6)}${n}`;
      push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${opts.id.slice(0, 6)}${n}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: turn.bash.command } }] } });
      push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: turn.bash.output, is_error: Boolean(turn.bash.error) }] } });
    }
    if (turn.say) push({ type: 'assistant', message: { model: 'claude-sonnet-4-5', id: `msg_${opts.id.slice(0, 6)}${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: turn.say }] } });
  }
  return `${lines.join('\n')}\n`;
}

/** A session in repo `shop` whose `npm run migrate` fails `failures` times (`extra` is appended
 * to each error output), then the model's diagnosis. */
export function failedMigration(id: string, start: string, options: { failures?: number; extra?: string } = {}): string {
  const output = `Exit code 1\nerror: relation "orders" already exists${options.extra ?? ''}`;
  return claudeSession({
    id,
    cwd: '/home/alice/src/shop',
    start,
    turns: [
      { user: 'run the migrations' },
      ...Array.from({ length: options.failures ?? 1 }, () => ({ bash: { command: 'npm run migrate', output, error: true } })),
      { say: 'The migration is not idempotent.' },
    ],
  });
}

/** An empty store, and the folder its test writes transcripts to. */
export function storeWithTranscripts(): { root: string; t: string } {
  const root = tempDir();
  initStore(root);
  const t = join(root, 'transcripts');
  mkdirSync(t);
  return { root, t };
}
