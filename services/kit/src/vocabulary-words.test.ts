import { readFileSync } from 'node:fs';
import { NodeKind as NodeKindValue } from '@civicgraph/protos/civic/vocabulary/v1/vocabulary';
import { describe, expect, test } from 'vitest';
import { DATA_EVENT_KINDS, EVENT_KINDS, SUBSCRIBABLE_EVENT_TYPES } from './bus/catalogue.js';
import { graphqlLevel, LEVEL_WORDS, LEVELS } from './levels.js';
import {
  EDGE_KINDS,
  EVENT_KIND_WORDS,
  isEdgeKind,
  isEventKind,
  isNodeKind,
  isNodeSlug,
  NODE_KINDS,
  nodeKindValue,
  nodeKindWord,
} from './vocabulary-words.js';

// The public words (DESIGN, Graph model): what slugs, the API and webhook subscriptions spell.
const NODE_WORDS = [
  'region',
  'election',
  'contest',
  'office',
  'candidacy',
  'person',
  'party',
  'position',
  'provenance',
  'result',
];

describe('the vocabulary derived from civic.vocabulary.v1', () => {
  test('node kinds are the lowercase words slugs begin with, in proto order', () => {
    expect(NODE_KINDS).toEqual(NODE_WORDS);
    expect(NODE_KINDS.every(isNodeKind)).toBe(true);
    expect(isNodeKind('officeholder')).toBe(false);
  });

  test('edge kinds keep their upper snake words', () => {
    expect(EDGE_KINDS).toEqual([
      'IN_REGION',
      'FOR_OFFICE',
      'SERVES_REGION',
      'IN_ELECTION',
      'FOR_CONTEST',
      'OF_PERSON',
      'OF_PARTY',
      'TAKES_POSITION',
      'SUPPORTED_BY',
      'HOLDS',
      'WITHIN',
      'OVERLAPS',
      'RESULT_FOR',
    ]);
    expect(isEdgeKind('HOLDS')).toBe(true);
    expect(isEdgeKind('holds')).toBe(false);
  });

  test('a node kind turns into its proto value and back, and an unknown value is no kind', () => {
    for (const k of NODE_KINDS) expect(nodeKindWord(nodeKindValue(k))).toBe(k);
    expect(nodeKindValue('contest')).toBe(NodeKindValue.NODE_KIND_CONTEST);
    expect(nodeKindWord(NodeKindValue.NODE_KIND_UNSPECIFIED)).toBeUndefined();
    expect(nodeKindWord(NodeKindValue.UNRECOGNIZED)).toBeUndefined();
    expect(nodeKindWord(99 as NodeKindValue)).toBeUndefined();
  });

  test('event kinds are the node kinds, officeholder and key, each with its verbs', () => {
    expect(EVENT_KIND_WORDS).toEqual([...NODE_WORDS, 'officeholder', 'key']);
    expect(Object.keys(EVENT_KINDS)).toEqual(EVENT_KIND_WORDS);
    expect(EVENT_KINDS.contest).toEqual(['created', 'updated', 'deleted']);
    expect(EVENT_KINDS.officeholder).toEqual(['changed']);
    expect(EVENT_KINDS.key).toEqual(['revoked', 'rotated']);
    expect(isEventKind('officeholder') && !isEventKind('keys')).toBe(true);
    expect([...DATA_EVENT_KINDS]).toEqual([...NODE_WORDS, 'officeholder']);
  });

  test('the types a webhook may subscribe to are unchanged: specific types first, then every data kind and verb', () => {
    expect(SUBSCRIBABLE_EVENT_TYPES).toEqual([
      'candidacy.filing_status_changed',
      'results.certified',
      'election_date.changed',
      ...NODE_WORDS.flatMap((k) => [`${k}.created`, `${k}.updated`, `${k}.deleted`]),
      'officeholder.changed',
    ]);
  });

  test('isNodeSlug tells a node slug from other text, as the gateway caches need', () => {
    for (const s of ['region:co', 'contest:co-cd-8-us-representative-2026-general', 'result:9x'])
      expect(isNodeSlug(s), s).toBe(true);
    for (const s of ['officeholder:x', 'regions:co', 'region:', 'region:-co', 'region:Co', ':co', 'key_abc', 'co', ''])
      expect(isNodeSlug(s), s).toBe(false);
  });
});

describe('region levels derived from civic.geo.v1.Level', () => {
  test('the REST words are the DESIGN list, in proto order', () => {
    expect(LEVEL_WORDS).toEqual([
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
    ]);
  });

  // GraphQL SDL cannot import a proto enum, so each subschema's copy is checked against it.
  test.each(['graph', 'geo'])("the %s subschema's GraphQL Level enum lists exactly the proto levels", (schema) => {
    const sdl = readFileSync(new URL(`../../../protos/graphql/${schema}.graphql`, import.meta.url), 'utf8');
    const body = /enum Level \{([^}]*)\}/.exec(sdl)?.[1] ?? '';
    const values = body
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter((l) => /^[A-Z_]+$/.test(l));
    expect(values).toEqual(LEVELS.map(graphqlLevel));
  });
});
