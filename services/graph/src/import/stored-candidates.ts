import type { NodeDoc } from '../model/nodes.js';
import type { GraphStore } from '../store/graph-store.js';
import type { KnownCandidate } from './fec/known-candidates.js';

const SENATE_OFFICE = /^office:([a-z]{2})-us-senator-class-(\d)$/;

/**
 * What the store already knows of FEC candidate ids: every person carrying `ids.fec` (a
 * legislator from congress-legislators, a candidate from an earlier FEC import) and the
 * Senate seat they hold, read from their HOLDS terms. With it, a re-import without
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
      const senateSeat = await seatHeld(store, person.slug);
      for (const id of ids)
        index.set(id.toUpperCase(), { person: person.slug, ...(senateSeat === undefined ? {} : { senateSeat }) });
    }
    after = page.next;
  } while (after !== undefined);
  return index;
}

/** The Senate seat of the person's latest HOLDS term, if it is one. */
async function seatHeld(store: GraphStore, person: string): Promise<KnownCandidate['senateSeat']> {
  const terms = (await store.edges(person, 'out', 'HOLDS')).sort((a, b) =>
    String(a.data['start'] ?? '').localeCompare(String(b.data['start'] ?? '')),
  );
  const last = terms[terms.length - 1];
  const seat = last === undefined ? null : SENATE_OFFICE.exec(last.to);
  if (last === undefined || seat === null) return undefined;
  return { state: seat[1]!, senateClass: Number(seat[2]), termEnd: String(last.data['end'] ?? '') };
}
