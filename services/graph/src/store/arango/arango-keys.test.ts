import { describe, expect, it } from 'vitest';
import { decodeKey, edgeKey, encodeKey, MAX_KEY_BYTES, tryEncodeKey, UnencodableKeyError } from './arango-keys.js';

/** The characters ArangoDB accepts in a `_key`, minus ':' which some versions refuse. */
const KEY_ALPHABET = /^[A-Za-z0-9_\-.@()+,=;$!*'%]+$/;

const samples = [
  'region:co',
  'region:co-cd-1',
  'contest:co-cd-1-us-representative-2026-general',
  'region:ak-cd-at-large',
  'a%3Ab',
  'a:b',
  '%',
  '%25',
  'with space/and/slashes?&#',
  'ÉLECTION:zürich',
  'emoji:🗳️',
  'nul\u0000inside',
  'quotes:\'"`',
  'UPPER:lower',
];

describe('encodeKey / decodeKey', () => {
  it('encodes a slug into the key alphabet without ":" and decodes it back exactly', () => {
    for (const s of samples) {
      const key = encodeKey(s);
      expect(key).toMatch(KEY_ALPHABET);
      expect(key).not.toContain(':');
      expect(decodeKey(key)).toBe(s);
    }
  });

  it('keeps a plain slug readable: only the colon is escaped', () => {
    expect(encodeKey('region:co-cd-1')).toBe('region%3Aco-cd-1');
  });

  it('gives different strings different keys, including ones that look pre-encoded', () => {
    const keys = samples.map(encodeKey);
    expect(new Set(keys).size).toBe(samples.length);
    expect(encodeKey('a:b')).not.toBe(encodeKey('a%3Ab'));
  });

  it('refuses strings that cannot be a key: empty, lone surrogates, or over 254 bytes encoded', () => {
    expect(tryEncodeKey('')).toBeUndefined();
    expect(tryEncodeKey('bad\uD800surrogate')).toBeUndefined();
    expect(tryEncodeKey(`region:${'a'.repeat(MAX_KEY_BYTES)}`)).toBeUndefined();
    expect(tryEncodeKey(`r:${'a'.repeat(MAX_KEY_BYTES - 4)}`)).toHaveLength(MAX_KEY_BYTES);
    expect(() => encodeKey(`region:${'é'.repeat(50)}`)).toThrow(UnencodableKeyError);
    expect(() => encodeKey('')).toThrow(/empty/);
  });

  it('rejects keys encodeKey could not have produced', () => {
    expect(() => decodeKey('region:co')).toThrow(RangeError);
    expect(() => decodeKey('%41')).toThrow(/canonical/);
    expect(() => decodeKey('%3a')).toThrow(RangeError);
    expect(() => decodeKey('%FF')).toThrow();
  });
});

describe('edgeKey', () => {
  const e = { kind: 'HOLDS', from: 'person:p', to: 'office:o', key: '2019-01-03' } as const;

  it('is a valid key, the same for the same identity', () => {
    expect(edgeKey(e)).toMatch(KEY_ALPHABET);
    expect(edgeKey(e).length).toBeLessThanOrEqual(MAX_KEY_BYTES);
    expect(edgeKey({ ...e })).toBe(edgeKey(e));
  });

  it('differs when any part of the identity differs, even where a separator could blur them', () => {
    const keys = [
      edgeKey(e),
      edgeKey({ ...e, key: '2023-01-03' }),
      edgeKey({ ...e, kind: 'WITHIN' }),
      edgeKey({ ...e, from: 'person:q' }),
      edgeKey({ ...e, to: 'office:x' }),
      edgeKey({ kind: 'HOLDS', from: 'a|b', to: 'c', key: '' }),
      edgeKey({ kind: 'HOLDS', from: 'a', to: 'b|c', key: '' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
