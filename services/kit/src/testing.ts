/** Test-only helpers (they import vitest): `@civicgraph/kit/testing`. */
export { describeWithService } from './bus/describe-with-service.js';
export { describeEventBusContract } from './bus/event-bus.contract.js';
export { runTsModule, type ChildResult } from './run-ts-module.js';
export { FlakyProxy } from './flaky-proxy.js';
export { NatsServerProcess } from './nats-server-process.js';
