#!/usr/bin/env node
import { Command } from 'commander';
import { runCli } from './run.js';
import { register as registerSessions } from './sessions.js';
import { register as registerSample } from './sample.js';
import { register as registerInit } from './init.js';
import { register as registerCheck } from './check.js';
import { register as registerReindex } from './reindex.js';
import { register as registerList } from './list.js';
import { register as registerShow } from './show.js';

const program = new Command();
// REGISTER-COMMANDS: each command module adds itself here with one line.
registerSessions(program);
registerSample(program);
registerInit(program);
registerCheck(program);
registerReindex(program);
registerList(program);
registerShow(program);

await runCli(program, process.argv);
