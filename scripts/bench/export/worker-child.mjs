// One export in a process of its own, as a worker runs it: the LMDB store's snapshot read
// without loading the graph into memory (LmdbSnapshots), every table written, verified and
// published by runExport. Reports the time, the files and the process's peak memory to its
// parent: anonymous memory (RssAnon: heap, buffers, native allocations — what the worker
// itself holds) sampled every 20 ms, and the RSS high-water mark, which also counts the pages
// of the LMDB file it has read (file-backed: the OS page cache, shared with the graph service).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { FsExportStorage, LmdbSnapshots, NODE_KINDS, runExport } from '@civicgraph/graph';

const operator = {
  keyId: 'key_bench',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '',
  rateLimitPerMinute: 0,
  entitlements: { contact: true, geography: true, states: [], tiers: [] },
};

process.once('message', async ({ path, formats }) => {
  let anonPeak = 0;
  const sample = () => {
    const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    anonPeak = Math.max(anonPeak, Number(kb ?? 0) * 1024);
  };
  const timer = setInterval(sample, 20);
  const out = mkdtempSync(join(tmpdir(), 'civic-bench-export-'));
  try {
    const t0 = performance.now();
    const snapshots = LmdbSnapshots.open(path);
    const snapshot = await snapshots.snapshot();
    const spec = { kinds: [...NODE_KINDS], states: [], formats, edges: true };
    const manifest = await runExport(
      snapshot,
      { id: 'exp_bench', principal: operator, spec, snapshotAt: new Date() },
      new FsExportStorage(out),
      () => {},
    );
    await snapshot.close();
    const ms = performance.now() - t0;
    await snapshots.close();
    sample();
    clearInterval(timer);
    const files = manifest.files.map((f) => ({
      name: f.name,
      format: f.format,
      rows: Number(f.rows),
      bytes: Number(f.bytes),
    }));
    process.send({ result: { ms, files, rssPeak: process.resourceUsage().maxRSS * 1024, anonPeak } }, () =>
      process.exit(0),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
