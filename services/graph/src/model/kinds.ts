/**
 * The graph's vocabulary (DESIGN, Graph model): node kinds, edge kinds, region levels,
 * office tiers and contest types. Everything else in the model is built from these words.
 */

/** Node kinds; a node's slug is `<kind>:<key>`. */
export const NODE_KINDS = ['region', 'election', 'contest', 'office', 'candidacy', 'person', 'party', 'position', 'provenance', 'result'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/**
 * Edge kinds, each with the node kinds it joins (`from` → `to`). `SUPPORTED_BY` joins any
 * node to a provenance record; `HOLDS` carries a term (start, end). `WITHIN` says a region
 * lies wholly inside another; `OVERLAPS` that part of it does (a county some of whose
 * precincts vote in a district), both as certified returns or a curated fact show.
 */
export const EDGE_KINDS = {
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
} as const satisfies Record<string, { from: readonly NodeKind[]; to: readonly NodeKind[] }>;
export type EdgeKind = keyof typeof EDGE_KINDS;

/** Region levels, REST words (DESIGN): the GraphQL enum is the same in upper snake case. */
export const LEVELS = [
  'national',
  'state',
  'county',
  'congressional-district',
  'state-legislative-upper',
  'state-legislative-lower',
  'place',
  'school-district',
  'precinct',
  'county-commission-district',
  'ward',
  'judicial-district',
  'special-district',
] as const;
export type Level = (typeof LEVELS)[number];

/** Jurisdiction tiers of offices: what key scopes name. */
export const TIERS = ['federal', 'state', 'county', 'municipal', 'school', 'judicial', 'special'] as const;
export type Tier = (typeof TIERS)[number];

/** Contest types: the last word of a contest slug. */
export const CONTEST_TYPES = ['general', 'primary', 'special', 'runoff', 'recall', 'retention'] as const;
export type ContestType = (typeof CONTEST_TYPES)[number];

export const isNodeKind = (s: string): s is NodeKind => (NODE_KINDS as readonly string[]).includes(s);
export const isEdgeKind = (s: string): s is EdgeKind => Object.hasOwn(EDGE_KINDS, s);
export const isLevel = (s: string): s is Level => (LEVELS as readonly string[]).includes(s);
export const isTier = (s: string): s is Tier => (TIERS as readonly string[]).includes(s);
export const isContestType = (s: string): s is ContestType => (CONTEST_TYPES as readonly string[]).includes(s);
