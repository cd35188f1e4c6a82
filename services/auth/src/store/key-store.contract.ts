import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyConflictError, type KeyStore } from '../domain/key-store.js';
import { sampleRecord } from './sample-record.js';

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
      await store.create({ record, hash: 'h'.repeat(64) });
      expect(await store.get('key_a')).toEqual(record);
      expect(await store.findByHash('h'.repeat(64))).toEqual(record);
    });

    it('answers undefined for an unknown id or hash', async () => {
      expect(await store.get('key_missing')).toBeUndefined();
      expect(await store.findByHash('0'.repeat(64))).toBeUndefined();
      expect(await store.revoke('key_missing', '2026-11-03T00:00:00.000Z')).toBeUndefined();
    });

    it('refuses a second key with a taken id or a taken hash, and keeps the first', async () => {
      await store.create({ record: sampleRecord('key_a'), hash: 'a'.repeat(64) });
      await expect(store.create({ record: sampleRecord('key_a'), hash: 'b'.repeat(64) })).rejects.toThrow(KeyConflictError);
      await expect(store.create({ record: sampleRecord('key_b'), hash: 'a'.repeat(64) })).rejects.toThrow(KeyConflictError);
      expect(await store.findByHash('b'.repeat(64))).toBeUndefined();
      expect(await store.get('key_b')).toBeUndefined();
      expect(await store.list()).toHaveLength(1);
    });

    it('marks a key revoked once: a second revocation keeps the first instant', async () => {
      await store.create({ record: sampleRecord('key_a'), hash: 'a'.repeat(64) });
      const first = await store.revoke('key_a', '2026-11-03T00:00:00.000Z');
      const second = await store.revoke('key_a', '2026-11-04T00:00:00.000Z');
      expect(first?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
      expect(second?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
      expect((await store.findByHash('a'.repeat(64)))?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
    });

    it('lists every record oldest first, ties broken by id', async () => {
      await store.create({ record: sampleRecord('key_c', '2026-11-02T00:00:00.000Z'), hash: 'c'.repeat(64) });
      await store.create({ record: sampleRecord('key_b', '2026-11-01T00:00:00.000Z'), hash: 'b'.repeat(64) });
      await store.create({ record: sampleRecord('key_a', '2026-11-02T00:00:00.000Z'), hash: 'a'.repeat(64) });
      expect((await store.list()).map((r) => r.keyId)).toEqual(['key_b', 'key_a', 'key_c']);
    });

    it('does not let callers change stored state by mutating records', async () => {
      const record = sampleRecord('key_a');
      await store.create({ record, hash: 'a'.repeat(64) });
      record.label = 'changed after create';
      const got = await store.get('key_a');
      got!.revokedAt = 'changed after get';
      expect(await store.get('key_a')).toMatchObject({ label: 'label of key_a', revokedAt: '' });
    });
  });
}
