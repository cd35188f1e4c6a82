/**
 * Test-only helpers: `@civicgraph/kit/testing`. They import vitest or start servers, so none
 * is part of the production build (services/kit/tsconfig.json leaves this folder out and the
 * package export points at this source, which only vitest and tsconfig.test.json load).
 */
export { describeWithService } from './describe-with-service.js';
export { describeEventBusContract } from './event-bus.contract.js';
export { describeRateLimiterContract } from './rate-limiter.contract.js';
export { runTsModule, type ChildResult } from './run-ts-module.js';
export { FlakyProxy } from './flaky-proxy.js';
export { NatsServerProcess } from './nats-server-process.js';
export { scaled, TIME_SCALE, timeScale } from './time-scale.js';
export { recordSpans, type RecordedSpans } from './record-spans.js';
