import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, startGrpcServer, type GrpcServer } from '@civicgraph/kit';
import { SERVICE_SETTINGS } from '@civicgraph/stack';
import { composeProblems, interpolation, readCompose, type ComposeService } from './deploy/compose.js';
import { dockerIgnores, readDockerfile, readDockerignore } from './deploy/dockerfile.js';

// The image and docker-compose.yml, checked without a Docker engine (none here): the compose
// file against the Compose Specification and against each service's settings, the Dockerfile
// and .dockerignore by reading them, and the image's health check script by running it.
const root = fileURLToPath(new URL('../..', import.meta.url));
const processes = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'src', 'main.ts')),
);
const workspaces = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'package.json')),
);

/** Each service process's required settings (no default: the process does not start without them). */
const required = SERVICE_SETTINGS.map((s) => ({
  service: s.service,
  variables: s
    .rows()
    .filter(([, def]) => def === 'required')
    .map(([v]) => v),
}));
/** Every secret any process reads. */
const sensitive = new Set(
  SERVICE_SETTINGS.flatMap((s) => Object.entries(s.specs).filter(([, spec]) => spec.sensitive === true)).map(
    ([v]) => v,
  ),
);
/** The settings that choose where a process listens. */
const bindHosts = SERVICE_SETTINGS.flatMap((s) => s.rows().map(([v, def]) => ({ v, def }))).filter(({ v }) =>
  /^(HOST|[A-Z]+_GRPC_HOST)$/.test(v),
);

const runs = (command: string[] | string | undefined, name: string) =>
  [command].flat().join(' ').includes(`services/${name}/dist/main.js`);

