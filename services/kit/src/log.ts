import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Paths whose values never reach a log line: keys, secrets, bearer headers. */
const redact = [
  'key',
  '*.key',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'headers.authorization',
];

/** A structured logger for one service; `level` comes from that service's config. */
export function createLogger(service: string, level: LoggerOptions['level'] = 'info', fd: 1 | 2 = 1): Logger {
  const options = { name: service, level, redact: { paths: redact, censor: '[redacted]' } };
  return fd === 1 ? pino(options) : pino(options, pino.destination(2));
}
