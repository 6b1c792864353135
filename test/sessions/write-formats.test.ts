/** The test session writer gives, in every format, a session its reader reads back turn for turn. */
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../src/sessions/read.js';
import { tempDir } from '../helpers.js';
import { FORMATS, writeSession, type Turn } from './write-formats.js';

const TURNS: Turn[] = [
  { user: 'deploy the shop' },
  { bash: 'npm run deploy', output: 'Error: deploy failed: missing DEPLOY_ENV', error: true },
  { assistant: 'The deploy needs DEPLOY_ENV set; setting it.' },
  { bash: 'DEPLOY_ENV=staging npm run deploy', output: 'deployed ok' },
  { assistant: 'Deployed to staging.' },
];

describe('writeSession', () => {
  for (const format of FORMATS) {
    it(`writes a ${format} session that reads back with its turns`, async () => {
      const file = writeSession(format, tempDir(), 1, '/srv/src/shop', TURNS);
      const r = await readSessionFile(file);
      expect(r.format).toBe(format);
      expect(r.sessions).toHaveLength(1);
      const events = r.sessions[0]!.events;
      expect(events.filter((e) => e.kind === 'user').map((e) => e.kind === 'user' && e.text)).toContain('deploy the shop');
      const results = events.filter((e) => e.kind === 'tool_result');
      expect(results.map((e) => e.kind === 'tool_result' && e.isError)).toEqual([true, false]);
      expect(events.filter((e) => e.kind === 'tool_call').map((e) => e.kind === 'tool_call' && e.command)).toEqual(['npm run deploy', 'DEPLOY_ENV=staging npm run deploy'].map((c) => (format === 'hermes' ? `cd /srv/src/shop && ${c}` : c)));
      expect(events.some((e) => e.kind === 'assistant' && e.text.includes('Deployed to staging.'))).toBe(true);
    });
  }
});
