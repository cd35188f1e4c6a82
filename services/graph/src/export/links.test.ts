import { describe, expect, it } from 'vitest';
import { NotFoundError } from '@civicgraph/kit';
import { ExportLinks, LINK_TTL_S } from './links.js';

describe('ExportLinks', () => {
  let now = Date.parse('2026-11-26T12:00:00Z');
  const links = new ExportLinks(Buffer.from('secret'), () => now);

  it('accepts its own link until it expires, then refuses it', () => {
    const { expires, signature } = links.sign('exp_a', 'party.csv');
    expect(expires).toBe(now / 1000 + LINK_TTL_S);
    expect(() => links.verify('exp_a', 'party.csv', expires, signature)).not.toThrow();
    now += LINK_TTL_S * 1000;
    expect(() => links.verify('exp_a', 'party.csv', expires, signature)).toThrow(NotFoundError);
  });

  it('refuses a link to another file, another export, a later expiry, or another secret', () => {
    const { expires, signature } = links.sign('exp_a', 'party.csv');
    expect(() => links.verify('exp_a', 'candidacy.csv', expires, signature)).toThrow(NotFoundError);
    expect(() => links.verify('exp_b', 'party.csv', expires, signature)).toThrow(NotFoundError);
    expect(() => links.verify('exp_a', 'party.csv', expires + 3600, signature)).toThrow(NotFoundError);
    const other = new ExportLinks(Buffer.from('other'), () => now);
    expect(() => other.verify('exp_a', 'party.csv', expires, signature)).toThrow(NotFoundError);
    expect(() => links.verify('exp_a', 'party.csv', expires, 'not-hex')).toThrow(NotFoundError);
  });
});
