#!/usr/bin/env node
/**
 * `npm test`: the type check and every Jest project of the default suite, at once. Jest starts with half a minute of
 * one-core work (the site's build, the stack's synthesis, the shared runtime) and tsc is one core's work too, so
 * running them side by side fills a two-core machine instead of queueing one behind the other. Fails when either
 * fails; tsc's findings are printed as soon as it ends and named again at the end. Arguments go to Jest.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The default suite (jest.config.cjs says what the others hold). */
const PROJECTS = ['unit', 'engine', 'infra', 'local', 'integration', 'browser'];
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command to its end: its exit code (1 when it could not start or was killed). */
function run(command, args, stdio) {
  const child = spawn(command, args, { cwd: root, stdio });
  const output = [];
  child.stdout?.on('data', (d) => output.push(d));
  child.stderr?.on('data', (d) => output.push(d));
  const done = new Promise((resolve) => {
    child.on('error', (err) => {
      output.push(Buffer.from(`${command}: ${err.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
  return { child, done, output: () => Buffer.concat(output).toString('utf8') };
}

const tsc = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], ['ignore', 'pipe', 'pipe']);
const jest = run(bin('jest'), [...process.argv.slice(2), '--selectProjects', ...PROJECTS], 'inherit');
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    tsc.child.kill(signal);
    jest.child.kill(signal);
  });

const typed = await tsc.done;
if (typed !== 0) process.stderr.write(`\nType check failed (tsc --noEmit):\n${tsc.output()}\n`);
const tested = await jest.done;
process.stderr.write(
  typed === 0 ? 'Type check passed (tsc --noEmit).\n' : 'Type check failed: see its errors above.\n',
);
process.exit(typed !== 0 ? typed : tested);
