import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before express sees them (a request line and headers
 * over 16 KB, a malformed request) get a problem+json answer too, instead of Node's bare
 * status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({
      type: 'invalid_parameter',
      title: tooLarge ? 'Request header fields too large' : 'Malformed request',
      status,
      detail: tooLarge ? 'The request line and headers together exceed 16 KB.' : 'The request could not be parsed as HTTP/1.1.',
      field: tooLarge ? 'headers' : 'request',
      request_id: null,
    });
    socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
