/**
 * Where the work happens: a session run in a per-branch git worktree (the directory is named
 * after the branch, inside a worktrees folder) says how the project is worked on.
 */
import { CONFIDENCE } from '../../candidate.js';
import { ruleExtractor, type Draft, type RuleExtractor } from '../build.js';
import { code } from '../text.js';
import type { SessionView } from '../view.js';

const HOME = /^(?:\/home\/[^/]+|\/Users\/[^/]+|~)(?=\/)/;

export function workspaceDrafts(view: SessionView): Draft[] {
  const { cwd, branch } = view.session;
  // A subagent runs in its parent's workspace; the parent session says it once.
  if (!cwd || !branch || view.steps.length < 5 || view.session.parentId !== undefined || view.events.every((e) => e.sidechain)) return [];
  const parts = cwd.replace(/\/+$/, '').split('/');
  const dir = parts[parts.length - 1];
  const parent = parts[parts.length - 2];
  if (!dir || !parent || dir !== branch || !/worktree/i.test(parent)) return [];
  const folder = parts.slice(0, -1).join('/').replace(HOME, '~');
  const first = view.events[0];
  return [
    {
      category: 'fact',
      title: `Work happens in per-branch worktrees under ${parent}`,
      text: `Work is done in per-branch git worktrees under ${code(`${folder}/`)}: each directory is named after its branch (this session: ${code(`${folder}/${dir}`)} on branch ${code(branch)}).`,
      confidence: CONFIDENCE.stated,
      event: first?.index ?? 0,
      tags: ['git', 'worktree'],
      quotes: [],
      rule: 'workspace',
      score: 5,
    },
  ];
}

export const workspace: RuleExtractor = ruleExtractor('workspace', workspaceDrafts);
