import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidParameterError } from './errors.js';
import { secretFromFile } from './secret-file.js';

/**
 * Opaque, tamper-evident pagination cursors (DESIGN, Pagination). A cursor carries the
 * store's keyset position and a fingerprint of the query it belongs to, signed with
 * HMAC-SHA256: a cursor edited by hand, or replayed against a different query, is refused
 * as an invalid `cursor` instead of silently returning some other page.
 */
export class Cursors {
  constructor(private readonly secret: Buffer) {}

  /** A secret from config, or one created once beside the store and reused after restarts. */
  static fromSecretFile(path: string, configured: string | undefined): Cursors {
    return new Cursors(secretFromFile(path, configured));
  }

  /** Encodes the position after which the next page starts, for this query. */
  encode(after: string, query: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify({ a: after, q: fingerprint(query) }), 'utf8').toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The position in a cursor from `encode` for the same query; '' for none. */
  decode(cursor: string, query: Record<string, unknown>): string | undefined {
    if (cursor === '') return undefined;
    const invalid = () =>
      new InvalidParameterError(
        'cursor',
        'cursor is not one this API issued for this query; pass `next_cursor` from the previous page unchanged, with the same filters.',
      );
    const [body, mac, extra] = cursor.split('.');
    if (body === undefined || mac === undefined || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let parsed: { a?: unknown; q?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { a?: unknown; q?: unknown };
    } catch {
      throw invalid();
    }
    if (typeof parsed.a !== 'string' || parsed.q !== fingerprint(query)) throw invalid();
    return parsed.a;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}

/** A short stable digest of the query's filters (sorted keys), so a cursor stays with its query. */
function fingerprint(query: Record<string, unknown>): string {
  const sorted = Object.keys(query)
    .sort()
    .map((k) => [k, query[k]]);
  return createHmac('sha256', 'civicgraph-cursor-query')
    .update(JSON.stringify(sorted))
    .digest('base64url')
    .slice(0, 12);
}
