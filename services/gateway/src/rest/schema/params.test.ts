import { describe, expect, it } from 'vitest';
import { MAX_PARAM_LENGTH, P, readParams } from './params.js';

const specs = [
  P.lat,
  P.lng,
  P.date('Day'),
  P.state(false),
  P.level,
  P.contest(false),
  P.minConfidence,
  P.cursor,
  P.limit,
];
const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return {
      type: (err as { type: string }).type,
      field: (err as { field: string }).field,
      message: (err as Error).message,
    };
  }
  throw new Error('expected a refusal');
};

describe('readParams', () => {
  it('parses numbers, normalises enums, applies defaults and leaves absent optional ones undefined', () => {
    expect(readParams(specs, { lat: '39.7', lng: '-104.9', state: 'CO', level: 'County' })).toEqual({
      lat: 39.7,
      lng: -104.9,
      date: undefined,
      state: 'co',
      level: 'county',
      contest: undefined,
      min_confidence: 0,
      cursor: undefined,
      limit: 50,
    });
  });

  it.each([
    [{ lng: '1' }, 'lat', /required/],
    [{ lat: 'NaN', lng: '1' }, 'lat', /decimal/],
    [{ lat: '1e308', lng: '1' }, 'lat', /between/],
    [{ lat: '0x10', lng: '1' }, 'lat', /decimal/],
    [{ lat: ['1', '2'], lng: '1' }, 'lat', /once/],
    [{ lat: '1', lng: '1', date: '2026-02-30' }, 'date', /YYYY-MM-DD/],
    [{ lat: '1', lng: '1', state: 'zz' }, 'state', /one of/],
    [{ lat: '1', lng: '1', contest: 'Contest:X' }, 'contest', /match/],
    [{ lat: '1', lng: '1', limit: '2.5' }, 'limit', /whole number/],
    [{ lat: '1', lng: '1', limit: '0' }, 'limit', /between 1 and 200/],
    [{ lat: '1', lng: '1', min_confidence: '' }, 'min_confidence', /empty/],
    [{ lat: '1', lng: '1', cursor: 'x'.repeat(MAX_PARAM_LENGTH + 1) }, 'cursor', /longer/],
    [{ lat: '1', lng: '1', lon: '2' }, 'lon', /Unknown parameter "lon"/],
  ])('refuses %j naming %s', (query, field, message) => {
    const e = fieldOf(() => readParams(specs, query));
    expect(e).toMatchObject({ type: 'invalid_parameter', field });
    expect(e.message).toMatch(message);
  });

  it('refuses any cursor on a single-page endpoint, by name', () => {
    expect(fieldOf(() => readParams([P.singlePageCursor], { cursor: 'abc' }))).toMatchObject({
      field: 'cursor',
      message: expect.stringMatching(/single page/),
    });
    expect(readParams([P.singlePageCursor], {})).toEqual({ cursor: undefined });
  });

  it('reads path parameters from the path, validated the same way', () => {
    const slug = P.slug('contest', 'contest:x-2026-general');
    expect(readParams([slug], {}, { slug: 'contest:co-2026-general' })).toEqual({ slug: 'contest:co-2026-general' });
    expect(fieldOf(() => readParams([slug], {}, { slug: 'candidacy:x' }))).toMatchObject({ field: 'slug' });
  });
});
