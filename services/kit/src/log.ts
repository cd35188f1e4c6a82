import { isatty } from 'node:tty';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';

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

/**
 * A logger for one service; `level` comes from that service's config. Lines are JSON, one
 * per line, for whatever collects them; written to a terminal they are human-readable
 * (time, level, service, message, then the fields), so `civicgraph up` in a shell reads as
 * prose while the same process under a supervisor logs JSON.
 */
export function createLogger(
  service: string,
  level: LoggerOptions['level'] = 'info',
  fd: 1 | 2 | DestinationStream = 1,
): Logger {
  const options = loggerOptions(service, level);
  if (typeof fd === 'number' && isatty(fd)) return pino(options, readable(fd));
  if (fd === 1) return pino(options);
  return pino(options, fd === 2 ? pino.destination(2) : fd);
}

/** The human-readable form of the lines, written synchronously to `to` (a file descriptor or a stream). */
export function readable(to: number | NodeJS.WritableStream): DestinationStream {
  return PinoPretty({
    destination: to,
    sync: true,
    colorize: typeof to === 'number' && isatty(to),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    messageFormat: '{if service}{service}: {end}{msg}',
  });
}
