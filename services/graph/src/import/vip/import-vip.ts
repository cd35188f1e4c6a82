import type { StateInfo } from '@civicgraph/kit';
import type { DraftItem, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge, sourcedBatch } from '../shared/index.js';
import { stateOf } from '../shared/served-regions.js';
import { candidacyDrafts, candidatesOf } from './candidacies.js';
import { CONTEST_TYPES, contestPlan, type ContestContext } from './contests.js';
import { electionPlan, type ElectionPlan } from './election.js';
import { FeedIndex, isDangling, type FeedElement } from './feed-index.js';
import { feedState, stateOfElement } from './feed-state.js';
import { officePlan } from './offices.js';
import { partyPlan } from './parties.js';
import { precinctItems } from './precincts.js';
import { vipSource, type VipProvenanceOverrides } from './provenance.js';
import { readFeed, type Feed } from './read-feed.js';
import { districtRegion, localityRegion, type RegionPlan } from './regions.js';
import { text } from './xml.js';

export interface VipImportOptions {
  /** Provenance fields to set or override. */
  provenance?: VipProvenanceOverrides;
  /** In a zip holding several XML files, the feed to read. */
  entry?: string;
  /** Told, once the feed is read, how many elements of each type it holds and how many were mapped. */
  onSummary?: (summary: VipSummary) => void;
}

/** What a feed held and what the importer made of it. */
export interface VipSummary {
  file: string;
  version: string;
  /** Elements in the feed by type (duplicates included). */
  elements: Record<string, number>;
  /** Batches yielded, by the element type they map: `Precinct`, `CandidateContest`, `Candidate`, … */
  mapped: Record<string, number>;
  rejected: number;
}

/** What one element maps to, before it cites the feed's provenance. */
type Mapped =
  { at: string; type: string; nodes: NodeDraft[]; edges: EdgeDoc[] } | { rejected: { at: string; reason: string } };
type Plan<T> = T | { problem: string };

/** What every step reads: the feed, its index, its state and election, its provenance. */
interface Scope {
  feed: Feed;
  index: FeedIndex;
  state: StateInfo | undefined;
  election: Plan<ElectionPlan>;
  provenance: PlainDraft<'provenance'>;
}

/**
 * `civicgraph import vip <path>`: a VIP 5.x or 6.0 feed (XML, or a zip holding one) →
 * the election; regions for its state, localities, electoral districts and precincts
 * (precincts WITHIN their locality and districts); parties; offices; contests
 * (candidate, ballot measure, retention) with IN_REGION, FOR_OFFICE and IN_ELECTION;
 * and for each candidate on a ballot a person and a candidacy with the feed's claims.
 * One item per element, in that order, so what an item points at comes first. An element
 * whose id reference names nothing (or the wrong kind of element) is a rejection naming
 * the element and the id, as is a second element reusing an id. Polling locations,
 * street segments, ballot styles and hours are not part of the graph: only counted.
 */
export async function* importVip(path: string, options: VipImportOptions = {}): AsyncGenerator<DraftItem> {
  const feed = await readFeed(path, options.entry);
  const index = new FeedIndex(feed);
  const state = feedState(index);
  const election = electionPlan(index, state);
  const provenance = vipSource(
    path,
    feed,
    index,
    'problem' in election ? undefined : election.date,
    options.provenance,
  );
  const scope: Scope = { feed, index, state, election, provenance };
  const summary: VipSummary = {
    file: feed.file,
    version: feed.version,
    elements: index.counts(),
    mapped: {},
    rejected: 0,
  };
  for (const mapped of mappedElements(scope)) yield emit(mapped, scope, summary);
  options.onSummary?.(summary);
}

function* mappedElements(scope: Scope): Generator<Mapped> {
  const { index, state, election } = scope;
  for (const d of index.duplicates)
    yield rejection(
      d.element.label,
      `id "${d.element.id}" is already used by ${d.first.label}: ids must be unique in a feed, so this element is not imported`,
    );
  if ('problem' in election) yield rejection('Election', election.problem);
  else yield mapped(election.draft.slug, 'Election', [stateOf(election.state).draft, election.draft]);

  const districts = planAll(index.ofType('ElectoralDistrict'), (fe) => districtRegion(fe, state));
  const localities = planAll(index.ofType('Locality'), (fe) => localityRegion(fe, localityState(fe, index) ?? state));
  yield* regionElements(scope, districts, localities);

  const parties = planAll(index.ofType('Party'), partyPlan);
  for (const [fe, plan] of parties) {
    if ('problem' in plan) yield rejection(fe.label, plan.problem);
    else if (plan.draft !== undefined) yield mapped(fe.label, 'Party', [plan.draft]);
  }
  const year = 'problem' in election ? undefined : election.year;
  const offices = planAll(index.ofType('Office'), (fe) =>
    officePlan(fe, { index, state, year, districts: byId(districts) }),
  );
  for (const [fe, plan] of offices) {
    yield 'problem' in plan
      ? rejection(fe.label, plan.problem)
      : mapped(
          fe.label,
          'Office',
          [plan.region.draft, plan.draft],
          [edge('SERVES_REGION', plan.draft.slug, plan.region.draft.slug)],
        );
  }
  const ctx =
    'problem' in election
      ? undefined
      : { index, election, districts: byId(districts), offices: byId(offices), parties: byId(parties) };
  for (const type of CONTEST_TYPES) for (const fe of index.ofType(type)) yield* contestElements(fe, ctx, scope);
  for (const fe of index.ofType('PartyContest'))
    yield rejection(fe.label, 'party-list contests (PartyContest) are not part of the graph');
}

