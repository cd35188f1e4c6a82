import { makeEvent, type CivicEvent } from '@civicgraph/kit';
import type { Level, Tier } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { ChangeSet } from './graph-store.js';

/** Small builders for the conformance suite: valid documents with only what a test varies. */

const AT = '2026-01-01T00:00:00.000Z';

export function changes(parts: Partial<ChangeSet>): ChangeSet {
  return { put: [], remove: [], link: [], unlink: [], events: [], ...parts };
}

/** Creates (expectRev 0) every node given. */
export function creates(nodes: NodeDoc[], more: Partial<ChangeSet> = {}): ChangeSet {
  return changes({ put: nodes.map((node) => ({ node, expectRev: 0 })), ...more });
}

export function event(slug: string): CivicEvent {
  return makeEvent({ env: 'test', kind: 'region', verb: 'updated', slugs: [slug], version: 'v1' });
}

export function region(key: string, opts: { state?: string; level?: Level; name?: string } = {}): NodeDoc<'region'> {
  return {
    slug: `region:${key}`,
    kind: 'region',
    state: opts.state ?? key.slice(0, 2),
    tier: '',
    data: { name: opts.name ?? key, level: opts.level ?? 'state', fips: '', ocdId: '', aliases: [], population: null },
    rev: 1,
    updatedAt: AT,
  };
}

export function election(key: string, date: string, state = 'co'): NodeDoc<'election'> {
  return {
    slug: `election:${key}`,
    kind: 'election',
    state,
    tier: '',
    data: { name: key, date, type: 'general' },
    rev: 1,
    updatedAt: AT,
  };
}

export interface ContestOpts {
  region?: string;
  office?: string;
  date?: string;
  state?: string;
  tier?: Tier | '';
  level?: Level;
}

export function contest(key: string, o: ContestOpts = {}): NodeDoc<'contest'> {
  const date = o.date ?? '2026-11-03';
  return {
    slug: `contest:${key}`,
    kind: 'contest',
    state: o.state ?? 'co',
    tier: o.tier ?? 'federal',
    data: {
      name: key,
      type: 'general',
      date,
      year: Number(date.slice(0, 4)),
      level: o.level ?? 'congressional-district',
      region: o.region ?? 'region:co-cd-1',
      office: o.office ?? 'office:us-representative-co-1',
      seats: 1,
      special: false,
    },
    rev: 1,
    updatedAt: AT,
  };
}

export interface CandidacyOpts {
  contest?: string;
  person?: string;
  party?: string | null;
  confidence?: number;
  state?: string;
  tier?: Tier | '';
}

export function candidacy(key: string, o: CandidacyOpts = {}): NodeDoc<'candidacy'> {
  const claim = <V extends string | null>(value: V) => ({
    value,
    confidence: o.confidence ?? 0.5,
    claims: [{ value, provenance: 'provenance:test' }],
  });
  const party = o.party === undefined ? 'party:dem' : o.party;
  return {
    slug: `candidacy:${key}`,
    kind: 'candidacy',
    state: o.state ?? 'co',
    tier: o.tier ?? 'federal',
    data: {
      fields: {
        name: claim(key),
        person: claim(o.person ?? `person:${key}`),
        contest: claim(o.contest ?? 'contest:co-cd-1-us-representative-2026-general'),
        party: claim(party),
      },
      confidence: o.confidence ?? 0.5,
      positions: [],
    },
    rev: 1,
    updatedAt: AT,
  };
}

export function edge(kind: EdgeDoc['kind'], from: string, to: string, key = '', data: EdgeDoc['data'] = {}): EdgeDoc {
  return { kind, from, to, key, data };
}

/** Edges sorted by identity, to compare lists whose order the port leaves open. */
export function sortEdges(edges: readonly EdgeDoc[]): EdgeDoc[] {
  const id = (e: EdgeDoc) => `${e.kind}|${e.from}|${e.to}|${e.key}`;
  return [...edges].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/** `n` zero-padded, so generated slugs sort the same as their numbers. */
export const pad = (n: number): string => String(n).padStart(4, '0');
