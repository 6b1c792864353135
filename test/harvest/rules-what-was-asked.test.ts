/**
 * What a fresh review rejected, as principles about what the user asked and what a line is: a
 * reply about one commit's changes tells history; a question put to the user waits for the user;
 * `&& echo "Done"` is no step of a routine.
 */
import { describe, expect, it } from 'vitest';
import { reportFactDrafts } from '../../src/harvest/extract/rules/report-facts.js';
import { openQuestionDrafts } from '../../src/harvest/extract/rules/open-questions.js';
import { commandPatternDrafts } from '../../src/harvest/extract/rules/command-patterns.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

/** A long closing explanation with sections naming files, as a reply about a change gives. */
const EXPLANATION = [
  'The issue is now clear! Here is what happened:',
  '',
  '## The Problem',
  '',
  'In your earlier commits you tried to keep the blocks from rendering by:',
  '1. Making `isSyncingBackfillForMonth` in `app/services/budget.ts` return `false`',
  '2. Commenting out the logic that sets `isSyncingBackfill` in `app/services/application.ts`',
  '',
  'The getters (`isSyncingBackfillForMonth`, `isSyncingBackfill`) were still being called by `app/components/budget-table.hbs`.',
  '',
  '## The Solution',
  '',
  'The blocks in `app/components/budget-table.hbs` and `app/components/register/grid-index.hbs` were commented out entirely, so:',
  '- The getters in `app/services/budget.ts` are not called during rendering',
  '- No tracked properties of `app/services/application.ts` are read',
  '- Tests do not need to set up `syncManager` or `budgetViewModel`',
  '',
  '## Why This Matters',
  '',
  'Your tests in `tests/integration/components/budget-table-test.js` do not set up the full state (`budgetViewModel`, `syncManager`, feature flags), so the conditionals in `app/components/budget-table.hbs` fail there.',
  'Wrapping the block in a feature-flag check in `app/components/budget-table.hbs` would keep it out of the tests too; a third way is to leave it commented out in `app/components/register/grid-index.hbs`.',
  '',
  '## Where the sync state lives',
  '',
  '- `app/services/application.ts` owns `isSyncingBackfill`, set by `syncManager` while a month backfills',
  '- `app/services/budget.ts` derives `isSyncingBackfillForMonth` from `budgetViewModel.month`',
  '- `tests/helpers/setup-budget.js` builds `budgetViewModel` for component tests but leaves `syncManager` unset',
  '- `app/components/register/grid-index.hbs` reads `this.applicationService.isSyncingBackfill` through the service',
].join('\n');

function explained(prompt: string) {
  return new SessionBuilder()
    .user(prompt)
    .tool('Bash', { command: 'git log --oneline -5' }, 'd873199 comment out backfill blocks\nf89d24a restore the template conditional')
    .tool('Read', { file_path: 'app/services/budget.ts' }, 'get isSyncingBackfillForMonth() { return false; }')
    .tool('Bash', { command: 'git show --stat d873199' }, 'app/components/budget-table.hbs | 4 ++--\napp/components/register/grid-index.hbs | 4 ++--\napp/services/budget.ts | 2 +-\napp/services/application.ts | 2 +-\nisSyncingBackfillForMonth isSyncingBackfill syncManager budgetViewModel budgetViewModel.month tests/integration/components/budget-table-test.js tests/helpers/setup-budget.js this.applicationService.isSyncingBackfill')
    .assistant(EXPLANATION)
    .build();
}

describe('a reply about what one commit changed', () => {
  it('tells that commit\'s history, as a review of a diff does: no facts from it', () => {
    expect(reportFactDrafts(viewOf(explained('Look at changes in f89d24aad7406182f3848c3f0d53daba964adb6e. This caused test failures and I don\'t understand why.')))).toEqual([]);
    expect(reportFactDrafts(viewOf(explained('In commit d8731997ed45 the tests are fixed, but the earlier commits did not fix them. I don\'t understand.')))).toEqual([]);
    // the same reply to a question about how the code is stays a report
    expect(reportFactDrafts(viewOf(explained('Why do the budget table tests fail when the backfill blocks are in the templates?'))).length).toBeGreaterThan(0);
  });
});

