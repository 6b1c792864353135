import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/harvest/candidate.js';
import { redactCandidate } from '../../src/harvest/redact-candidate.js';

function candidate(text: string): Candidate {
  return {
    category: 'fact',
    scope: 'repo',
    repo: 'demo',
    title: text,
    text: `${text}.`,
    confidence: 0.7,
    tags: ['deploy'],
    evidence: { event: 3 },
    quotes: [text],
    rule: 'test',
    signature: text,
  };
}

describe('redactCandidate', () => {
  it('redacts each string by the user names given with it, remembered per list of names', () => {
    const c = candidate('ask margarethe about the deploy key');
    const stats = { findings: 0 };
    // the same strings with and without the user name, in turns: a memo keyed by the string
    // alone would hand one list's result to the other
    for (let round = 0; round < 3; round++) {
      const named = redactCandidate(c, ['margarethe'], stats);
      expect(named.title).toBe('ask [REDACTED:user-name] about the deploy key');
      expect(named.text).toBe('ask [REDACTED:user-name] about the deploy key.');
      expect(named.quotes).toEqual(['ask [REDACTED:user-name] about the deploy key']);
      expect(named.signature).toBe('ask [REDACTED:user-name] about the deploy key');
      expect(redactCandidate(c, [], stats).title).toBe('ask margarethe about the deploy key');
      expect(redactCandidate(c, ['someone', 'else'], stats).text).toBe('ask margarethe about the deploy key.');
    }
    // four findings (title, text, quote, signature) per named round, also when remembered
    expect(stats.findings).toBe(12);
    expect(c.title).toBe('ask margarethe about the deploy key'); // the input is left as it was
  });

  it('keeps redacting correctly past the memo of many lists of names', () => {
    const c = candidate('a token ghp_R8x2Kq9ZtL4mN7pW3vY6bC1dF5gH0jS2aE4u from user0 and user9');
    const stats = { findings: 0 };
    for (let i = 0; i < 10; i++) {
      const out = redactCandidate(c, [`user${i}`], stats);
      expect(out.text).not.toContain('ghp_');
      expect(out.text.includes(`user${i}`)).toBe(false);
      // the other user's name is nobody's here, so it stays (unless it is this list's)
      if (i !== 0) expect(out.text).toContain('user0');
    }
  });
});
