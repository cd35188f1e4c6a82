import type { Indexed } from '../store/graph-store.js';
import type { NodeDoc } from './nodes.js';

/** What a node is indexed under: the one definition every GraphStore adapter uses. */
export interface IndexKeys {
  /** Exact-match values per indexed attribute (absent: not indexed under it). */
  match: Partial<Record<Indexed, string>>;
  /** The date a query's dateFrom/dateTo and date order use (YYYY-MM-DD); absent when none. */
  date?: string;
  /** Candidacies: their confidence. */
  confidence?: number;
}

/** The indexed values of a node, by kind. */
export function indexKeys(node: NodeDoc): IndexKeys {
  switch (node.kind) {
    case 'region': {
      const d = (node as NodeDoc<'region'>).data;
      return { match: { level: d.level } };
    }
    case 'election': {
      const d = (node as NodeDoc<'election'>).data;
      return { match: {}, date: d.date };
    }
    case 'contest': {
      const d = (node as NodeDoc<'contest'>).data;
      return { match: { region: d.region, office: d.office, level: d.level }, date: d.date };
    }
    case 'office': {
      const d = (node as NodeDoc<'office'>).data;
      return { match: { region: d.region, level: d.level } };
    }
    case 'candidacy': {
      const d = (node as NodeDoc<'candidacy'>).data;
      const party = d.fields.party?.value;
      return {
        match: {
          contest: d.fields.contest.value,
          person: d.fields.person.value,
          ...(typeof party === 'string' ? { party } : {}),
        },
        confidence: d.confidence,
      };
    }
    case 'result': {
      const d = (node as NodeDoc<'result'>).data;
      return { match: { contest: d.contest, ...(d.party === '' ? {} : { party: d.party }) } };
    }
    default:
      return { match: {} };
  }
}

/** The keyset sort key of a node under an order: its slug, or its date then slug. */
export function sortKey(node: NodeDoc, order: 'slug' | 'date'): string {
  return order === 'slug' ? node.slug : `${indexKeys(node).date ?? ''}\u0000${node.slug}`;
}
