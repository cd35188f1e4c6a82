// A container health check that needs nothing but node and the image's own packages:
//   node deploy/docker/healthcheck.mjs grpc <port>          grpc.health.v1 Check on 127.0.0.1:<port>, SERVING → 0
//   node deploy/docker/healthcheck.mjs http <port> <path>   GET http://127.0.0.1:<port><path>, 2xx → 0
// Anything else (refused, NOT_SERVING, a 503, no answer in 2 s) exits 1 with one line saying why,
// which docker keeps in `docker inspect` as the check's output.
import { credentials } from '@grpc/grpc-js';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@civicgraph/protos/grpc/health/v1/health';

const TIMEOUT_MS = 2000;
const [kind, port, path = '/readyz'] = process.argv.slice(2);

function fail(reason) {
  console.error(`unhealthy: ${reason}`);
  process.exit(1);
}

if (!/^\d+$/.test(port ?? '')) fail('usage: healthcheck.mjs grpc <port> | http <port> [path]');

if (kind === 'grpc') {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  client.check({ service: '' }, { deadline: Date.now() + TIMEOUT_MS }, (err, res) => {
    client.close();
    if (err) fail(`grpc ${port}: ${err.details || err.message}`);
    if (res.status !== HealthCheckResponse_ServingStatus.SERVING)
      fail(`grpc ${port}: ${HealthCheckResponse_ServingStatus[res.status] ?? res.status}`);
    process.exit(0);
  });
} else if (kind === 'http') {
  fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
    (res) => (res.ok ? process.exit(0) : fail(`GET ${path}: ${res.status}`)),
    (err) => fail(`GET ${path}: ${err.cause?.code ?? err.message}`),
  );
} else {
  fail(`unknown kind "${kind}": grpc or http`);
}
