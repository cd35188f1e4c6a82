import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import type { TracingConfig } from './tracing.js';

/**
 * The OpenTelemetry SDK, loaded only when tracing is turned on (tracing.ts imports it
 * lazily): a process with tracing off never loads it.
 */
export function registerProvider(config: TracingConfig, sink: SpanProcessor): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [sink],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return provider;
}

/** The configured exporter behind a batching processor; undefined for `none`. */
export function exporterOf(config: TracingConfig): SpanProcessor | undefined {
  if (config.exporter === 'none') return undefined;
  // OTEL_EXPORTER_OTLP_ENDPOINT is a base URL: the signal's path is added to it (OTLP spec).
  const url = `${config.endpoint.replace(/\/+$/, '')}/v1/traces`;
  return new BatchSpanProcessor(new OTLPTraceExporter({ url }));
}
