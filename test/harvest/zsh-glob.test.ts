/**
 * zsh as the agent's shell: a glob that matches nothing stops the whole command, `rm -f`
 * included. One item a session, said in zsh's own words; the error → fix rule leaves it alone.
 */
import { describe, expect, it } from 'vitest';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { zshGlobDrafts } from '../../src/harvest/extract/rules/zsh-glob.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const CMD = 'rm -f data_cache/dataset_30000_*.npz && python train.py';

describe('a glob zsh found nothing for', () => {
  it('is told once, as the shell zsh is, with the ways around it', () => {
    const b = new SessionBuilder()
      .user('retrain from scratch')
      .bash(CMD, '(eval):1: no matches found: data_cache/dataset_30000_*.npz', 1)
      .bash(`${CMD} 2>&1 | head -100`, 'zsh: no matches found: data_cache/dataset_30000_*.npz', 1)
      .bash('python train.py', 'epoch 1', 0);
    const view = viewOf(b.build());
    const drafts = zshGlobDrafts(view);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ scope: 'global', category: 'tool-quirk', title: 'zsh is the shell here: a glob that matches nothing stops the command' });
    expect(drafts[0]!.text).toContain('`rm -f data_cache/dataset_30000_*.npz && python train.py` failed (`no matches found: data_cache/dataset_30000_*.npz`) and ran nothing, its `rm -f` included.');
    expect(errorFixDrafts(view)).toEqual([]);
  });

  it('gives the way round that fits the command: a loop wants patterns that expand to nothing, a removal find, anything else quotes', () => {
    const text = (command: string, pattern: string) => zshGlobDrafts(viewOf(new SessionBuilder().bash(command, `(eval):1: no matches found: ${pattern}`, 1).build()))[0]!.text;
    expect(text('for f in ~/Downloads/*.png ~/Downloads/*.jpg; do magick "$f" "${f%.*}.webp"; done', '~/Downloads/*.jpg')).toContain("give each pattern zsh's `(N)` qualifier");
    expect(text(CMD, 'data_cache/dataset_30000_*.npz')).toContain("`find <dir> -name '<glob>' -delete`");
    expect(text("pip install .[dev]", '.[dev]')).toContain('Quote a pattern meant for the program');
  });

  it('is nothing for another failure, or a pattern the command does not hold', () => {
    const other = new SessionBuilder().bash(CMD, 'rm: cannot remove: Permission denied', 1);
    expect(zshGlobDrafts(viewOf(other.build()))).toEqual([]);
    const elsewhere = new SessionBuilder().bash('python train.py', 'zsh: no matches found: *.npz', 1);
    expect(zshGlobDrafts(viewOf(elsewhere.build()))).toEqual([]);
  });
});
