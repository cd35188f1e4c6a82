import { credentials, type ChannelOptions } from '@grpc/grpc-js';

/**
 * Client channel options shared by every service client. grpc-js's own retry machinery
 * is off: it buffers every call in case of a retry, which cost ~20% of a loopback call's
 * throughput here. Reads are retried by `call()` and `MuxClient` instead, only when one
 * actually fails. Reconnection backs off from 100 ms to at most 1 s (grpc-js defaults:
 * 1 s to 120 s): while a channel waits out its backoff every call fails at once, so with
 * the defaults a service back after a restart stayed unreachable for up to two minutes.
 */
export const CLIENT_OPTIONS: ChannelOptions = {
  'grpc.enable_retries': 0,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1_000,
};

export const insecure = () => credentials.createInsecure();
