import type { NodeDoc } from '../model/nodes.js';
import type { GraphStore } from '../store/graph-store.js';
import type { KnownCandidate, SenateTerm } from './fec/known-candidates.js';

const SENATE_OFFICE = /^office:([a-z]{2})-us-senator-class-(\d)$/;

/**
 * What the store already knows of FEC candidate ids: every person carrying `ids.fec` (a
 * legislator from congress-legislators, a candidate from an earlier FEC import) and the
 * Senate terms they served, read from their HOLDS edges. With it, a re-import without
 * `--legislators` points each id at the same person as a run with it did.
 */
export async function storedCandidates(store: GraphStore): Promise<Map<string, KnownCandidate>> {
  const index = new Map<string, KnownCandidate>();
  let after: string | undefined;
  do {
    const page = await store.query({ kind: 'person', limit: 1000, ...(after === undefined ? {} : { after }) });
    for (const node of page.nodes) {
      const person = node as NodeDoc<'person'>;
      const ids = person.data.ids['fec'] ?? [];
      if (ids.length === 0) continue;
      const senateTerms = await senateTermsOf(store, person.slug);
      for (const id of ids)
        index.set(id.toUpperCase(), { person: person.slug, ...(senateTerms.length === 0 ? {} : { senateTerms }) });
    }
    after = page.next;
  } while (after !== undefined);
  return index;
}

/** The person's HOLDS terms in a Senate seat. */
async function senateTermsOf(store: GraphStore, person: string): Promise<SenateTerm[]> {
  return (await store.edges(person, 'out', 'HOLDS')).flatMap((term) => {
    const seat = SENATE_OFFICE.exec(term.to);
    return seat === null
      ? []
      : [
          {
            state: seat[1]!,
            senateClass: Number(seat[2]),
            start: String(term.data['start'] ?? ''),
            end: String(term.data['end'] ?? ''),
          },
        ];
  });
}
