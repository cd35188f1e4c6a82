import { withTimeout } from '@civicgraph/kit';
import { arangoUrlFrom, planArangoTests } from './arango-test-target.js';

/**
 * Gathers the facts `planArangoTests` decides on (is ARANGO_URL set and answering, is
 * there a Docker engine) and carries the plan out: a server to test against, or the
 * message to fail or skip with. Test support only; testcontainers (a dev dependency) is
 * imported on demand so nothing else loads it.
 */

export interface ArangoTestServer {
  url: string;
  username: string;
  password: string;
  /** Stops the container this run started; a no-op for a server from ARANGO_URL. */
  stop(): Promise<void>;
}

export type ArangoTestTarget =
  { kind: 'run'; server: ArangoTestServer } | { kind: 'fail'; message: string } | { kind: 'skip'; message: string };

/** How long a probe may take: a missing server or engine must not stall the test run. */
const PROBE_MS = 3000;
const CONTAINER_START_MS = 120_000;

/** How the facts are gathered; the Docker probe can be replaced to test the rest of the wiring. */
export interface ArangoTestProbes {
  dockerAvailable?: () => Promise<boolean>;
}

export async function resolveArangoTestTarget(
  env: NodeJS.ProcessEnv = process.env,
  probes: ArangoTestProbes = {},
): Promise<ArangoTestTarget> {
  const url = arangoUrlFrom(env);
  const username = env.ARANGO_USER ?? 'root';
  const password = env.ARANGO_PASSWORD ?? '';
  const probe = url === undefined ? { ok: false } : await probeArango(url, username, password);
  const plan = planArangoTests({
    url,
    reachable: probe.ok,
    unreachableReason: probe.reason,
    dockerAvailable: url === undefined && (await (probes.dockerAvailable ?? dockerAvailable)()),
  });
  switch (plan.action) {
    case 'use-url':
      return { kind: 'run', server: { url: plan.url, username, password, stop: async () => undefined } };
    case 'start-container':
      return startContainer(plan.image);
    case 'fail':
      return { kind: 'fail', message: plan.message };
    case 'skip':
      return { kind: 'skip', message: plan.message };
  }
}

/** Whether `/_api/version` answers 200 with these credentials. */
export async function probeArango(
  url: string,
  username: string,
  password: string,
  timeoutMs = PROBE_MS,
): Promise<{ ok: boolean; reason?: string }> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/_api/version`, {
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    if (res.ok) return { ok: true };
    const hint = res.status === 401 ? ': check ARANGO_USER / ARANGO_PASSWORD' : '';
    return { ok: false, reason: `HTTP ${res.status} from /_api/version${hint}` };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
    return { ok: false, reason: `${err instanceof Error ? err.message : String(err)}${cause}` };
  }
}

/** Whether testcontainers finds a container runtime; without one it fails in milliseconds. */
export async function dockerAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await withTimeout(getContainerRuntimeClient(), PROBE_MS);
    return true;
  } catch {
    return false;
  }
}

/** A started container is a target; one that will not start fails the run, naming why. */
async function startContainer(image: string): Promise<ArangoTestTarget> {
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(image)
      .withEnvironment({ ARANGO_NO_AUTH: '1' })
      .withExposedPorts(8529)
      .withWaitStrategy(Wait.forHttp('/_api/version', 8529).forStatusCode(200))
      .withStartupTimeout(CONTAINER_START_MS)
      .start();
    const url = `http://${container.getHost()}:${container.getMappedPort(8529)}`;
    return {
      kind: 'run',
      server: { url, username: 'root', password: '', stop: async () => void (await container.stop()) },
    };
  } catch (err) {
    return {
      kind: 'fail',
      message: `a Docker engine answered but ${image} did not start: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
