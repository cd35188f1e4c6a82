import { randomBytes } from 'node:crypto';

/** The base62 alphabet, in ASCII order: digits, then upper case, then lower case. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A source of cryptographically random bytes; injectable so tests can drive rejection. */
export type RandomSource = (size: number) => Uint8Array;

/**
 * Bytes at or above this bound are rejected: 248 = 4 × 62 is the largest multiple of 62
 * that fits in a byte, so `byte % 62` over [0, 248) hits every symbol exactly four times.
 * Taking `byte % 62` over the full [0, 256) would make the first eight symbols 25% likelier.
 */
const REJECT_AT = 248;

/** `length` uniformly distributed base62 characters from `random` (default: crypto). */
export function randomBase62(length: number, random: RandomSource = randomBytes): string {
  let out = '';
  while (out.length < length) {
    // Over-draw a little: about 3% of bytes are rejected, so one batch usually suffices.
    for (const byte of random(length - out.length + 8)) {
      if (byte < REJECT_AT && out.length < length) out += BASE62_ALPHABET[byte % 62];
    }
  }
  return out;
}

/**
 * 1 if `code` is not a base62 character code, else 0. Branch-free range arithmetic, so the
 * cost does not depend on which character it is.
 */
export function notBase62(code: number): number {
  const digit = inRange(code, 0x30, 0x39);
  const upper = inRange(code, 0x41, 0x5a);
  const lower = inRange(code, 0x61, 0x7a);
  return 1 ^ (digit | upper | lower);
}

/** 1 if lo ≤ code ≤ hi, else 0, computed from sign bits rather than comparisons. */
function inRange(code: number, lo: number, hi: number): number {
  return (((code - lo) | (hi - code)) >>> 31) ^ 1;
}
