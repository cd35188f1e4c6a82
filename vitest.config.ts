import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
      { find: /^@civicgraph\/kit\/testing$/, replacement: here('./services/kit/src/testing.ts') },
      { find: /^@civicgraph\/(kit|geo|graph|results|auth|gateway|webhooks|ingest|cli)$/, replacement: here('./services/$1/src/index.ts') },
    ],
  },
  test: {
    include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/harness/summary-reporter.ts'],
  },
});