describe('a question in the last message', () => {
  it('put to the user waits for the user\'s answer: no open question of the project', () => {
    const last = (text: string) => openQuestionDrafts(viewOf(new SessionBuilder().user('deploy the node').assistant(text).build()));
    expect(last('Before I run anything, confirm:\n\n1. **Have you reviewed the GitHub repository** you\'re asking me to clone into `C:\\deploy`? I cannot see what its scripts do.\n2. **Is this your personal machine** or are you authorised to change `netsh` settings? A static IP can cut it off the network.')).toEqual([]);
    // a question about the code stays open
    expect(last('The migration ran, but does `db/schema.rb` still list the `legacy_orders` table after the rollback in production?')).toHaveLength(1);
  });
});

describe('a recurring command line', () => {
  it('counts only its commands: `&& echo "Done"` is no step of a routine', () => {
    const b = new SessionBuilder().user('make webp versions');
    for (const q of [80, 100, 90]) b.bash(`magick chart.png -resize 462x462! -quality ${q} chart.webp && echo "Done"`, 'Done');
    expect(commandPatternDrafts(viewOf(b.build())).filter((d) => d.title.startsWith('Recurring command line'))).toEqual([]);
    const routine = new SessionBuilder().user('regenerate');
    for (let i = 0; i < 3; i++) routine.bash('python3 render.py plan.jsonl -o plan.html && rg -n "diff" plan.html', 'plan.html:3: diff');
    expect(commandPatternDrafts(viewOf(routine.build())).filter((d) => d.title.startsWith('Recurring command line'))).toHaveLength(1);
  });
});

describe("a correction's title", () => {
  it('says what is right, not the reproach it opens with; a standing rule that opens it stays', async () => {
    const { userCorrectionDrafts } = await import('../../src/harvest/extract/rules/user-corrections.js');
    const titles = (message: string) => userCorrectionDrafts(viewOf(new SessionBuilder().user('fix the toc anchors').assistant('I strip the hyphens around `-raw-` in `toc.js`.').user(message).assistant('Understood.').build())).map((d) => d.title);
    expect(titles('You literally did the opposite! The anchors must keep exactly one hyphen around raw and endraw in toc.js.')).toEqual(['The anchors must keep exactly one hyphen around raw and endraw in…']);
    expect(titles('Next time I tell you to use command line tools, do so. You wasted the context on whole logs.')[0]).toMatch(/^Next time I tell you/);
  });
});

describe("a closing report's 'How to Test' section", () => {
  it("is the turn's handover (steps for the user to check the work), no fact; the report's other sections stay", () => {
    const closing = (withTry: boolean) =>
      [
        'Excellent! The build completed successfully, confirming that the ping-pong messaging system is in place.',
        '',
        '## Summary',
        '',
        '- **Two-way Communication**: both the UI and the plugin can start a ping or a pong message',
        '- **Automatic Pings**: the plugin sends a ping every 5 seconds while it runs',
        '- **Message History**: a log of every exchange with its timestamp, newest first',
        '',
        '## Build output',
        '',
        '- `npm run build` writes `dist/plugin.js` and a single-file `dist/index.html`',
        '- `dist/manifest.json` points Figma at both files',
        ...(withTry
          ? ['', '## How to Test:', '', '1. **Build the plugin**: `npm run build` (already confirmed working)', '2. **Load in Figma**: Import the `dist/manifest.json` file into Figma']
          : []),
      ].join('\n');
    const texts = (withTry: boolean) => {
      const b = new SessionBuilder().user('add ping-pong messaging');
      for (const c of ['ls dist', 'cat dist/manifest.json', 'npm run build']) b.bash(c, 'dist/plugin.js dist/index.html dist/manifest.json npm run build');
      return reportFactDrafts(viewOf(b.assistant(closing(withTry)).build())).map((d) => d.text).join('\n');
    };
    expect(texts(true)).not.toContain('Load in Figma');
    expect(texts(true)).not.toContain('already confirmed working');
    expect(texts(true)).toBe(texts(false));
    // the report's other sections stay
    expect(texts(true)).toContain('Build output: `npm run build` writes `dist/plugin.js`');
  });
});
