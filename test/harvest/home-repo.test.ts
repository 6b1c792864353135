import { describe, expect, it } from 'vitest';
import { homeRepoDrafts } from '../../src/harvest/extract/rules/home-repo.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

describe('a home directory that is a git repository', () => {
  it('is told once, of the machine, when git init ran in the home', () => {
    const b = new SessionBuilder({ cwd: '/home/roi12' })
      .user('put the workflows under git')
      .bash('git init', "Initialized empty Git repository in /home/roi12/.git/\nhint: Using 'master' as the name for the initial branch.", 0)
      .bash('git add .', '', 0);
    const [d] = homeRepoDrafts(viewOf(b.build()));
    expect(d).toMatchObject({ scope: 'global', category: 'pitfall', quotes: ['Initialized empty Git repository in ~/.git/'] });
    expect(d!.text).toContain('`git add .` there stages dotfiles and secrets');
    expect(d!.text).toContain('check `pwd` and `git rev-parse --show-toplevel`');
    // (Windows' home, as git for Windows and Git Bash write it)
    for (const dir of ['C:/Users/dev', '/c/Users/dev']) {
      const windows = new SessionBuilder().user('init').bash('git init', `Initialized empty Git repository in ${dir}/.git/`, 0);
      expect(homeRepoDrafts(viewOf(windows.build())), dir).toHaveLength(1);
    }
    // a repository made in a project folder is nothing to tell, nor one in /root's subfolder
    for (const dir of ['/home/roi12/app', '/root/src/app']) {
      const project = new SessionBuilder().user('init').bash('git init', `Initialized empty Git repository in ${dir}/.git/`, 0);
      expect(homeRepoDrafts(viewOf(project.build())), dir).toEqual([]);
    }
  });

  it("is not told of a home that already was a repository (git status listing the home's files)", () => {
    const status = new SessionBuilder().user('what is uncommitted?').bash('git status', 'On branch master\n\nUntracked files:\n\t../../../../.bash_history\n\t../../../../.claude.json\n\t../../../../NTUSER.DAT\n', 0).build();
    expect(homeRepoDrafts(viewOf(status))).toEqual([]);
  });

  it('leaves a git init in the home after a lost cd to the shell-cwd item', () => {
    const b = new SessionBuilder({ format: 'gemini-cli', agent: 'gemini', cwd: '/home/dev' })
      .user('make a repo for TP-Tutor')
      .tool('run_shell_command', { command: 'cd ~/TP-Tutor' }, '', { exitCode: 0 })
      .tool('run_shell_command', { command: 'git init' }, 'Initialized empty Git repository in /home/dev/.git/', { exitCode: 0 });
    expect(homeRepoDrafts(viewOf(b.build()))).toEqual([]);
  });
});
