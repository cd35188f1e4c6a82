import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
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

/** IANA's global unicast allocation: every IPv6 address outside it is special-purpose or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** A checked receiver: the URL as normalised, and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Whether `address` is one a webhook may be sent to: global unicast only, as ipaddr.js's
 * IANA special-purpose ranges classify it (loopback, link-local, private, shared, NAT64,
 * 6to4, Teredo, IPv4-translated, site-local, documentation, benchmarking… are all
 * refused), an IPv4-mapped IPv6 address judged as the IPv4 address it maps, and an IPv6
 * address besides inside 2000::/3 (so IPv4-compatible `::a.b.c.d` forms are refused too).
 * Loopback is allowed only when `allowLoopback`.
 */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  if (isIP(address) === 0) return false;
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'loopback') return allowLoopback;
  if (range !== 'unicast') return false;
  return ip.kind() === 'ipv4' || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** A host written as a loopback address. */
function isLoopback(host: string): boolean {
  return isIP(host) !== 0 && ipaddr.process(host).range() === 'loopback';
}

/**
 * Checks a receiver URL for a key of `environment` and resolves the address to use;
 * throws InvalidParameterError naming `field` with the reason.
 */
export async function checkTarget(
  raw: unknown,
  environment: 'test' | 'live',
  field = 'url',
  resolve: Resolver = systemResolver,
): Promise<CheckedTarget> {
  const bad = (why: string) => new InvalidParameterError(field, `${field} ${why}`);
  if (typeof raw !== 'string' || raw === '') throw bad('must be an absolute https URL.');
  if (raw.length > MAX_URL_LENGTH) throw bad(`must be at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('is not a valid absolute URL.');
  }
  if (url.username !== '' || url.password !== '')
    throw bad('must not carry credentials; authenticate receivers by the signature.');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('must use https.');
  url.hash = '';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost') || isLoopback(host);
  const allowLoopback = environment === 'test' && local;
  if (url.protocol === 'http:' && !allowLoopback) {
    throw bad(
      environment === 'live' ? 'must use https for live keys.' : 'must use https, except to localhost for test keys.',
    );
  }
  const addresses =
    isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await resolveOrRefuse(host, resolve, bad);
  // Every address the name has must be allowed: the dispatcher may be handed any of them.
  const refused = addresses.find((a) => !addressAllowed(a.address, allowLoopback));
  if (refused !== undefined) {
    throw bad(
      `resolves to ${refused.address}, a ${environment === 'test' ? 'private or reserved' : 'loopback, private or reserved'} address webhooks are never sent to.`,
    );
  }
  const pinned = addresses[0]!;
  return { url, address: pinned.address, family: pinned.family === 6 ? 6 : 4 };
}

async function resolveOrRefuse(
  host: string,
  resolve: Resolver,
  bad: (why: string) => Error,
): Promise<{ address: string; family: number }[]> {
  try {
    const found = await resolve(host);
    if (found.length === 0) throw new Error('no addresses');
    return found;
  } catch {
    throw bad(`names a host that does not resolve (${JSON.stringify(host.slice(0, 100))}).`);
  }
}
