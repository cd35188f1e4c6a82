import type { GraphStore } from '../store/graph-store.js';
import type { Field, NodeDoc } from '../model/nodes.js';
import type { NodeKind } from '../model/kinds.js';

/**
 * The nodes a page of answers refers to (people, parties, offices, regions, provenance),
 * fetched in one store call instead of one per reference.
 */
export class Related {
  private constructor(private readonly bySlug: Map<string, NodeDoc>) {}

  static async load(store: GraphStore, slugs: Iterable<string>): Promise<Related> {
    const wanted = [...new Set([...slugs].filter((s) => s !== ''))];
    const nodes = wanted.length === 0 ? [] : await store.getNodes(wanted);
    return new Related(new Map(nodes.map((n) => [n.slug, n])));
  }

  get<K extends NodeKind>(slug: string | null | undefined, kind: K): NodeDoc<K> | undefined {
    if (slug === null || slug === undefined) return undefined;
    const node = this.bySlug.get(slug);
    return node?.kind === kind ? (node as NodeDoc<K>) : undefined;
  }
}

/** Every slug a candidacy's view reads: person, party, positions and the provenance of each claim. */
export function candidacyReferences(c: NodeDoc<'candidacy'>): string[] {
  const f = c.data.fields;
  const out = [f.person.value, ...c.data.positions];
  if (typeof f.party?.value === 'string') out.push(f.party.value);
  for (const field of Object.values(f) as (Field | undefined)[]) {
    for (const claim of field?.claims ?? []) if (!out.includes(claim.provenance)) out.push(claim.provenance);
  }
  return out;
}

/** Every slug a contest refers to: its office and region. */
export function contestReferences(c: NodeDoc<'contest'>): string[] {
  return [c.data.office, c.data.region];
}
