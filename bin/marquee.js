#!/usr/bin/env node
// `marquee serve` relaunches itself with V8's memory reducer off (dist/cli/relaunch.js says why);
// only Node's own modules are loaded before that is decided.
// `marquee import` relaunches itself with glibc's malloc settings of dist/cli/relaunch.js (IMPORT_ENV).
// SIGHUP never ends `serve` (it asks for a reload): held from here, before anything else loads.
import { holdHangups, relaunch, relaunchEnv, relaunchOptions } from '../dist/cli/relaunch.js';

const argv = process.argv.slice(2);
holdHangups(argv);
const options = relaunchOptions(argv, process.execArgv, process.env);
const env = relaunchEnv(argv, process.env);
if ((options === undefined && env === undefined) || !(await relaunch(options ?? [], env))) {
  const { main } = await import('../dist/cli/main.js');
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
