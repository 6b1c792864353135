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
    // a repository made in a project folder is nothing to tell, nor one in /root's subfolder
    for (const dir of ['/home/roi12/app', '/root/src/app']) {
      const project = new SessionBuilder().user('init').bash('git init', `Initialized empty Git repository in ${dir}/.git/`, 0);
      expect(homeRepoDrafts(viewOf(project.build())), dir).toEqual([]);
    }
  });

  it("is told when git status lists the home's own files, and not for a dotfiles repository's", () => {
    const status = (entries: string[]) => new SessionBuilder().user('what is uncommitted?').bash('git status', `On branch master\n\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n${entries.map((e) => `\t${e}`).join('\n')}\n`, 0).build();
    expect(homeRepoDrafts(viewOf(status(['../../../../.bash_history', '../../../../.claude.json', '../../../../Documents/'])))[0]?.text).toContain('(`.bash_history`, `.claude.json`) as untracked');
    // a dotfiles repository keeps the shell's settings, never its history
    expect(homeRepoDrafts(viewOf(status(['.bashrc', '.zshrc', '.gitconfig', 'nvim/'])))).toEqual([]);
  });

  it('leaves a git init in the home after a lost cd to the shell-cwd item', () => {
    const b = new SessionBuilder({ format: 'gemini-cli', agent: 'gemini', cwd: '/home/dev' })
      .user('make a repo for TP-Tutor')
      .tool('run_shell_command', { command: 'cd ~/TP-Tutor' }, '', { exitCode: 0 })
      .tool('run_shell_command', { command: 'git init' }, 'Initialized empty Git repository in /home/dev/.git/', { exitCode: 0 });
    expect(homeRepoDrafts(viewOf(b.build()))).toEqual([]);
  });
});
