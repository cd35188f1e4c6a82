/**
 * The graph's vocabulary (DESIGN, Graph model): node kinds, edge kinds, region levels,
 * office tiers and contest types. Everything else in the model is built from these words.
 * Node kinds, edge kinds and levels are defined once in the protos (civic.vocabulary.v1,
 * civic.geo.v1.Level) and come through the kit; what is the graph's own is which kinds an
 * edge joins.
 */

import { isLevelWord, LEVEL_WORDS, NODE_KINDS, type EdgeKind, type LevelWord, type NodeKind } from '@civicgraph/kit';

export { EDGE_KINDS, isEdgeKind, isNodeKind, NODE_KINDS, type EdgeKind, type NodeKind } from '@civicgraph/kit';

/**
 * The node kinds each edge kind joins (`from` → `to`): the graph's rule on the edge kinds of
 * civic.vocabulary.v1, one entry per kind or this fails to compile. `SUPPORTED_BY` joins any
 * node to a provenance record; `HOLDS` carries a term (start, end). `WITHIN` says a region
 * lies wholly inside another; `OVERLAPS` that part of it does (a county some of whose
 * precincts vote in a district), both as certified returns or a curated fact show.
 */
export const EDGE_ENDS = {
  IN_REGION: { from: ['contest'], to: ['region'] },
  FOR_OFFICE: { from: ['contest'], to: ['office'] },
  SERVES_REGION: { from: ['office'], to: ['region'] },
  IN_ELECTION: { from: ['contest'], to: ['election'] },
  FOR_CONTEST: { from: ['candidacy'], to: ['contest'] },
  OF_PERSON: { from: ['candidacy'], to: ['person'] },
  OF_PARTY: { from: ['candidacy'], to: ['party'] },
  TAKES_POSITION: { from: ['candidacy'], to: ['position'] },
  SUPPORTED_BY: { from: NODE_KINDS.filter((k) => k !== 'provenance'), to: ['provenance'] },
  HOLDS: { from: ['person'], to: ['office'] },
  WITHIN: { from: ['region'], to: ['region'] },
  OVERLAPS: { from: ['region'], to: ['region'] },
  RESULT_FOR: { from: ['result'], to: ['candidacy'] },
} as const satisfies Record<EdgeKind, { from: readonly NodeKind[]; to: readonly NodeKind[] }>;

/** Region levels, REST words, from civic.geo.v1.Level: the GraphQL enum is the same in upper snake case. */
export const LEVELS = LEVEL_WORDS;
export type Level = LevelWord;

/** Jurisdiction tiers of offices: what key scopes name. */
export const TIERS = ['federal', 'state', 'county', 'municipal', 'school', 'judicial', 'special'] as const;
export type Tier = (typeof TIERS)[number];

/** Contest types: the last word of a contest slug. */
export const CONTEST_TYPES = ['general', 'primary', 'special', 'runoff', 'recall', 'retention'] as const;
export type ContestType = (typeof CONTEST_TYPES)[number];

export const isLevel = isLevelWord;
export const isTier = (s: string): s is Tier => (TIERS as readonly string[]).includes(s);
export const isContestType = (s: string): s is ContestType => (CONTEST_TYPES as readonly string[]).includes(s);
