import { createHash, createHmac } from 'node:crypto';

/** Credentials and place of an S3-compatible service (AWS S3, MinIO, Ceph RGW, R2…). */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** e.g. `us-east-1` (MinIO's default). */
  region: string;
}

/** The hash S3 accepts instead of the body's own: the body is not covered by the signature. */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const hex = (data: string) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding as SigV4 wants it (every byte but unreserved; `/` kept in paths). */
function uriEncode(s: string, keepSlash: boolean): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
      return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * Signs a request with AWS Signature Version 4 (the `Authorization` header form), as every
 * S3-compatible service accepts it. Returns the headers to send: the given ones plus
 * `x-amz-date`, `x-amz-content-sha256` and `Authorization`. Every given header is signed.
 */
export function signV4(
  creds: S3Credentials,
  request: { method: string; url: URL; headers: Record<string, string>; payloadHash: string },
  now: Date,
): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: request.url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': request.payloadHash,
  };
  const names = Object.keys(headers).sort();
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    request.method,
    uriEncode(decodeURIComponent(request.url.pathname), true),
    query,
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    names.join(';'),
    request.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}
