/**
 * A command its tool has retired (`… is deprecated. Use X instead`), which the agent ran again after
 * the notice: one global tool quirk with the tool's notice and the replacement, and a run that
 * printed only the notice fixed nothing. A notice followed at once costs one call: no item.
 */
import { describe, expect, it } from 'vitest';
import { errorFixDrafts } from '../../src/harvest/extract/rules/error-fix.js';
import { retiredCommandDrafts } from '../../src/harvest/extract/rules/retired-commands.js';
import { seenToSucceed, viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const SHADCN = [
  'dev@mac app % npx shadcn-ui@latest add input textarea card',
  "The 'shadcn-ui' package is deprecated. Please use the 'shadcn' package instead:",
  '',
  '  npx shadcn@latest add input textarea card',
  '',
  'For more information, visit: https://ui.shadcn.com/docs/cli',
  '',
  'dev@mac app %',
].join('\n');

describe('a retired command', () => {
  it('is told with the notice and the replacement, without this task’s arguments', () => {
    const b = new SessionBuilder()
      .user('fix the build')
      .bash('npm run build', "Module not found: Can't resolve '@/components/ui/input'", 1)
      .bash('npx shadcn-ui@latest add input textarea card', SHADCN, 0)
      .bash('npx shadcn-ui@latest add input textarea card --overwrite', SHADCN.replace(/input textarea card/g, 'input textarea card --overwrite'), 0)
      .bash('npx shadcn@latest add input textarea card', '✔ Created 3 files:\n  - src/components/ui/input.tsx', 0);
    const view = viewOf(b.build());
    const [d, more] = retiredCommandDrafts(view);
    expect(more).toBeUndefined();
    expect(d).toMatchObject({ category: 'tool-quirk', scope: 'global', confidence: 0.9, title: 'npx shadcn-ui@latest add is deprecated: use npx shadcn@latest add' });
    expect(d!.text).toBe(
      "`npx shadcn-ui@latest add …` is retired: it prints `The 'shadcn-ui' package is deprecated. Please use the 'shadcn' package instead:`. Run `npx shadcn@latest add …` instead, which worked here.",
    );
    // the retired run did nothing: it is no success, so no fix of the build error
    expect(seenToSucceed(view.steps[1]!)).toBe(false);
    expect(seenToSucceed(view.steps[3]!)).toBe(true);
    expect(errorFixDrafts(view).some((x) => x.text.includes('shadcn-ui'))).toBe(false);
  });

  it('is nothing when the agent followed the notice at once: it cost one call, and the notice will say it again', () => {
    const b = new SessionBuilder()
      .bash('npx shadcn-ui@latest add input textarea card', SHADCN, 0)
      .bash('npx shadcn@latest add input textarea card', '✔ Created 3 files:\n  - src/components/ui/input.tsx', 0)
      // (another tool's retired command, run through the same npx, is not this one again)
      .bash('npx convex init', '✖ The `init` command is deprecated. Use `npx convex dev --once --configure=new` instead.', 1);
    expect(retiredCommandDrafts(viewOf(b.build()))).toEqual([]);
  });

  it('keeps the replacement’s own options, and says nothing of a replacement not run', () => {
    const notice = '✖ The `init` command is deprecated. Use `npx convex dev --once --configure=new` instead.';
    const b = new SessionBuilder().bash('cd /home/dev/app && npx convex init', notice, 1).bash('npx convex init --dev', notice, 1);
    const [d] = retiredCommandDrafts(viewOf(b.build()));
    expect(d!.text).toBe('`npx convex init` is retired: it prints ``✖ The `init` command is deprecated. Use `npx convex dev --once --configure=new` instead.``. Run `npx convex dev --once --configure=new` instead.');
    expect(d!.confidence).toBe(0.7);
  });

  it('is not a deprecation of code the command loads, nor one with no replacement named', () => {
    const b = new SessionBuilder()
      .bash('npm run build', '(node:25554) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.\nCompiled', 0)
      .bash('npm install request', 'npm WARN deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142\nadded 1 package', 0)
      .bash('docker-compose up -d', 'The docker-compose command is deprecated.\nStarted', 0);
    const view = viewOf(b.build());
    expect(retiredCommandDrafts(view)).toEqual([]);
    expect(view.steps.every(seenToSucceed)).toBe(true);
  });
});
