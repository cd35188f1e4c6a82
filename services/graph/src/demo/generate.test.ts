import { describe, expect, it } from 'vitest';
import type { CandidacyDraft, DraftBatch, NodeDraft } from '../domain/drafts.js';
import { TEST_DEMO_REGIONS } from '../../test/demo-regions.js';
import { generateDemo } from './generate.js';
import { parseSlug } from '../model/slugs.js';

const regions = TEST_DEMO_REGIONS;

function generate(today = '2026-11-22'): DraftBatch[] {
  return [...generateDemo({ regions, today })];
}
/** The candidacy fields the demo must fill: every field of the model. */
const CANDIDACY_FIELDS_FILLED = [
  'name',
  'person',
  'contest',
  'party',
  'isIncumbent',
  'filingStatus',
  'ballotAccess',
  'campaignWebsite',
  'campaignEmails',
  'campaignPhones',
  'campaignTeam',
];
const nodes = (batches: DraftBatch[]) => batches.flatMap((b) => b.nodes);
const ofKind = <K extends NodeDraft['kind']>(all: NodeDraft[], kind: K) =>
  all.filter((n) => n.kind === kind) as Extract<NodeDraft, { kind: K }>[];

describe('demo dataset', () => {
  it('is the same for the same seed and day', () => {
    expect(generate()).toEqual(generate());
  });

  it('gives every state past and upcoming elections, with contests at several levels', () => {
    const all = nodes(generate());
    for (const state of ['co', 'de']) {
      const dates = ofKind(all, 'election')
        .filter((e) => e.state === state)
        .map((e) => e.data.date);
      expect(dates.some((d) => d < '2026-11-22')).toBe(true);
      expect(dates.some((d) => d > '2026-11-22')).toBe(true);
      const levels = new Set(
        ofKind(all, 'contest')
          .filter((c) => c.state === state)
          .map((c) => c.data.level),
      );
      expect(levels.size).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(ofKind(all, 'contest').map((c) => c.data.level))).toEqual(
      new Set(['state', 'county', 'congressional-district', 'national']),
    );
  });

  it('fills every candidacy field, cites only synthetic provenance, and spreads filing states', () => {
    const all = nodes(generate());
    const firsts = new Map<string, CandidacyDraft>();
    for (const c of ofKind(all, 'candidacy')) if (!firsts.has(c.slug)) firsts.set(c.slug, c);
    for (const c of firsts.values()) expect(Object.keys(c.claims).sort()).toEqual([...CANDIDACY_FIELDS_FILLED].sort());
    const provenance = ofKind(all, 'provenance');
    expect(provenance.every((p) => p.data.method === 'synthetic')).toBe(true);
    const cited = new Set(ofKind(all, 'candidacy').map((c) => c.provenance));
    expect([...cited].every((s) => provenance.some((p) => p.slug === s))).toBe(true);
    expect(new Set([...firsts.values()].map((c) => c.claims.filingStatus)).size).toBeGreaterThanOrEqual(3);
    // A second source speaks about some candidacies: the confidence spread comes from it.
    expect(ofKind(all, 'candidacy').length).toBeGreaterThan(firsts.size);
  });

  it('gives past contests certified results and their offices an officeholder', () => {
    const batches = generate();
    const all = nodes(batches);
    const past = ofKind(all, 'contest').filter((c) => c.data.date < '2026-11-22');
    const results = ofKind(all, 'result');
    for (const c of past) {
      const mine = results.filter((r) => r.data.contest === c.slug);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.every((r) => r.data.certified)).toBe(true);
      expect(mine.filter((r) => r.data.winner)).toHaveLength(1);
      expect(mine.reduce((s, r) => s + (r.data.share ?? 0), 0)).toBeCloseTo(1, 6);
    }
    const holds = batches.flatMap((b) => b.edges).filter((e) => e.kind === 'HOLDS');
    expect(new Set(holds.map((h) => h.to))).toEqual(new Set(past.map((c) => c.data.office)));
  });

  it('uses only well-formed slugs and edges between drafted nodes', () => {
    const batches = generate();
    const all = nodes(batches);
    const known = new Set(all.map((n) => n.slug));
    for (const n of all) expect(parseSlug(n.slug)?.kind).toBe(n.kind);
    for (const e of batches.flatMap((b) => b.edges)) {
      expect(known.has(e.from), e.from).toBe(true);
      expect(known.has(e.to), e.to).toBe(true);
    }
  });
});
