import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signatures per the Standard Webhooks specification (standardwebhooks.com):
 * the secret is `whsec_` and base64 of its key bytes; each delivery carries
 *   webhook-id         the message id, the same on every attempt (receivers dedupe on it)
 *   webhook-timestamp  unix seconds of this attempt
 *   webhook-signature  `v1,` and base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)
 * Several space-separated signatures may be sent while a secret is being rotated.
 */

export const SECRET_PREFIX = 'whsec_';
/** Key bytes of a new secret: 32 (the spec allows 24–64). */
const KEY_BYTES = 32;

/** A new signing secret, shown to the subscriber once. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`;
}

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The headers that sign `body` (the exact bytes sent) as message `id` at `at`. */
export function signatureHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  at: Date = new Date(),
): SignatureHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = secrets.map(
    (secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new RangeError('a signing secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}
