// The floor of one call between services here: a plain grpc-js unary call, client and server
// in one process (as `civicgraph up` runs the services), no interceptors, no protobuf (the
// bytes pass as they are), `concurrency` callers each awaiting its answer before the next
// call. Prints {calls, usPerCall, userUs, systemUs} (CPU of this process per call, after a warm-up).
import * as grpc from '@grpc/grpc-js';

const o = {
  calls: 4_000,
  concurrency: 4,
  requestBytes: 64,
  answerBytes: 1_024,
  ...JSON.parse(process.argv[2] ?? '{}'),
};
const bytes = (b) => b;
const service = {
  echo: {
    path: '/bench.Floor/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};
const answer = Buffer.alloc(o.answerBytes, 97);
const request = Buffer.alloc(o.requestBytes, 98);
const server = new grpc.Server();
server.addService(service, { echo: (_call, callback) => callback(null, answer) });
const port = await new Promise((resolve, reject) =>
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
    err ? reject(err) : resolve(p),
  ),
);
const client = new (grpc.makeGenericClientConstructor(service))(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
const call = () =>
  new Promise((resolve, reject) =>
    client.echo(request, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
async function run(n) {
  let left = n;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (left-- > 0) await call();
    }),
  );
}
await run(Math.ceil(o.calls / 4));
const c0 = process.cpuUsage();
await run(o.calls);
const c = process.cpuUsage(c0);
client.close();
server.forceShutdown();
process.stdout.write(
  JSON.stringify({
    calls: o.calls,
    usPerCall: (c.user + c.system) / o.calls,
    userUs: c.user / o.calls,
    systemUs: c.system / o.calls,
  }),
);
