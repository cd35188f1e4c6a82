import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import type { Manifest } from './manifest-schemas.js';

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
  startupProbe?: Record<string, any>;
  readinessProbe?: Record<string, any>;
  livenessProbe?: Record<string, any>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, any>;
}

/** Whether kubectl (with the kustomize it embeds) is here; the checks skip loudly without it. */
export const kubectl = (() => {
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

/** Helm, which only the NATS kustomizations (`helmCharts:`) need. */
export const helm = (() => {
  try {
    execFileSync('helm', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('\n*** helm is not installed: deploy/k8s/nats (helmCharts) is checked but not rendered ***\n');
    return false;
  }
})();

const rendered = new Map<string, Manifest[]>();

/** `kubectl kustomize <dir>` as manifests, once per folder. */
export function render(dir: string, ...flags: string[]): Manifest[] {
  const key = [dir, ...flags].join(' ');
  let docs = rendered.get(key);
  if (docs === undefined) {
    const out = execFileSync('kubectl', ['kustomize', ...flags, dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    docs = parseAllDocuments(out).map((d) => d.toJS() as Manifest);
    rendered.set(key, docs);
  }
  return docs;
}

export const WORKLOADS = ['Deployment', 'StatefulSet'];
export const workloads = (all: readonly Manifest[]) => all.filter((m) => WORKLOADS.includes(m.kind));
export const containers = (m: Manifest): Container[] => m.spec.template.spec.containers;
export const podLabels = (m: Manifest): Record<string, string> => m.spec.template.metadata.labels;

/** Whether a label selector's matchLabels all hold on `labels`. */
export const selects = (
  selector: { matchLabels?: Record<string, string> } | undefined,
  labels: Record<string, string>,
) => Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