function* regionElements(
  scope: Scope,
  districts: Map<FeedElement, Plan<RegionPlan>>,
  localities: Map<FeedElement, Plan<RegionPlan>>,
): Generator<Mapped> {
  for (const fe of scope.index.ofType('State')) {
    const s = stateOfElement(fe.el) ?? scope.state;
    yield s === undefined
      ? rejection(fe.label, 'names no state the importer knows (no OCD id, FIPS code or state name)')
      : mapped(fe.label, 'State', [stateOf(s).draft]);
  }
  for (const [fe, plan] of localities)
    yield 'problem' in plan ? rejection(fe.label, plan.problem) : mapped(fe.label, 'Locality', [plan.draft]);
  for (const [fe, plan] of districts)
    yield 'problem' in plan ? rejection(fe.label, plan.problem) : mapped(fe.label, 'ElectoralDistrict', [plan.draft]);
  for (const item of precinctItems(scope.index, scope.state, byId(districts), byId(localities)))
    yield 'rejected' in item ? item : { ...item, type: 'Precinct' };
}

/** A contest, then each candidate its ballot lists (a person listed twice in one contest is one candidacy). */
function* contestElements(fe: FeedElement, ctx: ContestContext | undefined, scope: Scope): Generator<Mapped> {
  if (ctx === undefined) {
    yield rejection(
      fe.label,
      `the feed's election cannot be used: ${'problem' in scope.election ? scope.election.problem : ''}`,
    );
    return;
  }
  const plan = contestPlan(fe, ctx);
  if ('problem' in plan) {
    yield rejection(fe.label, plan.problem);
    return;
  }
  yield mapped(fe.label, fe.type, [...plan.nodes, plan.draft], plan.edges);
  const seen = new Map<string, string>();
  const context = {
    index: ctx.index,
    parties: ctx.parties,
    provenance: scope.provenance.slug,
    feedKey: feedKey(scope),
  };
  for (const candidate of candidatesOf(plan, ctx.index)) {
    if (isDangling(candidate)) {
      yield rejection(fe.label, candidate.problem);
      continue;
    }
    const made = candidacyDrafts(candidate, plan, context);
    if ('problem' in made) yield rejection(candidate.label, made.problem);
    else if (seen.has(made.slug))
      yield rejection(
        candidate.label,
        `is a second candidacy ${made.slug} in ${fe.label}, after ${seen.get(made.slug)}`,
      );
    else {
      seen.set(made.slug, candidate.label);
      yield mapped(candidate.label, 'Candidate', made.nodes, made.edges);
    }
  }
}

/** The feed's key in person slugs: its Source's VipId (`51`, `04013`), else its state, else `feed`. */
function feedKey(scope: Scope): string {
  const source = scope.index.ofType('Source')[0] ?? scope.index.anonymous.find((e) => e.type === 'Source');
  const vipId = source === undefined ? undefined : text(source.el, 'VipId');
  const key = vipId
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return key || scope.state?.usps || 'feed';
}

/** A mapped element as a batch citing the feed's provenance, counted in the summary. */
function emit(item: Mapped, scope: Scope, summary: VipSummary): DraftItem {
  if ('rejected' in item) {
    summary.rejected++;
    return item;
  }
  summary.mapped[item.type] = (summary.mapped[item.type] ?? 0) + 1;
  return { at: item.at, batch: sourcedBatch([scope.provenance, ...item.nodes], item.edges, scope.provenance.slug) };
}

function localityState(fe: FeedElement, index: FeedIndex): StateInfo | undefined {
  const id = text(fe.el, 'StateId');
  if (id === undefined) return undefined;
  const found = index.resolve(fe, 'StateId', id, ['State']);
  return isDangling(found) ? undefined : stateOfElement(found.el);
}

function planAll<T>(elements: readonly FeedElement[], plan: (fe: FeedElement) => Plan<T>): Map<FeedElement, Plan<T>> {
  return new Map(elements.map((fe) => [fe, plan(fe)]));
}

function byId<T>(plans: ReadonlyMap<FeedElement, T>): Map<string, T> {
  return new Map([...plans].map(([fe, plan]) => [fe.id, plan]));
}

const mapped = (at: string, type: string, nodes: NodeDraft[], edges: EdgeDoc[] = []): Mapped => ({
  at,
  type,
  nodes,
  edges,
});
const rejection = (at: string, reason: string): Mapped => ({ rejected: { at, reason } });
