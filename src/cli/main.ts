#!/usr/bin/env node
import type { Command as CommandType } from 'commander';
import { Command } from 'commander';
import { runCli } from './run.js';

/**
 * Command modules are loaded only when their command runs (all of them for help or an unknown
 * name): `compound bootstrap` starts every agent session and must not pay for the git, YAML and
 * front-matter libraries the other commands import.
 */
const COMMANDS: Record<string, () => Promise<{ register(program: CommandType): void }>> = {
  // REGISTER-COMMANDS: each command module adds itself here with one line: name, then its module.
  sessions: () => import('./sessions.js'),
  sample: () => import('./sample.js'),
  init: () => import('./init.js'),
  check: () => import('./check.js'),
  reindex: () => import('./reindex.js'),
  list: () => import('./list.js'),
  show: () => import('./show.js'),
  harvest: () => import('./harvest.js'),
  bootstrap: () => import('./bootstrap.js'),
  measure: () => import('./measure.js'),
  repos: () => import('./repos.js'),
  pr: () => import('./pr.js'),
  capture: () => import('./capture.js'),
  review: () => import('./review.js'),
};

/** The command named on the command line: the first word that is not an option or its value. */
function commandName(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C' || a === '--cwd') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

// `compound check | head`: a reader that closes the pipe early ends the output, not the command
// (no stack trace; the work and the exit code are the same as without the pipe).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

const program = new Command();
const named = commandName(process.argv.slice(2));
const loaders = named !== undefined && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]!] : Object.values(COMMANDS);
for (const module of await Promise.all(loaders.map((load) => load()))) module.register(program);

await runCli(program, process.argv);
