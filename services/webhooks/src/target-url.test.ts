import { describe, expect, it } from 'vitest';
import { addressAllowed, checkTarget, type Resolver } from './target-url.js';

/** A resolver answering from a table, as DNS would. */
const dns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (found === undefined) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const resolver = dns({
  'hooks.example.com': ['93.184.216.34'],
  'metadata.evil.test': ['169.254.169.254'],
  'mixed.evil.test': ['93.184.216.34', '10.0.0.5'],
  'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'mapped.evil.test': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
});

async function refusal(p: Promise<unknown>) {
  return p.then(
    () => expect.fail('expected a refusal'),
    (e: { field?: string; message: string }) => e,
  );
}

describe('checkTarget', () => {
  it('accepts a public https receiver and pins the address it resolved', async () => {
    const t = await checkTarget('https://hooks.example.com/civic#frag', 'live', 'url', resolver);
    expect(t).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(t.url.href).toBe('https://hooks.example.com/civic');
    expect((await checkTarget('https://v6.example.com/', 'live', 'url', resolver)).family).toBe(6);
  });

  it.each([
    ['http://hooks.example.com/', 'https'],
    ['https://127.0.0.1/', 'address'],
    ['https://localhost:8443/', 'address'],
    ['https://[::1]/', 'address'],
    ['https://10.1.2.3/', 'address'],
    ['https://172.16.0.1/', 'address'],
    ['https://192.168.1.1/', 'address'],
    ['https://100.64.0.1/', 'address'],
    ['https://169.254.169.254/latest/meta-data', 'address'],
    ['https://0.0.0.0/', 'address'],
    ['https://[fe80::1]/', 'address'],
    ['https://[fd00::1]/', 'address'],
    ['https://[::ffff:10.0.0.1]/', 'address'],
    // IPv6 forms that carry an internal IPv4 address.
    ['https://[64:ff9b:1::a9fe:a9fe]/', 'address'], // local-use NAT64 → 169.254.169.254
    ['https://[64:ff9b::a9fe:a9fe]/', 'address'], // well-known NAT64
    ['https://[::7f00:1]/', 'address'], // IPv4-compatible 127.0.0.1
    ['https://[2002:7f00:1::]/', 'address'], // 6to4 of 127.0.0.1
    ['https://[::ffff:0:7f00:1]/', 'address'], // IPv4-translated 127.0.0.1
    ['https://[2001::1]/', 'address'], // Teredo
    ['https://[fec0::1]/', 'address'], // site-local
    ['https://[2001:db8::1]/', 'address'], // documentation
    ['https://[100::1]/', 'address'], // discard-only
    ['https://metadata.evil.test/', 'address'],
    ['https://mixed.evil.test/', 'address'],
    ['https://mapped.evil.test/', 'address'],
    ['https://nowhere.invalid/', 'resolve'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['ftp://hooks.example.com/', 'https'],
    ['not a url', 'valid'],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, 'characters'],
  ])('refuses %s for a live key (%s)', async (url, why) => {
    const err = await refusal(checkTarget(url, 'live', 'url', resolver));
    expect(err.field).toBe('url');
    expect(err.message).toContain(why);
  });

  it('lets a test key use http or https to localhost, and nothing else private', async () => {
    expect((await checkTarget('http://localhost:3000/hook', 'test', 'url', resolver)).address).toBe('127.0.0.1');
    expect((await checkTarget('http://127.0.0.1:3000/hook', 'test', 'url', resolver)).address).toBe('127.0.0.1');
    expect((await checkTarget('https://[::1]:3000/hook', 'test', 'url', resolver)).address).toBe('::1');
    for (const url of [
      'http://10.0.0.1/',
      'https://169.254.169.254/',
      'http://hooks.example.com/',
      'http://mapped.evil.test/',
    ]) {
      expect((await refusal(checkTarget(url, 'test', 'url', resolver))).field, url).toBe('url');
    }
  });

  it('refuses a non-string or empty URL, naming the field it was given', async () => {
    for (const v of [undefined, 42, '', ['https://hooks.example.com/']])
      expect((await refusal(checkTarget(v, 'live', 'endpoint.url', resolver))).field).toBe('endpoint.url');
  });
});

describe('addressAllowed', () => {
  it('knows public from reserved addresses of both families', () => {
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
    expect(addressAllowed('2001:4860:4860::8888', false)).toBe(true);
    for (const a of [
      '::ffff:a00:1',
      '::ffff:7f00:1',
      '127.0.0.1',
      '10.0.0.1',
      '192.0.2.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'ff02::1',
      '::ffff:192.168.0.1',
      'nonsense',
    ]) {
      expect(addressAllowed(a, false), a).toBe(false);
    }
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
  });

  it('allows only global unicast IPv6: every IPv4-embedding and special-purpose form is refused, for test keys too', () => {
    for (const a of ['2606:4700:4700::1111', '2a00:1450:4001::200e', '2001:4860::8888'])
      expect(addressAllowed(a, false), a).toBe(true);
    for (const a of [
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b::808:808',
      '::7f00:1',
      '::a00:1',
      '2002:7f00:1::',
      '2002:808:808::1',
      '::ffff:0:7f00:1',
      '2001::1',
      '2001:0:4136:e378::1',
      'fec0::1',
      '3fff::1',
      '4000::1',
      'e000::1',
    ]) {
      expect(addressAllowed(a, false), a).toBe(false);
      expect(addressAllowed(a, true), `${a} (test key)`).toBe(false);
    }
  });
});
