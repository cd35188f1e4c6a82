import type { EdgeDoc, ProvenanceMethod } from '../model/nodes.js';
import type { CandidacyDraft, DraftBatch, NodeDraft, PlainDraft } from './drafts.js';

/**
 * Draft builders for the domain tests: valid drafts with only what a test varies.
 * (Test support only; nothing outside tests imports it.)
 */

export const T0 = new Date('2026-06-01T00:00:00.000Z');

export function batch(nodes: NodeDraft[], edges: EdgeDoc[] = []): DraftBatch {
  return { nodes, edges };
}

export function provenance(
  key: string,
  method: ProvenanceMethod = 'import',
  retrievedAt = T0.toISOString(),
  source = key,
): PlainDraft<'provenance'> {
  return {
    kind: 'provenance',
    slug: `provenance:${key}`,
    state: '',
    tier: '',
    data: {
      source,
      url: `https://example.org/${key}`,
      publisher: `${source} publisher`,
      licence: 'CC0-1.0',
      retrievedAt,
      method,
    },
  };
}

export function person(key: string, name = key): PlainDraft<'person'> {
  return {
    kind: 'person',
    slug: `person:${key}`,
    state: 'co',
    tier: '',
    data: { name, givenName: null, familyName: null, ids: {}, birthday: null, gender: null },
  };
}

export function party(key: string, name = key): PlainDraft<'party'> {
  return { kind: 'party', slug: `party:${key}`, state: '', tier: '', data: { name, abbreviation: key.toUpperCase() } };
}

export function contest(key: string): PlainDraft<'contest'> {
  return {
    kind: 'contest',
    slug: `contest:${key}`,
    state: 'co',
    tier: 'federal',
    data: {
      name: key,
      type: 'general',
      date: '2026-11-03',
      year: 2026,
      level: 'congressional-district',
      region: 'region:co-cd-1',
      office: 'office:co-cd-1-us-representative',
      seats: 1,
      special: false,
    },
  };
}

/** A candidacy draft of `person:jane-doe` in `contest:co-cd-1-2026`, from `provenance:<source>`. */
export function candidacy(
  source: string,
  claims: CandidacyDraft['claims'] = {},
  slug = 'candidacy:co-cd-1-2026-jane-doe',
): CandidacyDraft {
  return {
    kind: 'candidacy',
    slug,
    state: 'co',
    tier: 'federal',
    claims: { name: 'Jane Doe', person: 'person:jane-doe', contest: 'contest:co-cd-1-2026', ...claims },
    provenance: `provenance:${source}`,
  };
}

/** The nodes a candidacy draft from `candidacy()` needs to exist. */
export function candidacyWorld(): NodeDraft[] {
  return [person('jane-doe', 'Jane Doe'), contest('co-cd-1-2026'), party('dem'), party('rep')];
}
