import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_SETTINGS } from '@civicgraph/stack';
import { manifestProblems, type Manifest } from './deploy/manifest-schemas.js';
import {
  containers,
  helm,
  kubectl,
  podLabels,
  render,
  selects,
  workloads,
  type Container,
} from './deploy/kustomize.js';

// Every overlay of deploy/k8s, rendered with `kubectl kustomize` (no cluster) and validated
// against the Kubernetes schemas (deploy/manifest-schemas.ts), then checked for what running
// civicgraph needs: every process with its settings, probes, hardening, budgets, policies,
// volumes, and NATS and ArangoDB from their operators' tools rather than made here.
const root = fileURLToPath(new URL('../..', import.meta.url));
const k8s = join(root, 'deploy/k8s');
const overlays = readdirSync(join(k8s, 'overlays'));
const processes = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'src', 'main.ts')),
);
const required = SERVICE_SETTINGS.map((s) => ({
  service: s.service,
  variables: s
    .rows()
    .filter(([, def]) => def === 'required')
    .map(([v]) => v),
}));
const runs = (c: Container, name: string) => (c.command ?? []).join(' ').includes(`services/${name}/dist/main.js`);
const ours = (all: readonly Manifest[]) =>
  workloads(all).filter((w) => containers(w).some((c) => /civicgraph/.test(c.image)));
const env = (c: Container) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e]));