describe('docker-compose.yml', () => {
  const compose = readCompose(join(root, 'docker-compose.yml'));
  const services = Object.entries(compose.services);
  const service = (name: string) => services.find(([, s]) => runs(s.command, name))!;
  const dependsOn = (s: ComposeService) => (Array.isArray(s.depends_on) ? {} : (s.depends_on ?? {}));

  it('follows the Compose Specification, and the check refuses a misspelt key', () => {
    expect(composeProblems(compose)).toEqual([]);
    expect(composeProblems(readCompose(join(root, 'deploy/docker/compose.mirror.yml')))).toEqual([]);
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    broken.services['geo']!['healthchek'] = broken.services['geo']!['healthcheck'];
    expect(composeProblems(broken)).toContainEqual(expect.stringContaining('healthchek'));
  });

  it('runs every service process', () => {
    for (const name of processes)
      expect(
        services.some(([, s]) => runs(s.command, name)),
        name,
      ).toBe(true);
  });

  it('gives every service process each setting it requires', () => {
    expect(required.flatMap((r) => r.variables)).toContain('GEO_ADDR');
    for (const { service: name, variables } of required) {
      const [, s] = service(name);
      for (const variable of variables) expect(s.environment?.[variable], `${name} ${variable}`).toBeDefined();
    }
  });

  it('requires every secret of the environment rather than defaulting it', () => {
    const secrets = services.flatMap(([name, s]) =>
      Object.entries(s.environment ?? {})
        .filter(([k]) => sensitive.has(k) || k === 'ARANGO_ROOT_PASSWORD')
        .map(([k, v]) => ({ name, k, v, i: interpolation(v) })),
    );
    expect(secrets.map((s) => s.k)).toEqual(expect.arrayContaining(['CIVIC_CURSOR_SECRET', 'CIVIC_KEY_PEPPER']));
    for (const { name, k, v, i } of secrets) {
      expect(i, `${name} ${k}=${v}: a literal secret`).toBeDefined();
      // An empty fallback leaves a feature off (CIVIC_ADMIN_TOKEN: no admin API); none is a weak secret.
      expect(i!.required || i!.fallback === '', `${name} ${k}=${v}`).toBe(true);
    }
    for (const k of ['CIVIC_CURSOR_SECRET', 'CIVIC_KEY_PEPPER', 'ARANGO_PASSWORD', 'ARANGO_ROOT_PASSWORD'])
      for (const { name, v } of secrets.filter((s) => s.k === k))
        expect(interpolation(v)?.required, `${name} ${k}`).toBe(true);
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    for (const { i } of secrets.filter((s) => s.i?.required))
      expect(example).toMatch(new RegExp(`^${i!.variable}=`, 'm'));
  });

  it('points the gateway at each upstream where it listens', () => {
    const gateway = compose.services['gateway']!.environment!;
    for (const [variable, address] of Object.entries(gateway).filter(([k]) => k.endsWith('_ADDR'))) {
      const [host, port] = address.split(':');
      const upstream = compose.services[host!];
      expect(upstream, `${variable} → ${address}`).toBeDefined();
      expect(
        Object.entries(upstream!.environment ?? {}).some(([k, v]) => k.endsWith('_GRPC_PORT') && v === port),
        `${variable} → ${address}`,
      ).toBe(true);
    }
    expect(gateway['INGEST_ADDR']).toBe('ingest:50056');
  });

  it('checks the health of every container with a command its image has, and starts each after what it needs is healthy', () => {
    for (const [name, s] of services) expect(s.healthcheck?.test, name).toBeDefined();
    for (const name of processes) {
      const [key, s] = service(name);
      const env = s.environment ?? {};
      const port = Object.entries(env).find(([k]) => k.endsWith('_GRPC_PORT'))?.[1];
      const expected = port === undefined ? ['http', env['PORT'], '/readyz'] : ['grpc', port];
      expect(s.healthcheck!.test, key).toEqual(['CMD', 'node', 'deploy/docker/healthcheck.mjs', ...expected]);
    }
    for (const [name, s] of services) {
      expect(Array.isArray(s.depends_on), `${name}: depends_on without conditions`).toBe(false);
      for (const [dep, { condition }] of Object.entries(dependsOn(s))) {
        expect(condition, `${name} → ${dep}`).toBe('service_healthy');
        expect(compose.services[dep]?.healthcheck, `${name} → ${dep}`).toBeDefined();
      }
    }
    // Each process waits for what it calls and for the bus.
    for (const [name, s] of services.filter(([, s]) => s.environment?.['NATS_URL'] !== undefined))
      expect(Object.keys(dependsOn(s)), name).toEqual(
        expect.arrayContaining([
          ...Object.values(s.environment!)
            .filter((v) => /^[a-z]+:\d+$/.test(v))
            .map((v) => v.split(':')[0]),
          ...(name === 'ingest' ? [] : ['nats']),
        ]),
      );
  });

  it('runs NATS with JetStream on a volume, its health asked of the monitoring port with the wget of its alpine image', () => {
    const nats = compose.services['nats']!;
    const args = nats.command!;
    expect(args).toContain('-js');
    const store = args[args.indexOf('-sd') + 1];
    expect(nats.volumes?.some((v) => v.endsWith(`:${store}`) && v.split(':')[0]! in (compose.volumes ?? {}))).toBe(
      true,
    );
    const monitor = args[args.indexOf('-m') + 1];
    expect(monitor).toMatch(/^\d+$/);
    const [form, tool, ...rest] = nats.healthcheck!.test;
    expect([form, tool]).toEqual(['CMD', 'wget']);
    expect(rest.at(-1)).toBe(`http://127.0.0.1:${monitor}/healthz`);
    // The default nats image is FROM scratch: no wget, no shell. The alpine variant has busybox.
    expect(nats.image).toMatch(/^nats:[\d.]+-alpine$/);
  });

  it('keeps the graph in ArangoDB and every other store on a named volume', () => {
    const [, graph] = service('graph');
    expect(graph.environment).toMatchObject({ GRAPH_STORE: 'arangodb' });
    const arango = new URL(graph.environment!['ARANGO_URL']!);
    expect(compose.services[arango.hostname]?.image).toMatch(/^arangodb:/);
    expect(compose.services[arango.hostname]?.volumes?.some((v) => v.endsWith(':/var/lib/arangodb3'))).toBe(true);
    for (const [name, s] of services.filter(([, s]) => s.environment?.['CIVIC_DATA_DIR'] !== undefined)) {
      const dir = s.environment!['CIVIC_DATA_DIR']!;
      const volume = s.volumes?.find((v) => v.endsWith(`:${dir}`))?.split(':')[0];
      if (name === 'graph') expect(s.tmpfs, 'graph: its /data is scratch').toContain(dir);
      else expect(volume && volume in (compose.volumes ?? {}), `${name}: a named volume at ${dir}`).toBe(true);
    }
    const redis = new URL(compose.services['gateway']!.environment!['RATE_LIMIT_REDIS_URL']!);
    expect(compose.services[redis.hostname]?.image).toMatch(/^redis:/);
  });

  it('scales the gateway: no host port of its own, the proxy publishes one and follows every replica', () => {
    const gateway = compose.services['gateway']!;
    expect(gateway.ports).toBeUndefined();
    expect(gateway.expose).toEqual([gateway.environment!['PORT']]);
    const published = services.filter(([, s]) => s.ports !== undefined);
    expect(published.map(([name]) => name)).toEqual(['proxy']);
    const caddyfile = readFileSync(join(root, 'deploy/docker/Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(new RegExp(`dynamic a gateway ${gateway.environment!['PORT']}\\b`));
    expect(compose.services['proxy']!.volumes).toContain('./deploy/docker/Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('gives the ingest service the graph and geo services to import through, and a volume of its own', () => {
    const ingest = compose.services['ingest']!;
    expect(ingest.environment).toMatchObject({ GRAPH_ADDR: 'graph:50053', GEO_ADDR: 'geo:50051' });
    for (const k of ['GRAPH_STORE', 'ARANGO_URL']) expect(ingest.environment![k], k).toBeUndefined();
    const volume = (s: string) => compose.services[s]!.volumes?.find((v) => v.endsWith(':/data'));
    expect(volume('ingest')).toBeDefined();
    for (const other of ['geo', 'graph', 'results']) expect(volume('ingest'), other).not.toBe(volume(other));
  });
});

describe('deploy/docker/Dockerfile', () => {
  const { stages } = readDockerfile(join(root, 'deploy/docker/Dockerfile'));
  const runtime = stages.at(-1)!;
  const ops = (op: string) => runtime.instructions.filter((i) => i.op === op).map((i) => i.args);

  it('installs every workspace', () => {
    const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
    for (const name of workspaces)
      expect(dockerfile, name).toContain(`COPY services/${name}/package.json services/${name}/`);
  });

  it('builds in stages on an LTS line of Node, and runs as an unprivileged user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages.filter((s) => s.from.startsWith('node:'))) {
      const major = Number(/^node:(\d+)/.exec(s.from)?.[1]);
      expect(major % 2, `${s.from}: odd majors are never LTS`).toBe(0);
      expect(major, s.from).toBeGreaterThanOrEqual(24);
    }
    expect(runtime.from).toMatch(/^node:/);
    const [user] = ops('USER').at(-1)!.split(':');
    expect(user).toMatch(/^\d+$/); // numeric, so runAsNonRoot can verify it
    expect(Number(user)).not.toBe(0);
    expect(ops('COPY').every((c) => c.startsWith('--from='))).toBe(true);
  });

  it('makes every process listen on all interfaces in the container, while the settings keep loopback as the default', () => {
    expect(bindHosts.length).toBeGreaterThanOrEqual(processes.length);
    const env = ops('ENV').join(' ');
    for (const { v, def } of bindHosts) {
      expect(def, `${v}: bare-metal default`).toBe('127.0.0.1');
      expect(env, v).toMatch(new RegExp(`\\b${v}=0\\.0\\.0\\.0\\b`));
    }
  });

  it('keeps host builds, installs, git and data out of the context, and everything the Dockerfile copies in it', () => {
    const ignore = readDockerignore(join(root, '.dockerignore'));
    for (const path of ['node_modules', 'services/geo/node_modules', 'services/geo/dist', 'protos/dist', '.git'])
      expect(dockerIgnores(ignore, path), path).toBe(true);
    for (const path of ['.civicgraph', 'services/cli/.civicgraph', 'data/geo', 'coverage', '.env'])
      expect(dockerIgnores(ignore, path), path).toBe(true);
    const copied = stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from='))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(copied).toContain('test/package.json');
    for (const path of copied) {
      expect(existsSync(join(root, path)), path).toBe(true);
      expect(dockerIgnores(ignore, path), path).toBe(false);
    }
    for (const path of ['services/geo/src/main.ts', 'deploy/docker/healthcheck.mjs', 'protos/graphql'])
      expect(dockerIgnores(ignore, path), path).toBe(false);
  });
});

describe('deploy/docker/healthcheck.mjs', () => {
  const script = join(root, 'deploy/docker/healthcheck.mjs');
  const check = (...args: string[]) =>
    promisify(execFile)(process.execPath, [script, ...args]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
  let grpc: GrpcServer | undefined;
  afterAll(() => grpc?.stop(100));

  it('passes a gRPC server only once it reports SERVING', async () => {
    grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [], log: createLogger('test', 'silent') });
    const before = await check('grpc', String(grpc.port));
    expect(before).toMatchObject({ code: 1, stderr: expect.stringContaining('NOT_SERVING') });
    grpc.markServing();
    expect(await check('grpc', String(grpc.port))).toMatchObject({ code: 0 });
  });

  it('passes an HTTP server only on a 2xx, and fails when nothing listens', async () => {
    let status = 503;
    const server = createServer((_req, res) => res.writeHead(status).end()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await check('http', String(port), '/readyz')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('503'),
      });
      status = 200;
      expect(await check('http', String(port), '/readyz')).toMatchObject({ code: 0 });
    } finally {
      server.close();
    }
    expect(await check('http', String(port), '/readyz')).toMatchObject({ code: 1 });
    expect(await check('grpc', String(port))).toMatchObject({ code: 1 });
  });
});
