import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HeadersTooLargeError, InvalidParameterError, RequestTimeoutError, type CivicError } from '@civicgraph/kit';
import { newRequestId } from './edge.js';
import { PROBLEM_MEDIA_TYPE, toProblem } from './problem.js';

/**
 * A client that trickles its request (slowloris) holds a socket only this long: its head
 * must arrive within 10 s and the whole request within 30 s, checked every second; it is
 * then answered 408 and closed. (Node's defaults: 60 s and 300 s, checked every 30 s.)
 */
export const SLOW_CLIENT_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * Requests Node's HTTP parser refuses before express sees them (a request line and headers
 * over 16 KB, a malformed request) get the same problem+json answer as any other refusal,
 * with a request id, instead of Node's bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way (a request body still trickling in when the request
    // deadline passed): writing a status line now would land inside it.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || answering?.headersSent === true) return void socket.destroy();
    const problem = refusal(err.code);
    const requestId = newRequestId();
    const body = JSON.stringify(toProblem(problem, requestId));
    socket.end(
      [
        `HTTP/1.1 ${problem.status} ${problem.title}`,
        `Content-Type: ${PROBLEM_MEDIA_TYPE}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        `Civic-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}

function refusal(code: string | undefined): CivicError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new HeadersTooLargeError('The request line and headers together exceed 16 KB.', { field: 'headers' });
  // A slow client (SLOW_CLIENT_LIMITS).
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new RequestTimeoutError('The request did not arrive in time.', { field: 'request' });
  return new InvalidParameterError('request', 'The request could not be parsed as HTTP/1.1.');
}
