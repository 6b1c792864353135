/**
 * An agent that kept trying to edit in plan mode, and got through only once a plan was approved
 * with the agent's own tool, is told once, of the agent; one refusal, or a way out the session
 * never showed working, is not.
 */
import { describe, expect, it } from 'vitest';
import { planModeDrafts } from '../../src/harvest/extract/rules/plan-mode.js';
import { toolQuirkDrafts } from '../../src/harvest/extract/rules/tool-quirks.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const REFUSED = 'Tool execution denied by policy. You are in Plan Mode and cannot modify source code. You may ONLY use write_file or replace to save plans to the designated plans directory as .md files.';

function session(refusals: number, approved: boolean) {
  const b = new SessionBuilder({ agent: 'gemini-cli', format: 'gemini-cli' }).user('fix the resizer');
  for (let i = 0; i < refusals; i++) b.tool('replace', { file_path: `src/panel${i}.tsx`, old_string: 'w-min-0', new_string: 'min-w-0' }, REFUSED, { isError: true });
  b.tool('run_shell_command', { command: 'git diff src/panel0.tsx' }, 'Tool "run_shell_command" not found. Did you mean one of: "update_topic", "grep_search", "replace"?', { isError: true });
  b.tool('write_file', { file_path: '/home/dev/.gemini/tmp/app/plans/fix-resize.md', content: '# Plan' }, 'Successfully created and wrote to new file: /home/dev/.gemini/tmp/app/plans/fix-resize.md.');
  b.tool('exit_plan_mode', { plan_filename: 'fix-resize.md' }, approved ? 'Plan approved. Switching to Auto-Edit mode (edits will be applied automatically).' : 'Plan rejected. User feedback: add the tests.');
  b.tool('replace', { file_path: 'src/panel0.tsx', old_string: 'w-min-0', new_string: 'min-w-0' }, 'Successfully modified file: src/panel0.tsx (1 replacements).');
  return viewOf(b.build());
}

describe('edits refused in plan mode', () => {
  it('are told once with the way out the session took, when they kept coming', () => {
    const [item] = planModeDrafts(session(3, true));
    expect(item).toMatchObject({ category: 'tool-quirk', scope: 'agent', title: 'Plan Mode refuses edits until a plan is approved with exit_plan_mode' });
    expect(item!.text).toBe(
      'In Plan Mode edits of project files (`replace`) are refused (`You are in Plan Mode and cannot modify source code.`) and the shell tool is not offered (`Tool "run_shell_command" not found`); here 3 edits were refused. Write the plan as a `.md` file in the plans folder and call `exit_plan_mode` with it: once the user approves, edits run.',
    );
    // the refusal itself is no quirk of the edit tool
    expect(toolQuirkDrafts(session(3, true)).filter((d) => /Plan Mode|denied by policy/.test(d.text))).toEqual([]);
  });

  it('are not told once, nor where no approved plan let an edit through', () => {
    expect(planModeDrafts(session(1, true))).toEqual([]);
    expect(planModeDrafts(session(3, false))).toEqual([]);
  });
});
