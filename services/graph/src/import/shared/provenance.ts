import { basename } from 'node:path';
import { InvalidParameterError } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { ProvenanceMethod } from '../../model/nodes.js';
import { slug } from '../../model/slugs.js';

/** What a source file says about itself. */
export interface SourceDescription {
  /** Slug key, stable per source file (version): `fec-weball26`, `ocd-us-sldu`. */
  key: string;
  /** Human name, e.g. `FEC all candidates 2026 (weball26.txt)`. */
  source: string;
  url: string;
  publisher: string;
  licence: string;
  retrievedAt: string;
  method: ProvenanceMethod;
}

/** The provenance node every batch from one source file cites. */
export function provenanceDraft(d: SourceDescription): PlainDraft<'provenance'> {
  return {
    kind: 'provenance',
    slug: slug('provenance', d.key),
    state: '',
    tier: '',
    data: {
      source: d.source,
      url: d.url,
      publisher: d.publisher,
      licence: d.licence,
      retrievedAt: d.retrievedAt,
      method: d.method,
    },
  };
}

/**
 * When the source was read or published, as RFC 3339: the date given (`--retrieved-at`, an
 * HTTP Last-Modified), else the source's own date (the FEC's coverage end, a VIP feed's
 * Source DateTime, the published version of a known file), else `fallback` (how the source
 * was delivered dates it: an HTTP Last-Modified, a mirror's snapshot date). Never the
 * file's modification time: a 2024 file copied today is not fresh. With none, the import
 * is refused.
 */
export function retrievedAt(
  option: string | Date | undefined,
  own: string | undefined,
  path: string,
  fallback?: string,
): string {
  const given = option ?? own ?? fallback;
  if (given === undefined) {
    throw new InvalidParameterError(
      'retrieved_at',
      `${basename(path)} carries no date of its own: give --retrieved-at YYYY-MM-DD (the day it was published or downloaded); a file's modification time is not the source's date.`,
    );
  }
  const d = given instanceof Date ? given : new Date(given);
  if (Number.isNaN(d.getTime()))
    throw new InvalidParameterError(
      'retrieved_at',
      `--retrieved-at must be a date (YYYY-MM-DD) or an RFC 3339 instant, got "${String(given)}".`,
    );
  return d.toISOString();
}
