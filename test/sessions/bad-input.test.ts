import { describe, expect, it } from 'vitest';
import { accessSync, chmodSync, constants, mkdirSync, openSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionFile, readSessions } from '../../src/sessions/read.js';
import { tempDir } from './support.js';

const ENV = { isSidechain: false, userType: 'external', cwd: '/w/app', version: '2.1.9', gitBranch: 'main' };

/** A small, valid Claude Code session as JSONL lines. */
function ccLines(sessionId: string, prompts = 2): string[] {
  const out: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < prompts; i++) {
    const u = `${sessionId}-u${i}`;
    const a = `${sessionId}-a${i}`;
    out.push(JSON.stringify({ parentUuid: parent, ...ENV, sessionId, type: 'user', message: { role: 'user', content: `prompt ${i}` }, uuid: u, timestamp: `2026-01-05T10:0${i}:00.000Z` }));
    out.push(JSON.stringify({ parentUuid: u, ...ENV, sessionId, type: 'assistant', message: { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: `answer ${i}` }] }, uuid: a, timestamp: `2026-01-05T10:0${i}:05.000Z` }));
    parent = a;
  }
  return out;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

describe('bad input: every problem is a warning with file and line; the rest is read', () => {
  it('empty file: a warning, nothing read', async () => {
    const file = join(tempDir(), 'empty.jsonl');
    writeFileSync(file, '');
    const r = await readSessionFile(file);
    expect(r.ok).toBe(false);
    expect(r.warnings).toEqual([{ file, message: 'empty file' }]);
  });

  it('truncated last line: reported with its line number, the session is read', async () => {
    const file = join(tempDir(), 'cut.jsonl');
    const lines = ccLines('s-cut', 3);
    writeFileSync(file, lines.slice(0, 5).join('\n') + '\n' + lines[5]!.slice(0, 40));
    const r = await readSessionFile(file);
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => [w.file, w.line])).toEqual([[file, 6]]);
    expect(r.sessions[0]!.events).toHaveLength(5);
  });

  it('an invalid JSON line in the middle: skipped with a warning, lines after it are read', async () => {
    const file = join(tempDir(), 'middle.jsonl');
    const lines = ccLines('s-mid', 3);
    lines.splice(2, 0, '{"type":"user", this is not json');
    writeFileSync(file, lines.join('\n') + '\n');
    const r = await readSessionFile(file);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file, line: 3 });
    expect(r.sessions[0]!.events.map((e) => e.source.line)).toEqual([1, 2, 4, 5, 6, 7]);
  });

  it('invalid UTF-8: replaced, reported with the line, the line is still used', async () => {
    const file = join(tempDir(), 'latin1.jsonl');
    const lines = ccLines('s-utf', 1);
    const bad = Buffer.concat([Buffer.from(lines[0]!.replace('prompt 0', 'caf')), Buffer.from('\n')]);
    // put a lone 0xE9 (latin-1 é) inside the prompt text
    const at = bad.indexOf('caf') + 3;
    const withByte = Buffer.concat([bad.subarray(0, at), Buffer.from([0xe9]), bad.subarray(at)]);
    writeFileSync(file, Buffer.concat([withByte, Buffer.from(lines[1]! + '\n')]));
    const r = await readSessionFile(file);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file, line: 1 });
    expect(r.warnings[0]!.message).toMatch(/UTF-8/);
    const first = r.sessions[0]!.events[0]!;
    expect(first.kind === 'user' && first.text).toBe('caf\uFFFD');
  });

  it('binary file: reported as binary, not guessed', async () => {
    const file = join(tempDir(), 'image.jsonl');
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const r = await readSessionFile(file);
    expect(r.ok).toBe(false);
    expect(r.warnings[0]!.message).toMatch(/binary/);
  });

  it('unknown format: reported with the file name, never guessed', async () => {
    const file = join(tempDir(), 'notes.md');
    writeFileSync(file, '# Shopping\n\n- milk\n- bread\n');
    const r = await readSessionFile(file);
    expect(r.ok).toBe(false);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file });
    expect(r.warnings[0]!.message).toMatch(/unknown transcript format/);
  });

  it("a stream an agent printed while it ran: named, with where that agent's session file is", async () => {
    const file = join(tempDir(), 'transcript.jsonl');
    const init = { type: 'system', subtype: 'init', cwd: '/w/app', session_id: '52cf1459-bf30-4702-a4ee-9d5bded5eb96', tools: ['Bash', 'Read'], model: 'claude-sonnet-4-6' };
    const reply = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, session_id: init.session_id };
    const result = { type: 'result', subtype: 'success', result: 'Done.', session_id: init.session_id, total_cost_usd: 0.31 };
    writeFileSync(file, [init, reply, result].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await readSessionFile(file);
    expect(r.ok).toBe(false);
    expect(r.warnings[0]).toMatchObject({ file });
    expect(r.warnings[0]!.message).toBe('output of `claude -p --output-format stream-json`, not a session file: harvest the session Claude Code wrote under ~/.claude/projects/<folder>/<session id>.jsonl');
    const exec = join(tempDir(), 'exec.jsonl');
    writeFileSync(exec, ['{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}', '{"type":"turn.started"}', '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Done."}}'].join('\n') + '\n');
    const e = await readSessionFile(exec);
    expect(e.ok).toBe(false);
    expect(e.warnings[0]!.message).toBe('output of `codex exec --json`, not a session file: harvest the rollout Codex wrote under ~/.codex/sessions/YYYY/MM/DD/');
  });

  it('unreadable file (chmod 000): a warning, not a crash', async () => {
    const file = join(tempDir(), 'secret.jsonl');
    writeFileSync(file, ccLines('s-perm').join('\n') + '\n');
    chmodSync(file, 0o000);
    let readable = false;
    try {
      accessSync(file, constants.R_OK);
      readable = true; // root ignores the mode bits
    } catch {
      readable = false;
    }
    const r = await readSessionFile(file);
    chmodSync(file, 0o644);
    if (readable) {
      // running as root: the mode bits do not apply, so there is nothing to assert about failure
      expect(isRoot()).toBe(true);
      expect(r.ok).toBe(true);
      return;
    }
    expect(r.ok).toBe(false);
    expect(r.warnings).toEqual([{ file, message: 'cannot read: permission denied' }]);
  });

  it('a 100 MB line is cut with a warning (default limit 16 MiB); the lines around it are read', async () => {
    const file = join(tempDir(), 'huge.jsonl');
    const lines = ccLines('s-huge', 2);
    const fd = openSync(file, 'w');
    writeSync(fd, lines.slice(0, 2).join('\n') + '\n');
    // a tool result holding 100 MB of output, on one line
    const head = JSON.stringify({ parentUuid: 's-huge-a0', ...ENV, sessionId: 's-huge', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'X' }] }, uuid: 'big', timestamp: '2026-01-05T10:00:09.000Z' });
    const [before, after] = head.split('"X"');
    writeSync(fd, `${before}"`);
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 100; i++) writeSync(fd, chunk);
    writeSync(fd, `"${after}\n`);
    writeSync(fd, lines.slice(2).join('\n') + '\n');
    closeSync(fd);

    const r = await readSessionFile(file);
    expect(r.ok).toBe(true);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file, line: 3 });
    expect(r.warnings[0]!.message).toMatch(/over the line-size limit/);
    expect(r.sessions[0]!.events.map((e) => e.source.line)).toEqual([1, 2, 4, 5]);
  }, 60_000);

  it('maxLineBytes is configurable', async () => {
    const file = join(tempDir(), 'long.jsonl');
    writeFileSync(file, ccLines('s-long', 2).join('\n') + '\n');
    const r = await readSessionFile(file, { maxLineBytes: 200 });
    // every line of this session is longer than 200 bytes: four line warnings, then "no session"
    expect(r.warnings.map((w) => w.line)).toEqual([1, 2, 3, 4, undefined]);
    expect(r.warnings[4]!.message).toMatch(/no session found/);
    expect(r.sessions).toHaveLength(0);
  });

  it('a directory of 2000 transcripts with a few bad ones: the rest is read, the summary counts', async () => {
    const dir = tempDir();
    for (let i = 0; i < 2000; i++) {
      const sub = join(dir, `p${String(i % 20).padStart(2, '0')}`);
      if (i < 20) mkdirSync(sub);
      writeFileSync(join(sub, `s${String(i).padStart(4, '0')}.jsonl`), ccLines(`s${i}`, 1).join('\n') + '\n');
    }
    writeFileSync(join(dir, 'p00', 'empty.jsonl'), '');
    writeFileSync(join(dir, 'p01', 'binary.jsonl'), Buffer.from([0, 1, 2, 3, 0, 255]));
    writeFileSync(join(dir, 'p02', 'broken.jsonl'), `${ccLines('broken', 2)[0]}\n{not json\n`);
    writeFileSync(join(dir, 'p03', 'README.txt'), 'not picked up by a directory walk');

    const seen: string[] = [];
    const r = await readSessions([dir], { onWarning: (w) => seen.push(`${w.file}:${w.line ?? ''}`) });
    expect(r.summary).toEqual({ files: 2003, filesRead: 2001, filesFailed: 2, sessions: 2001, warnings: 3 });
    expect(seen).toEqual([`${join(dir, 'p00', 'empty.jsonl')}:`, `${join(dir, 'p01', 'binary.jsonl')}:`, `${join(dir, 'p02', 'broken.jsonl')}:2`]);
    // sorted, so the same directory always gives the same order
    const files = r.sessions.map((s) => s.file);
    expect(files).toEqual([...files].sort());
  }, 60_000);
});
