import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TIME_SCALE } from './services/kit/src/testing/time-scale.ts';

const require = createRequire(import.meta.url);

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Workspace packages resolve to their TypeScript sources in tests, so a test never runs
// against a stale dist/. `npm test` still builds first: the build is the type check and
// end-to-end tests start the compiled `civicgraph` binary.
export default defineConfig({
  resolve: {
    alias: [
      // One graphql-js in the process, as under node: the package has no `exports`, so node
      // (and @graphql-tools, graphql-http) load its CommonJS main, while vite would pick its
      // `module` build for our sources, and graphql-js refuses objects from another copy.
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      { find: /^@civicgraph\/protos\/(?!graphql\/)(.*)$/, replacement: here('./protos/gen/$1.ts') },
      { find: /^@civicgraph\/kit\/testing$/, replacement: here('./services/kit/src/testing/index.ts') },
      { find: /^@civicgraph\/graph\/settings$/, replacement: here('./services/graph/src/store/store-settings.ts') },
      {
        find: /^@civicgraph\/(kit|geo|graph|results|auth|gateway|webhooks|ingest|stack|cli)$/,
        replacement: here('./services/$1/src/index.ts'),
      },
    ],
  },
  test: {
    // Deadlines stretch on a loaded machine instead of failing: CIVIC_TEST_TIME_SCALE=3 triples
    // them, and the deadlines tests write themselves through `scaled` (@civicgraph/kit/testing).
    testTimeout: 30_000 * TIME_SCALE,
    hookTimeout: 60_000 * TIME_SCALE,
    pool: 'forks',
    // Two test files at a time, even on two cores (vitest's default there is one): most files
    // spend their time waiting on the services and processes they start, so the suite's CPU
    // time was ~1 core of its wall time run one file at a time. VITEST_MAX_WORKERS overrides.
    maxWorkers: 2,
    reporters: ['default', './test/harness/summary-reporter.ts'],
    // The tiers, by suffix (README, Test tiers): `vitest run --project <name>`.
    projects: [
      tier(
        'unit',
        ['**/*.test.ts'],
        ['**/*.data.test.ts', '**/*.int.test.ts', '**/*.e2e.test.ts', '**/*.abuse.test.ts', '**/*.bench.test.ts'],
        // Unit files start no services and share no state outside temp files, so a worker keeps
        // its loaded modules from file to file: importing them afresh per file was two thirds
        // of the tier's time (103 s → 30 s here).
        { isolate: false },
      ),
      tier('data', ['**/*.data.test.ts']),
      // Integration and abuse files start their own stacks and stop them, and what they share in
      // a process is made to be shared (the metrics registry, read by deltas; tracing, which a
      // stopped lifecycle turns off again), so a worker keeps its loaded services from file to
      // file too: importing every service's sources afresh per file was most of what those
      // tiers spent outside their tests.
      tier('integration', ['**/*.int.test.ts'], [], { isolate: false }),
      tier('e2e', ['**/*.e2e.test.ts']),
      tier('abuse', ['**/*.abuse.test.ts'], [], { isolate: false }),
      tier('bench', ['**/*.bench.test.ts']),
    ],
  },
});

/** One test tier: the roots every tier searches, narrowed by file suffix. */
function tier(name: string, suffixes: string[], exclude: string[] = [], options: { isolate?: boolean } = {}) {
  const roots = ['services/*/src/', 'services/*/test/', 'services/*/web/src/', 'test/', 'scripts/'];
  return {
    extends: true,
    test: {
      name,
      ...options,
      include: roots.flatMap((root) => suffixes.map((suffix) => `${root}${suffix}`)),
      exclude: ['**/node_modules/**', '**/dist/**', ...exclude],
    },
  };
}
