#!/usr/bin/env node
import { Command } from 'commander';
import { runCli } from './run.js';

const program = new Command();
// REGISTER-COMMANDS: each command module adds itself here with one line.

await runCli(program, process.argv);
