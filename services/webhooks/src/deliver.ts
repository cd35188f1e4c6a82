import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './target-url.js';
import type { SignatureHeaders } from './signing.js';

/** What one delivery attempt came to; this is what the delivery log keeps. */
export interface AttemptResult {
  /** A 2xx answer. */
  ok: boolean;
  /** The receiver's status code; 0 when none arrived (refused, timed out, reset). */
  status: number;
  /** From sending to the end of the answer (or the failure), ms. */
  latencyMs: number;
  /** Why there was no usable answer, e.g. `timeout`, `ECONNREFUSED`, `redirect`. */
  error?: string;
  /** The first bytes of the answer, for the delivery log (never more than RESPONSE_EXCERPT). */
  excerpt: string;
}

export interface AttemptOptions {
  /** The whole attempt's limit, connection to last byte, ms. Default 10 s. */
  timeoutMs?: number;
}

/** Most of an answer kept; the rest is read past and dropped, so a huge answer costs nothing. */
export const RESPONSE_EXCERPT = 1024;
/** Most of an answer read at all; beyond it the connection is closed. */
export const RESPONSE_READ_LIMIT = 64 * 1024;

/**
 * POSTs one signed event to a checked receiver. The connection goes to the checked address
 * (the URL's name is still sent as Host and as TLS server name); redirects are not followed
 * (a 3xx is a failed attempt: the receiver's URL should be updated instead); the answer is
 * read to at most 64 KB. Never throws.
 */
export function attempt(
  target: CheckedTarget,
  body: string,
  signature: SignatureHeaders,
  options: AttemptOptions = {},
): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = performance.now();
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: Math.round(performance.now() - started) });
    };
    const req = send(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'civicgraph-webhooks/1',
          ...signature,
        },
      },
      (res) => readAnswer(res, finish),
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: 0, error: 'timeout', excerpt: '' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ ok: false, status: 0, error: err.code ?? err.message, excerpt: '' }),
    );
    req.end(body);
  });
}

function readAnswer(res: IncomingMessage, finish: (r: Omit<AttemptResult, 'latencyMs'>) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let read = 0;
  const done = () => {
    const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT).toString('utf8');
    const redirect = status >= 300 && status < 400;
    finish({ ok: status >= 200 && status < 300, status, excerpt, ...(redirect ? { error: 'redirect' } : {}) });
  };
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (chunks.reduce((n, c) => n + c.length, 0) < RESPONSE_EXCERPT) chunks.push(chunk);
    if (read > RESPONSE_READ_LIMIT) {
      done();
      res.destroy();
    }
  });
  res.on('end', done);
  res.on('error', done);
}
