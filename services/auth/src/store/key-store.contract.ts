import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyConflictError, type KeyStore } from '../domain/key-store.js';
import { sampleRecord, sampleSecret } from './sample-record.js';

/**
 * The behaviour every KeyStore adapter must have. Each adapter's test file calls this with
 * a factory returning a fresh, empty store.
 */
export function describeKeyStoreContract(name: string, makeStore: () => Promise<KeyStore>): void {
  describe(`${name} (KeyStore contract)`, () => {
    let store: KeyStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('returns a created record by id and by hash, equal to what was stored', async () => {
      const record = sampleRecord('key_a');
      await store.create({ record, secret: sampleSecret('h'.repeat(64)) });
      expect(await store.get('key_a')).toEqual(record);
      expect((await store.findByLookup('h'.repeat(64)))?.record).toEqual(record);
    });

    it('answers undefined for an unknown id or hash', async () => {
      expect(await store.get('key_missing')).toBeUndefined();
      expect(await store.findByLookup('0'.repeat(64))).toBeUndefined();
      expect(await store.revoke('key_missing', '2026-11-03T00:00:00.000Z')).toBeUndefined();
    });

    it('refuses a second key with a taken id or a taken hash, and keeps the first', async () => {
      await store.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
      await expect(
        store.create({ record: sampleRecord('key_a'), secret: sampleSecret('b'.repeat(64)) }),
      ).rejects.toThrow(KeyConflictError);
      await expect(
        store.create({ record: sampleRecord('key_b'), secret: sampleSecret('a'.repeat(64)) }),
      ).rejects.toThrow(KeyConflictError);
      expect(await store.findByLookup('b'.repeat(64))).toBeUndefined();
      expect(await store.get('key_b')).toBeUndefined();
      expect(await store.list()).toHaveLength(1);
    });

    it('marks a key revoked once: a second revocation keeps the first instant', async () => {
      await store.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
      const first = await store.revoke('key_a', '2026-11-03T00:00:00.000Z');
      const second = await store.revoke('key_a', '2026-11-04T00:00:00.000Z');
      expect(first?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
      expect(second?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
      expect((await store.findByLookup('a'.repeat(64)))?.record.revokedAt).toBe('2026-11-03T00:00:00.000Z');
    });

    it('lists every record oldest first, ties broken by id', async () => {
      await store.create({
        record: sampleRecord('key_c', '2026-11-02T00:00:00.000Z'),
        secret: sampleSecret('c'.repeat(64)),
      });
      await store.create({
        record: sampleRecord('key_b', '2026-11-01T00:00:00.000Z'),
        secret: sampleSecret('b'.repeat(64)),
      });
      await store.create({
        record: sampleRecord('key_a', '2026-11-02T00:00:00.000Z'),
        secret: sampleSecret('a'.repeat(64)),
      });
      expect((await store.list()).map((r) => r.keyId)).toEqual(['key_b', 'key_a', 'key_c']);
    });

    it('does not let callers change stored state by mutating records', async () => {
      const record = sampleRecord('key_a');
      await store.create({ record, secret: sampleSecret('a'.repeat(64)) });
      record.label = 'changed after create';
      const got = await store.get('key_a');
      got!.revokedAt = 'changed after get';
      expect(await store.get('key_a')).toMatchObject({ label: 'label of key_a', revokedAt: '' });
    });

    it('rotates: the new secret finds the key, older ones end at the grace instant, expired ones go', async () => {
      await store.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
      const first = await store.rotate('key_a', {
        secret: sampleSecret('b'.repeat(64)),
        keyPrefix: 'cg_test_BbBb…',
        at: '2026-11-03T00:00:00.000Z',
        previousExpiresAt: '2026-11-04T00:00:00.000Z',
      });
      expect(first).toMatchObject({
        keyPrefix: 'cg_test_BbBb…',
        rotatedAt: '2026-11-03T00:00:00.000Z',
        previousKeyPrefix: 'cg_test_AbCd…',
        previousKeyExpiresAt: '2026-11-04T00:00:00.000Z',
      });
      expect((await store.findByLookup('a'.repeat(64)))?.secret.expiresAt).toBe('2026-11-04T00:00:00.000Z');
      expect((await store.findByLookup('b'.repeat(64)))?.secret.expiresAt).toBe('');
      expect((await store.get('key_a'))?.keyPrefix).toBe('cg_test_BbBb…');
      // A second rotation after the first grace ended drops the first secret entirely.
      await store.rotate('key_a', {
        secret: sampleSecret('c'.repeat(64)),
        keyPrefix: 'cg_test_CcCc…',
        at: '2026-11-05T00:00:00.000Z',
        previousExpiresAt: '2026-11-05T01:00:00.000Z',
      });
      expect(await store.findByLookup('a'.repeat(64))).toBeUndefined();
      expect((await store.findByLookup('b'.repeat(64)))?.secret.expiresAt).toBe('2026-11-05T01:00:00.000Z');
      expect((await store.findByLookup('c'.repeat(64)))?.record.keyId).toBe('key_a');
    });

    it('answers undefined when rotating an unknown key, and refuses a taken lookup', async () => {
      const rotation = {
        secret: sampleSecret('b'.repeat(64)),
        keyPrefix: 'x',
        at: '2026-11-03T00:00:00.000Z',
        previousExpiresAt: '2026-11-03T00:00:00.000Z',
      };
      expect(await store.rotate('key_missing', rotation)).toBeUndefined();
      await store.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
      await expect(store.rotate('key_a', { ...rotation, secret: sampleSecret('a'.repeat(64)) })).rejects.toThrow(
        KeyConflictError,
      );
    });
  });
}
