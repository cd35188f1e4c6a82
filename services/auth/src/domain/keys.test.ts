import { describe, expect, it } from 'vitest';
import { Environment } from '@civicgraph/protos/civic/auth/v1/auth';
import { displayPrefix, generateKey, generateKeyId, KEY_LENGTH, parseKey } from './keys.js';

describe('generateKey', () => {
  it('makes cg_<env>_ followed by 40 base62 characters', () => {
    expect(generateKey(Environment.ENVIRONMENT_TEST)).toMatch(/^cg_test_[0-9A-Za-z]{40}$/);
    expect(generateKey(Environment.ENVIRONMENT_LIVE)).toMatch(/^cg_live_[0-9A-Za-z]{40}$/);
    expect(KEY_LENGTH).toBe(48);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey(Environment.ENVIRONMENT_LIVE)));
    expect(keys.size).toBe(1000);
  });

  it('refuses an environment without a prefix word', () => {
    expect(() => generateKey(Environment.ENVIRONMENT_UNSPECIFIED)).toThrow(RangeError);
  });
});

describe('key ids and display prefixes', () => {
  it('makes ids key_ followed by 16 base62 characters', () => {
    expect(generateKeyId()).toMatch(/^key_[0-9A-Za-z]{16}$/);
  });

  it('shows the first 12 characters of a key and an ellipsis', () => {
    expect(displayPrefix('cg_test_AbCdEfGh')).toBe('cg_test_AbCd…');
  });
});

describe('parseKey', () => {
  const good = generateKey(Environment.ENVIRONMENT_LIVE);

  it('accepts a generated key and reports its environment', () => {
    expect(parseKey(good)).toEqual({ key: good, environment: Environment.ENVIRONMENT_LIVE });
    const test = generateKey(Environment.ENVIRONMENT_TEST);
    expect(parseKey(test)?.environment).toBe(Environment.ENVIRONMENT_TEST);
  });

  it.each([
    ['empty', ''],
    ['too short', good.slice(0, -1)],
    ['too long', `${good}x`],
    ['wrong product prefix', `xx${good.slice(2)}`],
    ['unknown environment', `cg_prod_${good.slice(8)}`],
    ['upper-case environment', `cg_LIVE_${good.slice(8)}`],
    ['a hyphen in the body', `${good.slice(0, -1)}-`],
    ['a non-ASCII letter in the body', `${good.slice(0, 20)}é${good.slice(21)}`],
    ['a space in the body', `${good.slice(0, 30)} ${good.slice(31)}`],
    ['surrounding whitespace', ` ${good.slice(1)}`],
  ])('rejects a key with %s', (_, raw) => {
    expect(parseKey(raw)).toBeUndefined();
  });
});
