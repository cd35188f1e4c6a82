import { basename } from 'node:path';
import type { PlainDraft } from '../../domain/drafts.js';
import { slugKey } from '../../model/slugs.js';
import { provenanceDraft, retrievedAt, type SourceDescription } from '../shared/index.js';
import type { FeedIndex } from './feed-index.js';
import type { Feed } from './read-feed.js';
import { text } from './xml.js';

const SPEC = 'https://github.com/votinginfoproject/vip-specification/blob/c2dac507f33046fda08b6690453f9e3e2bc5b15f';

/** The sample feeds of the VIP specification repository (CC BY 4.0), by file name. */
const KNOWN: Readonly<Record<string, { url: string; licence: string }>> = {
  'sample_feed_v5.xml': {
    url: `${SPEC}/sample_feed_v5.xml`,
    licence: 'CC BY 4.0 (votinginfoproject/vip-specification)',
  },
  'sample_feed_v6.zip': {
    url: `${SPEC}/sample_feed_v6.zip`,
    licence: 'CC BY 4.0 (votinginfoproject/vip-specification)',
  },
};

/** Provenance fields an import may set or override. */
export type VipProvenanceOverrides = Partial<Omit<SourceDescription, 'retrievedAt'>> & {
  retrievedAt?: string | Date;
  sourceDate?: string;
};

/**
 * The provenance of a VIP feed: an official filing (VIP feeds are published by the
 * election officials their Source names), `provenance:vip-<VipId>-<election date>` (stable
 * per feed), published by the Source's Name, at its OrganizationUri unless the file is
 * one the importer knows. `retrievedAt` is the Source's DateTime (when the feed was made)
 * unless given.
 */
export function vipSource(
  path: string,
  feed: Feed,
  index: FeedIndex,
  electionDate: string | undefined,
  overrides: VipProvenanceOverrides = {},
): PlainDraft<'provenance'> {
  const source = [...index.ofType('Source'), ...index.anonymous.filter((e) => e.type === 'Source')][0]?.el;
  const vipId = source === undefined ? undefined : text(source, 'VipId');
  const name = source === undefined ? undefined : text(source, 'Name');
  const known = KNOWN[basename(path)];
  const { retrievedAt: when, sourceDate, ...fields } = overrides;
  const key =
    vipId !== undefined && electionDate !== undefined
      ? `vip-${slugKey(vipId)}-${electionDate}`
      : `vip-${slugKey(basename(path).replace(/\.[^.]+$/, ''))}`;
  return provenanceDraft({
    key,
    source: `VIP ${feed.version || '?'} feed${name === undefined ? '' : `: ${name}`} (${basename(feed.file)})`,
    url: known?.url ?? (source === undefined ? undefined : text(source, 'OrganizationUri')) ?? `file://${path}`,
    publisher: name ?? 'unknown (the feed has no Source name)',
    licence: known?.licence ?? 'not stated in the feed',
    method: 'official-filing',
    ...fields,
    retrievedAt: retrievedAt(
      when,
      source === undefined ? undefined : feedDate(text(source, 'DateTime')),
      path,
      sourceDate,
    ),
  });
}

/** A VIP DateTime (`2013-10-24T14:25:28`, no zone) as UTC; undefined when absent or unreadable. */
function feedDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
