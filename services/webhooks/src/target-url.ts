import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { InvalidParameterError } from '@civicgraph/kit';

/**
 * Where webhooks may be sent. A receiver URL names a host the dispatcher will connect to
 * from inside the deployment, so it must never reach the deployment itself or its network
 * (server-side request forgery): no loopback, link-local (cloud metadata at
 * 169.254.169.254), private, shared, multicast or reserved addresses, whether written as
 * an address or reached through a name. The name is resolved when the URL is checked and
 * again at every delivery, and the connection goes to the address that was checked (pinned),
 * so a name that changes its answer (DNS rebinding) gains nothing.
 *
 * Live keys: https only, public addresses only. Test keys may also use http or https to
 * localhost, so a developer can try webhooks against a receiver on their own machine.
 */

export const MAX_URL_LENGTH = 2048;

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // (IPv4-mapped ::ffff:0:0/96 is not listed: BlockList would then match every IPv4
  // address; a mapped address is checked as the IPv4 address it maps, below.)
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) BLOCKED.addSubnet(net, bits, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** A checked receiver: the URL as normalised, and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Whether `address` is one a webhook may be sent to (loopback only when `allowLoopback`). */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(address, type)) return true;
  if (BLOCKED.check(address, type)) return false;
  // An IPv4-mapped IPv6 address is the IPv4 address it maps.
  const mapped = mappedIpv4(address);
  return mapped === undefined || addressAllowed(mapped, allowLoopback);
}

/** `::ffff:10.0.0.1` or its hex form `::ffff:a00:1` (as URLs normalise it) → `10.0.0.1`. */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted !== undefined) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex === null) return undefined;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * Checks a receiver URL for a key of `environment` and resolves the address to use;
 * throws InvalidParameterError naming `field` with the reason.
 */
export async function checkTarget(raw: unknown, environment: 'test' | 'live', field = 'url', resolve: Resolver = systemResolver): Promise<CheckedTarget> {
  const bad = (why: string) => new InvalidParameterError(field, `${field} ${why}`);
  if (typeof raw !== 'string' || raw === '') throw bad('must be an absolute https URL.');
  if (raw.length > MAX_URL_LENGTH) throw bad(`must be at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('is not a valid absolute URL.');
  }
  if (url.username !== '' || url.password !== '') throw bad('must not carry credentials; authenticate receivers by the signature.');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('must use https.');
  url.hash = '';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost') || LOOPBACK.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4');
  const allowLoopback = environment === 'test' && local;
  if (url.protocol === 'http:' && !allowLoopback) {
    throw bad(environment === 'live' ? 'must use https for live keys.' : 'must use https, except to localhost for test keys.');
  }
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await resolveOrRefuse(host, resolve, bad);
  // Every address the name has must be allowed: the dispatcher may be handed any of them.
  const refused = addresses.find((a) => !addressAllowed(a.address, allowLoopback));
  if (refused !== undefined) {
    throw bad(`resolves to ${refused.address}, a ${environment === 'test' ? 'private or reserved' : 'loopback, private or reserved'} address webhooks are never sent to.`);
  }
  const pinned = addresses[0]!;
  return { url, address: pinned.address, family: pinned.family === 6 ? 6 : 4 };
}

async function resolveOrRefuse(host: string, resolve: Resolver, bad: (why: string) => Error): Promise<{ address: string; family: number }[]> {
  try {
    const found = await resolve(host);
    if (found.length === 0) throw new Error('no addresses');
    return found;
  } catch {
    throw bad(`names a host that does not resolve (${JSON.stringify(host.slice(0, 100))}).`);
  }
}
