import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_SETTINGS } from '@civicgraph/stack';

// Every service process runs in compose and Kubernetes as it runs in `civicgraph up`: a
// service added to the repository and left out of a deployment fails here, not in production.
const root = fileURLToPath(new URL('../..', import.meta.url));
const processes = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'src', 'main.ts')),
);
const workspaces = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'package.json')),
);

interface Container {
  name: string;
  command?: string[];
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: any;
}

/** Each service process's required settings (no default: the process does not start without them). */
const required = SERVICE_SETTINGS.map((s) => ({
  service: s.service,
  variables: s
    .rows()
    .filter(([, def]) => def === 'required')
    .map(([v]) => v),
}));

const runs = (command: string[] | string | undefined, name: string) =>
  [command].flat().join(' ').includes(`services/${name}/dist/main.js`);

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[] }>;
  };
  const services = Object.entries(compose.services);

  it('runs every service process', () => {
    for (const name of processes)
      expect(
        services.some(([, s]) => runs(s.command, name)),
        name,
      ).toBe(true);
  });

  it('gives every service process each setting it requires', () => {
    expect(required.flatMap((r) => r.variables)).toContain('GEO_ADDR');
    for (const { service, variables } of required) {
      const [, s] = services.find(([, s]) => runs(s.command, service))!;
      for (const variable of variables) expect(s.environment?.[variable], `${service} ${variable}`).toBeDefined();
    }
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
  it('installs every workspace', () => {
    const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
    for (const name of workspaces)
      expect(dockerfile, name).toContain(`COPY services/${name}/package.json services/${name}/`);
  });
});

const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(
      '\n*** kubectl is not installed: the Kubernetes manifest checks are SKIPPED (apt install kubectl) ***\n',
    );
    return false;
  }
})();

describe.skipIf(!kubectl)('deploy/k8s (kubectl kustomize overlays/local)', () => {
  const manifests = () =>
    parseAllDocuments(
      execFileSync('kubectl', ['kustomize', join(root, 'deploy/k8s/overlays/local')], { encoding: 'utf8' }),
    ).map((d) => d.toJS() as Manifest);
  const workloads = (all: Manifest[]) => all.filter((m) => ['Deployment', 'StatefulSet'].includes(m.kind));
  const containers = (m: Manifest): Container[] => m.spec.template.spec.containers;

  it('renders, and runs every service process', () => {
    const all = workloads(manifests());
    for (const name of processes)
      expect(
        all.some((w) => containers(w).some((c) => runs(c.command, name))),
        name,
      ).toBe(true);
  });

  it('gives every service process each setting it requires', () => {
    const all = workloads(manifests());
    for (const { service, variables } of required) {
      const container = all.flatMap(containers).find((c) => runs(c.command, service))!;
      for (const variable of variables)
        expect(container.env?.find((e) => e.name === variable)?.value, `${service} ${variable}`).toBeDefined();
    }
  });

  it('points the gateway at each upstream through a Service that routes to its port', () => {
    const all = manifests();
    const gateway = containers(workloads(all).find((w) => w.metadata.name === 'gateway')!)[0]!;
    const addresses = (gateway.env ?? []).filter((e) => e.name.endsWith('_ADDR') && e.value !== undefined);
    expect(addresses.map((e) => e.name)).toContain('INGEST_ADDR');
    for (const { name, value } of addresses) {
      const [host, port] = value!.split(':');
      const service = all.find((m) => m.kind === 'Service' && m.metadata.name === host);
      expect(service, `${name} → ${value}`).toBeDefined();
      const servicePort = service!.spec.ports.find((p: { port: number }) => p.port === Number(port));
      expect(servicePort, `${name} → ${value}`).toBeDefined();
      const pod = workloads(all).find((w) =>
        Object.entries(service!.spec.selector).every(([k, v]) => w.spec.template.metadata.labels[k] === v),
      )!;
      const target = containers(pod)
        .flatMap((c) => c.ports ?? [])
        .find((p) => p.name === servicePort.targetPort || p.containerPort === servicePort.targetPort);
      expect(target, `${name} → ${value}: the pod has no port ${servicePort.targetPort}`).toBeDefined();
    }
  });

  it('runs the ingest service in a pod of its own, importing through the graph and geo Services', () => {
    const all = workloads(manifests());
    const ingest = all.find((w) => containers(w).some((c) => runs(c.command, 'ingest')))!;
    expect(containers(ingest).map((c) => c.name)).toEqual(['ingest']);
    const env = Object.fromEntries((containers(ingest)[0]!.env ?? []).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ GRAPH_ADDR: 'graph:50053', GEO_ADDR: 'geo:50051' });
    const geo = all.find((w) => containers(w).some((c) => runs(c.command, 'geo')))!;
    expect(geo).not.toBe(ingest);
  });
});
