import { describe, expect, test } from 'vitest';
import { describeBytes, formatsForExtension, sniffContent } from './sniff.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => new TextEncoder().encode(s);

describe('sniffContent', () => {
  test('recognises zips, including an empty one', () => {
    expect(sniffContent(bytes(0x50, 0x4b, 3, 4, 0))).toBe('zip');
    expect(sniffContent(bytes(0x50, 0x4b, 5, 6, 0))).toBe('zip');
  });

  test('recognises the shapefile code 9994 only in a full 100-byte header', () => {
    const header = new Uint8Array(100);
    new DataView(header.buffer).setInt32(0, 9994, false);
    expect(sniffContent(header)).toBe('shapefile');
    expect(sniffContent(header.subarray(0, 50))).toBe('unknown');
  });

  test('recognises JSON objects after blanks and a BOM, and nothing else', () => {
    expect(sniffContent(text('\ufeff \n {"type":"Topology"}'))).toBe('json');
    expect(sniffContent(text('[1, 2]'))).toBe('unknown');
    expect(sniffContent(new Uint8Array())).toBe('empty');
  });
});

test('describeBytes quotes text and shows binary in hex', () => {
  expect(describeBytes(text('PRECINCT,NAME'))).toBe('text beginning "PRECINCT,NAME"');
  expect(describeBytes(bytes(0xca, 0xfe, 0xba, 0xbe))).toBe(
    '4 bytes of unrecognised binary data (beginning ca fe ba be)',
  );
});

test('extensions promise formats case-insensitively, and unknown ones promise nothing', () => {
  expect(formatsForExtension('.GeoJSON')).toEqual(['geojson']);
  expect(formatsForExtension('.json')).toEqual(['geojson', 'topojson']);
  expect(formatsForExtension('.txt')).toBeUndefined();
});
