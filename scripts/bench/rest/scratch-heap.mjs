import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from '../geo/http.mjs';
import { withDemoStack, nextGeneral } from './main.mjs';
const progress = (m) => process.stderr.write(`[scratch] ${m}\n`);
process.execArgv.push('--heapsnapshot-signal=SIGUSR2', '--diagnostic-dir=/work/scratch/heap');
await withDemoStack(
  'scratch',
  { points: 4000, cpuPoints: 10, rounds: 1, coldPoints: 3000 },
  progress,
  async (stack, bare, prep, work) => {
    const date = await nextGeneral(stack.url, stack.key);
    const q = join(work, 'q.txt');
    writeFileSync(q, prep.queries.main.map((x) => `${x}&date=${date}`).join('\n') + '\n');
    await load(
      { url: stack.url, key: stack.key, path: '/v1/ballot', connections: 32, duration: 10, queries: q, seed: 8 },
      60000,
      stack.probe,
    );
    const pid = execSync('pgrep -f stack-main.mjs').toString().trim().split('\n')[0];
    await stack.probe.gc?.();
    process.kill(Number(pid), 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 60000));
  },
  { demoCache: '/work/scratch/smoke/demo' },
);
