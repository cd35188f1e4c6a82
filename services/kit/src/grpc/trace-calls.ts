import {
  InterceptingCall,
  status,
  type Interceptor,
  type Metadata,
  type ServerUnaryCall,
  type StatusObject,
} from '@grpc/grpc-js';
import { context, trace, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { contextFrom, injectInto, SpanKind, SpanStatusCode, type Span } from '../tracing/spans.js';
import { tracer } from '../tracing/tracing.js';

const metadataSetter: TextMapSetter<Metadata> = { set: (md, key, value) => md.set(key, value) };

const metadataGetter: TextMapGetter<Metadata> = {
  get: (md, key) => {
    const values = md.get(key);
    return values.length === 0 ? undefined : values.map(String);
  },
  keys: (md) => Object.keys(md.getMap()),
};

/**
 * A client interceptor making one CLIENT span per call (retries included: it sits outside
 * deadlineAndRetry, whose attempts resend the metadata it was given) and sending the trace
 * as `traceparent` metadata. The span is the caller's child, and ends with the call's status.
 */
export function traceCalls(): Interceptor {
  return (options, nextCall) => {
    const t = tracer();
    if (t === undefined) return new InterceptingCall(nextCall(options));
    const path = options.method_definition.path;
    const parent = context.active();
    const span = t.startSpan(rpcName(path), { kind: SpanKind.CLIENT, attributes: rpcAttributes(path) }, parent);
    const traced = trace.setSpan(parent, span);
    return new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        injectInto(traced, metadata, metadataSetter);
        next(metadata, {
          onReceiveStatus(s: StatusObject, pass: (s: StatusObject) => void) {
            endRpcSpan(span, s.code, s.details);
            pass(s);
          },
        });
      },
    });
  };
}

/**
 * The SERVER span of a call a service answers, child of the `traceparent` its metadata
 * carries; undefined when tracing is off. The handler runs in the returned context.
 */
export function serverSpan(
  call: Pick<ServerUnaryCall<unknown, unknown>, 'getPath' | 'metadata'>,
): { span: Span; context: Context } | undefined {
  const t = tracer();
  if (t === undefined) return undefined;
  const path = call.getPath();
  const parent = contextFrom(call.metadata, metadataGetter);
  const span = t.startSpan(rpcName(path), { kind: SpanKind.SERVER, attributes: rpcAttributes(path) }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends an RPC span with its gRPC status; any status but OK marks it an error. */
export function endRpcSpan(span: Span, code: status, details: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: `${status[code]}: ${details}` });
  span.end();
}

/** `/civic.geo.v1.GeoService/DistrictsAtPoints` → `civic.geo.v1.GeoService/DistrictsAtPoints` (the semantic conventions' RPC span name). */
function rpcName(path: string): string {
  return path.startsWith('/') ? path.slice(1) : path;
}

function rpcAttributes(path: string) {
  const [service = '', method = ''] = rpcName(path).split('/');
  return { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
}
