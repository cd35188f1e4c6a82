#!/usr/bin/env node
// Runs npm scripts side by side (`node scripts/parallel.mjs typecheck:tests lint …`): the
// checks `npm test` makes after the build are independent, and on two cores running them
// together takes about half as long as one after another. Each script's output is printed
// whole when it ends, so logs do not interleave; the exit code is 1 if any script failed.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/parallel.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const text = Buffer.concat(output).toString();
      if (text !== '') process.stdout.write(`\n> ${script}\n${text}`);
      if (code !== 0) process.stderr.write(`\n${script} failed (${signal ?? `exit ${code}`})\n`);
      resolve(code === 0);
    });
  });

const results = await Promise.all(scripts.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
