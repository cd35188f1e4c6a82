import { credentials, type ChannelOptions } from '@grpc/grpc-js';

/**
 * Client channel options shared by every service client. grpc-js's own retry machinery
 * is off: it buffers every call in case of a retry, which cost ~20% of a loopback call's
 * throughput here. Reads are retried by `call()` instead, only when one actually fails.
 */
export const CLIENT_OPTIONS: ChannelOptions = {
  'grpc.enable_retries': 0,
  'grpc.keepalive_time_ms': 30_000,
};

export const insecure = () => credentials.createInsecure();
