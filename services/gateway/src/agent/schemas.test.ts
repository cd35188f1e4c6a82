import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InvalidParameterError } from '@civicgraph/kit';
import { BALLOT_ENDPOINTS } from '../rest/ballot.js';
import { CONTACT_FIELDS } from '../rest/resources/candidacy.js';
import { eitherObject, inputShape, resolvedComponent } from './schemas.js';
import { restParams, toolParams } from './tool.js';

const json = (v: unknown) => JSON.stringify(v);

describe('the agent schemas derived from REST', () => {
  it('inlines every reference of a component and leaves contact fields out unless the key has contact', () => {
    const without = resolvedComponent('Ballot', false);
    const withContact = resolvedComponent('Ballot', true);
    expect(json(without)).not.toContain('$ref');
    for (const f of CONTACT_FIELDS) {
      expect(json(without)).not.toContain(`"${f}"`);
      expect(json(withContact)).toContain(`"${f}"`);
    }
    // The candidacy inside a contest inside the ballot is the REST candidacy, provenance and all.
    expect(json(without)).toContain('"provenance"');
    expect(json(without)).toContain('"field_confidence"');
  });

  it('checks JSON types in zod and leaves value rules to REST, which names the argument', () => {
    const shape = z.object(inputShape(toolParams(BALLOT_ENDPOINTS.get)));
    expect(shape.safeParse({ lat: 'north', lng: 1 }).success).toBe(false);
    expect(shape.safeParse({ lat: 95, lng: 1 }).success).toBe(true);
    expect(z.toJSONSchema(shape).properties!['lat']).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    const refused = (() => {
      try {
        restParams(toolParams(BALLOT_ENDPOINTS.get), { lat: 95, lng: 1 });
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(InvalidParameterError);
    expect((refused as InvalidParameterError).field).toBe('lat');
  });

  it('leaves the cursor a single-page endpoint refuses out of the tool', () => {
    expect(toolParams(BALLOT_ENDPOINTS.get).map((p) => p.name)).toEqual(['lat', 'lng', 'date', 'min_confidence']);
  });

  it('joins two answers into one object schema: either one’s properties, both one’s required', () => {
    const joined = eitherObject(
      resolvedComponent('DistrictsAtPoint', false),
      resolvedComponent('DistrictsByAddress', false),
      'x',
    );
    expect(joined).toMatchObject({ type: 'object', required: ['date', 'data', 'next_cursor'] });
    expect(Object.keys((joined as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['point', 'address', 'geocode', 'ambiguous']),
    );
  });
});
