import { describe, expect, it } from 'vitest';
import { formatPoint, parseLatLng } from './point-input.js';

describe('the search box reading "lat,lng"', () => {
  it('takes a point with a comma or a space, and prints it back to four decimals', () => {
    expect(parseLatLng('39.7392,-104.9903')).toEqual({ lat: 39.7392, lng: -104.9903 });
    expect(parseLatLng(' 39.7392, -104.9903 ')).toEqual({ lat: 39.7392, lng: -104.9903 });
    expect(parseLatLng('39.7392 -104.9903')).toEqual({ lat: 39.7392, lng: -104.9903 });
    expect(formatPoint({ lat: 39.73921234, lng: -104.99 })).toBe('39.7392,-104.9900');
  });

  it('leaves anything else to the geocoder: a ZIP, a city, coordinates off the globe', () => {
    for (const text of ['80202', 'Denver, CO', '91,0', '0,181', '39.7,', '1e3,2'])
      expect(parseLatLng(text), text).toBeUndefined();
  });
});
