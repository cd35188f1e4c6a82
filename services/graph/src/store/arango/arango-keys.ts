import { createHash } from 'node:crypto';
import type { EdgeDoc } from '../../model/nodes.js';

/**
 * Document keys. A slug (`region:co-cd-1`) cannot be an ArangoDB `_key` as it stands:
 * some server versions refuse ':' in keys, and keys are limited to 254 bytes of a small
 * ASCII alphabet. Slugs are percent-encoded byte by byte instead: every byte outside the
 * alphabet below becomes `%XX`. '%' is itself escaped, so the encoding is injective and
 * `decodeKey` inverts it exactly.
 */
const PLAIN = /^[A-Za-z0-9_\-.@()+,=;$!*']$/;
const LONE_SURROGATE = /\p{Cs}/u;
const ESCAPE = /%([0-9A-F]{2})/g;
const ENCODED = /^(?:[A-Za-z0-9_\-.@()+,=;$!*']|%[0-9A-F]{2})+$/;

/** ArangoDB's limit on a `_key`, in bytes. */
export const MAX_KEY_BYTES = 254;

/** A string that has no document key: empty, not valid UTF-16, or too long once encoded. */
export class UnencodableKeyError extends RangeError {
  constructor(
    readonly value: string,
    reason: string,
  ) {
    super(`"${value.slice(0, 80)}" cannot be an ArangoDB document key: ${reason}`);
    this.name = 'UnencodableKeyError';
  }
}

/** The `_key` for a slug, or undefined when none exists (such a slug can never be stored). */
export function tryEncodeKey(value: string): string | undefined {
  if (value === '' || LONE_SURROGATE.test(value)) return undefined;
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && PLAIN.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.length <= MAX_KEY_BYTES ? out : undefined;
}

/** `tryEncodeKey`, throwing a clear error when the slug cannot be stored. */
export function encodeKey(value: string): string {
  const key = tryEncodeKey(value);
  if (key !== undefined) return key;
  const reason =
    value === ''
      ? 'it is empty'
      : LONE_SURROGATE.test(value)
        ? 'it is not valid UTF-16'
        : `it is longer than ${MAX_KEY_BYTES} bytes encoded`;
  throw new UnencodableKeyError(value, reason);
}

/** The slug a `_key` was made from; throws on a key `encodeKey` could not have produced. */
export function decodeKey(key: string): string {
  if (!ENCODED.test(key)) throw new RangeError(`"${key}" is not an encoded document key`);
  const bytes: number[] = [];
  let last = 0;
  for (const m of key.matchAll(ESCAPE)) {
    for (const ch of key.slice(last, m.index)) bytes.push(ch.charCodeAt(0));
    bytes.push(Number.parseInt(m[1] ?? '', 16));
    last = m.index + m[0].length;
  }
  for (const ch of key.slice(last)) bytes.push(ch.charCodeAt(0));
  const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  if (tryEncodeKey(decoded) !== key) throw new RangeError(`"${key}" is not the canonical encoding of a slug`);
  return decoded;
}

/**
 * The `_key` of an edge: a hash of its identity (kind, from, to, key), since two slugs and
 * a term key can outgrow 254 bytes. The identity is hashed as a JSON array so no separator
 * inside a slug can make two identities collide. Nothing reads it back; the edge document
 * keeps its fields.
 */
export function edgeKey(e: Pick<EdgeDoc, 'kind' | 'from' | 'to' | 'key'>): string {
  return createHash('sha256')
    .update(JSON.stringify([e.kind, e.from, e.to, e.key]))
    .digest('base64url');
}
