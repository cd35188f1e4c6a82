import type { Router } from 'express';
import type { HealthProbe } from '../upstream/health-client.js';

/**
 * `/healthz`: the process is alive. `/readyz`: every upstream reports SERVING; `degraded`
 * lists what still serves, but less well (e.g. rate limits counted in this process).
 */
export function healthRoutes(
  router: Router,
  probes: HealthProbe[],
  isStopping: () => boolean,
  degraded: () => Record<string, string> = () => ({}),
): void {
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(probes.map(async (p) => [p.name, await p.serving()] as const));
    const ready = !isStopping() && results.every(([, ok]) => ok);
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      upstreams: Object.fromEntries(results.map(([n, ok]) => [n, ok ? 'serving' : 'not_serving'])),
      ...degraded(),
    });
  });
}
