import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { scaled } from '@civicgraph/kit/testing';
import { startStack, type Stack } from '../harness/stack.js';
import { startBearerProxy, type BearerProxy } from '../harness/bearer-proxy.js';
import { agentUrl } from '../harness/mcp.js';

/**
 * The MCP conformance suite from npm (`@modelcontextprotocol/conformance`, server mode) run
 * against /v1/agent of a started civicgraph: every server scenario of its active suite,
 * with the scenarios that cannot apply to this server listed, each with its reason, in
 * agent-conformance-baseline.yml. The runner fails on any other failure, and on a listed
 * scenario that starts passing (a stale entry).
 *
 * The runner connects to a bare URL and cannot send a key, so it talks to a local proxy
 * that adds `Authorization: Bearer <key>`, as a desktop client's configured header does.
 */

const require = createRequire(import.meta.url);
const PACKAGE = require.resolve('@modelcontextprotocol/conformance/package.json');
const CLI = join(
  dirname(PACKAGE),
  (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { bin: { conformance: string } }).bin.conformance,
);
const BASELINE = join(dirname(fileURLToPath(import.meta.url)), 'agent-conformance-baseline.yml');

let stack: Stack;
let proxy: BearerProxy;
let out: string;

beforeAll(async () => {
  stack = await startStack();
  proxy = await startBearerProxy(agentUrl(stack.url), await stack.key({ plan: Plan.PLAN_BUILD }));
  out = mkdtempSync(join(tmpdir(), 'civic-mcp-conformance-'));
}, scaled(60_000));
afterAll(async () => {
  await proxy?.stop();
  await stack?.stop();
  if (out !== undefined) rmSync(out, { recursive: true, force: true });
});

/** Runs the conformance CLI; resolves with its exit code and output. */
function conformance(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: scaled(240_000) }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

/** Every check the runner wrote, by scenario directory. */
function checksByScenario(dir: string): Record<string, { id: string; status: string; errorMessage?: string }[]> {
  const found: Record<string, { id: string; status: string }[]> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('checks.json')) continue;
    found[dirname(entry)] = JSON.parse(readFileSync(join(dir, entry), 'utf8')) as { id: string; status: string }[];
  }
  return found;
}

describe('the MCP conformance suite against /v1/agent', () => {
  it(
    'passes every server scenario that applies to this server; the rest fail only as the baseline says',
    async () => {
      const run = await conformance(['server', '--url', proxy.url, '--expected-failures', BASELINE, '-o', out]);
      expect(run.code, run.output).toBe(0);
      const checks = checksByScenario(out);
      // The scenarios that must pass did run, and every check of theirs succeeded.
      const passed = Object.entries(checks).filter(([, c]) => c.every((x) => x.status !== 'FAILURE'));
      for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list'])
        expect(
          passed.some(([dir]) => dir.includes(scenario)),
          `${scenario}\n${run.output}`,
        ).toBe(true);
    },
    scaled(300_000),
  );
});
