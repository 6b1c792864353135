import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFromTranscriptPath, resolveRepo } from '../../src/harvest/repo-name.js';
import type { Session } from '../../src/sessions/model.js';
import { readSessions } from '../../src/sessions/read.js';
import { tempDir } from '../helpers.js';

describe('repo for sessions that record none', () => {
  it('takes the nearest folder that names a project, skipping agent containers and hashes', () => {
    expect(repoFromTranscriptPath('/data/exports/cursor-specstory/minsky/2025-04-29_20-13-x.md')).toBe('minsky');
    expect(repoFromTranscriptPath('/srv/shop/.specstory/history/2025-06-02.md')).toBe('shop');
    expect(repoFromTranscriptPath('/root/.gemini/tmp/9f86d081884c7d659a2feaa0c55ad015/chats/session-1.json')).toBeUndefined();
    expect(repoFromTranscriptPath('/srv/tool/test_sessions/openai-chat/failure.jsonl')).toBeUndefined();
    // Hermes keeps conversations saved from its terminal UI in sessions/saved/
    expect(repoFromTranscriptPath('/home/dev/.hermes/sessions/saved/hermes_conversation_20260627_152237.json')).toBeUndefined();
    expect(repoFromTranscriptPath('/srv/exports/minsky/chats/session.json')).toBe('minsky');
    // the nightly job's inbox, and Claude Code's project folder (the working directory encoded)
    expect(repoFromTranscriptPath('/ci/transcripts/inbox/claude-code/0a1b.jsonl')).toBeUndefined();
    expect(repoFromTranscriptPath('/srv/knowledge/in/7/0a1b.jsonl')).toBeUndefined();
    expect(repoFromTranscriptPath('/home/dev/Downloads/0a1b.jsonl')).toBeUndefined();
    expect(repoFromTranscriptPath('/home/dev/.claude/projects/-workspace/0a1b.jsonl')).toBeUndefined();
  });

  it('never returns a user name from a home directory', () => {
    expect(repoFromTranscriptPath('/home/zelda/chats/session.json')).toBeUndefined();
    expect(repoFromTranscriptPath('/Users/zelda/session.json')).toBeUndefined();
  });

  it('prefers the recorded repo, then --repo, then the folder; applies aliases; drops a repo named like the user', () => {
    const ctx = { aliases: { 'spotter-fork': 'spotter' }, users: ['zelda'] };
    const session = (repo?: string): Session => ({ id: 's', format: 'specstory', agent: 'cursor', models: [], file: '/x/minsky/a.md', bytes: 1, events: [], warnings: [], ...(repo ? { repo } : {}) });
    expect(resolveRepo(session('spotter-fork'), '/x/minsky/a.md', ctx).repo).toBe('spotter');
    expect(resolveRepo(session(), '/x/minsky/a.md', { ...ctx, fallback: 'Web App' }).repo).toBe('web-app');
    expect(resolveRepo(session(), '/x/minsky/a.md', ctx)).toMatchObject({ repo: 'minsky', source: 'transcript-folder' });
    expect(resolveRepo(session('zelda'), '/x/a.md', ctx).repo).toBeUndefined();
  });

  it("names an aider history by the git work tree it sits at the root of, and by its folder when it was copied into another work tree", async () => {
    const base = tempDir('compound-aider-repo-');
    const source = join(__dirname, '../../test_sessions/aider/inventory-api/.aider.chat.history.md');
    const ctx = { aliases: {}, users: [] };
    const repoOfCopy = async (dir: string) => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, '.aider.chat.history.md');
      copyFileSync(source, file);
      const { sessions } = await readSessions([file]);
      expect(sessions.length).toBeGreaterThan(0);
      return resolveRepo(sessions[0]!, file, ctx);
    };
    // where aider writes it: the root of the repository it worked in
    const project = join(base, 'billing-service');
    mkdirSync(project);
    execFileSync('git', ['init', '-q', project]);
    expect(await repoOfCopy(project)).toMatchObject({ repo: 'billing-service', source: 'git' });
    // collected into a folder of a knowledge repository: that repository is not what it is about
    const knowledge = join(base, 'team-knowledge');
    mkdirSync(knowledge);
    execFileSync('git', ['init', '-q', knowledge]);
    expect(await repoOfCopy(join(knowledge, 'histories', 'ledger'))).toMatchObject({ repo: 'ledger', source: 'cwd' });
  });
});
