import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The compiled service processes, as deployments run them (`npm test` builds first).
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (service: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [`services/${service}/dist/main.js`, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });

describe('a service process', () => {
  it('prints its settings table with --settings, and starts nothing', () => {
    const out = run('gateway', ['--settings']);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/GEO_ADDR\s+required\s+the geo service/);
    expect(out.stdout).toMatch(/PORT\s+8080\s+HTTP port/);
  });

  it('exits at start naming every missing upstream address, with no default address tried', () => {
    const out = run('gateway', [], { PORT: '0', AUTH_ADDR: '127.0.0.1:1' });
    expect(out.status).toBe(1);
    for (const variable of ['GEO_ADDR', 'GRAPH_ADDR', 'RESULTS_ADDR']) expect(out.stdout, variable).toContain(variable);
    expect(out.stdout).not.toContain('AUTH_ADDR:');
  });

  it('exits at start naming a malformed setting', () => {
    const out = run('webhooks', [], { WEBHOOKS_GRPC_PORT: 'eighty' });
    expect(out.status).toBe(1);
    expect(out.stdout).toMatch(/WEBHOOKS_GRPC_PORT: expected an integer, got \\"eighty\\"/);
  });
});
