import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeaders } from './signing.js';

describe('Standard Webhooks signatures', () => {
  it('are accepted by the standardwebhooks package for the exact body, and refused for any other', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'candidacy.updated', data: { slug: 'candidacy:x' } });
    const headers = signatureHeaders([secret], 'msg_1', body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('signs with every secret given, so a receiver holding either verifies during a rotation', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders([a, b], 'msg_1', '{}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of [a, b]) expect(new Webhook(s).verify('{}', { ...headers })).toEqual({});
  });

  it('carries the attempt time, which receivers refuse when it is stale', () => {
    const secret = newSigningSecret();
    const old = signatureHeaders([secret], 'msg_1', '{}', new Date(Date.now() - 3_600_000));
    expect(old['webhook-timestamp']).toBe(String(Math.floor((Date.now() - 3_600_000) / 1000)));
    expect(() => new Webhook(secret).verify('{}', { ...old })).toThrow(/timestamp/i);
  });
});
