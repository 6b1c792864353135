/**
 * The one top-level handler: every error becomes "what happened, why, what to do" on stderr and
 * a documented exit code (0 ok, 1 problems found, 2 usage error, 3 runtime failure).
 */
import { existsSync, statSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CompoundError, EXIT, UsageError, type ExitCode } from '../core/errors.js';
import { note, style } from './io.js';
import { VERSION } from '../core/version.js';

export function formatError(err: unknown): { text: string; exitCode: ExitCode } {
  if (err instanceof CompoundError) {
    const lines = [`${style.red('error')} [${err.code}]: ${err.message}`];
    if (err.why) lines.push(`  why: ${err.why}`);
    if (err.fix) lines.push(`  fix: ${err.fix}`);
    return { text: lines.join('\n'), exitCode: err.exitCode };
  }
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error && process.env.COMPOUND_DEBUG ? `\n${err.stack ?? ''}` : '';
  return {
    text:
      `${style.red('error')} [E_INTERNAL]: ${message}\n` +
      `  why: an unexpected internal failure\n` +
      `  fix: rerun with COMPOUND_DEBUG=1 for a stack trace and report it${stack}`,
    exitCode: EXIT.runtime,
  };
}

export async function runCli(program: Command, argv: string[]): Promise<void> {
  program
    .name('compound')
    .description(
      'Harvest knowledge from finished AI coding-agent sessions into a reviewed, git-tracked knowledge base, and bootstrap the next session with what matters, within a token budget.\n\n' +
        'Exit codes: 0 ok, 1 problems found, 2 usage error, 3 runtime failure.',
    )
    .version(VERSION, '-V, --version')
    .option('-C, --cwd <dir>', 'run as if started in <dir>')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });
  program.hook('preAction', (thisCommand) => {
    const dir = thisCommand.opts<{ cwd?: string }>().cwd;
    if (dir) {
      // a directory that is not there is the user's slip, not an internal failure
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`-C ${dir}: no such directory`, { fix: 'pass an existing directory' });
      process.chdir(dir);
    }
  });
  for (const sub of program.commands) sub.exitOverride();

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version are not errors
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        process.exitCode = EXIT.ok;
        return;
      }
      process.exitCode = EXIT.usage;
      return;
    }
    const { text, exitCode } = formatError(err);
    note(text);
    process.exitCode = exitCode;
  }
}

/** Wraps a command action so its returned exit code becomes the process exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<ExitCode | void> | ExitCode | void) {
  return async (...args: A): Promise<void> => {
    const code = await fn(...args);
    if (code !== undefined && code !== EXIT.ok) process.exitCode = code;
  };
}
