/**
 * A shell that opens every command's output with the same login banner is told once, of the
 * machine, with a line of its words and none of its addresses; output that merely starts alike
 * (one command run again, a short common header) is not.
 */
import { describe, expect, it } from 'vitest';
import { loginBannerDrafts } from '../../src/harvest/extract/rules/login-banner.js';
import { viewOf } from '../../src/harvest/extract/view.js';
import { SessionBuilder } from './extract-session.js';

const BANNER = [
  '       ▄██▄           _   _',
  '     ▄██████▄        | | | | ___  _ __ ___   ___',
  'Welcome to the Home Assistant command line interface.',
  '',
  'Home Assistant Supervisor is running!',
  'System information:',
  '  IPv4 addresses for enp1s0: 192.168.10.2/24',
  '  OS Version:               Home Assistant OS 17.0',
  'System is ready! Use browser or app to configure.',
].join('\n');

describe("a login banner before every command's output", () => {
  it('is told once, of the machine, by a line of its words', () => {
    const b = new SessionBuilder({ format: 'codex', agent: 'codex' }).user('find the broadcast script');
    for (const [c, out] of [['ls -la /config', 'scripts.yaml'], ['grep -n tts /config/scripts.yaml', '12: tts'], ['ha core check', ''], ['ls /config/packages', 'x.yaml']] as const) b.tool('shell_command', { command: c }, `\n${BANNER}\n${out}`);
    const [item] = loginBannerDrafts(viewOf(b.build()));
    expect(item).toMatchObject({ scope: 'global', category: 'tool-quirk', title: 'Every command here opens with the Home Assistant command line interface banner' });
    expect(item!.text).toBe(
      "Every command run through `shell_command` here opened with the same 9-line banner (`Welcome to the Home Assistant command line interface.`) before its own output: the shell's login message, not the command's. Read a command's result after it (a command that prints nothing shows only the banner), and judge it by its exit code.",
    );
    expect(item!.text).not.toContain('192.168');
  });

  it('is not told of one command run again, nor of outputs that share a short head', () => {
    const again = new SessionBuilder().user('watch the tests');
    for (let i = 0; i < 4; i++) again.bash('npm test', `${BANNER}\n${i} passed`);
    expect(loginBannerDrafts(viewOf(again.build()))).toEqual([]);
    const short = new SessionBuilder().user('look around');
    for (const c of ['ls', 'git status', 'cat a.txt', 'pwd']) short.bash(c, `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${c} output`);
    expect(loginBannerDrafts(viewOf(short.build()))).toEqual([]);
  });
});
