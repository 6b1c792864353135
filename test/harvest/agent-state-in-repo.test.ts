/**
 * An agent's own session state inside the repository, as git's output shows it: told once per
 * folder, tracked or not; never of the commands and settings a team keeps in the same folder, nor
 * once the session itself ignored or untracked it.
 */
import { describe, expect, it } from 'vitest';
import { agentStateDrafts } from '../../src/harvest/extract/rules/agent-state-in-repo.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const texts = (b: SessionBuilder): string[] => agentStateDrafts(viewOf(b.build())).map((d) => d.text);

describe("an agent's session state inside the repository", () => {
  it('is a pitfall when git tracks it, naming the refused checkout', () => {
    const b = new SessionBuilder()
      .user('start the next feature branch')
      .bash('git status --porcelain=v1 -b', '## 009-save-progress\n M lab/.codex/history.jsonl\n M lab/.codex/log/codex-tui.log\n M lab/.codex/models_cache.json\n M src/app.ts')
      .bash('git checkout main', 'error: Your local changes to the following files would be overwritten by checkout:\n\tlab/.codex/history.jsonl\n\tlab/.codex/log/codex-tui.log\nPlease commit your changes or stash them before you switch branches.\nAborting', 1);
    const drafts = agentStateDrafts(viewOf(b.build()));
    expect(drafts.map((d) => [d.category, d.title])).toEqual([['pitfall', "Codex's session state in lab/.codex/ is tracked by git here"]]);
    expect(drafts[0]!.text).toBe(
      "`lab/.codex/` (from the repository root) holds Codex's own session state (`history.jsonl`, `log/`, `models_cache.json`) and git tracks it here, so every session changes it, and git refused a checkout over those changes (`Your local changes to the following files would be overwritten`). Untrack it with the user's consent (`git rm -r --cached lab/.codex/`, then ignore it); until then stage files by name (never `git add -A` or `git add .`).",
    );
    // a later add of everything, its end not shown: tracked, it is no "untracked" folder
    const [unseen] = agentStateDrafts(viewOf(b.unanswered('Bash', { command: 'git add -A' }).build()));
    expect(unseen!.text).toContain('. This session ran `git add -A`: check its commit for it before pushing. Untrack it');
  });

  it("names the agent's login among its state, first, as credentials", () => {
    const b = new SessionBuilder()
      .user('commit the spec')
      .bash('git status -sb', '## 001-retirement\n?? .codex/config.toml\n?? .codex/history.jsonl\n?? .codex/log/\n?? .codex/sessions/\n?? .codex/version.json\n?? .codex/models_cache.json\n?? .codex/auth.json\n?? specs/');
    const [text] = texts(b);
    expect(text).toMatch(/^Codex's own session state lies inside this repository, untracked: `\.codex\/auth\.json`, /);
    expect(text).toContain('; `auth.json` holds its login credentials; `sessions/` holds its session transcripts.');
    // (a team's settings in the same folder are not the agent's state)
    expect(text).not.toContain('config.toml');
  });

  it("is this session's doing when its own add of everything committed the folder git had listed untracked", () => {
    const b = new SessionBuilder({ format: 'codex', agent: 'codex' })
      .user('commit the rest')
      .bash('git status --short', ' D CLAUDE.md\n?? .codex/\n?? .specify/scripts/')
      .bash('git add -A && git commit -m "chore: add remaining scaffolding"', '[main b3299d9] chore: add remaining scaffolding\n 56 files changed\n create mode 100644 .codex/auth.json\n create mode 100644 .codex/history.jsonl\n create mode 100644 .codex/prompts/speckit.plan.md\n create mode 100644 .codex/sessions/2026/03/15/rollout-x.jsonl')
      .bash('git status --short', ' M .codex/models_cache.json\n M .codex/sessions/2026/03/15/rollout-x.jsonl');
    const [d] = agentStateDrafts(viewOf(b.build()));
    expect(d).toMatchObject({ category: 'pitfall', title: "Codex's session state in .codex/ was committed by a git add of everything" });
    expect(d!.text).toBe(
      "`.codex/` holds Codex's own session state (`auth.json`, `sessions/`, `history.jsonl`, `models_cache.json`; `auth.json` holds its login credentials; `sessions/` holds its session transcripts); it was untracked until this session's `git add -A` put it in a commit. Untrack it with the user's consent (`git rm -r --cached .codex/`, then ignore it); the login is in that commit: push no commit that holds it, and renew the login if one was pushed.",
    );
  });

  it('is a fact when git lists it as untracked', () => {
    const b = new SessionBuilder().user('what changed?').bash('git status', 'On branch main\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n\t.claude/projects/\n\t.claude/todos/\n\tnotes.md\n');
    // (git lists the state folders one by one: `.claude/` also holds what the team tracks)
    expect(texts(b)).toEqual(["Claude Code's own session state lies inside this repository, untracked: `.claude/projects/`, `.claude/todos/`; `projects/` holds its session transcripts. Keep it out of commits: list them in `.gitignore`, or stage files by name (never `git add -A` or `git add .`)."]);
    // a later add of everything swept it in: a pitfall that says so
    const [swept] = agentStateDrafts(viewOf(b.bash('git add -A && git commit -m "sync dotfiles"', '[main 1a2b3c4] sync dotfiles').build()));
    expect(swept!.category).toBe('pitfall');
    // (said before the advice: an item cut to length loses the advice, not what this session did)
    expect(swept!.text).toContain("transcripts. This session's `git add -A` staged them: untrack them (`git rm -r --cached`, with the user's consent) and ignore them.");
    // (one the transcript shows no end of is said as run, not as staged)
    const status = 'On branch main\nUntracked files:\n\t.claude/projects/\n\t.claude/todos/\n';
    const [unseen] = agentStateDrafts(viewOf(new SessionBuilder().user('sync').bash('git status', status).unanswered('Bash', { command: 'git add -A' }).build()));
    expect(unseen!.text).toContain(". This session ran `git add -A` with them untracked: check `git ls-files .claude/`, untrack what it lists (`git rm -r --cached`, with the user's consent) and ignore them.");
  });

  it("names Codex's SQLite databases (and their -shm/-wal files) as its state, not its settings", () => {
    const [text] = texts(new SessionBuilder().bash('git status --short --branch', '## windows\n M home/.codex/config.toml\n?? home/.codex/history.jsonl\n?? home/.codex/state_5.sqlite-shm\n?? home/.codex/state_5.sqlite-wal\n?? home/.codex/sessions/'));
    // (a database's companions as one entry, as `.gitignore` globs them; not the database git did not list)
    expect(text).toContain('`home/.codex/sessions/`, `home/.codex/history.jsonl`, `home/.codex/state_5.sqlite-*`');
    expect(text).not.toContain('config.toml');
  });

  it("is nothing for a bare untracked folder, for a team's commands and settings, or once the session ignored it", () => {
    expect(texts(new SessionBuilder().bash('git status --short', '?? .codex/\n?? .specify/\n?? specs/'))).toEqual([]);
    expect(texts(new SessionBuilder().bash('git status --short', '?? .claude/commands/ship.md\n M .claude/settings.json'))).toEqual([]);
    const ignored = new SessionBuilder()
      .bash('git status --short', '?? .claude/projects/\n?? .claude/todos/')
      .tool('Edit', { file_path: '/home/dev/.gitignore', old_string: 'node_modules/', new_string: 'node_modules/\n.claude/projects/' }, 'ok');
    expect(texts(ignored)).toEqual([]);
    // and nothing outside git's output: a listing of the folder is no statement of git's
    expect(texts(new SessionBuilder().bash('ls .codex', 'history.jsonl\nlog\nsessions'))).toEqual([]);
  });
});