describe.skipIf(!kubectl)('deploy/k8s', () => {
  it('has the local and production overlays', () => {
    expect(overlays).toEqual(expect.arrayContaining(['local', 'production']));
  });

  it('renders every overlay to manifests the Kubernetes schemas accept, and the check refuses a wrong field', () => {
    const all = overlays.flatMap((o) => render(join(k8s, 'overlays', o)));
    expect(manifestProblems(all)).toEqual([]);

    const broken = structuredClone(render(join(k8s, 'overlays/local')));
    const gateway = broken.find((m) => m.kind === 'Deployment' && m.metadata.name === 'gateway')!;
    gateway.spec.template.spec.containers[0].readinessProbes = gateway.spec.template.spec.containers[0].readinessProbe;
    broken.find((m) => m.kind === 'ArangoDeployment')!.spec.single.replicas = 1;
    expect(manifestProblems(broken)).toEqual([
      expect.stringMatching(/^Deployment\/gateway: .*'"readinessProbes"' does not exist in type 'Container'/),
      expect.stringMatching(/^ArangoDeployment\/civicgraph-arangodb: \/spec\/single .*\(replicas\)/),
    ]);
  });

  describe.each(overlays)('overlays/%s', (overlay) => {
    const all = () => render(join(k8s, 'overlays', overlay));
    const namespace = () => all().find((m) => m.kind === 'Namespace')?.metadata.name;

    it('runs every service process, each with the settings it requires', () => {
      const found = ours(all()).flatMap(containers);
      for (const name of processes)
        expect(
          found.some((c) => runs(c, name)),
          name,
        ).toBe(true);
      for (const { service, variables } of required) {
        const c = found.find((c) => runs(c, service))!;
        for (const v of variables) expect(env(c)[v], `${service} ${v}`).toBeDefined();
      }
    });

    it('points each caller at a Service that routes to the port its callee listens on', () => {
      const everything = all();
      for (const caller of ours(everything)) {
        const addresses = (containers(caller)[0]!.env ?? []).filter((e) => e.name.endsWith('_ADDR') && e.value);
        for (const { name, value } of addresses) {
          const [host, port] = value!.split(':');
          const service = everything.find((m) => m.kind === 'Service' && m.metadata.name === host);
          expect(service, `${caller.metadata.name} ${name} → ${value}`).toBeDefined();
          const servicePort = service!.spec.ports.find((p: { port: number }) => p.port === Number(port));
          expect(servicePort, `${name} → ${value}`).toBeDefined();
          const pod = workloads(everything).find((w) =>
            selects({ matchLabels: service!.spec.selector }, podLabels(w)),
          )!;
          const target = containers(pod)
            .flatMap((c) => c.ports ?? [])
            .find((p) => p.name === servicePort.targetPort || p.containerPort === servicePort.targetPort);
          expect(target, `${name} → ${value}: the pod has no port ${servicePort.targetPort}`).toBeDefined();
        }
      }
      const gateway = containers(ours(everything).find((w) => w.metadata.name === 'gateway')!)[0]!;
      expect(env(gateway)['INGEST_ADDR']?.value).toBe('ingest:50056');
    });

    it('probes every container with a startup probe apart from readiness and liveness', () => {
      for (const w of workloads(all()))
        for (const c of containers(w)) {
          const where = `${w.metadata.name}/${c.name}`;
          expect(c.startupProbe, where).toBeDefined();
          expect(c.readinessProbe, where).toBeDefined();
          expect(c.livenessProbe, where).toBeDefined();
          // The startup probe carries the slow first start; liveness no longer needs a long delay.
          const startupBudget = (c.startupProbe!['periodSeconds'] ?? 10) * (c.startupProbe!['failureThreshold'] ?? 3);
          expect(startupBudget, where).toBeGreaterThanOrEqual(30);
          expect(c.livenessProbe!['initialDelaySeconds'] ?? 0, where).toBe(0);
        }
    });

    it('runs every container unprivileged on a read-only root, with resources', () => {
      for (const w of workloads(all())) {
        const pod = w.spec.template.spec;
        expect(pod.securityContext?.runAsNonRoot, w.metadata.name).toBe(true);
        expect(pod.securityContext?.seccompProfile?.type, w.metadata.name).toBe('RuntimeDefault');
        expect(pod.automountServiceAccountToken, w.metadata.name).toBe(false);
        for (const c of containers(w)) {
          const where = `${w.metadata.name}/${c.name}`;
          expect(c.securityContext, where).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          });
          expect(Object.keys(c.resources?.requests ?? {}).sort(), where).toEqual(['cpu', 'memory']);
          expect(c.resources?.limits?.['memory'], where).toBeDefined();
        }
      }
      for (const w of ours(all()))
        for (const c of containers(w))
          expect(
            c.volumeMounts?.some((m) => m.mountPath === '/tmp'),
            `${w.metadata.name}: a writable /tmp`,
          ).toBe(true);
    });

    it('keeps every store on a PersistentVolumeClaim, and the graph in the ArangoDeployment', () => {
      const everything = all();
      const claims = everything.filter((m) => m.kind === 'PersistentVolumeClaim').map((m) => m.metadata.name);
      for (const w of ours(everything)) {
        const c = containers(w)[0]!;
        const dir = env(c)['CIVIC_DATA_DIR']?.value;
        if (dir === undefined) continue;
        const mount = c.volumeMounts?.find((m) => m.mountPath === dir);
        expect(mount, `${w.metadata.name}: nothing mounted at ${dir}`).toBeDefined();
        const fromTemplate = (w.spec.volumeClaimTemplates ?? []).some(
          (t: { metadata: { name: string } }) => t.metadata.name === mount!.name,
        );
        const claim = w.spec.template.spec.volumes?.find((v: { name: string }) => v.name === mount!.name)
          ?.persistentVolumeClaim?.claimName;
        if (runs(c, 'graph')) expect(env(c)['GRAPH_STORE']?.value, 'graph').toBe('arangodb');
        else expect(fromTemplate || claims.includes(claim), `${w.metadata.name}: ${dir} is not on a claim`).toBe(true);
      }

      const arango = everything.filter((m) => m.kind === 'ArangoDeployment');
      expect(arango).toHaveLength(1);
      const graph = containers(ours(everything).find((w) => containers(w).some((c) => runs(c, 'graph')))!)[0]!;
      const url = new URL(env(graph)['ARANGO_URL']!.value!);
      const name = arango[0]!.metadata.name;
      const password = env(graph)['ARANGO_PASSWORD']!.valueFrom!.secretKeyRef!;
      expect(password).toMatchObject({ name: arango[0]!.spec.bootstrap.passwordSecretNames.root, key: 'password' });
      expect(password.optional).toBeUndefined();
      const tls = arango[0]!.spec.tls?.caSecretName !== 'None';
      expect(url.protocol).toBe(tls ? 'https:' : 'http:');
      if (tls) {
        // The operator's certificates name the Service <deployment>.<namespace>.svc, signed by its CA Secret.
        expect(url.hostname).toBe(`${name}.${namespace()}.svc`);
        const ca = env(graph)['NODE_EXTRA_CA_CERTS']!.value!;
        const mount = graph.volumeMounts!.find((m) => ca.startsWith(`${m.mountPath}/`))!;
        const workload = ours(everything).find((w) => containers(w).includes(graph))!;
        const volume = workload.spec.template.spec.volumes.find((v: { name: string }) => v.name === mount.name);
        expect(volume.secret).toEqual({
          secretName: arango[0]!.spec.tls?.caSecretName ?? `${name}-ca`,
          items: [{ key: 'ca.crt', path: 'ca.crt' }],
        });
      } else expect(url.hostname).toBe(name);
    });

    it('makes NATS and ArangoDB no workloads of its own: they come from the NATS Helm chart and the ArangoDB operator', () => {
      for (const w of workloads(all()))
        for (const c of containers(w)) expect(c.image, w.metadata.name).not.toMatch(/(^|\/)(nats|arangodb)\b/);
    });

    it('requires the deployment secrets', () => {
      for (const w of ours(all()))
        for (const e of containers(w).flatMap((c) => c.env ?? []))
          if (['CIVIC_CURSOR_SECRET', 'CIVIC_KEY_PEPPER'].includes(e.name))
            expect(e.valueFrom?.secretKeyRef?.optional, `${w.metadata.name} ${e.name}`).toBeUndefined();
    });

    it('scales the gateway and geo with HPAs, and budgets disruption of every replicated workload', () => {
      const everything = all();
      const hpas = everything.filter((m) => m.kind === 'HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['gateway', 'geo']);
      for (const h of hpas) {
        const target = workloads(everything).find(
          (w) => w.kind === h.spec.scaleTargetRef.kind && w.metadata.name === h.spec.scaleTargetRef.name,
        );
        expect(target, h.metadata.name).toBeDefined();
        for (const c of containers(target!)) expect(c.resources?.requests?.['cpu'], h.metadata.name).toBeDefined();
      }
      const scaled = workloads(everything).filter(
        (w) => (w.spec.replicas ?? 1) > 1 || hpas.some((h) => h.spec.scaleTargetRef.name === w.metadata.name),
      );
      for (const w of scaled)
        expect(
          everything.some((m) => m.kind === 'PodDisruptionBudget' && selects(m.spec.selector, podLabels(w))),
          `${w.metadata.name}: no PodDisruptionBudget`,
        ).toBe(true);
    });

    it('denies ingress to its pods but from each caller to the port it calls, and exposes the gateway through the Ingress', () => {
      const everything = all();
      const policies = everything.filter((m) => m.kind === 'NetworkPolicy');
      const pods = ours(everything).concat(workloads(everything).filter((w) => w.metadata.name === 'redis'));
      const deny = policies.find((p) => (p.spec.ingress ?? []).length === 0 && p.spec.policyTypes.includes('Ingress'))!;
      expect(deny).toBeDefined();
      for (const w of pods) expect(selects(deny.spec.podSelector, podLabels(w)), w.metadata.name).toBe(true);

      const allows = (callee: Manifest, port: { name?: string; containerPort: number }, caller?: Manifest) =>
        policies.some(
          (p) =>
            selects(p.spec.podSelector, podLabels(callee)) &&
            (p.spec.ingress ?? []).some(
              (rule: { from?: { podSelector?: any }[]; ports?: { port: string | number }[] }) =>
                (rule.from === undefined ||
                  (caller !== undefined &&
                    rule.from.some((f) => f.podSelector && selects(f.podSelector, podLabels(caller))))) &&
                (rule.ports ?? []).some((x) => x.port === port.name || x.port === port.containerPort),
            ),
        );
      const calls: [Manifest, string][] = ours(everything).flatMap((caller) =>
        (containers(caller)[0]!.env ?? [])
          .filter((e) => e.name.endsWith('_ADDR') && e.value)
          .map((e) => [caller, e.value!] as [Manifest, string]),
      );
      const config = everything.find(
        (m) =>
          m.kind === 'ConfigMap' && m.metadata.name.startsWith('civicgraph-') && (m as any).data?.RATE_LIMIT_REDIS_URL,
      );
      const redis = new URL((config as any).data.RATE_LIMIT_REDIS_URL);
      calls.push([ours(everything).find((w) => w.metadata.name === 'gateway')!, `${redis.hostname}:${redis.port}`]);
      expect(calls.length).toBeGreaterThanOrEqual(9);
      for (const [caller, address] of calls) {
        const [host, port] = address.split(':');
        const service = everything.find((m) => m.kind === 'Service' && m.metadata.name === host)!;
        const servicePort = service.spec.ports.find((p: { port: number }) => p.port === Number(port));
        const callee = workloads(everything).find((w) =>
          selects({ matchLabels: service.spec.selector }, podLabels(w)),
        )!;
        const target = containers(callee)
          .flatMap((c) => c.ports ?? [])
          .find((p) => p.name === servicePort.targetPort || p.containerPort === servicePort.targetPort)!;
        expect(allows(callee, target, caller), `${caller.metadata.name} → ${address}`).toBe(true);
        const stranger = { ...caller, spec: { template: { metadata: { labels: { app: 'stranger' } } } } } as Manifest;
        if (callee.metadata.name !== 'gateway')
          expect(allows(callee, target, stranger), `anyone → ${address}`).toBe(false);
      }

      const ingress = everything.find((m) => m.kind === 'Ingress')!;
      const backend = ingress.spec.rules[0].http.paths[0].backend.service;
      const gatewayService = everything.find((m) => m.kind === 'Service' && m.metadata.name === backend.name)!;
      expect(gatewayService.spec.ports.some((p: { name: string }) => p.name === backend.port.name)).toBe(true);
      const gateway = ours(everything).find((w) => w.metadata.name === 'gateway')!;
      expect(allows(gateway, containers(gateway)[0]!.ports![0]!)).toBe(true);
    });

    describe('NATS from its Helm chart', () => {
      const dir = join(k8s, 'nats', overlay);
      const kustomization = () => parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
      const values = () => parse(readFileSync(join(dir, 'values.yaml'), 'utf8'));

      it('names a release whose client Service is the NATS_URL of the services, in their namespace', () => {
        const [chart] = kustomization().helmCharts;
        expect(chart).toMatchObject({ name: 'nats', repo: 'https://nats-io.github.io/k8s/helm/charts/' });
        expect(kustomization().namespace).toBe(namespace());
        const service = values().fullnameOverride ?? chart.releaseName;
        const config = all().find((m) => m.kind === 'ConfigMap' && (m as any).data?.NATS_URL)!;
        const url = new URL((config as any).data.NATS_URL);
        expect(url.hostname).toBe(service);
        expect(Number(url.port)).toBe(values().config?.nats?.port ?? 4222);
      });

      it('enables JetStream on a volume, with values the chart knows', () => {
        const known = JSON.parse(
          readFileSync(join(root, 'test/integration/deploy/nats-chart-values-keys.json'), 'utf8'),
        );
        expect(kustomization().helmCharts[0].version).toBe(known.version);
        const keys = new Set<string>(known.keys);
        const paths = (o: Record<string, unknown>, prefix = ''): string[] =>
          Object.entries(o).flatMap(([k, v]) => {
            const path = prefix + k;
            const nested = v !== null && typeof v === 'object' && !Array.isArray(v);
            const open = [...keys].every((key) => !key.startsWith(`${path}.`)); // an object the chart leaves free-form
            return nested && !open ? [path, ...paths(v as Record<string, unknown>, `${path}.`)] : [path];
          });
        for (const path of paths(values()))
          expect(keys.has(path), `${overlay}: ${path} is not a value of the chart`).toBe(true);
        expect(values().config.jetstream).toMatchObject({
          enabled: true,
          fileStore: { enabled: true, pvc: { enabled: true } },
        });
      });

      it.skipIf(!helm)('renders with Helm (kubectl kustomize --enable-helm)', () => {
        const rendered = render(dir, '--enable-helm');
        expect(rendered.some((m) => m.kind === 'Service' && m.metadata.name === 'nats')).toBe(true);
        expect(rendered.some((m) => m.kind === 'StatefulSet')).toBe(true);
      });
    });
  });
});
