import type { PlainDraft } from '../../domain/drafts.js';
import type { ProvenanceMethod } from '../../model/nodes.js';
import { slug } from '../../model/slugs.js';

/** What a source file says about itself; `retrievedAt` is the file's mtime unless an option says otherwise. */
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
    data: { source: d.source, url: d.url, publisher: d.publisher, licence: d.licence, retrievedAt: d.retrievedAt, method: d.method },
  };
}

/** `retrievedAt` as given (any date or instant Date can read), else the file's mtime, as RFC 3339. */
export function retrievedAt(option: string | Date | undefined, modifiedAt: string): string {
  if (option === undefined) return modifiedAt;
  const d = option instanceof Date ? option : new Date(option);
  if (Number.isNaN(d.getTime())) throw new RangeError(`retrievedAt "${String(option)}" is not a date`);
  return d.toISOString();
}
