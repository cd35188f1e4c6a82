import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@civicgraph/kit';
import { fieldRules } from './field-rules.js';
import { subschemaSdl } from './subschemas/sdl.js';

describe('the subschemas and the policy', () => {
  it("gate exactly the policy's contact fields behind `contact`, on the resources that carry them", () => {
    const rules = fieldRules([subschemaSdl('geo'), subschemaSdl('graph'), subschemaSdl('results')]);
    const gated = [...rules.entitlements]
      .filter(([, e]) => e === 'contact')
      .map(([coordinate]) => coordinate)
      .sort();
    expect(gated).toEqual(
      [
        ...CONTACT_FIELDS.candidacy.map((f) => `Candidacy.${f}`),
        ...CONTACT_FIELDS.officeholder.map((f) => `Officeholder.${f}`),
      ].sort(),
    );
  });
});
