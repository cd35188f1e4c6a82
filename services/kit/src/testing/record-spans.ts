import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import type { Lifecycle } from '../lifecycle.js';
import { createLogger } from '../log.js';
import { startTracing } from '../tracing/tracing.js';

/** Spans a test recorded, and ways to find them. */
export interface RecordedSpans {
  /** Every span ended so far, in the order they ended. */
  all(): ReadableSpan[];
  /** The ended spans of this name (`GET /v1/contests/:slug`, `civic.auth.v1.AuthService/RevokeKey`, …). */
  named(name: string): ReadableSpan[];
  /** Forgets the spans recorded so far. */
  clear(): void;
}

/**
 * Turns tracing on for this test process with the real SDK, every span kept in memory
 * (InMemorySpanExporter) as it ends; off again when `lifecycle` stops. Call it before making
 * clients: a client made while tracing is off is not traced.
 */
export async function recordSpans(lifecycle: Lifecycle, serviceName = 'test'): Promise<RecordedSpans> {
  const exporter = new InMemorySpanExporter();
  await startTracing(
    { exporter: 'none', endpoint: 'http://127.0.0.1:4318', serviceName, sampleRatio: 1 },
    lifecycle,
    createLogger('tracing', 'silent'),
    new SimpleSpanProcessor(exporter),
  );
  return {
    all: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((s) => s.name === name),
    clear: () => exporter.reset(),
  };
}
