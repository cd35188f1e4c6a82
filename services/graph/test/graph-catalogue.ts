import { cypherSchema, kindOfLabel, labelOf, propertiesOf, type PropertyType } from '../src/cypher/schema.js';
import type { EdgeKind } from '../src/model/kinds.js';
import type { WholeGraph } from './read-graph.js';

/**
 * What a query generator may name: the labels that have nodes, the relationship types that
 * have edges (with the labels at their ends), and per property its type and some of the
 * values the graph holds (list properties: their items), so a generated WHERE can hit.
 * JSON properties are left out: no second engine reads them the same way.
 */
export interface Catalogue {
  labels: LabelInfo[];
  relationships: RelInfo[];
}

export interface PropInfo {
  name: string;
  type: Exclude<PropertyType, 'JSON'>;
  /** Distinct non-null values found (items, for STRING[]), sorted; at most VALUES_KEPT. */
  values: unknown[];
}

export interface LabelInfo {
  label: string;
  props: PropInfo[];
}

export interface RelInfo {
  type: EdgeKind;
  /** Labels found at the start of its edges. */
  from: string[];
  /** Labels found at the end of its edges. */
  to: string[];
  props: PropInfo[];
}

const VALUES_KEPT = 40;

export function catalogue(graph: WholeGraph): Catalogue {
  const schema = cypherSchema();
  const labels = schema.labels.flatMap(({ label }) => {
    const docs = graph.nodes.get(kindOfLabel(label)!) ?? [];
    if (docs.length === 0) return [];
    const props = Object.entries(propertiesOf(kindOfLabel(label)!)).flatMap(([name, spec]) =>
      spec.type === 'JSON' ? [] : [{ name, type: spec.type, values: sample(docs.map((d) => spec.read(d))) }],
    );
    return [{ label, props }];
  });
  const labelOfSlug = new Map([...graph.nodes.values()].flat().map((d) => [d.slug, labelOf(d.kind)]));
  const relationships = schema.relationships.flatMap(({ type, from, to }) => {
    const edges = graph.edges.get(type) ?? [];
    // The ends edges of the type actually join, so that a generated pattern can match.
    const f = from.filter((l) => edges.some((e) => labelOfSlug.get(e.from) === l));
    const t = to.filter((l) => edges.some((e) => labelOfSlug.get(e.to) === l));
    if (f.length === 0 || t.length === 0) return [];
    const keys = [...new Set(edges.flatMap((e) => Object.keys(e.data)))];
    const props = keys.flatMap((name) => {
      const values = edges.map((e) => e.data[name] ?? null);
      // Edge data are untyped; only keys holding text throughout are offered.
      return values.every((v) => v === null || typeof v === 'string')
        ? [{ name, type: 'STRING' as const, values: sample(values) }]
        : [];
    });
    return [{ type, from: f, to: t, props }];
  });
  return { labels, relationships };
}

/** Distinct non-null values (list items for lists), sorted, thinned evenly to VALUES_KEPT. */
function sample(values: unknown[]): unknown[] {
  const flat = values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v !== null && v !== undefined);
  const distinct = [...new Set(flat)].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  if (distinct.length <= VALUES_KEPT) return distinct;
  return Array.from({ length: VALUES_KEPT }, (_, i) => distinct[Math.floor((i * distinct.length) / VALUES_KEPT)]);
}
