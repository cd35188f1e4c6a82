import type { NodeDoc } from '../model/nodes.js';
import type { GraphStore } from '../store/graph-store.js';
import { queryAll } from '../store/query-all.js';
import type { KnownPerson } from './shared/person-match.js';

/**
 * The people the store already ties to an office — its holders (HOLDS) and the persons of
 * candidacies in its contests — for matching a source that names people only by name.
 * Each office is read once per import.
 */
export function officePeople(store: GraphStore): (office: string) => Promise<readonly KnownPerson[]> {
  const cache = new Map<string, Promise<readonly KnownPerson[]>>();
  return (office) => {
    let people = cache.get(office);
    if (people === undefined) cache.set(office, (people = read(store, office)));
    return people;
  };
}

async function read(store: GraphStore, office: string): Promise<readonly KnownPerson[]> {
  const holders = (await store.edges(office, 'in', 'HOLDS')).map((e) => e.from);
  const contests = await queryAll(store, { kind: 'contest', match: { office: [office] } });
  const candidacies =
    contests.length === 0
      ? []
      : await queryAll(store, { kind: 'candidacy', match: { contest: contests.map((c) => c.slug) } });
  const candidates = candidacies.map((c) => (c as NodeDoc<'candidacy'>).data.fields.person.value);
  const persons = await store.getNodes([...new Set([...holders, ...candidates])]);
  return persons
    .filter((p): p is NodeDoc<'person'> => p.kind === 'person')
    .map((p) => ({ slug: p.slug, name: p.data.name }));
}
