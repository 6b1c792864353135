import { describe, expect, it } from 'vitest';
import { upsertSection } from '../../src/bootstrap/agents-md.js';

const BLOCK = '<!-- compound:bootstrap ids=aaaaaaaaaa -->\n## Knowledge\n- one\n<!-- /compound:bootstrap -->\n';
const NEWER = '<!-- compound:bootstrap ids=bbbbbbbbbb -->\n## Knowledge\n- two\n<!-- /compound:bootstrap -->\n';

describe('AGENTS.md section', () => {
  it('creates the file content when there is none', () => {
    expect(upsertSection(undefined, BLOCK)).toEqual({ ok: true, text: BLOCK, action: 'created' });
  });

  it('appends after existing content, then replaces only its own section, idempotently', () => {
    const user = '# Agents\r\n\r\nUse pnpm.  \r\nTrailing spaces and CRLF stay.\r\n';
    const first = upsertSection(user, BLOCK);
    expect(first).toMatchObject({ ok: true, action: 'appended' });
    const text1 = first.ok ? first.text : '';
    expect(text1.startsWith(user)).toBe(true);
    const again = upsertSection(text1, BLOCK);
    expect(again).toEqual({ ok: true, text: text1, action: 'unchanged' });

    const withMore = `${text1}\n## Footer written later\n`;
    const replaced = upsertSection(withMore, NEWER);
    expect(replaced).toMatchObject({ ok: true, action: 'replaced' });
    expect(replaced.ok && replaced.text).toBe(`${user}\n${NEWER}\n## Footer written later\n`);
  });

  it('keeps a section placed in the middle of the file where it is', () => {
    const before = 'intro\n\n';
    const after = '\n\nnotes after, no newline at end';
    const r = upsertSection(`${before}${BLOCK.trimEnd()}${after}`, NEWER);
    expect(r.ok && r.text).toBe(`${before}${NEWER.trimEnd()}${after}`);
  });

  it('refuses to guess when the closing marker is missing', () => {
    const r = upsertSection('x\n<!-- compound:bootstrap ids=a -->\nhalf a block\n', BLOCK);
    expect(r.ok).toBe(false);
  });
});
