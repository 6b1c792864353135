/**
 * aider with an `lm_studio/` model and no LM_STUDIO_API_BASE calls OpenAI with litellm's
 * placeholder key: told once, with aider's documented settings and how the next launch went.
 */
import { describe, expect, it } from 'vitest';
import { readSessions } from '../../src/sessions/read.js';
import { withAiderLaunches } from '../../src/harvest/aider-launches.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { tempDir } from '../sessions/support.js';
import { put } from '../sessions/reader-checks.js';

const launch = (time: string, model: string, body: string) =>
  `\n# aider chat started at 2026-04-22 ${time}\n\n> /usr/local/bin/aider --model ${model}  \n> Aider v0.86.2  \n> Model: ${model} with whole edit format  \n> Git repo: .git with 40 files  \n\n${body}`;
const REFUSED =
  '#### hi  \n> litellm.AuthenticationError: AuthenticationError: Lm_studioException - Incorrect API key provided: fake-api-key. You can find your API key at https://platform.openai.com/account/api-keys.  \n> The API provider is not able to authenticate you. Check your API key.  \n\n';
const answered = '#### hi  \n\nHello! What should we change?\n\n> Tokens: 2k sent, 12 received.  \n\n';

async function items(history: string) {
  const file = put(tempDir(), '.aider.chat.history.md', history);
  const sessions = withAiderLaunches((await readSessions([file])).sessions);
  return sessions.flatMap((s) => extractSession(s).filter((c) => c.title.includes('LM_STUDIO_API_BASE')));
}

describe('an lm_studio/ model without its server address', () => {
  it('is told once with the settings aider documents, and the later launch that answered', async () => {
    const found = await items(launch('22:40:12', 'lm_studio/qwen3-coder', REFUSED) + launch('22:40:47', 'lm_studio/qwen3-coder', answered));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ category: 'pitfall', scope: 'agent', title: 'aider with an lm_studio/ model needs LM_STUDIO_API_BASE, else it calls OpenAI' });
    expect(found[0]!.text).toBe(
      "Launched as `aider --model lm_studio/qwen3-coder` and no `LM_STUDIO_API_BASE`, litellm sent the first message to OpenAI with its placeholder key (`Incorrect API key provided: fake-api-key`). Set `LM_STUDIO_API_BASE=http://localhost:1234/v1` (LM Studio's default) and a dummy `LM_STUDIO_API_KEY` before starting aider (aider's documented setup); a later launch with the same model got answers.",
    );
  });

  it('says nothing of a real key refused by OpenAI', async () => {
    const real = '#### hi  \n> litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided: sk-abc***xyz.  \n\n';
    expect(await items(launch('10:00:00', 'gpt-4o', real))).toEqual([]);
  });
});
