import 'reflect-metadata';
import { runCli } from './run-cli';

// Argument parsing, the store and output live beside this file; main only wires the process to them.
runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r\x1b[2K${line}`) : undefined,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
