import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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

/** An API key anywhere in a line (a message, an error, a URL someone put one in). */
const API_KEY = /\bcg_(test|live)_[0-9A-Za-z]{8,}/g;

/**
 * Logger options: named paths are censored, and as a last line of defence any text that
 * looks like an API key is cut to its environment prefix wherever it appears in a line.
 */
export function loggerOptions(service: string, level: LoggerOptions['level'] = 'info'): LoggerOptions {
  return {
    name: service,
    level,
    redact: { paths: redact, censor: '[redacted]' },
    hooks: { streamWrite: (line: string) => line.replace(API_KEY, 'cg_$1_[redacted]') },
  };
}

/** A structured logger for one service; `level` comes from that service's config. */
export function createLogger(
  service: string,
  level: LoggerOptions['level'] = 'info',
  fd: 1 | 2 | DestinationStream = 1,
): Logger {
  const options = loggerOptions(service, level);
  if (fd === 1) return pino(options);
  return pino(options, fd === 2 ? pino.destination(2) : fd);
}
