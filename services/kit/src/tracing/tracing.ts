import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';

/** Where a process's spans go: nowhere (tracing off, no span is made) or an OTLP collector. */
export const TRACE_EXPORTERS = ['none', 'otlp'] as const;

/** A process's tracing, as its settings give it (OTEL_* variables, see COMMON_SETTINGS). */
export interface TracingConfig {
  exporter: (typeof TRACE_EXPORTERS)[number];
  /** The collector's base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** `service.name` of every span (OTEL_SERVICE_NAME, else the service's own name). */
  serviceName: string;
  /** Fraction of new traces recorded (OTEL_TRACES_SAMPLER_ARG); a continued trace follows its parent's choice. */
  sampleRatio: number;
}

/** The tracer while tracing is on; undefined while it is off, which every wrapper checks first. */
let active: Tracer | undefined;

/**
 * The tracer spans are made with, or undefined when tracing is off. Every traced path asks
 * this before anything else, so with tracing off a request makes no span, no context and
 * no header: the cost is this call.
 */
export function tracer(): Tracer | undefined {
  return active;
}

/**
 * Turns tracing on for the process: a tracer provider sending spans to the configured
 * exporter (or to `processor`: tests give an InMemorySpanExporter through one), W3C
 * `traceparent` propagation, and the async context that carries the current span across
 * awaits. Off (`exporter: none`, no processor) it does nothing, and the SDK is never
 * loaded. Spans still buffered are sent when the lifecycle stops. One process has one
 * tracing: `civicgraph up` turns it on once for every service it runs, before any client
 * is made (a client made while tracing is off makes no spans).
 */
export async function startTracing(
  config: TracingConfig,
  lifecycle: Lifecycle,
  log: Logger,
  processor?: SpanProcessor,
): Promise<void> {
  if (config.exporter === 'none' && processor === undefined) return;
  if (active !== undefined) throw new Error('tracing is already on in this process');
  const sdk = await import('./provider.js');
  const provider = sdk.registerProvider(config, processor ?? sdk.exporterOf(config)!);
  active = provider.getTracer('civicgraph');
  log.info(
    { exporter: processor === undefined ? config.exporter : 'given', sampleRatio: config.sampleRatio },
    'tracing on',
  );
  lifecycle.defer('tracing', async () => {
    active = undefined;
    await provider.shutdown().catch((err: unknown) => log.warn({ err }, 'spans not all exported'));
    // Unregistered, so a process (a test run) may turn tracing on again.
    trace.disable();
    context.disable();
    propagation.disable();
  });
}
