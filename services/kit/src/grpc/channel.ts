import { credentials, type ChannelOptions } from '@grpc/grpc-js';

/**
 * Client channel options shared by every service client. Idempotent reads are retried by
 * grpc-js's built-in retry policy on UNAVAILABLE only: at most 3 attempts with 50–500 ms
 * exponential backoff, so a restarting peer costs a request some latency, not an error.
 */
export const CLIENT_OPTIONS: ChannelOptions = {
  'grpc.enable_retries': 1,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.service_config': JSON.stringify({
    methodConfig: [
      {
        name: [{}],
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.05s',
          maxBackoff: '0.5s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
  }),
};

export const insecure = () => credentials.createInsecure();
