import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@civicgraph/kit/testing';
import { killGroups, runInGroup } from '../harness/process-group.js';

/**
 * The bench smoke tier: the REST, GraphQL, Cypher, export and tracing benchmarks, run end to end at the
 * smallest settings (one round of one second, a handful of points, a thousand candidacies),
 * write a complete report to a file of their own. They assert no timing: a benchmark that no longer runs, or whose
 * report no longer renders, fails here instead of on the next `npm run bench`. bench:rest and bench:graphql share
 * one prepared demo graph (BENCH_DEMO_CACHE): whichever runs first loads it, the other copies it.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'civic-bench-smoke-'));
const DEMO_CACHE = join(work, 'demo');
const BENCH_TIMEOUT_MS = scaled(300_000);
afterAll(() => {
  killGroups(); // a benchmark still running when its test gave up
  rmSync(work, { recursive: true, force: true });
});

/** Runs a bench script; it and every server it started are gone when this resolves, timed out or not. */
async function runBench(
  script: string,
  env: Record<string, string>,
): Promise<{ status: number | null; report: string; stderr: string }> {
  const output = join(work, `${script}.md`);
  const run = await runInGroup(process.execPath, [join(ROOT, 'scripts/bench', `${script}.mjs`)], {
    cwd: ROOT,
    env: { ...process.env, ...env, BENCH_OUTPUT: output },
    timeoutMs: BENCH_TIMEOUT_MS,
  });
  let report = '';
  try {
    report = readFileSync(output, 'utf8');
  } catch {
    // No report: the status and stderr say why.
  }
  const why = run.timedOut ? `killed after ${BENCH_TIMEOUT_MS} ms, its servers with it\n` : '';
  return { status: run.status, report, stderr: why + run.stderr.slice(-2_000) };
}

describe('the benchmarks, at their smallest', () => {
  it(
    'bench:rest writes its section: targets, saturated, paced and CPU tables',
    async () => {
      const run = await runBench('rest', {
        BENCH_REST_POINTS: '40',
        BENCH_REST_SECONDS: '1',
        BENCH_REST_ROUNDS: '1',
        BENCH_REST_WARMUP: '0',
        BENCH_REST_CONNECTIONS: '4',
        BENCH_REST_RATE: '20',
        BENCH_REST_CPU_POINTS: '10',
        BENCH_REST_CPU_PASSES: '1',
        BENCH_REST_CPU_CONNECTIONS: '1',
        BENCH_REST_CPU_QUIET_MS: '50',
        BENCH_DEMO_CACHE: DEMO_CACHE,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.report).toContain('<!-- bench:rest:start -->');
      expect(run.report).toContain('<!-- bench:rest:end -->');
      expect(run.report).toMatch(/\| `\/v1\/ballot` on the demo data: p99 ≤ 15 ms/);
      expect(run.report).toMatch(/on points never asked before[^|]*; one process \|/);
      expect(run.report).toMatch(/on points never asked before[^|]*; separate processes, as deployed \|/);
      expect(run.report).toMatch(/### Where a never-asked ballot's time goes/);
      expect(run.report).toMatch(/\| civicgraph gateway \| [\d.,]+ \| [\d.,]+ \| \d+ % \|/);
      expect(run.report).toMatch(/\| \*\*busy\*\* \| \*\*[\d.,]+\*\* \|/);
    },
    scaled(320_000),
  );

  it(
    'bench:graphql writes its section: targets, the neighbour and the refusals',
    async () => {
      const run = await runBench('graphql', {
        BENCH_GQL_POINTS: '40',
        BENCH_GQL_SECONDS: '1',
        BENCH_GQL_ROUNDS: '1',
        BENCH_GQL_WARMUP: '0',
        BENCH_GQL_CONNECTIONS: '4',
        BENCH_GQL_RATE: '20',
        BENCH_GQL_REFUSALS: '10',
        BENCH_GQL_QUIET_MS: '50',
        BENCH_DEMO_CACHE: DEMO_CACHE,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.report).toContain('<!-- bench:graphql:start -->');
      expect(run.report).toMatch(/`ballotAtPoint` with the spec's nested selection: p99 ≤ 30 ms/);
      expect(run.report).toMatch(/a hostile self-serve key[^|]*; one process \|/);
      expect(run.report).toMatch(/a hostile self-serve key[^|]*; separate processes, as deployed \|/);
      expect(run.report).toMatch(/never asked before[^|]*; separate processes, as deployed \|/);
    },
    scaled(320_000),
  );

  it(
    'bench:cypher writes its section: targets, the three engines, memory and where the time goes',
    async () => {
      const run = await runBench('cypher', {
        BENCH_CYPHER_CANDIDACIES: '1000',
        BENCH_CYPHER_RUNS: '1',
        BENCH_CYPHER_WARMUP: '0',
        BENCH_CYPHER_PROFILE_DIR: work,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.report).toContain('<!-- bench:cypher:start -->');
      expect(run.report).toContain('<!-- bench:cypher:end -->');
      expect(run.report).toMatch(/\| q1, candidacies per party per state: ≤ 3× kuzu \| median /);
      expect(run.report).toMatch(/\| q2: memory bounded by the budget \| [\d,]+ of 5,000,000 rows examined/);
      expect(run.report).toMatch(/### Where civicgraph's time goes: q2/);
      expect(run.report).toMatch(/### Method/);
    },
    scaled(320_000),
  );

  it(
    'bench:export writes its section: targets, the exports against COPY TO, the files',
    async () => {
      const run = await runBench('export', { BENCH_EXPORT_CANDIDACIES: '1000', BENCH_EXPORT_RUNS: '1' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.report).toContain('<!-- bench:export:start -->');
      expect(run.report).toContain('<!-- bench:export:end -->');
      expect(run.report).toMatch(
        /\| full export in all formats within 2× PostgreSQL `COPY … TO` CSV of the same rows \| /,
      );
      expect(run.report).toMatch(/\| the worker's memory under 300 MB \| peak anonymous memory [\d.]+ MB/);
      expect(run.report).toMatch(/\| candidacy\.parquet \| 1,000 \| /);
      expect(run.report).toMatch(/### Method/);
    },
    scaled(320_000),
  );

  it(
    'bench:tracing writes its section: off, on and sampled, and the cost of the off check',
    async () => {
      const run = await runBench('tracing', {
        BENCH_TRACING_ROUNDS: '1',
        BENCH_TRACING_SECONDS: '1',
        BENCH_TRACING_CALLS: '1000',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.report).toContain('<!-- bench:tracing:start -->');
      expect(run.report).toContain('<!-- bench:tracing:end -->');
      for (const mode of ['off (default)', 'on, every trace', 'on, 1% of traces'])
        expect(run.report).toMatch(
          new RegExp(`\\| ${mode.replace(/[(),%]/g, '\\$&')} \\| \\d+ \\| [\\d.]+ \\| [\\d,]+ \\|`),
        );
      expect(run.report).toMatch(/\*\*[\d.]+ ns\*\* a call here/);
    },
    scaled(320_000),
  );
});
