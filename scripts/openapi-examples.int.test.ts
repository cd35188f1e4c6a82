import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@civicgraph/kit/testing';

// The script starts the built services (dist/) on loopback, hence the integration tier;
// `npm run check:generated` runs the same check on the committed file.
const root = fileURLToPath(new URL('..', import.meta.url));
const script = join(root, 'scripts/openapi-examples.mjs');
const examples = join(root, 'services/gateway/src/rest/openapi/examples.ts');
const tmp = mkdtempSync(join(tmpdir(), 'civic-examples-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('generated OpenAPI examples', () => {
  it(
    'the staleness check fails, naming the file, when examples.ts was edited by hand',
    () => {
      const stale = join(tmp, 'examples.ts');
      copyFileSync(examples, stale);
      appendFileSync(stale, '\n// hand edit\n');
      const run = spawnSync('node', [script, '--check', '--out', stale], {
        cwd: root,
        encoding: 'utf8',
        timeout: scaled(60_000),
      });
      expect(run.stdout).toContain(`${stale} is stale`);
      expect(run.status).toBe(1);
    },
    scaled(90_000),
  );
});
