import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How a key's secret is kept: never the key itself, only two peppered digests.
 *
 * - `lookup` = HMAC-SHA256(pepper, key): the index a presented key is found by. It is
 *   deterministic (so a lookup is one indexed read) and peppered, so a copy of the store
 *   without the pepper cannot even confirm a guessed key.
 * - `verifier` = HMAC-SHA256(pepper, salt ‖ key) with a random per-secret salt: what a
 *   presented key is compared against, with `timingSafeEqual`. Two stores holding the same
 *   key would hold different verifiers.
 *
 * A fast MAC is right for API keys (unlike passwords): a key carries ≈238 random bits, so
 * nobody can enumerate candidates against a leaked digest; slow KDFs exist for low-entropy
 * secrets. Timing cannot reveal how much of a wrong key was right: the key is never
 * compared character by character, only its digests are, and an unknown lookup still pays
 * one verifier computation and one constant-time comparison.
 */
export interface StoredSecret {
  /** HMAC-SHA256(pepper, key), hex. */
  lookup: string;
  /** Random per-secret salt, hex. */
  salt: string;
  /** HMAC-SHA256(pepper, salt ‖ key), hex. */
  verifier: string;
  /** RFC 3339 instant after which this secret no longer authenticates; '' for never. */
  expiresAt: string;
}

/** Bytes of pepper a deployment must supply (or have generated for it). */
export const PEPPER_BYTES = 32;

const DECOY_SALT = '00'.repeat(16);

export class KeyHasher {
  private readonly pepper: Buffer;

  constructor(pepper: Buffer) {
    if (pepper.length < PEPPER_BYTES) throw new RangeError(`the key pepper must be at least ${PEPPER_BYTES} bytes`);
    this.pepper = pepper;
  }

  /** The index digest of a presented key. */
  lookup(key: string): string {
    return createHmac('sha256', this.pepper).update(key, 'utf8').digest('hex');
  }

  /** A new stored secret for `key`, with a fresh salt. */
  seal(key: string, expiresAt = ''): StoredSecret {
    const salt = randomBytes(16).toString('hex');
    return { lookup: this.lookup(key), salt, verifier: this.verifier(salt, key), expiresAt };
  }

  /**
   * Whether `key` matches `secret`, in time independent of where they differ. With no
   * secret (an unknown lookup) the same work is done against a decoy and false returned.
   */
  verify(key: string, secret: StoredSecret | undefined): boolean {
    const expected = Buffer.from(secret?.verifier ?? '00'.repeat(32), 'hex');
    const actual = Buffer.from(this.verifier(secret?.salt ?? DECOY_SALT, key), 'hex');
    const equal = expected.length === actual.length && timingSafeEqual(expected, actual);
    return secret !== undefined && equal;
  }

  private verifier(salt: string, key: string): string {
    return createHmac('sha256', this.pepper).update(Buffer.from(salt, 'hex')).update(key, 'utf8').digest('hex');
  }
}
