/**
 * An item's text is cut to its length limit at the end of a whole sentence or list entry: a
 * reviewer reads an item that stops mid-word as broken, and edits or rejects it.
 */
import { describe, expect, it } from 'vitest';
import { clipWhole, fitWhole } from '../../src/harvest/extract/text.js';
import { extractSession } from '../../src/harvest/extract/index.js';
import { MAX_TEXT } from '../../src/harvest/extract/build.js';
import { SessionBuilder } from './extract-session.js';

describe('clipWhole', () => {
  const a = 'The dev server runs with `npm run dev` on port 3000 and reads `.env.local` at start.';
  const b = 'The build uses `vite build` with the config in `vite.config.ts`, which aliases `@` to `src/`.';
  const c = 'Tests run with `npx vitest run`; the setup file `test/setup.ts` mocks `fetch` for every suite.';

  it('keeps a text that fits, and otherwise ends at the last whole sentence or list entry', () => {
    expect(clipWhole(`${a} ${b}`, 400)).toBe(`${a} ${b}`);
    expect(clipWhole(`${a} ${b} ${c}`, a.length + b.length + 20)).toBe(`${a} ${b}`);
    // a list entry ends at its semicolon, written as the end of a sentence
    expect(clipWhole(`Config: ${a.slice(0, -1)}; ${b.slice(0, -1)}; ${c}`, a.length + b.length + 30)).toBe(`Config: ${a.slice(0, -1)}; ${b.slice(0, -1)}.`);
  });

  it('fits the whole text by taking the middle out of its longest quotes, no more than needed, before it drops a sentence', () => {
    const quote = 'Adding 4109 modules to dialyxir_erlang-28.1.1_elixir-1.19.2_deps-dev.plt … done in 2m8.83s';
    const text = `The first \`mix dialyzer\` run in a new checkout took about 2.7 min; the time went to a one-time step: \`${quote}\`. Give the first run a generous timeout.`;
    const fitted = fitWhole(text, text.length - 6);
    expect(fitted.length).toBeLessThanOrEqual(text.length - 6);
    // the advice stays, and the quote keeps its head and its tail (the PLT file, the duration)
    expect(fitted.endsWith('Give the first run a generous timeout.')).toBe(true);
    // (whole words go, the fewest past what is needed: the long file name stays whole)
    expect(fitted).toContain('`Adding 4109 … dialyxir_erlang-28.1.1_elixir-1.19.2_deps-dev.plt … done in 2m8.83s`');
    // no word is cut in two, and a short quote (a command, most often) is never cut
    const refusal = "Aider's `/undo` refuses (`The file fibonacci.py was not in the repository in the previous commit. Cannot undo safely.`): run `git rm --cached .claude/INTERNAL_COMMS.md` first.";
    const cut = fitWhole(refusal, refusal.length - 8);
    expect(cut.length).toBeLessThanOrEqual(refusal.length - 8);
    expect(cut).toContain('`git rm --cached .claude/INTERNAL_COMMS.md`');
    expect(cut).toContain(' … ');
    for (const w of cut.split(/\s+/)) expect(refusal.split(/\s+/).concat('…')).toContain(w);
    // where shortening the quotes cannot make it all fit, sentences go as before and the quotes stay whole
    expect(fitWhole(text, 120)).toBe(clipWhole(text, 120));
    // a text that fits is left alone
    expect(fitWhole(text, 400)).toBe(text);
  });

  it('cuts at a word with an ellipsis only when no boundary keeps half of the limit', () => {
    const long = `Short. ${'The renderer walks every record of the rollout and keeps the reasoning blocks '.repeat(4)}end.`;
    const out = clipWhole(long, 120);
    expect(out.endsWith('…')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(120);
  });

  it('ends no sentence at a full stop inside a code span (`4. Push the branch`)', () => {
    const text = `${a} Other lines got the same: \`3. Commit the change\`, \`4. Push the branch to the remote and open the pull request\`.`;
    expect(clipWhole(text, a.length + 60)).toBe(a);
  });

  it('never splits a secret: the text is redacted before it is cut', () => {
    const text = `${a} ${b} The deploy key is ghp_${'a1B2c3D4e5'.repeat(4)} and it is rotated monthly.`;
    const out = clipWhole(text, a.length + b.length + 40);
    expect(out).not.toMatch(/ghp_[A-Za-z0-9]{4}/);
  });
});

describe('harvested items', () => {
  it('end with a whole sentence when a closing summary is longer than an item holds', () => {
    const b = new SessionBuilder().user('can we drop the overrides?');
    const seen = 'overrides typescript vite-plus-core peer typescript@^5.0.0 ERESOLVE npm install package.json vite alias';
    b.bash('cat package.json', seen).bash('npm ls typescript', seen).bash('npm install --dry-run', `npm error code ERESOLVE ${seen}`);
    const reason = (n: number) => `The \`typescript\` override is needed because \`@voidzero-dev/vite-plus-core\` declares a peer dependency of \`typescript@^5.0.0\` (reason ${n}), so \`npm install\` fails with \`ERESOLVE\` without it.`;
    const summary = `No, the overrides in \`package.json\` must stay:\n\n${[1, 2, 3, 4, 5].map((n) => `- ${reason(n)}`).join('\n')}`;
    const items = extractSession(b.assistant(summary).user('thanks').build());
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) {
      expect(i.text.length).toBeLessThanOrEqual(MAX_TEXT);
      expect(i.text, i.text).toMatch(/[.!?`)]$/);
    }
  });
});
