import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readSessions } from '../../src/sessions/read.js';
import type { SessionEvent } from '../../src/sessions/model.js';
import { PROJECT_ROOT, SHARED } from '../helpers.js';

/**
 * Every event of a kind, and every session, carries the same keys in the same order, whichever
 * reader made it and whichever optional fields it has (absent ones are undefined): V8 then gives
 * them one hidden class, and the extractor's optimized code is not thrown away at each new
 * combination of keys (that cost the 1 GB harvest about a seventh of its time). A reader that adds a key to an
 * event of its own, or a helper that sets a key only when it has a value, fails here.
 */
function keyOrders(events: readonly SessionEvent[], into: Map<string, Set<string>>): void {
  for (const e of events) {
    let orders = into.get(e.kind);
    if (!orders) into.set(e.kind, (orders = new Set()));
    orders.add(Object.keys(e).join(','));
  }
}

/** Key orders of every event kind, and of the sessions themselves (as kind "session"). */
async function shapesOf(dir: string): Promise<Map<string, Set<string>>> {
  const { sessions } = await readSessions([dir]);
  const shapes = new Map<string, Set<string>>([['session', new Set()]]);
  for (const s of sessions) {
    shapes.get('session')!.add(Object.keys(s).join(','));
    keyOrders(s.events, shapes);
  }
  return shapes;
}

/** Text kinds share one layout; tool calls, tool results and bootstrap blocks have one each. */
const TEXT_KEYS = 'index,source,time,injected,sidechain,kind,text,model';

describe('event shapes', () => {
  it('test_sessions: one key order per event kind and for every session, text kinds all alike', async () => {
    const shapes = await shapesOf(join(PROJECT_ROOT, 'test_sessions'));
    // the bundled transcripts hold every kind but the rarest
    for (const kind of ['user', 'assistant', 'tool_call', 'tool_result', 'system', 'bootstrap']) expect(shapes.has(kind), kind).toBe(true);
    for (const [kind, orders] of shapes) expect([...orders], kind).toHaveLength(1);
    for (const kind of ['user', 'assistant', 'reasoning', 'summary', 'system']) {
      if (shapes.has(kind)) expect([...shapes.get(kind)!][0]).toBe(TEXT_KEYS);
    }
    expect([...shapes.get('session')!][0]).toBe(
      'id,format,agent,subagent,parentId,parentEditsAfter,aiderLaunches,repo,remoteRepo,cwd,cwdFromFile,branch,sandboxed,declaredShell,agentVersion,models,startedAt,endedAt,file,bytes,events,warnings',
    );
    expect([...shapes.get('tool_call')!][0]).toBe('index,source,time,injected,sidechain,callId,name,input,command,kind');
    expect([...shapes.get('tool_result')!][0]).toBe(
      'index,source,time,injected,sidechain,callId,name,output,isError,exitCode,cascade,rejected,truncated,endTime,kind',
    );
  });

  it.skipIf(!existsSync(join(SHARED, 'transcripts')))('../shared/transcripts: one key order per event kind', async () => {
    const shapes = await shapesOf(join(SHARED, 'transcripts'));
    expect(shapes.size).toBeGreaterThan(3);
    for (const [kind, orders] of shapes) expect([...orders], kind).toHaveLength(1);
  });
});
