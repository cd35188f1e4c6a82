import { createHmac, timingSafeEqual } from 'node:crypto';
import { NotFoundError } from '@civicgraph/kit';

/** How long a download link in an answer stays valid. */
export const LINK_TTL_S = 60 * 60;

/**
 * Signed, expiring download links: an HMAC-SHA256 over the export, the file and the expiry,
 * with a secret of the deployment. Whoever holds the link may fetch that one file until it
 * expires, without the key (a browser, `curl`, a loader on another machine) — the model of an
 * S3 pre-signed URL. A key that loses the export later does not revoke links already given.
 */
export class ExportLinks {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Expiry (unix seconds) and signature of a link to `name` of export `id`. */
  sign(id: string, name: string): { expires: number; signature: string } {
    const expires = Math.floor(this.now() / 1000) + LINK_TTL_S;
    return { expires, signature: this.mac(id, name, expires) };
  }

  /** Refuses a link that is expired or not ours, as a 404 (a wrong link is no file). */
  verify(id: string, name: string, expires: number, signature: string): void {
    const want = Buffer.from(this.mac(id, name, expires), 'hex');
    const got = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
    const valid = got.length === want.length && timingSafeEqual(got, want);
    if (!valid || expires * 1000 <= this.now())
      throw new NotFoundError('This download link is expired or not valid; ask GET /v1/exports/{id} for a new one.', {
        field: 'signature',
      });
  }

  private mac(id: string, name: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${id}\n${name}\n${expires}`).digest('hex');
  }
}
