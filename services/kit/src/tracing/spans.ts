import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { tracer } from './tracing.js';

export { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';

/** The W3C trace headers a message carries (`traceparent`, and `tracestate` when there is one), by name. */
export type TraceHeaders = Record<string, string>;

/** The header names propagation writes (W3C Trace Context). */
export const TRACE_HEADER_NAMES = ['traceparent', 'tracestate'] as const;

/** The trace context `headers` carry; the empty (root) context when they carry none. */
export function contextFrom<C>(carrier: C, getter?: TextMapGetter<C>): Context {
  return getter === undefined
    ? propagation.extract(ROOT_CONTEXT, carrier)
    : propagation.extract(ROOT_CONTEXT, carrier, getter);
}

/** Writes the trace of `ctx` into `carrier` (gRPC metadata, NATS headers, a plain object). */
export function injectInto<C>(ctx: Context, carrier: C, setter?: TextMapSetter<C>): void {
  if (setter === undefined) propagation.inject(ctx, carrier);
  else propagation.inject(ctx, carrier, setter);
}

/** The current trace as headers to send with a message. */
export function currentTraceHeaders(): TraceHeaders {
  const headers: TraceHeaders = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** The trace headers a message brought, read through `get`; undefined when it brought none. */
export function traceHeadersFrom(get: (name: string) => string | undefined): TraceHeaders | undefined {
  let headers: TraceHeaders | undefined;
  for (const name of TRACE_HEADER_NAMES) {
    const value = get(name);
    if (value !== undefined && value !== '') (headers ??= {})[name] = value;
  }
  return headers;
}

/** What a span is: its name, kind and attributes, and its parent (default: the current span). */
export interface SpanSpec {
  name: string;
  kind: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

/**
 * Runs `fn` in a new span, current for everything `fn` awaits (so calls and publishes it
 * makes are its children); the span ends when `fn` settles, marked an error if it threw.
 * With tracing off `fn` runs alone, given no span.
 */
export async function inSpan<T>(spec: SpanSpec, fn: (span: Span | undefined) => Promise<T> | T): Promise<T> {
  const t = tracer();
  if (t === undefined) return fn(undefined);
  const parent = spec.parent ?? context.active();
  const span = t.startSpan(spec.name, { kind: spec.kind, attributes: spec.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Runs `fn` with `span` current (a child of `parent`): what `fn` calls and awaits is the
 * span's child. (Body parsers keep it: raw-body binds its callback to the caller's context.)
 */
export function withSpan<T>(parent: Context, span: Span, fn: () => T): T {
  return context.with(trace.setSpan(parent, span), fn);
}

/** Marks a span failed with the error's message and records the exception. */
export function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
